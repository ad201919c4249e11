"""Comparing folder trees by their entries (relative path, mode, content digest)."""

from __future__ import annotations

from collections.abc import Sequence

Entry = tuple[str, str, str]


def first_difference(before: Sequence[Entry], after: Sequence[Entry]) -> str:
    """Describe the first path whose entry differs between two trees (empty when equal).

    Args:
        before: :func:`benchlib.tree_entries` of the first tree.
        after: The same of the second tree.

    Returns:
        E.g. ``"inputs/a.csv: content differs"``, or ``""``.
    """
    left = {path: (mode, digest) for path, mode, digest in before}
    right = {path: (mode, digest) for path, mode, digest in after}
    for path in sorted(left.keys() | right.keys()):
        if left.get(path) != right.get(path):
            return f"{path}: {_describe(left.get(path), right.get(path))}"
    return ""


def _describe(left: tuple[str, str] | None, right: tuple[str, str] | None) -> str:
    if left is None:
        return "only in the second tree"
    if right is None:
        return "only in the first tree"
    if left[1] != right[1]:
        return "content differs"
    return f"mode {left[0]} versus {right[0]}"
