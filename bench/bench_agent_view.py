"""Benchmark: the cost of starting an agent in the allowlisted view (issue 26), side by side.

Alternating, ``--runs`` times each, ``python -c pass`` with the corpus interpreter, started
through ``benchlib.sealed_popen`` the way an agent action starts:

* denylist  -- the former agent view: the host's ``/`` read-only, the checkout, its corpus
               and root's home covered by empty tmpfs mounts, the workspace bound;
* allowlist -- today's :func:`benchsmith.runtime.run.agent_seal` view: the system folders,
               ``/opt``, the interpreter's installation and the workspace, nothing else.

Prints the medians, the difference (allowlist - denylist) and the ratio. Target: the
allowlist costs at most 100 ms more per action.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib
from benchsmith.runtime.run import AGENT_DIRS, AGENT_LIMITS

REPO = Path(__file__).resolve().parent.parent
TARGET_MS = 100.0


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit 1 when the difference misses the target (2: no sandbox)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="samples per setting (default 20)")
    args = parser.parse_args(argv)
    ok, why = benchlib.sandbox_status()
    if not ok:
        print(f"the sandbox cannot run here: {why}")
        return 2
    python = benchlib.interpreter(default_python())
    with tempfile.TemporaryDirectory(prefix="bench-agent-view-") as tmp:
        workspace = Path(tmp) / "workspace"
        workspace.mkdir()
        env = benchlib.sandbox_env()
        hidden = [str(REPO), str(REPO / "tasks"), str(Path.home())]
        views = {
            "denylist": benchlib.Seal(
                binds=(benchlib.Bind(workspace), *python.binds()),
                view="system",
                hidden=tuple(h for h in hidden if Path(h).is_dir()),
                limits=AGENT_LIMITS,
                env=env,
                cwd=str(workspace),
            ),
            "allowlist": benchlib.Seal(
                binds=(
                    *(benchlib.Bind(Path(d)) for d in AGENT_DIRS if Path(d).is_dir()),
                    *python.binds(),
                    benchlib.Bind(workspace),
                ),
                view="minimal",
                limits=AGENT_LIMITS,
                env=env,
                cwd=str(workspace),
            ),
        }
        samples: dict[str, list[float]] = {name: [] for name in views}
        for _ in range(args.runs):  # alternating: load on the machine hits both alike
            for name, seal in views.items():
                started = time.perf_counter()
                argv = [python.executable, "-c", "pass"]
                with benchlib.sealed_popen(seal, argv, stdout=subprocess.DEVNULL) as process:
                    if process.wait() != 0:
                        raise SystemExit(f"{name}: the sealed command failed")
                samples[name].append(time.perf_counter() - started)
    ms = {name: statistics.median(values) * 1000 for name, values in samples.items()}
    before, after = ms["denylist"], ms["allowlist"]
    print(f"python: {python.executable}")
    print(f"denylist view  {before:7.1f} ms (median of {args.runs})")
    print(f"allowlist view {after:7.1f} ms (median of {args.runs}), ratio {after / before:.2f}")
    print(f"difference {after - before:+.1f} ms; target <= +{TARGET_MS:.0f} ms: "
          f"{'met' if after - before <= TARGET_MS else 'MISSED'}")  # fmt: skip
    return 0 if after - before <= TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
