"""Anchor and explicit records: unknown fields and wrong value types are located BS102 errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from benchsmith.dsl.load import read_task
from tests.conftest import MINIMAL_TASK

COLUMNS = """\
columns.amount = { decimal = ["1.00", "9.00"] }
columns.day = { date = ["2025-01-01", "2025-02-01"] }
columns.kind = { choice = ["a", "b"] }
"""
BASE = MINIMAL_TASK.replace(
    "columns.value = { int = [1, 9] }\n", "columns.value = { int = [1, 9] }\n" + COLUMNS
)
ANCHOR = '\n[[anchors]]\nname = "pin"\nfile = "inputs/data.csv"\nrecord = {{ {record} }}\n'
GOOD = 'key = "K900", value = 3, amount = "4.50", day = "2025-01-09", kind = "z"'


def located(make_task: Callable[..., Path], record: str) -> list[tuple[int, int, str]]:
    text = BASE.replace("[edge]", ANCHOR.format(record=record) + "\n[edge]")
    task = make_task(text)
    spec, found = read_task(task)
    assert (spec is None) == bool(found)
    return [(d.line, d.col, d.message) for d in found if d.code == "BS102"]


def column_of(record: str, key: str) -> int:
    return len("record = { ") + record.index(f"{key} =") + 1


def test_a_good_record_loads(make_task: Callable[..., Path]) -> None:
    assert located(make_task, GOOD) == []


@pytest.mark.parametrize(
    ("key", "bad", "says"),
    [
        ("value", '"abc"', "int column 'value' needs an integer"),
        ("value", "2.5", "int column 'value' needs an integer"),
        ("value", "true", "int column 'value' needs"),
        ("amount", '"x1"', "decimal column 'amount' needs a decimal number"),
        ("amount", '""', "decimal column 'amount' needs a decimal number"),
        ("amount", '"NaN"', "decimal column 'amount'"),
        ("amount", "[1, 2]", "a CSV cell holds one value"),
        ("day", "5", "date column 'day' needs a string"),
        ("kind", "{ x = 1 }", "a CSV cell holds one value"),
    ],
)
def test_a_value_of_the_wrong_type_is_located_at_its_key(
    make_task: Callable[..., Path], key: str, bad: str, says: str
) -> None:
    start = GOOD.index(f"{key} = ")
    end = GOOD.find(",", start)
    record = GOOD[:start] + f"{key} = {bad}" + (GOOD[end:] if end >= 0 else "")
    [(line, col, message)] = located(make_task, record)
    assert says in message
    assert message.startswith(f"anchors[0].record.{key} = ")
    text = BASE.replace("[edge]", ANCHOR.format(record=record) + "\n[edge]")
    line_of_record = text.splitlines().index(f"record = {{ {record} }}") + 1
    assert (line, col) == (line_of_record, column_of(record, key))


def test_blank_and_integer_text_are_fine_in_an_int_column(make_task: Callable[..., Path]) -> None:
    assert located(make_task, GOOD.replace("value = 3", 'value = ""')) == []
    assert located(make_task, GOOD.replace("value = 3", 'value = "-12"')) == []
    assert located(make_task, GOOD.replace('amount = "4.50"', "amount = 4")) == []


def test_unknown_and_missing_fields_are_located(make_task: Callable[..., Path]) -> None:
    record = GOOD + ", colour = 1"
    [(_, col, message)] = located(make_task, record)
    assert "unknown field 'colour'" in message
    assert col == column_of(record, "colour")
    record = GOOD.replace(', kind = "z"', "")
    [(_, _, message)] = located(make_task, record)
    assert "missing ['kind']" in message


def test_records_of_a_file_and_of_the_edge_are_checked_too(make_task: Callable[..., Path]) -> None:
    text = BASE.replace(
        "rows = 5\n",
        'rows = 5\nrecords = [{ key = "K1", value = "x", amount = "1", day = "d", kind = "a" }]\n',
    )
    text += '\n[[edge.files]]\npath = "inputs/data.csv"\n'
    text += 'columns.amount = { decimal = ["1.00", "2.00"] }\n'
    text += 'records = [{ amount = "one" }]\n'
    task = make_task(text)
    _, found = read_task(task)
    messages = sorted(d.message.split(" = ")[0] for d in found)
    assert messages == ["edge.files[0].records[0].amount", "files[0].records[0].value"]


def test_expectations_name_only_columns_of_the_output(make_task: Callable[..., Path]) -> None:
    text = BASE.replace(
        'path = "output/total.json"', 'path = "output/total.csv"\nheader = ["key", "total"]'
    )
    text += '\n[[edge.expect]]\nfile = "output/total.csv"\n'
    text += 'where = { keey = "K1" }\nequals = { total = "1" }\n'
    task = make_task(text)
    _, found = read_task(task)
    [finding] = found
    assert finding.code == "BS102"
    assert "edge.expect[0].where.keey: 'keey' is not a column" in finding.message
    assert (finding.line, finding.col) == (text.count("\n") - 1, 11)


def test_an_expectation_on_an_undeclared_output_is_located(
    make_task: Callable[..., Path],
) -> None:
    """Issue 28: a typo in an expectation's file passed build and lint and surfaced only in
    check as "reference: level 3, expected 5"; it is a located BS102 with a suggestion."""
    anchor = ANCHOR.format(record=GOOD) + (
        'expect = [{ file = "output/totals.json", path = "total", equals = 3 }]\n'
    )
    task = make_task(BASE.replace("[edge]", anchor + "\n[edge]"))
    spec, found = read_task(task)
    assert spec is None
    text = (task / "task.toml").read_text("utf-8")
    line = text[: text.index('expect = [{ file = "output/totals.json"')].count("\n") + 1
    [(at, message)] = [(d.line, d.message) for d in found if d.code == "BS102"]
    assert at == line
    assert message.endswith(
        "output/totals.json is not a declared output ([[outputs]] path) "
        "(did you mean 'output/total.json'?)"
    )


def test_a_typo_in_the_first_explicit_record_is_blamed_on_it(
    make_task: Callable[..., Path],
) -> None:
    """Issue 28: columns of explicit records were taken from the first record, so a typo
    there gave errors on every correct record with the wrong suggestion."""
    records = (
        '{ kee = "A", value = 1 }, { key = "B", value = 2 }, '
        '{ key = "C", value = 3 }, { key = "D", value = 4 }'
    )
    extra = f'\n[[files]]\npath = "inputs/more.csv"\nrecords = [{records}]\n'
    task = make_task(MINIMAL_TASK.replace("[edge]", extra + "\n[edge]"))
    _, found = read_task(task)
    errors = [d.message for d in found if d.code == "BS102"]
    assert len(errors) == 2, errors
    assert "unknown field 'kee' (did you mean 'key'?)" in errors[0] + errors[1]
    assert all("records[0]" in e for e in errors), errors
