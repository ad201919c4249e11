"""Materialization never follows a symlink: nothing outside the destination ever changes."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib
from tests.runtime.seeds import SEED_ARGS

SEED = (
    SEED_ARGS
    + """\
out = pathlib.Path(args.out, "inputs")
out.mkdir(parents=True, exist_ok=True)
if args.stage == "2":
    (out / "later.csv").write_text("b\\n")
elif not args.only:
    (out / "first.csv").write_text("a\\n")
"""
)


@pytest.fixture
def private(tmp_path: Path) -> Path:
    """A mode-600 file outside every task and workspace."""
    path = tmp_path / "private" / "secret.txt"
    path.parent.mkdir()
    path.write_text("not for candidates\n", "utf-8")
    path.chmod(0o600)
    return path


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _task(tmp_path: Path) -> benchlib.Layout:
    task = tmp_path / "task"
    (task / "visible" / "inputs").mkdir(parents=True)
    (task / "seed.py").write_text(SEED, "utf-8")
    (task / "TASK.md").write_text("# Task\n", "utf-8")
    return benchlib.Layout(task, ("initial", "later"), ("solution/", "output/"))


def test_fix_modes_leaves_links_and_their_targets_alone(tmp_path: Path, private: Path) -> None:
    root = tmp_path / "fixture"
    root.mkdir()
    (root / "data.csv").write_text("a\n", "utf-8")
    (root / "link.txt").symlink_to(private)
    benchlib._fix_modes(root)
    assert _mode(private) == 0o600 and _mode(root / "data.csv") == 0o644
    assert (root / "link.txt").readlink() == private


def test_copy_tree_refuses_a_link_out_of_its_source(tmp_path: Path, private: Path) -> None:
    src, dest = tmp_path / "visible", tmp_path / "dest"
    (src / "inputs").mkdir(parents=True)
    (src / "inputs" / "a.csv").write_text("a\n", "utf-8")
    (src / "inputs" / "alias.csv").symlink_to("a.csv")
    benchlib.copy_tree(src, dest)
    assert (dest / "inputs" / "alias.csv").readlink() == Path("a.csv")
    (src / "inputs" / "secret.txt").symlink_to(private)
    (src / "answers").symlink_to("../reference")
    assert benchlib.escaping_links(src) == ["answers", "inputs/secret.txt"]
    with pytest.raises(ValueError, match=r"answers is a symlink leading outside"):
        benchlib.copy_tree(src, tmp_path / "other")
    assert not (tmp_path / "other").exists()


def test_materialize_refuses_a_visible_link_out_of_the_task(tmp_path: Path, private: Path) -> None:
    layout = _task(tmp_path)
    (layout.task_dir / "visible" / "inputs" / "secret.txt").symlink_to(private)
    with pytest.raises(ValueError, match="leading outside"):
        benchlib.make_workspace(layout, tmp_path / "ws", python=default_python())
    assert _mode(private) == 0o600
    assert not (tmp_path / "ws" / "inputs" / "secret.txt").is_symlink()


def test_protecting_inputs_never_changes_a_link_s_target(tmp_path: Path, private: Path) -> None:
    layout = _task(tmp_path)
    workspace = benchlib.make_workspace(layout, tmp_path / "ws", python=default_python())
    (workspace / "inputs").chmod(0o755)
    (workspace / "inputs" / "planted").symlink_to(private)
    (workspace / "solution" / "planted").symlink_to(private.parent)
    benchlib.protect_inputs(layout, workspace)
    assert _mode(private) == 0o600 and _mode(private.parent) == 0o755
    assert _mode(workspace / "inputs" / "first.csv") == 0o444


def test_a_stage_is_never_injected_through_a_planted_link(tmp_path: Path, private: Path) -> None:
    layout = _task(tmp_path)
    python = default_python()
    workspace = benchlib.make_workspace(layout, tmp_path / "ws", python=python)
    benchlib.make_writable(workspace / "inputs")
    benchlib.remove_path(workspace / "inputs")
    (workspace / "inputs").symlink_to(private.parent)  # the agent's attempt to redirect it
    benchlib.inject_stage(layout, workspace, 2, python)
    assert sorted(p.name for p in private.parent.iterdir()) == ["secret.txt"]
    assert _mode(private) == 0o600 and _mode(private.parent) == 0o755
    assert not (workspace / "inputs").is_symlink()
    assert (workspace / "inputs" / "later.csv").read_text("utf-8") == "b\n"
