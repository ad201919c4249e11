"""Smaller parts of the runner: the judge command line, archives, replay sources, ids."""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

import pytest

from benchsmith.errors import UsageError
from benchsmith.judging import JudgeCall
from benchsmith.running import builtin, records
from benchsmith.running.tasks import task_info
from benchsmith.runtime.run import write_archive
from tests.run.conftest import MULTI


def test_judge_command_line() -> None:
    task = task_info(MULTI)
    call = JudgeCall(task.task_dir, task.judge_command, "/py", 60.0, Path("/cache"))
    assert call.argv(Path("/w")) == ["/py", "judge.py", "--workspace", "/w", "--python", "/py",
                                     "--fixture-cache", "/cache"]  # fmt: skip


def _tree(root: Path) -> Path:
    (root / "solution").mkdir(parents=True)
    (root / "solution" / "a.py").write_text("print(1)\n", encoding="utf-8")
    (root / "inputs").mkdir()
    (root / "inputs" / "data.csv").write_text("x\n", encoding="utf-8")
    (root / "inputs" / "data.csv").chmod(0o444)
    (root / "solution" / "link").symlink_to("a.py")
    return root


def test_archives_are_deterministic(tmp_path: Path) -> None:
    first, second = _tree(tmp_path / "one"), _tree(tmp_path / "two")
    write_archive(first, tmp_path / "1.tar.gz")
    write_archive(second, tmp_path / "2.tar.gz")
    assert (tmp_path / "1.tar.gz").read_bytes() == (tmp_path / "2.tar.gz").read_bytes()
    with tarfile.open(tmp_path / "1.tar.gz") as tar:
        members = tar.getmembers()
    assert [m.name for m in members] == [
        "inputs", "inputs/data.csv", "solution", "solution/a.py", "solution/link"
    ]  # fmt: skip
    assert members[1].mode == 0o444 and members[4].linkname == "a.py"
    assert {(m.uid, m.uname, m.mtime) for m in members} == {(0, "", 0)}


def test_editable_archive_holds_only_editable_paths(tmp_path: Path) -> None:
    root = _tree(tmp_path / "ws")
    write_archive(root, tmp_path / "a.tar.gz", ("solution/", "output/"))
    data = gzip.decompress((tmp_path / "a.tar.gz").read_bytes())
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        assert tar.getnames() == ["solution", "solution/a.py", "solution/link"]


def test_replay_uses_per_stage_reference_folders_when_present(tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    (reference / "solution").mkdir(parents=True)
    assert builtin.source_for(reference, "returns") == reference
    (reference / "stages" / "returns").mkdir(parents=True)
    assert builtin.source_for(reference, "returns") == reference / "stages" / "returns"
    assert builtin.source_for(reference, "initial") == reference


def test_builtin_rejects_unknown_mode() -> None:
    assert builtin.main(["dance"]) == 2


def test_run_ids_and_arm_names() -> None:
    assert records.run_id_for("cand-1", "02-pantry-ledger", "primary", 7) == (
        "cand-1--02-pantry-ledger--r007"
    )
    assert records.run_id_for("a", "t", "diagnostic", 1) == "a--t--d001"
    for bad in ("", "-x", "a/b", "a b", "x" * 65):
        with pytest.raises(UsageError):
            records.check_arm(bad)


def test_newer_database_schema_is_refused(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / records.DB_NAME
    sqlite3.connect(path).execute("PRAGMA user_version = 99").connection.commit()
    with pytest.raises(records.RecordsError, match="schema version 99"):
        records.connect(path)


def test_fifos_are_left_out_of_archives_without_blocking(tmp_path: Path) -> None:
    import os

    root = _tree(tmp_path / "ws")
    os.mkfifo(root / "solution" / "pipe")
    skipped = write_archive(root, tmp_path / "a.tar.gz")
    assert skipped == [("solution/pipe", "unreadable")]


def test_files_above_the_copy_bound_are_left_out_of_archives_unread(tmp_path: Path) -> None:
    """A sparse 2 GiB file (no disk) is named, not read and compressed whole."""
    root = _tree(tmp_path / "ws")
    with open(root / "solution" / "sparse.bin", "wb") as stream:
        stream.truncate(2 << 30)
    skipped = write_archive(root, tmp_path / "a.tar.gz")
    assert skipped == [("solution/sparse.bin", f"above {256 << 20} bytes")]
    assert (tmp_path / "a.tar.gz").stat().st_size < 1 << 20


def test_replay_runs_the_commands_that_apply_at_the_stage(tmp_path: Path) -> None:
    """A command ``until`` an earlier stage is not replayed at later stages."""
    commands = [
        {"argv": ["python", "-c", f"open({name!r}, 'w')"], **staged}
        for name, staged in [
            ("always", {}),
            ("old", {"stage": "a", "until": "a"}),
            ("new", {"stage": "b"}),
        ]
    ]
    task = {"stages": ["a", "b"], "commands": commands}
    (tmp_path / "task").mkdir()
    (tmp_path / "task" / "judge.py").write_text(f"TASK = {task!r}\n", encoding="utf-8")
    for stage, stage_id, made in [(1, "a", ["always", "old"]), (2, "b", ["always", "new"])]:
        workspace = tmp_path / f"ws{stage}"
        workspace.mkdir()
        request = builtin.Request(
            "reply", stage, stage_id, workspace, tmp_path / "events", tmp_path, (), "",
            tmp_path / "task" / "reference",
        )  # fmt: skip
        builtin.run_commands(request, builtin.Emitter(tmp_path / "events"))
        assert sorted(p.name for p in workspace.iterdir()) == made
