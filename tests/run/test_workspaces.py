"""Seeded once per invocation, copied per run: the copies are exactly what seeding writes."""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from benchsmith.pythons import default_python
from benchsmith.running import batch as batch_module
from benchsmith.running.tasks import task_info
from benchsmith.running.workspaces import WorkspaceSource
from benchsmith.runtime import benchlib
from tests.run.conftest import MULTI, REPO, SINGLE, batch

INCIDENT = REPO / "tasks" / "13-incident-timeline"
Entries = list[tuple[str, str, str]]


@pytest.fixture(scope="module")
def python() -> str:
    return default_python()


def sources(task_dir: Path, python: str, cache: Path) -> tuple[WorkspaceSource, WorkspaceSource]:
    """The task's fresh source and a cached one."""
    layout = task_info(task_dir).layout
    return WorkspaceSource(layout, python), WorkspaceSource(layout, python, cache)


def assert_same_stages(task_dir: Path, python: str, tmp: Path) -> list[Entries]:
    """Materialize and inject every stage both ways; return each stage's entries."""
    fresh, cached = sources(task_dir, python, tmp / "cache")
    old, new = tmp / "fresh", tmp / "copied"
    with ThreadPoolExecutor(2) as pool:  # seed.py runs in a subprocess: seed both at once
        jobs = [pool.submit(fresh.make, old), pool.submit(cached.make, tmp / "warm")]
        for job in jobs:
            job.result()
    cached.make(new)  # a copy of the cache the first run built
    digests: dict[tuple[int, ...], str] = {}  # files a stage leaves alone are hashed once
    stages = [benchlib.tree_entries(old, digests)]
    assert benchlib.tree_entries(new, digests) == stages[0]
    for stage in range(2, len(fresh.layout.stages) + 1):
        fresh.inject(old, stage)
        cached.inject(new, stage)
        stages.append(benchlib.tree_entries(old, digests))
        assert benchlib.tree_entries(new, digests) == stages[-1], f"stage {stage}"
    return stages


@pytest.mark.parametrize("task_dir", [SINGLE, MULTI], ids=lambda p: p.name)
def test_a_cached_copy_is_the_tree_fresh_seeding_writes(
    task_dir: Path, python: str, tmp_path: Path
) -> None:
    stages = assert_same_stages(task_dir, python, tmp_path)
    modes = {mode for _, mode, _ in stages[-1]}
    assert {"444", "555", "755"} <= modes  # read-only inputs, writable editable folders
    assert len(stages) == len(task_info(task_dir).stages)


@pytest.mark.slow
def test_task_13s_cached_copy_is_the_tree_fresh_seeding_writes(python: str, tmp_path: Path) -> None:
    stages = assert_same_stages(INCIDENT, python, tmp_path)
    assert len(stages) == 4
    assert any(path.endswith(".gz") for path, _, _ in stages[0])


def test_symlinks_are_copied_as_links(python: str, tmp_path: Path) -> None:
    _, cached = sources(SINGLE, python, tmp_path / "cache")
    cached.make(tmp_path / "warm")
    tree = tmp_path / "cache" / "workspace" / "tree"
    tree.chmod(0o755)
    (tree / "link").symlink_to("inputs/scores.csv")
    (tree / "dangling").symlink_to("/nonexistent/outside")
    cached.make(tmp_path / "copy")
    assert (tmp_path / "copy" / "link").readlink() == Path("inputs/scores.csv")
    assert (tmp_path / "copy" / "dangling").readlink() == Path("/nonexistent/outside")


def count_seeds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, bool]]:
    """Record every seed.py run (fixture, stage, only)."""
    calls: list[tuple[str, int, bool]] = []
    real = benchlib.run_seed

    def run_seed(layout: benchlib.Layout, dest: Path, **kwargs: Any) -> None:
        calls.append((kwargs["fixture"], kwargs["stage"], kwargs.get("only", False)))
        real(layout, dest, **kwargs)

    monkeypatch.setattr(benchlib, "run_seed", run_seed)
    return calls


