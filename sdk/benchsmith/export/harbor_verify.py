"""The verifier of an exported Harbor task (copied as ``tests/verify.py``; stdlib only).

``tests/test.sh`` runs ``python3 /tests/verify.py --workspace /app``. It runs the task's own
judge on the workspace and writes what Harbor reads:

- ``/logs/verifier/reward.json``: numbers only (Harbor refuses anything else): ``reward`` =
  progress level / 5, ``progress_level``, ``strict_pass``, ``main_checks_passed``,
  ``main_checks_total``, ``edge_check_passed``, ``judge_error`` and one ``check:<name>``
  (1 passed, 0 failed) per check of the verdict;
- ``/logs/verifier/reward.txt``: the reward alone;
- ``/logs/verifier/verdict.json``: the judge's verdict as printed, plus which stage was judged.

Stages. Harbor runs this once per step, with ``BENCHSMITH_STAGE`` (1-based) and
``BENCHSMITH_STAGES`` set by the step's ``[steps.verifier.env]``. The last step is judged by
the final judge (``judge.py`` without ``--stage``). An earlier step is judged as of its own
stage with ``judge.py --stage N`` once the judge accepts that option; until then the final
judge's checks stand in for it and ``verdict.json`` says so (``"judged_as": "final"``), and
the trial's reward comes from the last step only (``multi_step_reward_strategy = "final"``).

``--prewarm`` (run once while the verifier image is built) fills a fixture cache: it judges
an empty workspace with the cache on (the judge stores its main fixture the way it reads
it), then materializes the edge fixture beside it. Each verdict judges with a private,
writable copy of that cache, so the judge may add what it lacks (a fixture it stores
differently, a per-stage one) and correctness never depends on the prewarmed content.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
JUDGE_DIR = HERE / "judge" / "task"
FIXTURE_CACHE = Path("/opt/benchsmith/fixtures")
VERIFIER_DIR = Path("/logs/verifier")
STAGE_OPTION = "--stage"


def judge_accepts_stage(python: str, judge_dir: Path) -> bool:
    """Whether ``judge.py --help`` lists the per-stage option."""
    done = subprocess.run(
        [python, "judge.py", "--help"], cwd=judge_dir, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return done.returncode == 0 and STAGE_OPTION in done.stdout


def judge_argv(
    python: str, workspace: Path, cache: Path | None, stage: int, stages: int, per_stage: bool
) -> tuple[list[str], str]:
    """The judge's command line and what it judges (``"final"`` or ``"stage N"``)."""
    argv = [python, "judge.py", "--workspace", str(workspace), "--python", python]
    if cache is not None:
        argv += ["--fixture-cache", str(cache)]
    if 1 <= stage < stages and per_stage:
        return [*argv, STAGE_OPTION, str(stage)], f"stage {stage}"
    return argv, "final"


def error_verdict(note: str) -> dict[str, Any]:
    """A verdict for a judge that printed none (it counts as level 0)."""
    return {
        "status": "error",
        "progress_level": 0,
        "main_checks_passed": 0,
        "main_checks_total": 0,
        "edge_check_passed": False,
        "notes": [note[-2000:]],
        "checks": [],
    }


def parse_verdict(stdout: str, stderr: str, code: int) -> dict[str, Any]:
    """The judge's one JSON object (its last stdout line), or an error verdict."""
    lines = [line for line in stdout.splitlines() if line.strip()]
    try:
        verdict = json.loads(lines[-1]) if lines else None
    except ValueError:
        verdict = None
    if not isinstance(verdict, dict) or not isinstance(verdict.get("progress_level"), int):
        return error_verdict(f"the judge printed no verdict (exit {code}): {stderr.strip()}")
    return verdict


def rewards(verdict: dict[str, Any]) -> dict[str, float | int]:
    """The numeric reward map Harbor stores (``reward`` = level / 5)."""
    level = max(0, min(5, int(verdict.get("progress_level", 0))))
    numbers: dict[str, float | int] = {
        "reward": level / 5,
        "progress_level": level,
        "strict_pass": int(verdict.get("status") == "pass"),
        "main_checks_passed": int(verdict.get("main_checks_passed", 0)),
        "main_checks_total": int(verdict.get("main_checks_total", 0)),
        "edge_check_passed": int(bool(verdict.get("edge_check_passed"))),
        "judge_error": int(verdict.get("status") == "error"),
    }
    for check in verdict.get("checks", []):
        if isinstance(check, dict) and isinstance(check.get("name"), str):
            fixture = check.get("fixture", "main")
            key = (
                f"check:{check['name']}"
                if fixture == "main"
                else f"check:{fixture}:{check['name']}"
            )
            numbers[key] = int(bool(check.get("passed")))
    return numbers


