"""The spam and self-report controls: a weak judge is caught, the examples' judges are not."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from benchsmith.checking import selfreport
from benchsmith.checking.battery import CheckOptions, check_tasks
from benchsmith.checking.results import ControlResult
from tests.check.conftest import CopyExample

WEAK_CHECKS = """
@judge.check(level=3)
def every_student_listed(run: benchlib.Run) -> None:
    listed = {r["student_id"] for r in run.csv("output/summary.csv")}
    students = {r["student_id"] for r in run.source.csv("inputs/scores.csv")}
    benchlib.expect(students <= listed, "a student is missing")


@judge.check(level=4)
def top_json_is_an_object(run: benchlib.Run) -> None:
    benchlib.expect(isinstance(run.json("output/top.json"), dict), "top.json is not an object")


@judge.edge
def edge_student_listed(run: benchlib.Run) -> None:
    benchlib.expect(len(run.csv("output/summary.csv")) >= 2, "edge students missing")


"""


def _weaken(task: Path, *, drop_anchors: bool) -> None:
    """Replace the authored checks by weak ones; optionally drop the anchors' expectations."""
    judge = task / "judge.py"
    text = judge.read_text("utf-8")
    start = text.index("# region authored")
    start = text.index("\n", start) + 1
    end = text.index("# endregion authored")
    text = text[:start] + WEAK_CHECKS + text[end:]
    if drop_anchors:
        node = next(
            n
            for n in ast.parse(text).body
            if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "TASK"
        )
        data = ast.literal_eval(node.value) | {"expect": [], "edge_expect": []}
        lines = text.splitlines(keepends=True)
        assert node.end_lineno is not None
        text = "".join([*lines[: node.lineno - 1], f"TASK = {data!r}\n", *lines[node.end_lineno :]])
    judge.write_text(text, "utf-8")


def _control(task: Path, python: str, name: str) -> ControlResult:
    report = check_tasks([task], CheckOptions(python=python, controls=(name,)))
    result = report.tasks[0].result(name)
    assert result is not None, report.tasks[0].error
    return result


def test_spam_scores_at_most_2_under_the_example_judge(example: CopyExample, python: str) -> None:
    result = _control(example("01-grade-summary"), python, "spam")
    assert result.passed and result.level == 2, result.reason


def test_spam_fails_a_judge_that_only_looks_for_every_key(
    example: CopyExample, python: str
) -> None:
    task = example("01-grade-summary")
    _weaken(task, drop_anchors=False)
    result = _control(task, python, "spam")
    assert not result.passed
    assert result.reason.startswith("level 3, expected ≤ 2")


def test_self_report_fails_a_judge_that_trusts_summaries(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    _weaken(task, drop_anchors=True)
    result = _control(task, python, "self-report")
    assert not result.passed
    assert result.reason.startswith("level 5, expected ≤ 3")
    assert result.notes[0] == "corrupted: output/summary.csv"


@pytest.mark.parametrize("name", ["01-grade-summary", "02-pantry-ledger"])
def test_self_report_stays_low_under_the_example_judges(
    example: CopyExample, python: str, name: str
) -> None:
    result = _control(example(name), python, "self-report")
    assert result.passed and result.level is not None and result.level <= 3, result.reason


def test_rows_shift_down_keeping_their_first_cell() -> None:
    rows = [["a", 1, "x"], ["b", 2, "y"], ["c", 3, "z"]]
    assert selfreport.shift_rows(rows) == [["a", 3, "z"], ["b", 1, "x"], ["c", 2, "y"]]
    assert selfreport.shift_rows([["a", 1]]) == [["a", 1]]


def test_csv_details_are_corrupted_but_column_totals_kept() -> None:
    data = b"id,qty\r\nA,1\r\nB,2\r\nC,4\r\n"
    assert selfreport.corrupt_csv(data) == b"id,qty\r\nA,4\r\nB,1\r\nC,2\r\n"
    assert selfreport.corrupt_csv(b"id,qty\nA,1\n") is None  # one row: nothing to shift


def test_json_summaries_are_kept_and_record_arrays_shifted() -> None:
    document = {
        "total": 7,
        "rows": [{"id": "A", "qty": 1}, {"id": "B", "qty": 2}, {"id": "C", "qty": 4}],
    }
    lie = json.loads(selfreport.corrupt_json(json.dumps(document).encode()) or b"null")
    assert lie == {
        "total": 7,
        "rows": [{"id": "A", "qty": 4}, {"id": "B", "qty": 1}, {"id": "C", "qty": 2}],
    }
    assert selfreport.corrupt_json(b'{"Chemistry": ["S03", "S07"]}') is None
