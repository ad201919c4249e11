"""Declared row expectations on CSV outputs: what they select, and one parse per file."""

from __future__ import annotations

import decimal
from pathlib import Path
from typing import Any

import pytest

from benchsmith.runtime import benchlib

# "id" twice: a dict of the row keeps the last column, as Files.csv does.
TABLE = "id,sku,qty,id\n1,A,2,x\n2,B,0,y\n3,A,10,z\n"


def _run(tmp_path: Path, text: str = TABLE) -> benchlib.Run:
    (tmp_path / "out").mkdir(exist_ok=True)
    (tmp_path / "out" / "t.csv").write_text(text, "utf-8")
    files = benchlib.Files(tmp_path)
    return benchlib.Run("main", tmp_path, files, files)


def _judge(tmp_path: Path, expect: list[dict[str, Any]]) -> tuple[benchlib.Judge, Any]:
    task = {"stages": ["initial"], "editable": [], "outputs": [], "commands": []}
    specs = [{"name": f"e{i}", "file": "out/t.csv", "level": 4, **e} for i, e in enumerate(expect)]
    judge = benchlib.Judge(task | {"expect": specs}, tmp_path)
    return judge, judge.trial(tmp_path, tmp_path / "scratch", python="python3")


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files each CSV parse reads, in order."""
    parsed: list[str] = []
    original = benchlib.Files.csv_rows

    def counted(files: benchlib.Files, rel: str) -> list[list[str]]:
        parsed.append(rel)
        return original(files, rel)

    monkeypatch.setattr(benchlib.Files, "csv_rows", counted)
    return parsed


CASES = [
    ({"where": {"sku": "A"}, "count": 2}, ""),
    ({"where": {"sku": "A", "qty": "10"}, "equals": {"id": "z"}}, ""),
    ({"where": {"id": "z"}, "equals": {"qty": "10"}}, ""),  # the last "id" column
    ({"where": {"id": "3"}, "count": 0}, ""),
    ({"where": {"qty": 2}, "equals": {"sku": "A"}}, ""),  # a number matches numerically
    ({"where": {"qty": decimal.Decimal("10.0")}, "count": 1}, ""),
    ({"where": {"qty": "2.0"}, "count": 0}, ""),  # text compares exactly
    ({"where": {"colour": "red"}, "absent": True}, ""),
    ({"count": 3}, ""),  # no where: every data row
    ({"where": {"sku": "B"}, "absent": True}, "expected none, found 1"),
    ({"where": {"sku": "A"}, "equals": {"qty": "2"}}, "expected exactly one, found 2"),
    ({"where": {"sku": "B"}, "equals": {"qty": 1}}, "qty expected 1, got '0'"),
]


@pytest.mark.parametrize(("spec", "failure"), CASES)
def test_row_expectations_select_as_the_rows_dicts_do(
    tmp_path: Path, spec: dict[str, Any], failure: str
) -> None:
    run = _run(tmp_path)
    full = {"file": "out/t.csv", **spec}
    if not failure:
        benchlib.check_expectation(run, full)
        return
    with pytest.raises(benchlib.CheckFailed, match=failure):
        benchlib.check_expectation(run, full)


def test_a_file_is_parsed_once_for_all_the_expectations_of_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge, trial = _judge(tmp_path, [spec for spec, _ in CASES])
    run = _run(tmp_path)
    parsed = _parses(monkeypatch)
    outcomes = trial.run_checks(judge.main_checks, run)
    assert [o.passed for o in outcomes] == [not failure for _, failure in CASES]
    assert parsed == ["out/t.csv"]
    assert (run.pending, run.selections) == ([], {})  # nothing kept after the checks


def test_an_unparsable_file_fails_every_expectation_with_its_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge, trial = _judge(tmp_path, [{"where": {"sku": "A"}, "count": 2}, {"count": 1}])
    run = _run(tmp_path, "id,sku\n1,A\n2,A,extra\n")
    parsed = _parses(monkeypatch)
    notes = [o.note for o in trial.run_checks(judge.main_checks, run)]
    assert notes == ["out/t.csv: row 3 has 3 fields, header has 2"] * 2
    assert parsed == ["out/t.csv"]


def test_the_level_2_gate_reads_a_csv_header_from_its_one_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, trial = _judge(tmp_path, [])
    run = _run(tmp_path)
    parsed = _parses(monkeypatch)
    output = {"path": "out/t.csv", "format": "csv", "header": ["id", "sku", "qty", "id"]}
    assert trial.output_problem(run, output) == ""
    wrong = trial.output_problem(run, {**output, "header": ["id", "sku", "qty"]})
    assert wrong.startswith("out/t.csv header: expected 3 items, got 4")
    assert parsed == ["out/t.csv", "out/t.csv"]


def test_a_malformed_where_fails_only_its_own_expectation(tmp_path: Path) -> None:
    judge, trial = _judge(tmp_path, [{"where": "sku=A", "count": 2}, {"count": 3}])
    outcomes = trial.run_checks(judge.main_checks, _run(tmp_path))
    assert [o.passed for o in outcomes] == [False, True]


@pytest.mark.parametrize("name", ["t.csv", "t.csv.gz"])
def test_a_gzip_output_selects_as_plain_text_does(tmp_path: Path, name: str) -> None:
    import gzip

    data = TABLE.encode()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    files = benchlib.Files(tmp_path)
    run = benchlib.Run("main", tmp_path, files, files)
    for spec, failure in CASES:
        full = {"file": f"out/{name}", **spec}
        if failure:
            with pytest.raises(benchlib.CheckFailed, match=failure):
                benchlib.check_expectation(run, full)
        else:
            benchlib.check_expectation(run, full)


@pytest.mark.parametrize("name", ["t.csv", "t.csv.gz"])
def test_a_bom_fails_every_expectation_naming_the_bytes(tmp_path: Path, name: str) -> None:
    """UTF-8 output has no byte-order mark: with one, the header is no longer exactly the
    stated one, so the reader refuses it instead of dropping it (issue 29)."""
    import gzip

    data = ("\ufeff" + TABLE).encode()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    files = benchlib.Files(tmp_path)
    run = benchlib.Run("main", tmp_path, files, files)
    for spec, _ in CASES:
        with pytest.raises(benchlib.CheckFailed, match=r"byte-order mark \(bytes 0-2: EF BB BF\)"):
            benchlib.check_expectation(run, {"file": f"out/{name}", **spec})
