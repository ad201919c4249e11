"""Deliberately broken judges make check fail, naming the control and the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchsmith.checking.battery import CheckOptions, check_tasks
from benchsmith.checking.results import TaskReport
from tests.check.conftest import CopyExample, invoke

MAIN_BLOCK = 'if __name__ == "__main__":\n    sys.exit(judge.main())\n'
SOUND_PASS = (
    '{"status": "pass", "progress_level": 5, "main_checks_passed": 7, '
    '"main_checks_total": 7, "edge_check_passed": true, "notes": []}'
)


def _break(task: Path, main: str) -> None:
    judge = task / "judge.py"
    text = judge.read_text(encoding="utf-8")
    assert MAIN_BLOCK in text
    judge.write_text(
        text.replace(MAIN_BLOCK, 'if __name__ == "__main__":\n' + main), encoding="utf-8"
    )


def _check(task: Path, python: str, *controls: str) -> TaskReport:
    report = check_tasks([task], CheckOptions(python=python, controls=controls))
    assert not report.ok
    return report.tasks[0]


def _reason(task: TaskReport, control: str) -> str:
    result = task.result(control)
    assert result is not None
    assert not result.passed
    return result.reason


def test_a_judge_that_always_says_level_5_fails_the_floor_controls(
    example: CopyExample, python: str
) -> None:
    task = example("01-grade-summary")
    _break(task, f"    print({SOUND_PASS!r})\n")
    report = _check(task, python, "empty", "null", "hostile-crash", "reference")
    assert _reason(report, "empty") == "level 5, expected 0"
    assert _reason(report, "null") == "level 5, expected ≤ 1"
    assert _reason(report, "hostile-crash") == "level 5, expected ≤ 1"
    reference = report.result("reference")
    assert reference is not None and reference.passed  # it is right about the reference only


def test_a_crashing_judge_fails_every_control_with_its_error(
    example: CopyExample, python: str
) -> None:
    task = example("01-grade-summary")
    _break(task, '    raise RuntimeError("the judge exploded")\n')
    report = _check(task, python, "empty", "reference")
    for control in ("empty", "reference"):
        reason = _reason(report, control)
        assert "the judge printed nothing on stdout (exit status 1)" in reason
        assert "RuntimeError: the judge exploded" in reason


def test_a_judge_printing_two_objects_fails(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    _break(task, "    judge.main()\n    sys.exit(judge.main())\n")
    report = _check(task, python, "empty")
    assert _reason(report, "empty") == (
        "the judge printed 2 JSON values; exactly one object is required (exit status 0)"
    )


def test_level_5_with_a_failed_edge_breaks_the_contract(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    lying = SOUND_PASS.replace('"edge_check_passed": true', '"edge_check_passed": false')
    _break(task, f"    print({lying!r})\n")
    report = _check(task, python, "reference")
    reason = _reason(report, "reference")
    assert (
        "contract: level 5 iff all main and edge pass (level 5, 7/7 main checks, edge failed)"
        in reason
    )
    assert "contract: level 4 iff all main checks pass and the edge fails" in reason


def test_a_judge_that_writes_into_the_workspace_fails(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    _break(
        task,
        "    ws = Path(sys.argv[sys.argv.index('--workspace') + 1])\n"
        "    (ws / 'output').mkdir(exist_ok=True)\n"
        "    (ws / 'output' / 'trace.txt').write_text('judged')\n"
        "    sys.exit(judge.main())\n",
    )
    report = _check(task, python, "empty", "nop")
    assert (
        _reason(report, "nop")
        == "the judge changed the workspace (output/trace.txt: only in the second tree)"
    )


@pytest.mark.slow
def test_the_cli_exits_1_and_names_the_failed_control(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    _break(task, f"    print({SOUND_PASS!r})\n")
    result = invoke("check", task, "--control", "empty", "--control", "nop", "--python", python)
    assert result.exit_code == 1
    assert f"{task.name}: empty: level 5, expected 0" in result.stdout.replace(str(task), task.name)
    assert "2 task(s)" not in result.stdout
    assert "1 task(s), 2 control(s): 2 failed" in result.stdout


def test_a_verdict_that_depends_on_the_environment_is_caught(
    example: CopyExample, python: str
) -> None:
    task = example("01-grade-summary")
    with_tz = SOUND_PASS.replace('"notes": []', '"notes": ["TZ=%s"]')
    _break(task, f"    import os\n    print({with_tz!r} % os.environ['TZ'])\n")
    reason = _reason(_check(task, python, "reference"), "reference")
    assert "run 2 (TZ=Pacific/Kiritimati LC_ALL=C.UTF-8 PYTHONHASHSEED=4242 umask 077" in reason
    assert "gave a different verdict than run 1 at 'notes'" in reason


def test_a_task_whose_seed_fails_reports_a_set_up_error(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    seed = task / "seed.py"
    seed.write_text(
        seed.read_text("utf-8").replace(
            "import benchlib\n", "import benchlib\nraise SystemExit('no seed today')\n"
        ),
        "utf-8",
    )
    report = check_tasks([task], CheckOptions(python=python, controls=("empty",)))
    [result] = report.tasks
    assert not report.ok and result.controls == ()
    assert result.error.startswith("set-up failed: RuntimeError: seed.py failed (1): no seed today")


def test_a_reference_that_depends_on_the_time_zone_names_the_runs(
    example: CopyExample, python: str
) -> None:
    task = example("01-grade-summary")
    solution = task / "reference" / "solution" / "grades.py"
    solution.write_text(
        solution.read_text("utf-8").replace(
            "def main() -> None:\n",
            "def main() -> None:\n    import os\n    assert os.environ['TZ'] == 'UTC'\n",
        ),
        "utf-8",
    )
    reference = check_tasks([task], CheckOptions(python=python, controls=("reference",)))
    result = reference.tasks[0].result("reference")
    assert result is not None and not result.passed
    assert result.observed == "5 1 1"
    assert result.reason.startswith(
        "run 2 (TZ=Pacific/Kiritimati LC_ALL=C.UTF-8 PYTHONHASHSEED=4242 umask 077 "
        "path 'ws ü 空 3'); run 3 (TZ=Pacific/Kiritimati LC_ALL=C PYTHONHASHSEED=987654 "
        "umask 077 path 'work space é 2'): level 1, expected 5"
    )


def test_a_failing_reference_names_each_failing_check_once(
    example: CopyExample, python: str
) -> None:
    """Three runs of a reference that fails the same checks: each note is said once."""
    task = example("01-grade-summary")
    solution = task / "reference" / "solution" / "grades.py"
    text = solution.read_text("utf-8")
    solution.write_text(text.replace("ROUND_HALF_UP", "ROUND_HALF_EVEN"), "utf-8")
    reference = check_tasks([task], CheckOptions(python=python, controls=("reference",)))
    result = reference.tasks[0].result("reference")
    assert result is not None and not result.passed
    assert result.reason == "all 3 runs: level 3, expected 5"
    assert len(result.notes) == len(set(result.notes)) == 2, result.notes
    assert all("expected '70.3', got '70.2'" in note for note in result.notes)
