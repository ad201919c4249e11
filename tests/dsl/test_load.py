"""Loading task.toml: defaults, the frozen model, and one located diagnostic per problem."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from benchsmith.dsl.load import load_task, read_task
from benchsmith.errors import TaskNotFoundError, TaskSpecError
from tests.conftest import EXAMPLES, MINIMAL_TASK


def problems(task_dir: Path) -> list[tuple[int, int, str, str]]:
    spec, found = read_task(task_dir)
    assert spec is None
    return [(d.line, d.col, d.code, d.message) for d in found]


def test_example_loads_with_pressure_defaults() -> None:
    spec = load_task(EXAMPLES / "02-pantry-ledger")
    assert (spec.id, spec.pressure, spec.timeout_seconds) == (2, "M", 1200)
    assert [s.compact_after for s in spec.stages] == [True, False, False]
    assert spec.editable == ("solution/", "output/")
    assert spec.stages[0].message.startswith("Read TASK.md")
    assert [o.format for o in spec.outputs] == ["csv", "csv", "csv"]
    assert spec.files[1].stage == "returns"


@pytest.mark.parametrize(
    ("pressure", "timeout", "compactions"),
    [("N", 600, []), ("L", 900, []), ("M", 1200, [1]), ("H", 1800, [1, 3])],
)
def test_pressure_defaults(
    make_task: Callable[..., Path], pressure: str, timeout: int, compactions: list[int]
) -> None:
    count = {"N": 1, "L": 2, "M": 3, "H": 4}[pressure]
    stages = "".join(
        f'\n[[stages]]\nid = "s{n}"\nmessage = "step {n}"\n' for n in range(1, count + 1)
    )
    text = MINIMAL_TASK.replace('pressure = "N"', f'pressure = "{pressure}"') + stages
    spec = load_task(make_task(text))
    assert spec.timeout_seconds == timeout
    assert [n for n, s in enumerate(spec.stages, 1) if s.compact_after] == compactions


def test_model_is_frozen(make_task: Callable[..., Path]) -> None:
    spec = load_task(make_task())
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.id = 8  # type: ignore[misc]
    with pytest.raises(TypeError):
        spec.files[0].columns[0].args["seq"] = "x"  # type: ignore[index]


def test_syntax_error_is_located(make_task: Callable[..., Path]) -> None:
    task = make_task(MINIMAL_TASK.replace('title = "Tiny Task"', "title = "))
    [(line, col, code, message)] = problems(task)
    assert (line, code) == (3, "BS101")
    assert col > 1
    assert "TOML syntax error" in message


def test_unknown_key_points_at_the_key(make_task: Callable[..., Path]) -> None:
    task = make_task(MINIMAL_TASK.replace("rows = 5", "rows = 5\nrowz = 6"))
    [(line, col, code, message)] = problems(task)
    assert (line, col, code) == (14, 1, "BS102")
    assert "unknown key 'rowz'" in message
    assert "rows" in message  # what was expected


def test_one_diagnostic_per_problem(make_task: Callable[..., Path]) -> None:
    text = (
        MINIMAL_TASK.replace('pressure = "N"', 'pressure = "X"')
        .replace("rows = 5", 'rows = "five"')
        .replace('title = "Tiny Task"', 'title = "Tiny Task"\ncolour = "red"')
    )
    found = problems(make_task(text))
    assert len(found) == 3
    messages = " | ".join(m for *_, m in found)
    assert "'X' is not allowed" in messages
    assert "expected an integer, got a string" in messages
    assert "unknown key 'colour'" in messages
    assert {line for line, *_ in found} == {4, 5, 14}


def test_missing_required_key(make_task: Callable[..., Path]) -> None:
    found = problems(
        make_task(MINIMAL_TASK.replace('prose = "Sum the values of inputs/data.csv."\n', ""))
    )
    assert [(code, message) for _, _, code, message in found] == [
        ("BS102", "the document: missing required key 'prose'")
    ]


def test_missing_vocabulary_and_generator_are_located(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK.replace(
        "columns.value = { int = [1, 9] }", 'columns.value = { vocab = "fruit" }'
    )
    text += '\n[[files]]\npath = "inputs/logs"\ngenerator = "make_logs"\n'
    found = problems(make_task(text))
    assert [(line, code) for line, _, code, _ in found] == [(15, "BS102"), (22, "BS102")]
    assert "vocab/fruit.json is missing" in found[0][3]
    assert "needs fixtures.py" in found[1][3]


def test_generator_must_be_defined(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK + '\n[[files]]\npath = "inputs/logs"\ngenerator = "make_logs"\n'
    found = problems(make_task(text, files={"fixtures.py": "def other(ctx):\n    pass\n"}))
    assert "defines no function 'make_logs'" in found[0][3]


def test_cross_references(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK + (
        '\n[[anchors]]\nname = "a"\nfile = "inputs/missing.csv"\nrecord = { key = "K1" }\n'
        '\n[[anchors]]\nname = "b"\nfile = "inputs/data.csv"\nrecord = { key = "K2" }\n'
    )
    text = text.replace(
        '[[outputs]]\npath = "output/total.json"',
        '[[outputs]]\npath = "output/total.json"\nstage = "later"',
    )
    found = problems(make_task(text))
    messages = [m for *_, m in found]
    assert any("unknown stage 'later'" in m for m in messages)
    assert any("'inputs/missing.csv' is not a declared tabular" in m for m in messages)
    assert any("missing ['value']" in m for m in messages)


def test_reversed_range_and_bad_seq(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK.replace("int = [1, 9]", "int = [9, 1]").replace('"K{:03d}"', '"K{:q}"')
    messages = [m for *_, m in problems(make_task(text))]
    assert any("range is reversed" in m for m in messages)
    assert any("cannot format a number" in m for m in messages)


def test_command_and_commands_are_exclusive(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK + '\n[[commands]]\nrun = "python x.py"\n'
    messages = [m for *_, m in problems(make_task(text))]
    assert messages == [
        "the document: 'command' and 'commands' cannot both be given; use one of them"
    ]


def test_load_task_raises_with_every_diagnostic(make_task: Callable[..., Path]) -> None:
    task = make_task(MINIMAL_TASK.replace("rows = 5", "rows = -1\nextra = 1"))
    with pytest.raises(TaskSpecError) as caught:
        load_task(task)
    assert len(caught.value.diagnostics) == 2
    assert all(d.path.endswith("task.toml") for d in caught.value.diagnostics)


def test_loading_writes_nothing(make_task: Callable[..., Path]) -> None:
    task = make_task()
    before = sorted(p.relative_to(task) for p in task.rglob("*"))
    load_task(task)
    read_task(task)
    assert sorted(p.relative_to(task) for p in task.rglob("*")) == before


def test_missing_task_folder(tmp_path: Path) -> None:
    with pytest.raises(TaskNotFoundError, match=r"no task\.toml"):
        load_task(tmp_path)


def test_invalid_utf8(make_task: Callable[..., Path]) -> None:
    task = make_task()
    (task / "task.toml").write_bytes(b'id = 1\ntitle = "\xff"\n')
    [(_, _, code, message)] = problems(task)
    assert code == "BS101" and "UTF-8" in message


def test_formats_are_checked(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK.replace(
        "columns.value = { int = [1, 9] }",
        'columns.value = { date = ["2025-02-30", "2025-03-01"] }\n'
        'columns.at = { datetime = ["2025-01-01T00:00:00", "2025-01-02T00:00:00Z"] }',
    )
    found = problems(make_task(text))
    assert [(line, code) for line, _, code, _ in found] == [(15, "BS102"), (16, "BS102")]
    assert "'2025-02-30' is not a valid date" in found[0][3]
    assert "is not a valid date-time" in found[1][3]


def test_generator_writes(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK + (
        '\n[[files]]\npath = "inputs/ledger"\ngenerator = "ledger"\n'
        'writes = ["inputs/bank.csv", "inputs/receipts.json"]\n'
    )
    spec = load_task(make_task(text, files={"fixtures.py": "def ledger(ctx):\n    pass\n"}))
    assert spec.files[1].writes == ("inputs/bank.csv", "inputs/receipts.json")
    assert spec.files[0].writes == ()
    bad = MINIMAL_TASK.replace("rows = 5", 'rows = 5\nwrites = ["inputs/x.csv"]')
    assert "writes only applies to generator entries" in problems(make_task(bad))[0][3]


def test_audit_justifications_match_mutant_ids(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK + (
        '\n[audit]\nequivalent = [\n  { mutant = "csv-quoting@*", why = "any quoting" },\n'
        '  { mutant = "compare@solution/main.py:3:7", why = "no tie" },\n]\n'
    )
    audit = load_task(make_task(text)).audit
    assert [j.mutant for j in audit.equivalent] == ["csv-quoting@*", "compare@solution/main.py:3:7"]
    assert audit.justification("csv-quoting@solution/main.py:9:4") is audit.equivalent[0]
    assert audit.justification("compare@solution/main.py:3:7#2") is None
    assert load_task(make_task()).audit.equivalent == ()


def test_a_justification_needs_a_reason(make_task: Callable[..., Path]) -> None:
    task = make_task(MINIMAL_TASK + '\n[audit]\nequivalent = [{ mutant = "x" }]\n')
    [(line, _, code, message)] = problems(task)
    assert (line, code) == (21, "BS102")  # the [audit] table (inline items are not located)
    assert message == "audit.equivalent[0]: missing required key 'why'"
