"""The mutants of one task: generated from the reference by the operators, and authored.

Generated mutants come from every Python file of ``reference/`` inside the editable paths;
each is one :class:`~benchsmith.auditing.operators.Edit` of one file. Ids are stable across runs
-- ``OPERATOR@FILE:LINE:COL``, with ``#2``, ``#3`` ... for further edits one operator makes
at the same place -- so ``[audit] equivalent`` justifications keep naming the same mutant.
Mutants whose source equals an earlier one's are dropped (the first id is kept).

Authored mutants are ``mutants/NAME.patch``: unified diffs against the reference, applied
exactly as witnesses are, for domain bugs no operator produces. Their id is
``authored@NAME``; text before the first ``---`` line of the patch is their description.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from benchsmith.auditing import operators
from benchsmith.patches import MUTANTS_DIR, PatchError, parse_patch
from benchsmith.runtime import benchlib

AUTHORED = "authored"
CONTEXT_LINES = 2


@dataclass(frozen=True, slots=True)
class Mutant:
    """One mutant of the reference.

    Attributes:
        id: Stable id (``compare@solution/grades.py:25:12``, ``authored@tie-break``).
        operator: The operator's name, or ``authored``.
        file: Workspace-relative path of the (first) mutated file.
        line: 1-based line of the edit (of the first hunk for authored mutants).
        col: 1-based column of the edit (1 for authored mutants).
        description: What the mutant changes.
        diff: Unified diff against the reference.
        source: The whole mutated file (generated mutants; empty for authored ones).
        patch: The patch file (authored mutants).
    """

    id: str
    operator: str
    file: str
    line: int
    col: int
    description: str
    diff: str
    source: str = ""
    patch: Path | None = None

    def install(self, tree: Path) -> None:
        """Write the mutant into ``tree``, a copy of the reference's editable files.

        Raises:
            PatchError: When an authored patch does not apply.
        """
        from benchsmith.patches import apply_patch

        if self.patch is not None:
            apply_patch(tree, self.patch)
            return
        target = tree / self.file
        benchlib.remove_path(target)  # never write through a hard link
        target.write_text(self.source, encoding="utf-8")

    def to_dict(self) -> dict[str, object]:
        """The JSON-ready identity of the mutant (its source is left out)."""
        return {
            "id": self.id,
            "operator": self.operator,
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "description": self.description,
            "diff": self.diff,
        }


@dataclass(frozen=True, slots=True)
class MutantSet:
    """Every mutant of one task, and the files operators could not read.

    Attributes:
        mutants: Generated mutants (source order), then authored ones (name order).
        duplicates: Generated mutants dropped because an earlier one has the same source.
        problems: Reference files that do not parse, patches that are malformed.
    """

    mutants: tuple[Mutant, ...]
    duplicates: int
    problems: tuple[str, ...]


def reference_files(reference: Path, layout: benchlib.Layout) -> list[str]:
    """Workspace-relative paths of the reference's Python files inside the editable paths."""
    found = [p.relative_to(reference).as_posix() for p in sorted(reference.rglob("*.py"))]
    return [rel for rel in found if layout.is_editable(rel) and "__pycache__" not in rel]


def file_mutants(source: str, file: str) -> list[Mutant]:
    """Every mutant the operators make of one file (duplicates included), ids assigned.

    Raises:
        SyntaxError: When the file does not parse.
    """
    module = operators.parse_module(source, file)
    seen: dict[str, int] = {}
    found = []
    for edit in operators.edits(module):
        base = f"{edit.operator}@{file}:{edit.line}:{edit.col}"
        seen[base] = seen.get(base, 0) + 1
        ident = base if seen[base] == 1 else f"{base}#{seen[base]}"
        mutated = edit.apply(source)
        found.append(
            Mutant(
                ident, edit.operator, file, edit.line, edit.col, edit.description,
                unified_diff(source, mutated, file), source=mutated,
            )
        )  # fmt: skip
    return found


def unified_diff(before: str, after: str, file: str) -> str:
    """The unified diff of one file, with paths ``a/FILE`` and ``b/FILE``."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        f"a/{file}",
        f"b/{file}",
        n=CONTEXT_LINES,
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def generated_mutants(
    reference: Path, layout: benchlib.Layout
) -> tuple[list[Mutant], int, list[str]]:
    """The operators' mutants of every reference file, deduplicated by resulting source.

    Returns:
        The mutants, how many duplicates were dropped, and per-file problems.
    """
    mutants: list[Mutant] = []
    problems: list[str] = []
    sources: set[tuple[str, str]] = set()
    duplicates = 0
    for rel in reference_files(reference, layout):
        try:
            text = (reference / rel).read_text(encoding="utf-8")
            found = file_mutants(text, rel)
        except (SyntaxError, UnicodeDecodeError, ValueError) as exc:
            problems.append(f"reference/{rel}: not mutated: {type(exc).__name__}: {exc}")
            continue
        for mutant in found:
            if (mutant.file, mutant.source) in sources or mutant.source == text:
                duplicates += 1
                continue
            sources.add((mutant.file, mutant.source))
            mutants.append(mutant)
    return mutants, duplicates, problems


def authored_mutants(task_dir: Path) -> tuple[list[Mutant], list[str]]:
    """The mutants of ``mutants/*.patch`` and the problems of malformed patches."""
    folder = task_dir / MUTANTS_DIR
    mutants, problems = [], []
    for patch in sorted(folder.glob("*.patch")) if folder.is_dir() else []:
        text = patch.read_text(encoding="utf-8")
        try:
            parsed = parse_patch(text, f"{MUTANTS_DIR}/{patch.name}")
        except PatchError as exc:
            problems.append(exc.message)
            continue
        first = parsed[0]
        line = first.hunks[0].start if first.hunks else 1
        file = first.new_path or first.old_path or ""
        mutants.append(
            Mutant(
                f"{AUTHORED}@{patch.stem}", AUTHORED, file, line, 1,
                _description(text, patch.stem), _diff_part(text), patch=patch,
            )
        )  # fmt: skip
    return mutants, problems


def _description(text: str, name: str) -> str:
    """The prose before the first ``---`` line of a patch, or a default."""
    head = []
    for line in text.splitlines():
        if line.startswith(("--- ", "diff ")):
            break
        head.append(line.strip())
    prose = " ".join(h for h in head if h)
    return prose or f"authored mutant {name}"


def _diff_part(text: str) -> str:
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith("--- ")), 0)
    return "".join(lines[start:])


def task_mutants(task_dir: Path, layout: benchlib.Layout) -> MutantSet:
    """Every mutant of a task: generated from ``reference/``, then ``mutants/*.patch``."""
    generated, duplicates, problems = generated_mutants(task_dir / "reference", layout)
    authored, more = authored_mutants(task_dir)
    return MutantSet(tuple(generated + authored), duplicates, tuple(problems + more))
