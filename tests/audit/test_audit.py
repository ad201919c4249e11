"""benchsmith audit on copies of the examples: survivors, kills, equivalents, expectations."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from benchsmith.auditing import AuditOptions, audit_tasks
from benchsmith.auditing.mutants import unified_diff
from benchsmith.auditrecord import RECORD_FILE
from benchsmith.pythons import default_python
from tests.audit.conftest import CopyExample, audit_json, edit_authored, edit_task_data, invoke

TOP_CHECK = 'benchlib.expect_equal(run.json("output/top.json"), want, "top.json")'
WEAK_TOP_CHECK = 'benchlib.expect(isinstance(run.json("output/top.json"), dict), "an object")'


def _ignore_top_json(task: Path) -> None:
    """A judge that no longer checks what top.json says (only that it is an object)."""
    edit_authored(task, TOP_CHECK, WEAK_TOP_CHECK)
    edit_task_data(
        task,
        lambda data: data.update(
            expect=[e for e in data["expect"] if e["file"] != "output/top.json"]
        ),
    )


def _task(report: dict[str, Any]) -> dict[str, Any]:
    [task] = report["tasks"]
    return task


def test_a_weak_judge_lets_a_mutant_survive_and_the_audit_fails(example: CopyExample) -> None:
    task = example("01-grade-summary")
    _ignore_top_json(task)
    code, report = audit_json(task, "--operator", "compare", "--no-expectations")
    assert code == 1 and report["ok"] is False
    audit = _task(report)
    survivor = next(s for s in audit["survivors"] if s["line"] == 25)
    assert survivor["id"] == "compare@solution/grades.py:25:12"
    assert survivor["description"] == "comparison flipped: `value > top` → `value >= top`"
    assert survivor["diff"].startswith("--- a/solution/grades.py\n+++ b/solution/grades.py\n")
    assert "-        if value > top:\n+        if value >= top:\n" in survivor["diff"]
    assert survivor["level"] == 5
    assert survivor["reason"] == "outputs differ: main: output/top.json"
    assert audit["mutants"]["survived"] == len(audit["survivors"]) >= 1


def test_the_example_judge_kills_the_same_mutants(example: CopyExample) -> None:
    code, report = audit_json(example("01-grade-summary"), "--operator", "compare")
    audit = _task(report)
    assert code == 0, audit
    assert audit["mutants"]["total"] == audit["mutants"]["killed"] >= 2
    assert "compare@solution/grades.py:25:12" in audit["killed"]
    assert audit["survivors"] == []


def test_equivalents_are_found_reported_and_justified(example: CopyExample) -> None:
    task = example("01-grade-summary")
    toml = task / "task.toml"
    toml.write_text(toml.read_text("utf-8").split("\n[audit]")[0], "utf-8")
    selection = ("--operator", "json-sort-keys", "--operator", "csv-quoting", "--no-expectations")
    code, report = audit_json(task, *selection)
    equivalents = {e["operator"]: e for e in _task(report)["equivalents"]}
    assert code == 0  # equivalents alone fail only with --strict
    assert equivalents["json-sort-keys"]["reason"] == "identical outputs on main and edge"
    assert equivalents["json-sort-keys"]["level"] == 5  # judged once, its runs compared
    assert equivalents["csv-quoting"]["form_only"] is True
    assert equivalents["csv-quoting"]["level"] == 5
    assert not any(e["justified"] for e in equivalents.values())
    strict = invoke(task, *selection, "--strict")
    assert strict.exit_code == 1
    sorted_keys = equivalents["json-sort-keys"]
    assert (
        f"{task.parent.name}/01-grade-summary: solution/grades.py:{sorted_keys['line']}: rule "
        f"not exercised by any fixture: {sorted_keys['id']}"
    ) in strict.stdout.replace(str(task.parent.parent) + "/", "")

    toml.write_text(
        toml.read_text("utf-8")
        + '\n[audit]\nequivalent = [\n  { mutant = "json-sort-keys@*", why = "already sorted" },\n'
        + '  { mutant = "csv-quoting@*", why = "any quoting" },\n'
        + '  { mutant = "decimal@*", why = "not run: not judged" },\n'
        + '  { mutant = "compare@*", why = "killed since: stale" },\n]\n',
        "utf-8",
    )
    code, report = audit_json(task, *selection, "--operator", "compare", "--strict")
    audit = _task(report)
    assert {e["why"] for e in audit["equivalents"]} == {"already sorted", "any quoting"}
    assert audit["mutants"]["justified"] == 2
    assert audit["findings"] == [
        "[audit] equivalent: 'compare@*' matches no equivalent mutant (remove it, or fix the id: "
        "line numbers move when the reference changes)"
    ]
    assert code == 1  # the stale justification is a finding


def test_an_expectation_that_checks_nothing_is_not_load_bearing(example: CopyExample) -> None:
    task = example("01-grade-summary")
    edit_authored(
        task,
        "# endregion authored",
        "judge.main_checks = [\n"
        "    benchlib.Check(c.name, c.level, lambda run: benchlib.expect(True, 'ok'))\n"
        "    if c.name == 'half-up#1' else c\n"
        "    for c in judge.main_checks\n"
        "]\n\n\n# endregion authored",
    )
    code, report = audit_json(task, "--operator", "authored")
    audit = _task(report)
    idle = {(e["name"], e["field"]) for e in audit["expectations"] if e["load_bearing"] is False}
    assert idle == {
        ("half-up#1", "equals.average"),
        ("half-up#1", "equals.courses"),
        ("half-up#1", "equals.scored"),
    }
    bearing = [e for e in audit["expectations"] if e["load_bearing"]]
    assert {e["name"] for e in bearing} >= {"top-tie#1", "edge#1"}
    assert code == 1


def _courses_patch(task: Path) -> str:
    """A domain bug: courses counted only where the student has a score."""
    source = (task / "reference" / "solution" / "grades.py").read_text("utf-8")
    counted = "        courses.setdefault(student, set()).add(course)\n"
    assert counted in source
    bug = source.replace(counted, "        courses.setdefault(student, set())\n").replace(
        "        value = int(score)\n",
        "        courses[student].add(course)\n        value = int(score)\n",
    )
    head = "Courses are counted only where the student has a score.\n"
    return head + unified_diff(source, bug, "solution/grades.py")


def test_authored_mutants_are_applied_like_witnesses(example: CopyExample) -> None:
    task = example("01-grade-summary")
    (task / "mutants").mkdir(exist_ok=True)
    patch = _courses_patch(task)
    (task / "mutants" / "courses-skip-blank.patch").write_text(patch, "utf-8")
    (task / "mutants" / "stale.patch").write_text(patch.replace(" student, course", " x"), "utf-8")
    code, report = audit_json(task, "--operator", "authored", "--no-expectations")
    audit = _task(report)
    assert audit["killed"] == ["authored@courses-skip-blank"]
    assert audit["mutants"]["total"] == 2
    [error] = audit["errors"]
    assert error["id"] == "authored@stale"
    assert error["reason"].startswith("stale.patch:")
    assert "does not match solution/grades.py" in error["reason"]
    assert code == 1


def test_the_library_reports_progress_and_the_html_page_shows_every_diff(
    example: CopyExample, tmp_path: Path
) -> None:
    task = example("02-pantry-ledger")
    events = []
    options = AuditOptions(default_python(), jobs=2, operators=("compare", "csv-header"))
    report = audit_tasks([task], options, events.append)
    [audit] = report.tasks
    assert report.ok and audit.error == ""
    assert events[-1].done == events[-1].total == len(events)
    assert {e.item for e in events} == {r.mutant.id for r in audit.mutants} | {"expectations"}
    assert {r.mutant.operator for r in audit.mutants} == {"compare", "csv-header"}
    page_path = tmp_path / "audit.html"
    result = invoke(task, "--operator", "csv-header", "--no-expectations", "--html", page_path)
    assert result.exit_code == 0
    page = page_path.read_text("utf-8")
    parser = _Balanced()
    parser.feed(page)
    assert parser.stack == []
    assert "<script" not in page
    assert page.count("<details") == page.count("--- a/solution/stock.py") >= 2
    assert "header row dropped" in page


class _Balanced(HTMLParser):
    VOID = frozenset({"meta", "br"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag
        self.stack.pop()


def test_progress_off_a_terminal_is_one_line_per_tenth(capsys: Any) -> None:
    from benchsmith.auditing.runner import AuditProgress
    from benchsmith.cli.auditing import _progress

    for done in range(1, 21):
        _progress(AuditProgress("tasks/13-x", done, 20, f"m{done}", "killed"))
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "audit tasks/13-x: 2/20 job(s) done"
    assert len(lines) == 10 and lines[-1] == "audited tasks/13-x: 20 job(s)"


def test_a_failed_audit_writes_no_record(example: CopyExample) -> None:
    """``--record`` is a proof that the task passed: with a survivor, audit.lock is left as
    it was and the report says why (issue 28)."""
    task = example("01-grade-summary")
    _ignore_top_json(task)
    before = (task / RECORD_FILE).read_bytes()
    code, report = audit_json(task, "--full", "--record")
    assert code == 1
    audit = _task(report)
    assert audit["survivors"]
    assert (task / RECORD_FILE).read_bytes() == before
    assert audit["record"]["written"] is False
    assert any(
        f.startswith(f"{RECORD_FILE} not written: the audit failed (survived: ")
        for f in audit["findings"]
    )
