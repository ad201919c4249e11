"""Pathological task.toml and scenario.json: located errors, never an exception; declared bounds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchsmith.dsl.load import MAX_TASK_BYTES, read_task
from benchsmith.linting.corpus_rules import scenario_diagnostics
from tests.conftest import MINIMAL_TASK

HEAD = 'id = 7\nslug = "tiny-task"\ntitle = "T"\npressure = "N"\nprose = "x"\n'


def only(make_task: Callable[..., Path], text: str | bytes) -> tuple[int, int, str, str]:
    task = make_task("")
    (task / "task.toml").write_bytes(text if isinstance(text, bytes) else text.encode())
    spec, found = read_task(task)
    assert spec is None
    [finding] = found
    return finding.line, finding.col, finding.code, finding.message


@pytest.mark.parametrize("depth", [40, 5000])
def test_deep_arrays_are_located(make_task: Callable[..., Path], depth: int) -> None:
    line, col, code, message = only(make_task, HEAD + "x = " + "[" * depth + "]" * depth + "\n")
    assert (line, code) == (6, "BS101" if depth > 100 else "BS102")
    assert "nested more than 32 levels" in message
    assert col >= 5


def test_deep_inline_tables_and_headers_are_located(make_task: Callable[..., Path]) -> None:
    assert only(make_task, HEAD + "x = " + "{a=" * 3000 + "1" + "}" * 3000)[:3] == (6, 101, "BS101")
    headers = HEAD + 'command = "x"\n[[anchors]]\nname = "a"\n'
    headers += "[anchors.record." + ".".join(["a"] * 1500) + "]\nb = 1\n"
    line, _, code, _ = only(make_task, headers)
    assert (line, code) == (9, "BS102")


def test_an_integer_too_long_to_convert_is_located(make_task: Callable[..., Path]) -> None:
    assert only(make_task, HEAD + "x = " + "9" * 5000 + "\n")[:3] == (6, 5, "BS101")


def test_an_oversized_file_is_refused(make_task: Callable[..., Path]) -> None:
    text = HEAD + "# " + "x" * MAX_TASK_BYTES + "\n"
    assert only(make_task, text)[:3] == (1, 1, "BS101")


def test_bytes_that_are_not_utf8_are_located(make_task: Callable[..., Path]) -> None:
    line, col, code, message = only(make_task, HEAD.encode() + b'note = "caf\xe9"\n')
    assert (line, col, code) == (6, 12, "BS101")
    assert "not valid UTF-8" in message


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("rows = 5", "rows = 1000000000000", "files[0].rows: 1000000000000 is above the limit"),
        ('{ seq = "K{:03d}" }', '{ seq = "K{:999999999}" }', "widths above 100"),
        # more digits than int() converts (found by the fuzzer): refused, not a traceback
        ('{ seq = "K{:03d}" }', '{ seq = "K{:' + "9" * 5000 + 'd}" }', "widths above 100"),
        ('{ seq = "K{:03d}" }', '{ seq = "K{0.__class__}" }', "write the field as {}"),
        ('pressure = "N"', 'pressure = "N"\ntimeout_seconds = 10000000', "above the limit 86400"),
    ],
)
def test_declared_sizes_are_bounded(
    make_task: Callable[..., Path], old: str, new: str, says: str
) -> None:
    line, _, code, message = only(make_task, MINIMAL_TASK.replace(old, new))
    assert code == "BS102" and says in message
    assert (
        line
        == MINIMAL_TASK.replace(old, new)
        .splitlines()
        .index(
            next(
                x for x in MINIMAL_TASK.replace(old, new).splitlines() if new.splitlines()[-1] in x
            )
        )
        + 1
    )


def test_the_rows_of_a_task_are_bounded_in_total(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK.replace("rows = 5", "rows = 9000000")
    text += '\n[[files]]\npath = "inputs/more.csv"\nrows = 9000000\ncolumns.a = 1\n'
    text += '\n[[files]]\npath = "inputs/most.csv"\nrows = 9000000\ncolumns.a = 1\n'
    assert "a task may declare 20000000" in only(make_task, text)[3]


SCENARIOS: dict[str, tuple[bytes, tuple[int, int]]] = {
    "deep": (b"[" * 100000 + b"]" * 100000, (1, 33)),
    "deep-object": (b'{"a":' * 40 + b"1" + b"}" * 40, (1, 162)),
    "not-utf8": (b'{"id":\n "\xff"}', (2, 3)),
    "syntax": (b'{"id": 1,\n}', (2, 1)),
    "long-number": (b'{"id": ' + b"9" * 5000 + b"}", (1, 1)),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_broken_scenarios_are_located(name: str) -> None:
    data, position = SCENARIOS[name]
    found: list[Any] = scenario_diagnostics(data, "scenario.json")
    assert [(d.line, d.col, d.code) for d in found] == [(*position, "BS103")]


def test_unknown_select_code_is_a_usage_error(cli: Callable[..., Any], tmp_path: Path) -> None:
    result = cli("lint", tmp_path, "--select", "BS999")
    assert result.exit_code == 2
    assert "BS999" in result.output and "benchsmith rules" in result.output
    assert cli("lint", tmp_path, "--select", "BS4").exit_code == 0  # a prefix of real codes


@pytest.mark.parametrize("command", ["build", "lint"])
def test_deep_task_toml_through_the_cli(
    cli: Callable[..., Any], make_task: Callable[..., Path], command: str
) -> None:
    task = make_task(HEAD + "x = " + "[" * 5000 + "]" * 5000 + "\n")
    result = cli(command, task)
    assert result.exit_code == 1
    assert "task.toml:6:" in result.output and "BS101" in result.output
