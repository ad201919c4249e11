"""Benchmark: what sealing costs a judged command, measured side by side with a plain launch.

Alternating, ``--runs`` times each, with the corpus interpreter:

* plain  -- ``benchlib.run_command`` of ``python -c pass`` (process group, capture, sweep);
* sealed -- ``benchlib.run_pod`` running the same command: bubblewrap with the minimal view,
            a fresh uid when root, limits, the non-dumpable supervisor as PID 1, the sweep;
* pod 5  -- one pod running five such commands (how a multi-command fixture amortizes it).

Prints the medians, the overhead per command (sealed - plain; pod 5 / 5 - plain) and the
ratio sealed / plain. Target: overhead <= 50 ms per command. The once-per-judge costs
(``sandbox_status`` probe, ``PodKit.prepare`` from the fixture cache) are printed apart.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib

TARGET_MS = 50.0


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit 1 when the overhead misses the target (2: no sandbox here)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="samples per setting (default 30)")
    args = parser.parse_args(argv)
    ok, why = benchlib.sandbox_status()
    if not ok:
        print(f"the sandbox cannot run here: {why}")
        return 2
    python = default_python()
    with tempfile.TemporaryDirectory(prefix="bench-sandbox-") as tmp:
        return _measure(Path(tmp), python, args.runs)


def _measure(tmp: Path, python: str, runs: int) -> int:
    kit = benchlib.PodKit.prepare(tmp / "lib", python, tmp / "cache")
    root, scratch = tmp / "fixture", tmp / "scratch"
    root.mkdir()
    command = benchlib.PodCommand((kit.interpreter.executable, "-c", "pass"))
    settings: dict[str, Callable[[], object]] = {
        "plain": lambda: benchlib.run_command(
            list(command.argv), cwd=root, timeout=60, scratch=scratch
        ),
        "sealed": lambda: benchlib.run_pod(kit, root, commands=[command], scratch=scratch),
        "pod 5": lambda: benchlib.run_pod(kit, root, commands=[command] * 5, scratch=scratch),
    }
    samples: dict[str, list[float]] = {name: [] for name in settings}
    for _ in range(runs):  # alternating, so that load on the machine hits every setting alike
        for name, action in settings.items():
            started = time.perf_counter()
            action()
            samples[name].append(time.perf_counter() - started)
    once = _once_per_judge(tmp, python)
    return _report({k: statistics.median(v) * 1000 for k, v in samples.items()}, once, python)


def _once_per_judge(tmp: Path, python: str) -> dict[str, float]:
    """Median milliseconds of what every sealed judge does once."""
    probes, kits = [], []
    for number in range(5):
        benchlib._STATUS.clear()
        started = time.perf_counter()
        benchlib.sandbox_status()
        probes.append(time.perf_counter() - started)
        started = time.perf_counter()
        benchlib.PodKit.prepare(tmp / f"lib-{number}", python, tmp / "cache")
        kits.append(time.perf_counter() - started)
    return {"probe": statistics.median(probes) * 1000, "kit": statistics.median(kits) * 1000}


def _report(ms: dict[str, float], once: dict[str, float], python: str) -> int:
    plain, sealed, five = ms["plain"], ms["sealed"], ms["pod 5"]
    overhead, amortized = sealed - plain, five / 5 - plain
    print(f"python: {python}")
    print(f"plain command          {plain:7.1f} ms (median)")
    print(f"sealed command (1/pod) {sealed:7.1f} ms (median), ratio {sealed / plain:.2f}")
    print(f"sealed, 5 per pod      {five / 5:7.1f} ms per command (median)")
    print(f"overhead per command: {overhead:.1f} ms alone, {amortized:.1f} ms in a pod of 5")
    print(f"target <= {TARGET_MS:.0f} ms: {'met' if overhead <= TARGET_MS else 'MISSED'}")
    print(f"once per judge: sandbox probe {once['probe']:.1f} ms, kit {once['kit']:.1f} ms")
    return 0 if overhead <= TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
