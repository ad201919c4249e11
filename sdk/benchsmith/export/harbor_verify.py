"""The verifier of an exported Harbor task (copied as ``tests/verify.py``; stdlib only).

``tests/test.sh`` runs ``python3 /tests/verify.py --workspace /app``. It runs the task's own
judge -- scenario.json's ``judge_command``, from ``tests/judge/task/`` -- on the workspace,
holds its verdict to the one judge contract every benchsmith reader applies (benchlib's,
shipped as ``tests/judge/benchlib.py``: a debug line before the verdict, a level its checks
do not support, a verdict of the wrong stage are a judge error, level 0) and writes what
Harbor reads:

- ``/logs/verifier/reward.json``: numbers only (Harbor refuses anything else): ``reward`` =
  progress level / 5, ``progress_level``, ``strict_pass``, ``main_checks_passed``,
  ``main_checks_total``, ``edge_check_passed``, ``judge_error`` and one ``check:<name>``
  (1 passed, 0 failed) per check of the verdict;
- ``/logs/verifier/reward.txt``: the reward alone;
- ``/logs/verifier/verdict.json``: the judge's verdict as printed (a refused one: the
  problems as notes), plus which stage was judged.

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
JUDGE_TIMEOUT = 3600.0


def runtime() -> Any:
    """The judge's runtime: ``benchlib.py``, shipped beside the judge's task folder."""
    if str(JUDGE_DIR.parent) not in sys.path:
        sys.dont_write_bytecode = True
        sys.path.insert(0, str(JUDGE_DIR.parent))
    import benchlib  # type: ignore[import-not-found]

    return benchlib


def judge_command(judge_dir: Path) -> list[str]:
    """scenario.json's ``judge_command`` (the task's own way to run its judge).

    Raises:
        ValueError: When scenario.json is unreadable or gives no list of strings.
    """
    scenario = json.loads((judge_dir / "scenario.json").read_text(encoding="utf-8"))
    command = scenario.get("judge_command") if isinstance(scenario, dict) else None
    if not isinstance(command, list) or not command or not all(isinstance(a, str) for a in command):
        raise ValueError("scenario.json gives no judge_command")
    return command


def judge_argv(
    python: str,
    command: list[str],
    workspace: Path,
    cache: Path | None,
    stage: int,
    stages: int,
    per_stage: bool,
) -> tuple[list[str], int | None]:
    """The judge's command line and the stage it judges (``None``: the final verdict)."""
    benchlib = runtime()
    options = [] if cache is None else ["--fixture-cache", str(cache)]
    judged = stage if 1 <= stage < stages and per_stage else None
    if judged is not None:
        options += [benchlib.STAGE_OPTION, str(judged)]
    return benchlib.judge_argv(command, workspace, python, options), judged


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
    """Run the judge on ``workspace``; return its verdict and what it judged.

    The verdict is held by the one judge contract every benchsmith reader applies
    (:func:`benchlib.judge_once`): a verdict that breaks it is an ``error`` verdict, level 0.
    """
    python, benchlib = sys.executable, runtime()
    try:
        command = judge_command(JUDGE_DIR)
    except (OSError, ValueError) as exc:
        return benchlib.refused_verdict(
            f"could not read the judge command: {exc}"
        ).to_dict(), "final"
    per_stage = 1 <= stage < stages and benchlib.judge_accepts_stage(command, JUDGE_DIR, python)
    argv, judged = judge_argv(python, command, workspace, cache, stage, stages, per_stage)
    verdict = benchlib.judge_once(
        argv, cwd=JUDGE_DIR, timeout=JUDGE_TIMEOUT, stage=judged, sealed=False
    )
    return verdict.to_dict(), "final" if judged is None else f"stage {judged}"


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
    benchlib = runtime()
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
        verdict = runtime().refused_verdict(f"could not run the judge: {exc}").to_dict()
        judged_as = "final"
    write_results(args.out, verdict, judged_as, stage, stages)
    print(json.dumps(rewards(verdict), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
