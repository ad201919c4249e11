"""Issue 26: odd trees an agent leaves are data, not crashes (any depth, names that are not
UTF-8, FIFOs), in the judge, the archive, run.json, runs.db and the next invocation."""

from __future__ import annotations

import json
import os
import sqlite3
import tarfile
import time
from pathlib import Path

import pytest

from benchsmith.runtime import benchlib
from benchsmith.runtime.run import ABANDONED_SECONDS, TEMP_PREFIX, sweep_stale_temp
from tests.run.conftest import SINGLE, batch, write_adapter

DEPTH = 1200

ODD = rf"""
import json, os
workspace = os.environ["BENCHSMITH_WORKSPACE"]
solution = os.path.join(workspace, "solution")
os.makedirs(solution, exist_ok=True)
folder = os.path.join(solution, "deep")
os.mkdir(folder)
for _ in range({DEPTH}):
    folder = os.path.join(folder, "d")
    os.mkdir(folder)
with open(os.path.join(folder, "leaf.txt"), "w") as stream:
    stream.write("leaf")
os.mkfifo(os.fsencode(solution) + b"/fifo-\xff")
with open(os.fsencode(solution) + b"/name-\xfe.txt", "w") as stream:
    stream.write("odd name")
with open(os.environ["BENCHSMITH_EVENTS"], "a") as events:
    events.write(json.dumps({{"type": "idle"}}) + "\n")
"""


def _deep_file(root: Path) -> Path:
    return root.joinpath("deep", *["d"] * DEPTH, "leaf.txt")


def test_walk_copy_and_delete_handle_any_depth(tmp_path: Path) -> None:
    src, dest = tmp_path / "src", tmp_path / "dest"
    src.mkdir()
    dest.mkdir()
    folder = src
    for _ in range(DEPTH):
        folder = folder / "d"
        folder.mkdir()
    (folder / "leaf").write_text("x", encoding="utf-8")
    try:
        folders = [f for f, _, _ in benchlib.walk(src)]
        assert len(folders) == DEPTH + 1 and folders[0] == str(src)
        assert [f for f, _, _ in benchlib.walk(src, topdown=False)] == folders[::-1]
        skipped: list[str] = []
        assert benchlib.overlay(tmp_path, dest, ["src/"], skipped) == ["src/"]
        assert skipped == []
        assert dest.joinpath("src", *["d"] * DEPTH, "leaf").read_text("utf-8") == "x"
        benchlib.delete_tree(dest)
        benchlib.remove_path(src)
        assert not dest.exists() and not src.exists()
    finally:  # pytest's own clean-up of old temporary folders recurses (Python 3.11)
        benchlib.delete_tree(tmp_path, ignore_errors=True)


def test_a_run_that_leaves_an_odd_tree_is_judged_and_recorded(tmp_path: Path) -> None:
    agent = write_adapter(tmp_path, "odd.py", ODD)
    runs = tmp_path / "runs"
    (outcome,) = batch(runs, [SINGLE], agent, arm="odd").outcomes
    assert outcome.end_reason == "completed", outcome.end_detail
    assert outcome.verdict is not None and outcome.verdict.status == "fail"
    record = json.loads((runs / outcome.run_id / "run.json").read_text("utf-8"))
    assert record["verdict"]["status"] == "fail"
    skipped = [d["message"] for d in record["diagnostics"] if d["code"] == "archive"]
    assert skipped == ["unreadable, not archived: solution/fifo-\udcff"]
    with tarfile.open(runs / outcome.run_id / "workspace.tar.gz") as archive:
        names = archive.getnames()
    assert "solution/name-\udcfe.txt" in names
    assert _deep_file(Path("solution")).as_posix() in names
    with sqlite3.connect(runs / "runs.db") as conn:
        rows = conn.execute("SELECT status FROM verdicts WHERE run_id = ?", (outcome.run_id,))
        assert rows.fetchall() == [("fail",)]
    (again,) = batch(runs, [SINGLE], "nop", arm="after").outcomes  # the next invocation works
    assert again.end_reason == "completed"


def test_a_dead_invocations_deep_folder_is_swept(tmp_path: Path) -> None:
    stale = tmp_path / f"{TEMP_PREFIX}dead"
    folder = stale / "workspace"
    folder.mkdir(parents=True)
    for _ in range(DEPTH):
        folder = folder / "d"
        folder.mkdir()
    folder.chmod(0o555)
    old = time.time() - 2 * ABANDONED_SECONDS
    os.utime(stale, (old, old))
    try:
        assert sweep_stale_temp(tmp_path) == [stale]
        assert not stale.exists()
    finally:
        benchlib.make_writable(tmp_path)
        benchlib.delete_tree(tmp_path, ignore_errors=True)


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))  # noqa: PTH208


def test_deep_copy_and_delete_leave_no_descriptor_open_and_never_follow_a_link(
    tmp_path: Path,
) -> None:
    """Walking through folder descriptors (linear at any depth) closes each one it opens,
    also when a folder cannot be entered, and a symlink given as the tree is not followed."""
    src, dest = tmp_path / "src", tmp_path / "dest"
    folder = src / "solution"
    folder.mkdir(parents=True)
    dest.mkdir()
    for _ in range(300):
        folder = folder / "d"
        folder.mkdir()
    (folder / "leaf").write_text("x", encoding="utf-8")
    os.mkfifo(src / "solution" / "fifo")
    try:
        before = _open_descriptors()
        skipped: list[str] = []
        benchlib.overlay(src, dest, ["solution/"], skipped)
        assert skipped == ["solution/fifo (not a regular file, folder or symlink)"]
        assert dest.joinpath("solution", *["d"] * 300, "leaf").read_text("utf-8") == "x"
        benchlib.delete_tree(dest / "solution")
        assert not (dest / "solution").exists()
        assert _open_descriptors() == before
        (tmp_path / "link").symlink_to(src)
        with pytest.raises(OSError):  # a symlink is not a tree: refused, not followed
            benchlib.delete_tree(tmp_path / "link")
        assert (src / "solution" / "fifo").exists()  # nothing behind the link was removed
        assert _open_descriptors() == before
    finally:
        benchlib.delete_tree(tmp_path, ignore_errors=True)
