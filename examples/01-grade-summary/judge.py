# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 1: Grade Book Summary.

Usage: python judge.py --workspace WS [--stage N] [--python EXE] [--fixture-cache DIR]

Runs the candidate's commands on a clean main fixture and on the edge fixture, then prints
exactly one JSON verdict (spec section 6). The workspace is only read. With --stage N (a
1-based number or a stage id) it judges the state after stage N with the checks that apply
by then; without it, the final (scored) verdict.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the task and corpus folders

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchlib

TASK = {
    "id": 1,
    "slug": "grade-summary",
    "stages": ["initial"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.grades inputs/scores.csv --output output",
            "argv": ["python", "-m", "solution.grades", "inputs/scores.csv", "--output", "output"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 10.0,
        }
    ],
    "outputs": [
        {
            "path": "output/summary.csv",
            "format": "csv",
            "header": ["student_id", "courses", "scored", "average"],
            "stage": "initial",
        },
        {"path": "output/top.json", "format": "json", "header": [], "stage": "initial"},
    ],
    "expect": [
        {
            "name": "half-up#1",
            "file": "output/summary.csv",
            "level": 4,
            "where": {"student_id": "S11"},
            "equals": {"average": "70.3", "courses": "2", "scored": "4"},
        },
        {
            "name": "top-tie#1",
            "file": "output/top.json",
            "level": 4,
            "path": "Chemistry",
            "equals": ["S03", "S07"],
        },
        {
            "name": "zero-top#1",
            "file": "output/top.json",
            "level": 4,
            "path": "Latin",
            "equals": ["S12"],
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/summary.csv",
            "level": 4,
            "where": {"student_id": "E2"},
            "equals": {"courses": "2", "scored": "0", "average": ""},
        }
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
from decimal import ROUND_HALF_UP, Decimal


def exact_summary(run: benchlib.Run) -> dict[str, tuple[int, int, Decimal | None]]:
    """student -> (distinct courses, non-blank scores, exact mean), from the pristine input."""
    courses: dict[str, set[str]] = {}
    scores: dict[str, list[int]] = {}
    for row in run.source.csv("inputs/scores.csv"):
        courses.setdefault(row["student_id"], set()).add(row["course"])
        scores.setdefault(row["student_id"], [])
        if row["score"].strip():
            scores[row["student_id"]].append(int(row["score"]))
    return {
        s: (len(courses[s]), len(v), Decimal(sum(v)) / len(v) if v else None)
        for s, v in scores.items()
    }


def summary_rows(run: benchlib.Run) -> dict[str, dict[str, str]]:
    """The candidate's summary keyed by student."""
    return {r["student_id"]: r for r in run.csv("output/summary.csv")}


@judge.check(level=3)
def every_student_once_sorted(run: benchlib.Run) -> None:
    ids = [r["student_id"] for r in run.csv("output/summary.csv")]
    benchlib.expect_equal(ids, sorted(exact_summary(run)), "student_id column")


@judge.check(level=3)
def course_and_score_counts(run: benchlib.Run) -> None:
    rows = summary_rows(run)
    for student, (courses, scored, _) in exact_summary(run).items():
        row = rows.get(student, {})
        got = (row.get("courses"), row.get("scored"))
        benchlib.expect_equal(got, (str(courses), str(scored)), f"{student} courses/scored")


@judge.check(level=3)
def averages_roughly_right(run: benchlib.Run) -> None:
    rows = summary_rows(run)
    for student, (_, _, mean) in exact_summary(run).items():
        got = benchlib.as_decimal(rows.get(student, {}).get("average"))
        ok = mean is None or (got is not None and abs(got - mean) <= Decimal("0.05"))
        benchlib.expect(ok, f"{student} average {got} is not {mean} to one place")


@judge.check(level=4)
def averages_half_up(run: benchlib.Run) -> None:
    rows = summary_rows(run)
    for student, (_, _, mean) in exact_summary(run).items():
        want = "" if mean is None else str(mean.quantize(Decimal("0.1"), ROUND_HALF_UP))
        benchlib.expect_equal(rows.get(student, {}).get("average"), want, f"{student} average")


@judge.check(level=4)
def top_scorers(run: benchlib.Run) -> None:
    best: dict[str, tuple[int, list[str]]] = {}
    for row in run.source.csv("inputs/scores.csv"):
        if row["score"].strip():
            score, course = int(row["score"]), row["course"]
            top, holders = best.get(course, (-1, []))
            if score > top:
                best[course] = (score, [row["student_id"]])
            elif score == top and row["student_id"] not in holders:
                holders.append(row["student_id"])
    want = {course: sorted(holders) for course, (_, holders) in best.items()}
    benchlib.expect_equal(run.json("output/top.json"), want, "top.json")


@judge.edge
def scored_student_still_averaged(run: benchlib.Run) -> None:
    rows = summary_rows(run)
    benchlib.expect_equal(rows.get("E1", {}).get("average"), "90.0", "E1 average")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
