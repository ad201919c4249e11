"""Authored mutants: patches in mutants/, described by their leading prose, linted."""

from __future__ import annotations

from pathlib import Path

from benchsmith.auditing.mutants import authored_mutants, task_mutants
from benchsmith.dsl.load import load_task
from benchsmith.linting import lint_paths
from benchsmith.patches import patch_problem
from benchsmith.workspaces import layout_for
from tests.audit.conftest import CopyExample

PATCH = """\
Unscored students are left out
of the summary.
--- a/solution/grades.py
+++ b/solution/grades.py
@@ -27,7 +27,7 @@
         elif value == top:
             holders.add(student)
     summary = []
-    for student in sorted(courses):
+    for student in sorted(s for s in courses if scores[s]):
         values = scores[student]
         average = ""
         if values:
"""


def test_an_authored_mutant_is_described_by_its_leading_prose(example: CopyExample) -> None:
    task = example("01-grade-summary")
    (task / "mutants" / "drop-unscored.patch").write_text(PATCH, "utf-8")
    found, problems = authored_mutants(task)
    assert problems == []
    assert [m.id for m in found] == ["authored@courses-skip-blank", "authored@drop-unscored"]
    mutant = found[1]
    assert mutant.id == "authored@drop-unscored"
    assert mutant.description == "Unscored students are left out of the summary."
    assert (mutant.file, mutant.line) == ("solution/grades.py", 27)
    assert mutant.diff.startswith("--- a/solution/grades.py")
    assert patch_problem(task, task / "mutants" / "drop-unscored.patch") == ""


def test_generated_mutants_are_deduplicated_and_authored_ones_follow(
    example: CopyExample,
) -> None:
    task = example("01-grade-summary")
    (task / "mutants" / "drop-unscored.patch").write_text(PATCH, "utf-8")
    made = task_mutants(task, layout_for(load_task(task)))
    ids = [m.id for m in made.mutants]
    assert len(ids) == len(set(ids)) >= 20
    assert ids[-2:] == ["authored@courses-skip-blank", "authored@drop-unscored"]
    sources = [(m.file, m.source) for m in made.mutants if m.source]
    assert len(sources) == len(set(sources))
    assert made.problems == ()


def test_lint_reports_patches_that_do_not_apply_and_stray_files(example: CopyExample) -> None:
    task = example("01-grade-summary")
    (task / "mutants" / "broken.patch").write_text(PATCH.replace("sorted(courses)", "x"), "utf-8")
    (task / "mutants" / "notes.txt").write_text("ideas\n", "utf-8")
    found = [
        (Path(d.path).name, d.code, d.message) for d in lint_paths([task]) if d.code == "BS903"
    ]
    assert found == [
        ("broken.patch", "BS903", "broken.patch:5: the hunk does not match solution/grades.py"),
        (
            "notes.txt",
            "BS903",
            "mutants/ holds only NAME.patch files (unified diffs against reference/)",
        ),
    ]
