"""The whole battery over both example tasks: every control meets its expectation."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from benchsmith import resources
from benchsmith.checking.controls import CONTROLS
from tests.check.conftest import TASKS

pytestmark = pytest.mark.slow


def _task(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(t for t in report["tasks"] if t["task"].endswith(name))


def _control(report: dict[str, Any], name: str, control: str) -> dict[str, Any]:
    return next(c for c in _task(report, name)["controls"] if c["control"] == control)


def test_check_exits_zero_when_every_expectation_is_met(full_run: dict[str, Any]) -> None:
    assert full_run["exit_code"] == 0, full_run["report"]
    assert full_run["report"]["ok"] is True
    assert full_run["report"]["failed"] == 0


@pytest.mark.parametrize("control", list(CONTROLS))
@pytest.mark.parametrize("task", TASKS)
def test_control_meets_its_expectation(full_run: dict[str, Any], task: str, control: str) -> None:
    result = _control(full_run["report"], task, control)
    assert result["passed"], f"{task} {control}: {result['reason']}"
    assert result["reason"] == ""


@pytest.mark.parametrize("task", TASKS)
def test_all_six_levels_are_demonstrated(full_run: dict[str, Any], task: str) -> None:
    report = full_run["report"]
    levels = {
        control: _control(report, task, control)["observed"]
        for control in ("empty", "nop", "null", "facade", "reference")
    }
    levels |= {
        f"witness-level{n}": _control(report, task, f"witness-level{n}")["observed"] for n in (3, 4)
    }
    assert levels == {
        "empty": "0",
        "nop": "0",
        "null": "1",
        "facade": "2",
        "reference": "5 5 5",
        "witness-level3": "3",
        "witness-level4": "4",
    }


@pytest.mark.parametrize("task", TASKS)
def test_hostile_candidates_stay_low(full_run: dict[str, Any], task: str) -> None:
    report = full_run["report"]
    for control in [c for c in CONTROLS if c.startswith("hostile-")]:
        level = _control(report, task, control)["level"]
        ceiling = 2 if control == "hostile-flood" else 1
        assert level is not None and level <= ceiling, (control, level)


def test_infinite_loop_is_cut_at_the_scaled_timeout(full_run: dict[str, Any]) -> None:
    for task in TASKS:
        loop = _control(full_run["report"], task, "hostile-loop")
        assert 2 <= loop["seconds"] < 10  # 10 s command timeouts, scaled to 2 s
        assert any("timed out" in note for note in loop["notes"])


def test_json_report_follows_its_schema(full_run: dict[str, Any]) -> None:
    schema = resources.schema("check-report")
    errors = list(Draft202012Validator(schema).iter_errors(full_run["report"]))
    assert errors == []
    assert full_run["report"]["controls"] == list(CONTROLS)


class _Collector(HTMLParser):
    """Gathers the page's text, the matrix cells' classes, and checks tags balance."""

    VOID = frozenset({"meta", "br", "link"})

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.cells: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.stack.append(tag)
        if tag == "td":
            self.cells.append(dict(attrs).get("class") or "")

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (self.stack[-3:], tag)
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_report_parses_and_shows_every_task_and_control(full_run: dict[str, Any]) -> None:
    page = _Collector()
    page.feed(full_run["html"])
    page.close()
    assert page.stack == []
    text = " ".join(page.text)
    for task in TASKS:
        assert task in text
    for control in CONTROLS:
        assert control in text
    assert page.cells == ["ok"] * (len(TASKS) * len(CONTROLS))
    assert "<script" not in full_run["html"]
