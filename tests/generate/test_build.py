"""build: golden output, authored regions, hand-edit conflicts, --check, all-or-nothing writes."""

from __future__ import annotations

import ast
import errno
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from benchsmith.building import build
from benchsmith.errors import ConflictError, FileSystemError, StaleError, TaskSpecError
from benchsmith.generate import env
from benchsmith.locking import locked
from tests.conftest import EXAMPLES, MINIMAL_TASK, lock

GENERATED = ("seed.py", "judge.py", "TASK.md", "scenario.json", "benchsmith.lock")


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("name", ["01-grade-summary", "02-pantry-ledger"])
def test_examples_regenerate_byte_identical(example_copy: Callable[[str], Path], name: str) -> None:
    task = example_copy(name)
    build([task])
    for generated in GENERATED:
        assert (task / generated).read_bytes() == (EXAMPLES / name / generated).read_bytes(), (
            generated
        )


def test_committed_examples_are_up_to_date() -> None:
    result = build([EXAMPLES / "01-grade-summary", EXAMPLES / "02-pantry-ledger"], check=True)
    assert len(result.tasks) == 2


def test_generated_files_have_headers_and_parse(make_task: Callable[..., Path]) -> None:
    task = make_task()
    build([task])
    for name in ("seed.py", "judge.py"):
        source = (task / name).read_text(encoding="utf-8")
        assert source.startswith("# generated from task.toml by benchsmith")
        ast.parse(source)
    assert (task / "TASK.md").read_text(encoding="utf-8").startswith("<!-- generated")
    scenario = json.loads((task / "scenario.json").read_text(encoding="utf-8"))
    assert scenario["judge_command"] == ["python", "judge.py", "--workspace", "{workspace}"]
    assert (task.parent / "benchlib.py").is_file()
    index = json.loads((task.parent / "tasks.json").read_text(encoding="utf-8"))
    assert [t["path"] for t in index["tasks"]] == ["07-tiny-task"]


def test_rebuild_keeps_authored_region(make_task: Callable[..., Path]) -> None:
    task = make_task()
    build([task])
    judge = task / "judge.py"
    authored = (
        "@judge.check(level=3)\n"
        "def mine(run: benchlib.Run) -> None:\n"
        "    benchlib.expect(True, 'kept')\n"
    )
    text = judge.read_text(encoding="utf-8")
    start = text.index(env.REGION_START) + len(env.REGION_START) + 1
    judge.write_text(text[:start] + authored + text[text.index(env.REGION_END) :], encoding="utf-8")
    (task / "task.toml").write_text(
        MINIMAL_TASK.replace("Tiny Task", "Tiny Task Renamed"), encoding="utf-8"
    )
    build([task])
    rebuilt = judge.read_text(encoding="utf-8")
    start = rebuilt.index(env.REGION_START) + len(env.REGION_START) + 1
    assert rebuilt[start : rebuilt.index(env.REGION_END)] == authored  # byte for byte
    assert "Tiny Task Renamed" in rebuilt
    assert "TODO" not in rebuilt


def test_hand_edit_outside_region_is_a_conflict(make_task: Callable[..., Path]) -> None:
    task = make_task()
    build([task])
    seed = task / "seed.py"
    seed.write_text(seed.read_text(encoding="utf-8") + "# my note\n", encoding="utf-8")
    (task / "task.toml").write_text(MINIMAL_TASK.replace("rows = 5", "rows = 6"), encoding="utf-8")
    before = snapshot(task)
    with pytest.raises(ConflictError) as caught:
        build([task])
    assert [d.code for d in caught.value.diagnostics] == ["BS504"]
    assert caught.value.diagnostics[0].path.endswith("seed.py")
    assert snapshot(task) == before  # nothing written
    build([task], force=True)
    assert "# my note" not in seed.read_text(encoding="utf-8")


def test_judge_edit_outside_region_is_a_conflict(make_task: Callable[..., Path]) -> None:
    task = make_task()
    build([task])
    judge = task / "judge.py"
    judge.write_text(
        judge.read_text(encoding="utf-8").replace(
            "import benchlib\n", "import benchlib\nimport os\n"
        ),
        encoding="utf-8",
    )
    with pytest.raises(ConflictError):
        build([task])