def test_each_workspace_and_stage_is_seeded_once(
    python: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = count_seeds(monkeypatch)
    _, cached = sources(MULTI, python, tmp_path / "cache")
    for number in range(3):
        workspace = tmp_path / f"run-{number}"
        cached.make(workspace)
        cached.inject(workspace, 2)
        cached.inject(workspace, 3)
    assert calls == [("main", 1, False), ("main", 2, True), ("main", 3, True)]


def test_concurrent_runs_wait_for_one_seeding(
    python: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = count_seeds(monkeypatch)
    _, cached = sources(SINGLE, python, tmp_path / "cache")
    errors: list[BaseException] = []

    def run(number: int) -> None:
        try:
            cached.make(tmp_path / f"run-{number}")
        except BaseException as exc:  # reported below; a thread cannot raise into the test
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert calls == [("main", 1, False)]
    trees = {str(benchlib.tree_entries(tmp_path / f"run-{n}")) for n in range(4)}
    assert len(trees) == 1
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == [
        ".workspace.lock",
        "workspace",
    ]


def test_a_tree_a_copy_cannot_reproduce_is_seeded_afresh(
    python: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = benchlib.make_workspace

    def with_fifo(layout: benchlib.Layout, dest: Path, **kwargs: Any) -> Path:
        real(layout, dest, **kwargs)
        os.mkfifo(dest / "output" / "pipe")
        return dest

    monkeypatch.setattr(benchlib, "make_workspace", with_fifo)
    _, cached = sources(SINGLE, python, tmp_path / "cache")
    cached.make(tmp_path / "ws")
    assert not (tmp_path / "cache" / "workspace" / "tree").exists()
    entries = {path: digest for path, _, digest in benchlib.tree_entries(tmp_path / "ws")}
    assert entries["output/pipe"] == "special"


def leftovers(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith("benchsmith-workspaces-"))


@pytest.fixture
def private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary folder of this test's own, where the batch puts its cache."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_a_batch_copies_the_cache_and_removes_it(
    private_tmp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Path | None] = []
    real = batch_module.execute_run

    def execute_run(plan: Any) -> Any:
        seen.append(plan.workspace_cache)
        assert plan.workspace_cache.parents[2] == private_tmp  # in the invocation's folder
        return real(plan)

    monkeypatch.setattr(batch_module, "execute_run", execute_run)
    result = batch(tmp_path / "runs", [MULTI], "nop", repeat=2, archive="none", unsealed=True)
    assert [o.end_reason for o in result.outcomes] == ["completed", "completed"]
    assert len(set(seen)) == 1 and seen[0] is not None and seen[0].name == MULTI.name
    assert leftovers(private_tmp) == []


def test_the_cache_is_removed_when_the_batch_fails(
    private_tmp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = batch_module.execute_run
    calls: list[object] = []

    def interrupt_second(plan: Any) -> Any:
        calls.append(plan)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(plan)

    monkeypatch.setattr(batch_module, "execute_run", interrupt_second)
    with pytest.raises(KeyboardInterrupt):
        batch(tmp_path / "runs", [SINGLE], "nop", repeat=3, archive="none")
    assert leftovers(private_tmp) == []


def test_reuse_can_be_turned_off(
    private_tmp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = count_seeds(monkeypatch)
    seen: list[Path | None] = []
    real = batch_module.execute_run
    record: Callable[[Any], Any] = lambda plan: seen.append(plan.workspace_cache) or real(plan)  # noqa: E731
    monkeypatch.setattr(batch_module, "execute_run", record)
    batch(tmp_path / "runs", [SINGLE], "nop", repeat=2, archive="none", reuse_workspaces=False)
    assert seen == [None, None]
    assert calls == [("main", 1, False)] * 2
