"""Reading a judge's stdout and holding its verdict to the schema and the invariants."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchsmith.check.verdicts import parse_verdict, verdict_problems
from benchsmith.runtime import benchlib


def verdict(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "status": "fail",
        "progress_level": 3,
        "main_checks_passed": 2,
        "main_checks_total": 4,
        "edge_check_passed": False,
        "notes": ["main: rule: expected 1, got 2"],
    }
    return base | changes


@pytest.mark.parametrize(
    ("stdout", "problem"),
    [
        ("", "the judge printed nothing on stdout"),
        ("  \n", "the judge printed nothing on stdout"),
        ("{} {}", "the judge printed 2 JSON values; exactly one object is required"),
        ('{"a": 1}\n{"b": 2}\n', "the judge printed 2 JSON values; exactly one object is required"),
        ("[1, 2]", "the judge printed a JSON list, not an object"),
        (
            "Traceback (most recent call last)",
            "the judge's stdout holds text that is not JSON: 'Traceback (most recent call last)'",
        ),
        ('{"a": 1} trailing', "the judge's stdout holds text that is not JSON: 'trailing'"),
    ],
)
def test_stdout_that_is_not_one_object_is_explained(stdout: str, problem: str) -> None:
    assert parse_verdict(stdout) == (None, problem)


def test_one_object_is_returned() -> None:
    assert parse_verdict(json.dumps(verdict()) + "\n") == (verdict(), "")


def test_a_sound_verdict_has_no_problem() -> None:
    assert verdict_problems(verdict()) == []


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"status": "pass"}, "contract: status 'pass' at level 3"),
        ({"main_checks_passed": 5}, "contract: main_checks_passed 5 exceeds main_checks_total 4"),
        (
            {"main_checks_total": 0, "main_checks_passed": 0, "progress_level": 2},
            "contract: main_checks_total is 0: a judge needs at least one main check",
        ),
        (
            {"progress_level": 4},
            "contract: level 4 iff all main checks pass and the edge fails "
            "(level 4, 2/4 main checks, edge failed)",
        ),
        (
            {"progress_level": 3, "main_checks_passed": 0},
            "contract: level 3 with no passed main check (nothing verified)",
        ),
        ({"progress_level": 1}, "contract: 2 main check(s) passed below level 2"),
    ],
)
def test_each_invariant_is_enforced(changes: dict[str, Any], problem: str) -> None:
    assert problem in verdict_problems(verdict(**changes))


def test_level_5_needs_the_edge() -> None:
    problems = verdict_problems(
        verdict(status="pass", progress_level=5, main_checks_passed=4, edge_check_passed=False)
    )
    assert (
        "contract: level 5 iff all main and edge pass (level 5, 4/4 main checks, edge failed)"
        in problems
    )


def test_schema_problems_come_first_and_alone() -> None:
    broken = verdict(progress_level=7, extra=True)
    del broken["notes"]
    problems = verdict_problems(broken)
    assert all(p.startswith("schema: ") for p in problems)
    assert len(problems) == 3


def test_an_error_verdict_is_a_failure_with_its_note() -> None:
    error = benchlib.error_verdict("judge error: OSError: disk full")
    assert verdict_problems(error) == [
        "the judge reported an error: judge error: OSError: disk full"
    ]


def test_check_details_must_agree_with_the_counts() -> None:
    checks = [
        {"name": "a", "level": 3, "fixture": "main", "passed": True, "note": ""},
        {"name": "b", "level": 4, "fixture": "main", "passed": True, "note": ""},
    ]
    problems = verdict_problems(verdict(checks=checks))
    assert "contract: 2 main checks ran, main_checks_total says 4" in problems
    assert "contract: the passed main checks disagree with main_checks_passed" not in problems


outcomes = st.lists(
    st.tuples(st.sampled_from([3, 4]), st.booleans()), min_size=1, max_size=8
).filter(lambda main: any(level == 3 for level, _ in main))


@given(main=outcomes, started=st.booleans(), completed=st.booleans(), edge=st.booleans())
def test_every_runtime_verdict_satisfies_the_checker(
    main: list[tuple[int, bool]], started: bool, completed: bool, edge: bool
) -> None:
    completed = completed and started
    made = benchlib.make_verdict(
        started=started,
        completed=completed,
        main=main if completed else [],
        main_total=len(main),
        edge_passed=edge and completed,
        notes=[],
    )
    assert verdict_problems(made) == []
