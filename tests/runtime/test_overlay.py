"""benchlib.overlay: a candidate's editable paths are copied, never anything that escapes."""

from __future__ import annotations

import os
from pathlib import Path

from benchsmith.runtime import benchlib


def test_overlay_copies_files_and_inner_links_only(tmp_path: Path) -> None:
    src, dest = tmp_path / "ws", tmp_path / "run"
    solution = src / "solution"
    (solution / "pkg").mkdir(parents=True)
    (solution / "pkg" / "a.py").write_text("A = 1\n", "utf-8")
    (solution / "inner").symlink_to("pkg/a.py")
    (solution / "absolute").symlink_to("/etc/passwd")
    (solution / "relative").symlink_to("../../outside.txt")
    os.mkfifo(solution / "pipe")
    (dest / "solution").mkdir(parents=True)
    (dest / "solution" / "stale.py").write_text("old\n", "utf-8")
    before = benchlib.tree_entries(src)

    skipped: list[str] = []
    copied = benchlib.overlay(src, dest, ["solution/", "output/"], skipped)

    assert copied == ["solution/"]
    assert benchlib.tree_entries(src) == before
    assert (dest / "solution" / "pkg" / "a.py").read_text("utf-8") == "A = 1\n"
    assert (dest / "solution" / "inner").readlink() == Path("pkg/a.py")
    assert not (dest / "solution" / "stale.py").exists()
    for name in ("absolute", "relative", "pipe"):
        assert (
            not (dest / "solution" / name).exists() and not (dest / "solution" / name).is_symlink()
        )
    assert skipped == [
        "solution/absolute (a symlink leading outside the workspace)",
        "solution/pipe (not a regular file, folder or symlink)",
        "solution/relative (a symlink leading outside the workspace)",
    ]


def test_a_symlinked_editable_path_leading_out_is_left_out(tmp_path: Path) -> None:
    src, dest = tmp_path / "ws", tmp_path / "run"
    src.mkdir()
    dest.mkdir()
    (src / "solution").symlink_to(tmp_path)
    skipped: list[str] = []
    benchlib.overlay(src, dest, ["solution/"], skipped)
    assert not (dest / "solution").exists()
    assert skipped == ["solution (a symlink leading outside the workspace)"]


def test_paths_holding_outputs_are_not_copied_and_outputs_reset(tmp_path: Path) -> None:
    editable = ["solution/", "output/", "state/"]
    outputs = ["output/report.csv", "state/app.db", "solution/notes.txt"]
    assert benchlib.candidate_paths(editable, outputs) == []
    assert benchlib.candidate_paths(editable, ["output/report.csv"]) == ["solution/", "state/"]
    pristine, root = tmp_path / "pristine", tmp_path / "run"
    (pristine / "state").mkdir(parents=True)
    (pristine / "state" / "app.db").write_text("seeded\n", "utf-8")
    (root / "state").mkdir(parents=True)
    (root / "state" / "app.db").write_text("migrated by the agent\n", "utf-8")
    (root / "output").mkdir()
    (root / "output" / "report.csv").write_text("stale\n", "utf-8")
    benchlib.reset_outputs(root, pristine, ["output/report.csv", "state/app.db"])
    assert not (root / "output" / "report.csv").exists()
    assert (root / "state" / "app.db").read_text("utf-8") == "seeded\n"
