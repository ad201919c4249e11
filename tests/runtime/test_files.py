"""benchlib.Files: every hostile file becomes a CheckFailed with a readable note."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from benchsmith.runtime import benchlib
from benchsmith.runtime.benchlib import CheckFailed, Files


@pytest.fixture
def files(tmp_path: Path) -> Files:
    root = tmp_path / "fixture"
    (root / "output").mkdir(parents=True)
    return Files(root)


def _fails(call: object, message: str) -> None:
    with pytest.raises(CheckFailed, match=message):
        call()  # type: ignore[operator]


def test_binary_content_is_not_text(files: Files) -> None:
    (files.root / "output" / "a.csv").write_bytes(b"\x00\xff\xfe junk")
    _fails(lambda: files.csv("output/a.csv"), r"output/a.csv: not valid UTF-8 \(byte 1\)")
    assert files.bytes("output/a.csv") == b"\x00\xff\xfe junk"


def test_a_directory_is_not_a_file(files: Files) -> None:
    (files.root / "output" / "a.json").mkdir()
    _fails(lambda: files.json("output/a.json"), "output/a.json: not a regular file")


def test_missing_files_fail(files: Files) -> None:
    _fails(lambda: files.text("output/none.txt"), "output/none.txt: missing")
    assert not files.exists("output/none.txt")


def test_a_symlinked_file_is_refused(files: Files, tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("outside", "utf-8")
    (files.root / "output" / "a.txt").symlink_to(tmp_path / "secret.txt")
    _fails(lambda: files.text("output/a.txt"), "is a symlink")


def test_a_symlinked_folder_leading_outside_is_refused(files: Files, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.txt").write_text("outside", "utf-8")
    (files.root / "linked").symlink_to(outside)
    _fails(lambda: files.text("linked/a.txt"), "a symlinked folder leads outside the fixture")


@pytest.mark.parametrize("rel", ["../escape.txt", "/etc/passwd", "output/../../x"])
def test_paths_escaping_the_root_are_refused(files: Files, rel: str) -> None:
    _fails(lambda: files.text(rel), "path escapes the fixture")


def test_a_fifo_is_not_read(files: Files) -> None:
    os.mkfifo(files.root / "output" / "pipe.csv")
    _fails(lambda: files.csv("output/pipe.csv"), "not a regular file")


def test_gzip_is_decompressed(files: Files) -> None:
    (files.root / "output" / "a.jsonl.gz").write_bytes(gzip.compress(b'{"a": 1.50}\n\n{"a": 2}\n'))
    assert [str(v["a"]) for v in files.jsonl("output/a.jsonl.gz")] == ["1.50", "2"]


def test_truncated_or_corrupt_gzip_fails(files: Files) -> None:
    whole = gzip.compress(b"a,b\n" + b"1,2\n" * 1000)
    (files.root / "output" / "cut.csv.gz").write_bytes(whole[: len(whole) // 2])
    (files.root / "output" / "bad.csv.gz").write_bytes(whole[:10] + b"\xff" * 40)
    _fails(lambda: files.csv("output/cut.csv.gz"), "output/cut.csv.gz: not a valid gzip file")
    _fails(lambda: files.csv("output/bad.csv.gz"), "output/bad.csv.gz: not a valid gzip file")


def test_malformed_structures_fail(files: Files) -> None:
    out = files.root / "output"
    (out / "ragged.csv").write_text("a,b\n1\n", "utf-8")
    (out / "nested.json").write_text("[" * 100_000 + "]" * 100_000, "utf-8")
    (out / "empty.csv").write_text("", "utf-8")
    (out / "lines.jsonl").write_text('{"a": 1}\nnot json\n', "utf-8")
    _fails(lambda: files.csv("output/ragged.csv"), "row 2 has 1 fields, header has 2")
    _fails(lambda: files.json("output/nested.json"), "not valid JSON")
    _fails(lambda: files.header("output/empty.csv"), "no header row")
    _fails(lambda: files.jsonl("output/lines.jsonl"), "line 2 is not JSON")


def test_a_file_that_is_not_sqlite_fails(files: Files) -> None:
    (files.root / "output" / "db.sqlite").write_bytes(b"not a database at all" * 100)
    _fails(lambda: files.sqlite("output/db.sqlite"), "not a SQLite database")


def test_records_need_an_array(files: Files) -> None:
    (files.root / "output" / "r.json").write_text('{"rows": []}', "utf-8")
    _fails(lambda: files.records("output/r.json"), "expected a JSON array of records")


def test_a_crashing_check_fails_with_a_note() -> None:
    def crashes(run: benchlib.Run) -> None:
        raise SystemExit(3)

    run = benchlib.Run("main", Path(), Files(Path()), Files(Path()))
    outcome = benchlib.run_check(benchlib.Check("crashes", 3, crashes), run)
    assert not outcome.passed
    assert outcome.note.startswith("check crashed: SystemExit: 3")
