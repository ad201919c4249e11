"""Perturbing expected values: every value changes, rounds batch one value per expectation."""

from __future__ import annotations

from typing import Any

import pytest

from benchsmith.auditing import expectations
from benchsmith.runtime import benchlib


@pytest.mark.parametrize(
    ("value", "perturbed"),
    [
        ("70.3", "70.4"),
        ("2", "3"),
        ("-5.00", "-4.99"),
        ("", "~perturbed"),
        ("Refund", "Refund~perturbed"),
        (4, 5),
        (2.5, 3.5),
        (True, False),
        (["S03", "S07"], ["S03", "S07", "S07~perturbed"]),
        ({"a": 1}, {"a": 1, "~perturbed": 1}),
        (None, "~perturbed"),
    ],
)
def test_perturbed_values_differ_for_every_comparison(value: Any, perturbed: Any) -> None:
    assert expectations.perturb(value) == perturbed
    assert not benchlib._same_value(perturbed, value)
    assert not benchlib._same_value(perturbed, value, numeric=True) or not isinstance(value, str)


TASK = {
    "expect": [
        {"name": "a#1", "file": "o.csv", "where": {"k": "x"}, "equals": {"p": "1", "q": "b"}},
        {"name": "b#1", "file": "o.json", "path": "t", "equals": 3},
        {"name": "c#1", "file": "o.csv", "where": {"k": "y"}, "absent": True},
        {"name": "d#1", "file": "o.txt", "contains": ["hello", "world"], "level": 4},
    ],
    "edge_expect": [{"name": "edge#1", "file": "o.csv", "count": 2}],
}


def test_rounds_perturb_one_value_of_every_expectation() -> None:
    rounds = expectations.rounds(TASK)
    assert [[(p.name, p.field) for p in r] for r in rounds] == [
        [("a#1", "equals.p"), ("b#1", "equals"), ("d#1", "contains[0]"), ("edge#1", "count")],
        [("a#1", "equals.q"), ("d#1", "contains[1]")],
    ]
    assert rounds[0][3].fixture == "edge"
    assert expectations.unperturbable(TASK) == ["c#1"]


def test_a_round_changes_exactly_its_values() -> None:
    second = expectations.perturbed_task(TASK, expectations.rounds(TASK)[1])
    assert second["expect"][0]["equals"] == {"p": "1", "q": "b~perturbed"}
    assert second["expect"][3]["contains"] == ["hello", "world~perturbed"]
    assert second["expect"][1] == TASK["expect"][1]
    assert TASK["expect"][0]["equals"] == {"p": "1", "q": "b"}  # the original is untouched


def test_an_expectation_checked_until_an_earlier_stage_is_judged_at_that_stage() -> None:
    """A check that stops applying after stage 1 does not run in the final verdict: its
    values are perturbed in rounds of their own, judged with ``--stage 1``."""
    staged = {
        "stages": ["initial", "late", "final"],
        "expect": [
            {
                "name": "early",
                "file": "o.csv",
                "where": {"k": "x"},
                "equals": {"p": "1", "q": "2"},
                "until": "initial",
            },
            {"name": "always", "file": "o.json", "path": "t", "equals": 3},
            {"name": "mid", "file": "o.json", "path": "u", "equals": 4, "until": "late"},
            {"name": "last", "file": "o.json", "path": "v", "equals": 5, "until": "final"},
        ],
    }
    rounds = expectations.rounds(staged)
    assert [[(p.name, p.field, p.stage) for p in r] for r in rounds] == [
        [("always", "equals", None), ("last", "equals", None)],
        [("early", "equals.p", 1)],
        [("early", "equals.q", 1)],
        [("mid", "equals", 2)],
    ]


def test_the_status_of_a_response_expectation_is_perturbed() -> None:
    task = {"expect": [], "edge_expect": [{"name": "refused", "response": "bad", "status": 400}]}
    [[perturbation]] = expectations.rounds(task)
    assert (perturbation.field, perturbation.original, perturbation.perturbed) == (
        "status",
        400,
        401,
    )
    changed = expectations.perturbed_task(task, [perturbation])
    assert changed["edge_expect"][0] == {"name": "refused", "response": "bad", "status": 401}
    assert expectations.unperturbable(task) == []
