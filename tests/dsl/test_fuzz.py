"""Fuzzing task.toml and scenario.json: never an exception, every finding located (line >= 1).

Documents are mutated real ones (characters deleted, inserted, lines repeated or cut) and
well-formed TOML of random shapes under the DSL's own keys, so both the parser's and the
schema's and cross-reference checks' error paths are exercised. The library is called in
process (loading, then the pure render plan of whatever loads), so thousands of documents
take seconds.

A normal run checks 1,200 documents; ``HYPOTHESIS_PROFILE=thorough`` checks ten times as
many (12,000).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchsmith.diagnostics import Severity
from benchsmith.dsl.load import read_task_text
from benchsmith.generate.plan import plan_task
from benchsmith.linting.corpus_rules import scenario_diagnostics
from tests.conftest import EXAMPLES, MINIMAL_TASK

SCALE = 10 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 1
SOURCE = Path("/nonexistent/corpus/07-tiny-task/task.toml")
SEEDS = [
    MINIMAL_TASK,
    (EXAMPLES / "01-grade-summary" / "task.toml").read_text(encoding="utf-8"),
    (EXAMPLES / "02-pantry-ledger" / "task.toml").read_text(encoding="utf-8"),
]
SCENARIO = (EXAMPLES / "01-grade-summary" / "scenario.json").read_bytes()
KEYS = [
    "id", "slug", "title", "pressure", "command", "commands", "outputs", "prose", "files",
    "anchors", "stages", "edge", "rows", "columns", "records", "record", "path", "expect",
    "where", "equals", "seq", "int", "decimal", "date", "choice", "weights", "rule", "run",
    "header", "timeout", "at", "name", "file", "stage", "until", "message", "lint", "ignore",
    "judge",
]  # fmt: skip
NOISE = st.just("9" * 4400) | st.sampled_from(
    ['"', "'", "[", "]", "{", "}", "=", ",", ".", "\n", "#", "\\", '"""', "[[", "]]", " ",
     "1e9", "-", "\x00", "é", "\u2028", "\ud7ff", "999999999999999999999", "inf", "nan"]
)  # fmt: skip


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str]) -> str:
    """A real document with a few random edits."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["delete", "insert", "repeat", "cut"]))
        if edit == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif edit == "insert":
            text = text[:at] + draw(NOISE | st.text(max_size=8)) + text[at:]
        elif edit == "repeat":
            line = text[text.rfind("\n", 0, at) + 1 : text.find("\n", at) + 1 or len(text)]
            text = text[:at] + line + text[at:]
        else:
            text = text[:at]
    return text


TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)  # TOML: no surrogates


def scalars() -> st.SearchStrategy[Any]:
    return (
        st.integers(-(2**70), 2**70)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.booleans()
        | TEXT
        | st.sampled_from(["N", "M", "inputs/a.csv", "output/x.csv", "T{:05d}", "2025-01-01"])
    )


def values() -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars(),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=4)
        ),
        max_leaves=25,
    )


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return (
        "{ "
        + ", ".join(
            f"{json.dumps(k, ensure_ascii=False)} = {toml_value(v)}" for k, v in value.items()
        )
        + " }"
    )


@st.composite
def shaped(draw: st.DrawFn) -> str:
    """Well-formed TOML under the DSL's keys, with values of random shapes."""
    base = {"id": 7, "slug": "tiny-task", "title": "T", "pressure": "N", "prose": "x"}
    base["command"] = "python -m solution.main"
    document = {**base, **draw(st.dictionaries(st.sampled_from(KEYS), values(), max_size=6))}
    return "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in document.items())


def assert_located(found: list[Any], text: str) -> None:
    lines = text.count("\n") + 2
    for finding in found:
        assert 1 <= finding.line <= lines, finding
        assert finding.col >= 1, finding


def load_and_plan(text: str) -> None:
    spec, found = read_task_text(text, SOURCE)
    assert_located(found, text)
    if spec is None:
        assert any(d.severity is Severity.ERROR for d in found)
    else:
        plan_task(spec, None)  # whatever loads also renders


@fuzz(500)
@given(mutated(SEEDS))
def test_mutated_task_toml(text: str) -> None:
    load_and_plan(text)


@fuzz(300)
@given(shaped())
def test_task_toml_of_random_shapes(text: str) -> None:
    load_and_plan(text)


@fuzz(250)
@given(
    mutated([SCENARIO.decode()]).map(str.encode)
    | st.binary(max_size=200)
    | values().map(lambda v: json.dumps(v).encode())
)
def test_scenario_json(data: bytes) -> None:
    found = scenario_diagnostics(data, "scenario.json")
    assert_located(found, data.decode("utf-8", errors="replace"))


@fuzz(150)
@given(st.integers(1, 3000), st.sampled_from(["[", "{a=", '{"a":']))
def test_deep_documents(depth: int, opener: str) -> None:
    closer = {"[": "]", "{a=": "}", '{"a":': "}"}[opener]
    text = "x = " + opener * depth + "1" + closer * depth + "\n"
    load_and_plan(text)
    json_text = opener.replace("{a=", '{"a":') * depth + "1" + closer * depth
    assert_located(scenario_diagnostics(json_text.encode(), "scenario.json"), json_text)


def test_outputs_of_an_undeclared_stage_are_located_errors() -> None:
    """Found by the fuzzer: without [[stages]], an output (and the expectations reading it)
    of stage "returns" crashed the loader instead of being reported."""
    text = (EXAMPLES / "02-pantry-ledger" / "task.toml").read_text("utf-8")
    unstaged = text.split("\n[[stages]]")[0] + "\n[edge]" + text.split("\n[edge]", 1)[1]
    spec, found = read_task_text(unstaged, SOURCE)
    assert spec is None
    assert_located(found, unstaged)
    assert any("unknown stage 'returns'" in d.message for d in found), found
