"""Bounded judging (issue 26 item 3): what a judge reads and copies of a candidate is bounded,
and a bound that is hit fails the candidate with a note naming it, never the judge."""

from __future__ import annotations

import resource
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchsmith.runtime import benchlib
from tests.check.conftest import copy_example
from tests.runtime.test_judge import _judge, _reference_workspace

RECURSIVE = (
    "CREATE VIEW contacts AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
    "SELECT n FROM r"
)


@pytest.fixture
def heap() -> Iterator[None]:
    """SQLite's heap limit is global to the process: put it back for the other tests."""
    yield
    sqlite3.connect(":memory:").execute("PRAGMA hard_heap_limit=0").close()


def _database(root: Path, view: str) -> benchlib.Files:
    (root / "output").mkdir(parents=True)
    connection = sqlite3.connect(root / "output" / "crm.db")
    connection.execute(view)
    connection.commit()
    connection.close()
    return benchlib.Files(root)


def _check(query: str) -> benchlib.Check:
    def reads_contacts(run: benchlib.Run) -> None:
        rows = run.files.sqlite("output/crm.db").execute(query).fetchall()
        benchlib.expect(bool(rows), "contacts")

    return benchlib.Check("reads_contacts", 4, reads_contacts)


def test_a_recursive_view_that_never_ends_is_stopped_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, heap: None
) -> None:
    """Task 11's attack: a `contacts` view that recurses for ever (constant memory)."""
    monkeypatch.setattr(benchlib, "SQLITE_SECONDS", 0.5)
    files = _database(tmp_path, RECURSIVE)
    run = benchlib.Run("main", tmp_path, files, files)
    outcome = benchlib.run_check(_check("SELECT count(*) FROM contacts"), run)
    assert not outcome.passed
    assert outcome.note.startswith("querying the candidate's SQLite database took more than 0.5 s")


def test_a_recursive_view_that_grows_hits_the_heap_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, heap: None
) -> None:
    """The same view sorted: SQLite must hold every row; its heap bound stops it."""
    monkeypatch.setattr(benchlib, "SQLITE_HEAP_BYTES", 64 << 20)
    files = _database(tmp_path, RECURSIVE)
    run = benchlib.Run("main", tmp_path, files, files)
    outcome = benchlib.run_check(_check("SELECT n FROM contacts ORDER BY n DESC"), run)
    assert not outcome.passed
    assert outcome.note.startswith("the judge's memory bound was reached"), outcome.note
    assert "64 MiB of SQLite heap" in outcome.note


def test_an_ordinary_database_reads_as_before(tmp_path: Path, heap: None) -> None:
    files = _database(tmp_path, "CREATE TABLE contacts (n INTEGER)")
    with files.sqlite("output/crm.db") as connection:
        connection.execute("SELECT count(*) FROM contacts").fetchone()
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        files.sqlite("output/crm.db").execute("INSERT INTO contacts VALUES (1)")


def test_overlay_leaves_out_what_exceeds_its_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sparse 2 GiB file (no disk) and a flood of files: left out and named; the rest copied."""
    src, dest = tmp_path / "ws", tmp_path / "run"
    (src / "solution" / "flood").mkdir(parents=True)
    dest.mkdir()
    (src / "solution" / "main.py").write_text("print(1)\n", "utf-8")
    with open(src / "solution" / "sparse.bin", "wb") as stream:
        stream.truncate(2 << 30)
    for number in range(30):
        (src / "solution" / "flood" / f"f{number:02d}.txt").write_text("x", "utf-8")
    monkeypatch.setattr(benchlib, "COPY_FILES", 20)
    skipped: list[str] = []
    benchlib.overlay(src, dest, ["solution/"], skipped)
    assert skipped[0] == "solution/flood/f18.txt and everything after it (more than 20 entries)"
    assert (dest / "solution" / "flood" / "f17.txt").exists()
    assert not (dest / "solution" / "flood" / "f18.txt").exists()
    assert not (dest / "solution" / "sparse.bin").exists()
    monkeypatch.setattr(benchlib, "COPY_FILES", 100)
    skipped = []
    benchlib.overlay(src, dest, ["solution/"], skipped)
    assert skipped == [f"solution/sparse.bin ({2 << 30} bytes: above {256 << 20} per file)"]
    assert (dest / "solution" / "main.py").read_text("utf-8") == "print(1)\n"
    monkeypatch.setattr(benchlib, "COPY_TOTAL_BYTES", 20)
    skipped = []
    benchlib.overlay(src, dest, ["solution/"], skipped)
    assert skipped == ["solution/flood/f20.txt and everything after it (above 20 bytes)"]


def test_the_judge_holds_itself_to_its_memory_bound(tmp_path: Path) -> None:
    """A check that reads more than the bound fails with the bound's note; the verdict is
    valid and the judge exits 0 (a candidate failure, not a judge error)."""
    task = copy_example(tmp_path / "corpus", "01-grade-summary")
    judge = task / "judge.py"
    hungry = (
        "\n\n@judge.check(level=4)\ndef hungry(run: benchlib.Run) -> None:\n"
        "    benchlib.expect(len(bytearray(benchlib.JUDGE_MEMORY_BYTES)) > 0, 'read')\n\n"
    )
    text = judge.read_text("utf-8").replace("# endregion authored", hungry + "# endregion authored")
    judge.write_text(text, "utf-8")
    verdict, _ = _judge(task, _reference_workspace(task, tmp_path))
    assert verdict["status"] == "fail" and verdict["progress_level"] == 3
    (note,) = [n for n in verdict["notes"] if "hungry" in n]
    assert "the judge's memory bound was reached" in note


def test_bound_memory_lowers_only_the_soft_limit() -> None:
    code = (
        "import resource; from benchsmith.runtime import benchlib; "
        "benchlib.bound_memory(1 << 30); print(*resource.getrlimit(resource.RLIMIT_AS)); "
        "benchlib.bound_memory(2 << 30); print(*resource.getrlimit(resource.RLIMIT_AS))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]  # the child inherits this one
    first, second = (tuple(map(int, line.split())) for line in done.stdout.splitlines())
    assert first == second == (1 << 30, hard)  # lowered once, never raised; hard unchanged