def test_broken_region_markers_are_reported(make_task: Callable[..., Path]) -> None:
    task = make_task()
    build([task])
    judge = task / "judge.py"
    judge.write_text(
        judge.read_text(encoding="utf-8").replace(env.REGION_END, ""), encoding="utf-8"
    )
    with pytest.raises(ConflictError, match="authored region"):
        build([task])


def test_check_names_stale_files_and_writes_nothing(make_task: Callable[..., Path]) -> None:
    task = make_task()
    build([task])
    (task / "task.toml").write_text(
        MINIMAL_TASK.replace("Sum the values", "Add up the values"), encoding="utf-8"
    )
    before = snapshot(task.parent)
    with pytest.raises(StaleError) as caught:
        build([task], check=True)
    stale = sorted(Path(d.path).name for d in caught.value.diagnostics if d.code == "BS501")
    assert stale == ["TASK.md", "benchsmith.lock"]
    assert snapshot(task.parent) == before


def test_invalid_task_writes_nothing(make_task: Callable[..., Path]) -> None:
    task = make_task()
    build([task])
    (task / "task.toml").write_text(
        MINIMAL_TASK.replace("rows = 5", "rows = 'x'"), encoding="utf-8"
    )
    before = snapshot(task.parent)
    with pytest.raises(TaskSpecError):
        build([task])
    assert snapshot(task.parent) == before


def test_a_failed_write_leaves_the_previous_files_and_no_staging(
    make_task: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    task = make_task()
    build([task])
    (task / "task.toml").write_text(
        MINIMAL_TASK.replace("Tiny Task", "Changed Task"), encoding="utf-8"
    )
    before = snapshot(task.parent)
    real_fsync = os.fsync
    calls = []

    def full_disk(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 3:  # part-way through staging the new files
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(FileSystemError, match="No space left"):
        build([task])
    monkeypatch.undo()
    assert snapshot(task.parent) == before  # no staging file either


def test_a_write_interrupted_after_its_commit_is_finished_by_the_next_writer(
    make_task: Callable[..., Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    task = make_task()
    build([task])
    changed = MINIMAL_TASK.replace("Tiny Task", "Changed Task")
    (task / "task.toml").write_text(changed, encoding="utf-8")
    twin = tmp_path / "twin" / task.name
    shutil.copytree(task, twin)
    build([twin])  # what the interrupted build would have written
    real_replace = Path.replace
    calls = []

    def failing_replace(self: Path, target: Path) -> Path:
        calls.append(self)
        if len(calls) == 4:  # part-way through the committed renames
            raise OSError(errno.EIO, "I/O error")
        return real_replace(self, target)

    monkeypatch.setattr(Path, "replace", failing_replace)
    with pytest.raises(FileSystemError):
        build([task])
    monkeypatch.undo()
    assert any(p.name.startswith(".benchsmith-journal-") for p in task.parent.iterdir())
    with locked([task.parent]):  # any writer locking the corpus finishes the write
        pass
    assert snapshot(task) == snapshot(twin)
    assert not [p for p in task.parent.rglob(".*") if "benchsmith" in p.name]


def test_build_is_deterministic(make_task: Callable[..., Path]) -> None:
    task = make_task()
    build([task])
    first = snapshot(task.parent)
    for name in GENERATED:
        (task / name).unlink()
    build([task])
    assert snapshot(task.parent) == first


def test_one_build_after_editing_the_region_reaches_a_fixpoint(
    make_task: Callable[..., Path],
) -> None:
    task = make_task()
    build([task])
    lock(task)
    judge = task / "judge.py"
    text = judge.read_text(encoding="utf-8")
    start = text.index(env.REGION_START) + len(env.REGION_START) + 1
    unformatted = "@judge.check(level=3)\ndef mine(run):\n    benchlib.expect( 1==1,'x' )\n"
    judge.write_text(
        text[:start] + unformatted + text[text.index(env.REGION_END) :], encoding="utf-8"
    )
    build([task])
    assert unformatted in judge.read_text(encoding="utf-8")  # only generated code is formatted
    build([task], check=True)  # no second build needed
