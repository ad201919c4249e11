"""Witnesses as patches: ``witnesses/level3.patch`` is a unified diff against ``reference/``.

A witness is the reference with one rule broken; a patch says exactly which lines break it
and keeps the task folder free of near-identical copies of the reference. Patches are the
output of ``diff -ru reference witness`` (or any tool writing unified diffs with paths one
folder deep, like ``git diff``): the first path component is dropped, as ``patch -p1`` does.
Applying is strict: every context and removed line must match exactly, or the patch fails
with its file and line.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from benchsmith.errors import BenchsmithError

MUTANTS_DIR = "mutants"
"""A task's folder of authored mutant patches (``benchsmith audit``)."""

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
NO_NEWLINE = "\\ No newline at end of file"


class PatchError(BenchsmithError):
    """Raised when a witness patch is malformed or does not apply to the reference."""


@dataclass
class _Hunk:
    start: int  # 1-based first line of the old text (0 for an empty file)
    old: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    line: int = 0  # where the hunk starts in the patch file


@dataclass
class _FilePatch:
    old_path: str | None
    new_path: str | None
    hunks: list[_Hunk] = field(default_factory=list)
    old_newline: bool = True
    new_newline: bool = True


def _strip(header: str) -> str | None:
    """The path of a ``---``/``+++`` line without its first component; None for no file.

    No file is ``/dev/null`` or, as GNU ``diff -N`` writes it, a path dated at the epoch.
    """
    name, _, stamp = header[4:].partition("\t")
    name = name.strip()
    if name == "/dev/null" or stamp.startswith("1970-01-01 00:00:00"):
        return None
    parts = name.split("/", 1)
    return parts[1] if len(parts) == 2 else parts[0]


def parse_patch(text: str, shown: str) -> list[_FilePatch]:
    """Parse unified diff ``text`` (``shown`` names it in errors) into per-file patches."""
    patches: list[_FilePatch] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        if lines[index].startswith("--- ") and index + 1 < len(lines):
            if not lines[index + 1].startswith("+++ "):
                raise PatchError(f"{shown}:{index + 2}: expected a '+++' line after '---'")
            patches.append(_FilePatch(_strip(lines[index]), _strip(lines[index + 1])))
            index += 2
        elif lines[index].startswith("@@"):
            if not patches:
                raise PatchError(f"{shown}:{index + 1}: a hunk before any file header")
            index = _parse_hunk(lines, index, patches[-1], shown)
        else:
            index += 1  # "diff -ru ..." lines, "Only in ...", blank lines
    if not patches:
        raise PatchError(f"{shown}: no file changes found (expected a unified diff)")
    return patches


def _parse_hunk(lines: list[str], index: int, patch: _FilePatch, shown: str) -> int:
    match = HUNK.match(lines[index])
    if not match:
        raise PatchError(f"{shown}:{index + 1}: malformed hunk header {lines[index]!r}")
    old_len = int(match.group(2) or 1)
    new_len = int(match.group(4) or 1)
    hunk = _Hunk(int(match.group(1)), line=index + 1)
    index += 1
    while (len(hunk.old) < old_len or len(hunk.new) < new_len) and index < len(lines):
        tag, body = lines[index][:1], lines[index][1:]
        if tag in (" ", ""):
            hunk.old.append(body)
            hunk.new.append(body)
        elif tag == "-":
            hunk.old.append(body)
        elif tag == "+":
            hunk.new.append(body)
        else:
            raise PatchError(f"{shown}:{index + 1}: unexpected line in a hunk: {lines[index]!r}")
        index += 1
        if index < len(lines) and lines[index] == NO_NEWLINE:
            patch.old_newline = patch.old_newline and tag == "+"
            patch.new_newline = patch.new_newline and tag == "-"
            index += 1
    if len(hunk.old) != old_len or len(hunk.new) != new_len:
        raise PatchError(f"{shown}:{hunk.line}: the hunk ends early")
    patch.hunks.append(hunk)
    return index


def _apply_file(root: Path, patch: _FilePatch, shown: str) -> None:
    # The old path names the reference file; the new path matters only for new files.
    target = root / (patch.old_path or patch.new_path or "")
    text = ""
    if patch.old_path is not None:
        source = root / patch.old_path
        if not source.is_file():
            raise PatchError(f"{shown}: {patch.old_path} does not exist in the reference")
        text = source.read_text(encoding="utf-8")
    current = text.splitlines()
    result, cursor = [], 0
    for hunk in patch.hunks:
        begin = max(hunk.start - 1, 0) if hunk.old else hunk.start
        if current[begin : begin + len(hunk.old)] != hunk.old:
            raise PatchError(f"{shown}:{hunk.line}: the hunk does not match {patch.old_path}")
        result += current[cursor:begin] + hunk.new
        cursor = begin + len(hunk.old)
    untouched_tail = cursor < len(current)
    result += current[cursor:]
    if patch.new_path is None:
        target.unlink()
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    # A last line no hunk reached keeps the file's own ending; else the patch says.
    newline = text.endswith("\n") if untouched_tail else patch.new_newline
    ending = "\n" if result and newline else ""
    target.write_text("\n".join(result) + ending, encoding="utf-8")


def apply_patch(root: Path, patch_file: Path) -> None:
    """Apply the unified diff ``patch_file`` to the tree at ``root`` (paths ``-p1``).

    Raises:
        PatchError: When the patch is malformed or a hunk does not match exactly.
    """
    shown = patch_file.name
    for patch in parse_patch(patch_file.read_text(encoding="utf-8"), shown):
        _apply_file(root, patch, shown)


def patch_problem(task_dir: Path, patch: Path) -> str:
    """Why ``patch`` does not apply to the task's reference (empty string when it does)."""
    if not (task_dir / "reference").is_dir():
        return "reference/ is missing: a mutant patch applies to it"
    with tempfile.TemporaryDirectory(prefix="benchsmith-mutant-") as tmp:
        tree = Path(tmp) / "reference"
        shutil.copytree(task_dir / "reference", tree, symlinks=True)
        try:
            apply_patch(tree, patch)
        except PatchError as exc:
            return exc.message
        except (OSError, UnicodeDecodeError) as exc:
            return f"{patch.name}: {exc}"
    return ""