def write_results(
    out: Path, verdict: dict[str, Any], judged_as: str, stage: int, stages: int
) -> None:
    """Write verdict.json, reward.json and reward.txt into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    numbers = rewards(verdict)
    record = {**verdict, "judged_as": judged_as, "stage": stage, "stages": stages}
    if judged_as == "final" and 1 <= stage < stages:
        record["stage_note"] = (
            "judged by the final judge: per-stage verdicts (judge.py --stage N) are not "
            "available for this task yet"
        )
    (out / "verdict.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    (out / "reward.json").write_text(json.dumps(numbers, indent=2, sort_keys=True) + "\n")
    (out / "reward.txt").write_text(f"{numbers['reward']}\n")


def judge(
    workspace: Path, cache: Path | None, stage: int, stages: int
) -> tuple[dict[str, Any], str]:
    """Run the judge on ``workspace``; return its verdict and what it judged."""
    python = sys.executable
    per_stage = 1 <= stage < stages and judge_accepts_stage(python, JUDGE_DIR)
    argv, judged_as = judge_argv(python, workspace, cache, stage, stages, per_stage)
    done = subprocess.run(
        argv, cwd=JUDGE_DIR, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
    )
    return parse_verdict(done.stdout, done.stderr, done.returncode), judged_as


@contextlib.contextmanager
def private_cache(prewarmed: Path) -> Iterator[Path]:
    """A writable copy of the prewarmed fixture cache (an empty one when there is none)."""
    with tempfile.TemporaryDirectory(prefix="benchsmith-fixtures-") as tmp:
        cache = Path(tmp) / "cache"
        if prewarmed.is_dir():
            shutil.copytree(prewarmed, cache, symlinks=True)
        try:
            yield cache
        finally:
            for folder, dirs, _ in os.walk(cache):  # fixtures keep read-only folders
                for name in dirs:
                    with contextlib.suppress(OSError):
                        Path(folder, name).chmod(0o755)


def warm_edge(cache: Path) -> None:
    """Materialize the edge fixture into ``cache/edge`` (an empty workspace never reaches it)."""
    sys.path.insert(0, str(JUDGE_DIR.parent))
    sys.dont_write_bytecode = True
    import benchlib  # type: ignore[import-not-found]

    spec = importlib.util.spec_from_file_location("benchsmith_task_judge", JUDGE_DIR / "judge.py")
    if spec is None or spec.loader is None:
        raise RuntimeError("judge.py cannot be imported")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    layout = benchlib.Layout.from_task(JUDGE_DIR, module.TASK)
    if not (cache / "edge").exists():
        benchlib.materialize(layout, cache / "edge", fixture="edge", python=sys.executable)


def prewarm(cache: Path) -> int:
    """Fill ``cache`` with the judge's main and edge fixtures (best effort)."""
    with tempfile.TemporaryDirectory(prefix="benchsmith-empty-") as empty:
        verdict, _ = judge(Path(empty), cache, 0, 1)
    if verdict.get("status") == "error":
        print(f"prewarm: the judge failed: {verdict.get('notes')}", file=sys.stderr)
        return 1
    try:
        warm_edge(cache)
    except Exception as exc:  # best effort: a verdict materializes what the cache lacks
        print(f"prewarm: edge fixture not cached: {exc}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command line: judge ``--workspace`` and write the reward files (always exit 0)."""
    parser = argparse.ArgumentParser(description="Judge a Harbor workspace with the task's judge.")
    parser.add_argument("--workspace", type=Path, default=Path("/app"))
    parser.add_argument("--out", type=Path, default=VERIFIER_DIR)
    parser.add_argument("--fixture-cache", type=Path, default=FIXTURE_CACHE)
    parser.add_argument("--prewarm", action="store_true", help="fill the fixture cache and exit")
    args = parser.parse_args(argv)
    if args.prewarm:
        return prewarm(args.fixture_cache)
    stage = int(os.environ.get("BENCHSMITH_STAGE", "0") or 0)
    stages = int(os.environ.get("BENCHSMITH_STAGES", "1") or 1)
    try:
        with private_cache(args.fixture_cache) as cache:
            verdict, judged_as = judge(args.workspace, cache, stage, stages)
    except (OSError, subprocess.SubprocessError) as exc:
        verdict, judged_as = error_verdict(f"could not run the judge: {exc}"), "final"
    write_results(args.out, verdict, judged_as, stage, stages)
    print(json.dumps(rewards(verdict), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
