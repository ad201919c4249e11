"""Seeding helpers: named streams, generator writes, expectations on JSON paths."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchsmith.runtime import benchlib


def _context(tmp_path: Path) -> benchlib.SeedContext:
    return benchlib.SeedContext(
        tmp_path, "inputs/x", "main", 1, random.Random(1), 20260838, tmp_path
    )


def test_named_streams_are_shared_and_reproducible(tmp_path: Path) -> None:
    first = _context(tmp_path).stream("ledger")
    second = _context(tmp_path).stream("ledger")
    assert [first.random() for _ in range(3)] == [second.random() for _ in range(3)]
    assert (
        _context(tmp_path).stream("other").random() != _context(tmp_path).stream("ledger").random()
    )


def test_a_generator_must_write_what_it_declares(tmp_path: Path) -> None:
    (tmp_path / "fixtures.py").write_text(
        "def lazy(ctx):\n    ctx.write_text('inputs/a.txt', 'a')\n", "utf-8"
    )
    task = {
        "id": 7,
        "seed": 20260838,
        "stages": ["initial"],
        "anchors": {},
        "edge_files": [],
        "files": [
            {
                "path": "inputs",
                "generator": "lazy",
                "stage": "initial",
                "writes": ["inputs/a.txt", "inputs/b.txt"],
            }
        ],
    }
    with pytest.raises(RuntimeError, match=r"'lazy' did not write inputs/b\.txt"):
        benchlib.seed_fixture(task, tmp_path, tmp_path / "out")


def test_path_absent_expectation(tmp_path: Path) -> None:
    (tmp_path / "out.json").write_text('{"2025-01": {"Food": "1.00"}}', "utf-8")
    run = benchlib.Run("main", tmp_path, benchlib.Files(tmp_path), benchlib.Files(tmp_path))
    spec = {"file": "out.json", "path": "2025-01.Transfer", "absent": True}
    benchlib.check_expectation(run, spec)
    with pytest.raises(benchlib.CheckFailed, match="must not exist"):
        benchlib.check_expectation(run, {**spec, "path": "2025-01.Food"})


def test_path_where_expectations_select_rows_of_a_json_list(tmp_path: Path) -> None:
    document = '{"plan": {"rows": [{"sku": "A", "qty": 2}, {"sku": "B", "qty": 0}]}}'
    (tmp_path / "out.json").write_text(document, "utf-8")
    run = benchlib.Run("main", tmp_path, benchlib.Files(tmp_path), benchlib.Files(tmp_path))
    rows = {"file": "out.json", "path": "plan.rows"}
    benchlib.check_expectation(run, {**rows, "where": {"sku": "A"}, "equals": {"qty": 2}})
    benchlib.check_expectation(run, {**rows, "where": {"sku": "C"}, "absent": True})
    benchlib.check_expectation(run, {**rows, "where": {"qty": 0}, "count": 1})
    with pytest.raises(benchlib.CheckFailed, match="qty"):
        benchlib.check_expectation(run, {**rows, "where": {"sku": "B"}, "equals": {"qty": 1}})
    with pytest.raises(benchlib.CheckFailed, match="expected none, found 1"):
        benchlib.check_expectation(run, {**rows, "where": {"sku": "B"}, "absent": True})
    with pytest.raises(benchlib.CheckFailed, match="not a list of records"):
        benchlib.check_expectation(run, {**rows, "path": "plan", "where": {"sku": "A"}, "count": 1})


def _declared(fmt: str, path: str) -> dict[str, object]:
    return {
        "path": path,
        "format": fmt,
        "rows": 4,
        "header": ["id", "total", "paid"],
        "columns": [
            {"name": "id", "kind": "seq", "seq": "R{}"},
            {"name": "total", "kind": "decimal", "decimal": ["1.00", "9.99"]},
            {"name": "paid", "kind": "choice", "choice": [True, False]},
        ],
        "records": [],
        "anchors": [{"at": 0, "records": [{"id": "A", "total": "12.50", "paid": True}]}],
        "sort_by": [],
        "wrap": None,
        "generator": None,
        "stage": "initial",
    }


def test_decimals_are_exact_numbers_in_json_and_text_in_csv(tmp_path: Path) -> None:
    task = {"id": 7, "seed": 20260838, "stages": ["initial"], "anchors": {}, "edge_files": []}
    files = [_declared("json", "inputs/r.json"), _declared("csv", "inputs/r.csv")]
    benchlib.seed_fixture({**task, "files": files}, tmp_path, tmp_path / "out")
    text = (tmp_path / "out" / "inputs" / "r.json").read_text("utf-8")
    assert '"total": 12.50' in text and '"paid": true' in text
    assert all('"total": "' not in line for line in text.splitlines())
    csv_text = (tmp_path / "out" / "inputs" / "r.csv").read_text("utf-8")
    assert csv_text.splitlines()[:2] == ["id,total,paid", "A,12.50,true"]
