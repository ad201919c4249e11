"""Unknown keys are located BS102 errors with a did-you-mean; anchor positions are checked."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchsmith.dsl.load import read_task
from tests.conftest import MINIMAL_TASK

ANCHOR_KEYS = ["at", "expect", "file", "name", "record", "records", "why"]
ANCHOR = """
[[anchors]]
name = "pin"
file = "inputs/data.csv"
{extra}
record = {{ key = "K900", value = 3 }}
"""


def findings(text: str) -> list[tuple[int, int, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        task = Path(tmp) / "07-tiny-task"
        task.mkdir()
        (task / "task.toml").write_text(text, encoding="utf-8")
        spec, found = read_task(task)
    assert (spec is None) == bool(found)
    return [(d.line, d.col, d.message) for d in found]


def with_anchor(extra: str) -> str:
    return MINIMAL_TASK.replace("[edge]", ANCHOR.format(extra=extra) + "\n[edge]")


def anchor_line(extra: str) -> int:
    text = with_anchor(extra)
    return text.splitlines().index(extra) + 1


@pytest.mark.parametrize(
    ("typo", "meant"),
    [("recrod", "record"), ("reccords", "records"), ("expects", "expect"), ("fiel", "file")],
)
def test_a_misspelt_anchor_key_is_located_and_names_the_key_meant(typo: str, meant: str) -> None:
    extra = f'{typo} = "x"'
    [(line, col, message)] = findings(with_anchor(extra))
    assert (line, col) == (anchor_line(extra), 1)
    assert f"unknown key {typo!r} (did you mean {meant!r}?)" in message


@settings(max_examples=60, deadline=None)
@given(st.from_regex(r"[a-z][a-z_]{0,11}", fullmatch=True).filter(lambda k: k not in ANCHOR_KEYS))
def test_any_unknown_anchor_key_is_one_located_error(key: str) -> None:
    extra = f"{key} = 1"
    [(line, col, message)] = findings(with_anchor(extra))
    assert (line, col) == (anchor_line(extra), 1)
    assert f"anchors[0].{key}: unknown key {key!r}" in message
    if "did you mean" in message:
        suggested = message.split("did you mean ")[1].split("?")[0].strip("'")
        assert suggested in ANCHOR_KEYS


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([k for k in ANCHOR_KEYS if len(k) >= 4]), st.data())
def test_a_key_missing_one_letter_is_recognized(key: str, data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(key) - 1))
    typo = key[:index] + key[index + 1 :]
    if typo in ANCHOR_KEYS:
        return
    [(_, _, message)] = findings(with_anchor(f"{typo} = 1"))
    assert "did you mean" in message


@pytest.mark.parametrize(
    ("column", "typo", "meant"),
    [
        ("{ integer = [1, 9] }", "integer", "int"),
        ("{ int = [1, 9], null = 0.1 }", "null", "null_rate"),
        ("{ choise = ['a'] }", "choise", "choice"),
    ],
)
def test_a_misspelt_generator_key_is_located_at_the_key(column: str, typo: str, meant: str) -> None:
    line = f"columns.value = {column}"
    text = MINIMAL_TASK.replace("columns.value = { int = [1, 9] }", line)
    [(at_line, col, message)] = findings(text)
    assert (at_line, col) == (text.splitlines().index(line) + 1, line.index(typo) + 1)
    assert f"unknown key {typo!r} (did you mean {meant!r}?)" in message


def test_a_misspelt_record_field_names_the_column_meant() -> None:
    text = with_anchor("").replace("value = 3", "valeu = 3")
    messages = [m for _, _, m in findings(text)]
    assert any("unknown field 'valeu' (did you mean 'value'?)" in m for m in messages), messages


@pytest.mark.parametrize(("at", "fine"), [(4, True), (5, False), (10_000, False)])
def test_an_anchor_position_past_the_end_of_its_file_is_an_error(at: int, fine: bool) -> None:
    extra = f"at = {at}"
    found = findings(with_anchor(extra))  # the file has rows = 5: positions 0 to 4
    if fine:
        assert found == []
        return
    [(line, _, message)] = found
    assert line == anchor_line(extra)
    assert f"anchors[0].at = {at} is past the end of inputs/data.csv (5 rows" in message
    assert "write at = 4" in message


@pytest.mark.parametrize("extra", ["at = 2", ""])
def test_an_anchor_position_in_a_sorted_file_is_an_error(extra: str) -> None:
    sorted_file = 'columns.value = { int = [1, 9] }\nsort_by = ["value"]'
    text = with_anchor(extra).replace("columns.value = { int = [1, 9] }", sorted_file)
    found = findings(text)
    if not extra:
        assert found == []  # a sorted file takes spread anchors
        return
    [(line, _, message)] = found
    assert line == text.splitlines().index(extra) + 1
    assert "anchors[0].at = 2 has no effect: inputs/data.csv is sorted by value" in message


def test_path_and_where_together_select_rows_of_a_json_list() -> None:
    expect = (
        'expect = [{ file = "output/total.json", path = "rows", where = { key = "K900" }, '
        "equals = { value = 3 } }]"
    )
    assert findings(with_anchor(expect)) == []  # CONTRIBUTING: `path` + `where` + ...


def test_the_cli_shows_the_suggestion(
    make_task: Callable[..., Path], cli: Callable[..., object]
) -> None:
    task = make_task(with_anchor('recrod = "x"'))
    result = cli("lint", task)
    assert result.exit_code == 1  # type: ignore[attr-defined]
    assert "BS102 anchors[0].recrod: unknown key 'recrod' (did you mean 'record'?)" in (
        result.output  # type: ignore[attr-defined]
    )
