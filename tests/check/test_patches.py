"""Witness patches: unified diffs applied strictly to a copy of the reference."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchsmith.patches import PatchError, apply_patch


def write_patch(tmp_path: Path, text: str) -> Path:
    patch = tmp_path / "level3.patch"
    patch.write_text(text, encoding="utf-8")
    return patch


def diff(rel: str, old: str | None, new: str | None) -> str:
    before = old.splitlines(keepends=True) if old is not None else []
    after = new.splitlines(keepends=True) if new is not None else []
    lines = difflib.unified_diff(
        before,
        after,
        f"a/{rel}" if old is not None else "/dev/null",
        f"b/{rel}" if new is not None else "/dev/null",
    )
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def test_modify_add_and_delete_files(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "solution").mkdir(parents=True)
    (root / "solution" / "a.py").write_text("one\ntwo\nthree\n", encoding="utf-8")
    (root / "solution" / "gone.py").write_text("x\n", encoding="utf-8")
    text = (
        diff("solution/a.py", "one\ntwo\nthree\n", "one\n2\nthree\nfour\n")
        + diff("solution/new.py", None, "fresh\n")
        + diff("solution/gone.py", "x\n", None)
    )
    apply_patch(root, write_patch(tmp_path, text))
    assert (root / "solution" / "a.py").read_text(encoding="utf-8") == "one\n2\nthree\nfour\n"
    assert (root / "solution" / "new.py").read_text(encoding="utf-8") == "fresh\n"
    assert not (root / "solution" / "gone.py").exists()


def test_a_hunk_that_does_not_match_is_located(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "solution").mkdir(parents=True)
    (root / "solution" / "a.py").write_text("one\nTWO\nthree\n", encoding="utf-8")
    patch = write_patch(tmp_path, diff("solution/a.py", "one\ntwo\nthree\n", "one\n2\nthree\n"))
    with pytest.raises(
        PatchError, match=r"level3\.patch:3: the hunk does not match solution/a\.py"
    ):
        apply_patch(root, patch)


def test_malformed_patches(tmp_path: Path) -> None:
    with pytest.raises(PatchError, match="no file changes"):
        apply_patch(tmp_path, write_patch(tmp_path, "just text\n"))
    bad_hunk = "--- a/x\n+++ b/x\n@@ nonsense @@\n"
    with pytest.raises(PatchError, match=r":3: malformed hunk header"):
        apply_patch(tmp_path, write_patch(tmp_path, bad_hunk))
    short = "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n"
    with pytest.raises(PatchError, match="ends early"):
        apply_patch(tmp_path, write_patch(tmp_path, short))


lines = st.lists(st.text(alphabet="abc \t#=", max_size=8), max_size=12)


@settings(max_examples=200, deadline=None)
@given(old=lines, new=lines, old_eol=st.booleans(), new_eol=st.booleans())
def test_any_difflib_patch_round_trips(
    tmp_path_factory: pytest.TempPathFactory,
    old: list[str],
    new: list[str],
    old_eol: bool,
    new_eol: bool,
) -> None:
    before = "\n".join(old) + ("\n" if old and old_eol else "")
    after = "\n".join(new) + ("\n" if new and new_eol else "")
    if before == after:
        return
    root = tmp_path_factory.mktemp("ws")
    (root / "f.txt").write_text(before, encoding="utf-8")
    apply_patch(root, write_patch(root, diff("f.txt", before, after)))
    assert (root / "f.txt").read_text(encoding="utf-8") == after


def test_a_patch_written_by_diff_ru_applies(tmp_path: Path) -> None:
    import subprocess

    work = tmp_path / "work"
    for side, body in (("a", "x = 1\n"), ("b", "x = 2\n")):
        (work / side / "solution").mkdir(parents=True)
        (work / side / "solution" / "m.py").write_text(body, encoding="utf-8")
    (work / "b" / "solution" / "extra.py").write_text("y = 3\n", encoding="utf-8")
    done = subprocess.run(
        ["diff", "-ruN", "a", "b"], cwd=work, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1  # differences found
    root = tmp_path / "ws"
    (root / "solution").mkdir(parents=True)
    (root / "solution" / "m.py").write_text("x = 1\n", encoding="utf-8")
    apply_patch(root, write_patch(tmp_path, done.stdout))
    assert (root / "solution" / "m.py").read_text(encoding="utf-8") == "x = 2\n"
    assert (root / "solution" / "extra.py").read_text(encoding="utf-8") == "y = 3\n"
