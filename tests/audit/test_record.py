"""The recorded audit: ``--full --record`` writes audit.lock, ``--recorded`` replays it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchsmith.auditing import AuditOptions, audit_tasks
from benchsmith.auditrecord import (
    FATES,
    RECORD_FILE,
    Record,
    RecordedFate,
    inputs_digest,
    parse_record,
    read_record,
    record_state,
    record_text,
    verification_sample,
)
from benchsmith.linting import lint_paths
from benchsmith.pythons import default_python
from tests.audit.conftest import CopyExample, audit_json, edit_authored, invoke
from tests.check.conftest import copy_example

TASK = "01-grade-summary"


def _fates(audit: dict[str, Any]) -> dict[str, str]:
    """Mutant id -> fate, from one task of a ``--json`` report."""
    fates = dict.fromkeys(audit["killed"], "killed")
    for group in ("survivors", "equivalents", "errors"):
        fates |= {m["id"]: m["fate"] for m in audit[group]}
    return fates


@pytest.fixture(scope="module")
def recorded_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The example with a fresh record, and the full audit that wrote it (made once)."""
    task = copy_example(tmp_path_factory.mktemp("recorded"), TASK)
    (task / RECORD_FILE).unlink(missing_ok=True)
    code, report = audit_json(task, "--full", "--record", "--strict")
    [audit] = report["tasks"]
    assert code == 0, audit
    return task, audit


@pytest.fixture
def recorded(
    recorded_once: tuple[Path, dict[str, Any]], tmp_path: Path
) -> tuple[Path, dict[str, Any]]:
    """A copy of the recorded example a test may change (the record stays current: its
    digest does not depend on where the task lies)."""
    source, audit = recorded_once
    root = tmp_path / "corpus"
    root.mkdir()
    shutil.copy2(source.parent / "benchlib.py", root / "benchlib.py")
    shutil.copytree(source, root / TASK)
    return root / TASK, audit


def _edit_record(task: Path, edit: Any) -> None:
    path = task / RECORD_FILE
    data = json.loads(path.read_text("utf-8"))
    edit(data)
    path.write_text(json.dumps(data), "utf-8")


def test_a_full_audit_records_every_fate_and_the_same_fates_give_the_same_bytes(
    recorded: tuple[Path, dict[str, Any]],
) -> None:
    task, audit = recorded
    assert audit["record"]["written"] and audit["record"]["current"]
    record = read_record(task)
    assert record is not None and record.inputs == inputs_digest(task)
    assert {i: f.fate for i, f in record.mutants.items()} == _fates(audit)
    assert len(record.expectations) == len(audit["expectations"]) > 0
    first = (task / RECORD_FILE).read_bytes()
    code, _ = audit_json(task, "--full", "--record")
    assert code == 0 and (task / RECORD_FILE).read_bytes() == first


def test_the_recorded_audit_replays_the_fates_and_reruns_a_sample(
    recorded: tuple[Path, dict[str, Any]],
) -> None:
    task, full = recorded
    code, report = audit_json(task, "--recorded", "--sample", "2", "--strict")
    [audit] = report["tasks"]
    assert code == 0, audit
    use = audit["record"]
    assert use["current"] and len(use["verified"]) == 2 and use["unrecorded"] == 0
    assert use["replayed"] == full["mutants"]["total"] - 2
    assert _fates(audit) == _fates(full)
    assert audit["mutants"] == full["mutants"]
    assert audit["expectations"] != [] and all(e["load_bearing"] for e in audit["expectations"])
    fates = _fates(full)
    assert {fates[i] for i in use["verified"]} == {"killed", "equivalent"}  # one of each
    text = invoke(task, "--recorded", "--sample", "2").stdout
    assert f"{use['replayed']} of {full['mutants']['total']} fates from audit.lock" in text


def test_nothing_runs_when_every_fate_is_recorded_and_none_is_verified(
    recorded: tuple[Path, dict[str, Any]],
) -> None:
    task, full = recorded
    (task / "seed.py").write_text("raise SystemExit('seed.py must not run')\n", "utf-8")
    _edit_record(task, lambda data: data.update(inputs=inputs_digest(task)))
    code, report = audit_json(task, "--recorded", "--sample", "0", "--strict")
    [audit] = report["tasks"]
    assert code == 0 and audit["record"]["replayed"] == full["mutants"]["total"], audit


def test_a_stale_record_is_a_finding_and_the_task_is_sampled_instead(
    recorded: tuple[Path, dict[str, Any]],
) -> None:
    task, _ = recorded
    assert not [d for d in lint_paths([task]) if d.code == "BS904"]
    edit_authored(task, "# endregion authored", "# a comment\n# endregion authored")
    code, report = audit_json(task, "--recorded", "--sample", "2", "--strict")
    [audit] = report["tasks"]
    assert code == 1
    assert audit["record"] == {
        "current": False,
        "note": "audit.lock is stale: changed since its full audit: judge.py",
        "replayed": 0,
        "verified": [],
        "unrecorded": 0,
        "written": False,
    }
    assert any("--full --record" in f for f in audit["findings"])
    assert audit["sample"]["run"] > 0 and audit["mutants"]["total"] == audit["sample"]["run"]
    [stale] = [d for d in lint_paths([task]) if d.code == "BS904"]
    assert stale.path.endswith(RECORD_FILE) and "--full --record" in stale.message


def test_text_files_the_fates_do_not_depend_on_leave_the_record_current(
    recorded: tuple[Path, dict[str, Any]],
) -> None:
    task, _ = recorded
    before = inputs_digest(task)
    for name in ("TASK.md", "task.toml"):
        (task / name).write_text((task / name).read_text("utf-8") + "\n# prose\n", "utf-8")
    (task / ".swap").write_text("editor junk", "utf-8")
    (task / "reference" / "solution" / "__pycache__").mkdir(exist_ok=True)
    (task / "reference" / "solution" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    assert inputs_digest(task) == before
    (task / "reference" / "solution" / "grades.py").write_text("# changed\n", "utf-8")
    assert inputs_digest(task) != before


def test_a_record_that_lies_is_caught_when_its_mutant_runs_again(
    recorded: tuple[Path, dict[str, Any]],
) -> None:
    task, full = recorded
    fates = _fates(full)
    victim = next(  # a killed mutant that --sample 2 reruns once it is recorded as equivalent
        ident
        for ident in full["killed"]
        if ident in verification_sample({**fates, ident: "equivalent"}.items(), 2, seed=0)
    )

    def lie(data: dict[str, Any]) -> None:
        data["mutants"][victim][1:3] = ["equivalent", 5]

    _edit_record(task, lie)
    code, report = audit_json(task, "--recorded", "--sample", "2", "--strict")
    [audit] = report["tasks"]
    assert code == 1
    assert victim in audit["killed"]  # the fresh fate is the one reported
    [finding] = [f for f in audit["findings"] if f.startswith("[audit.lock]")]
    assert finding.startswith(f"[audit.lock] {victim}: recorded equivalent (level 5), now killed")


def test_mutants_the_record_does_not_know_are_run(
    recorded: tuple[Path, dict[str, Any]],
) -> None:
    task, full = recorded
    dropped = full["killed"][-1]
    _edit_record(task, lambda data: data["mutants"].pop(dropped))
    code, report = audit_json(task, "--recorded", "--sample", "0", "--strict")
    [audit] = report["tasks"]
    assert code == 0, audit
    assert audit["record"]["unrecorded"] == 1
    assert audit["record"]["replayed"] == full["mutants"]["total"] - 1
    assert dropped in audit["killed"]


def test_an_unreadable_record_is_a_located_warning_and_a_finding(
    recorded: tuple[Path, dict[str, Any]],
) -> None:
    task, _ = recorded
    (task / RECORD_FILE).write_text('{"format": 99}', "utf-8")
    [bad] = [d for d in lint_paths([task]) if d.code == "BS904"]
    assert "not a format-1 audit record" in bad.message
    code, report = audit_json(task, "--recorded", "--sample", "1", "--strict")
    assert code == 1
    assert any("not a format-1 audit record" in f for f in report["tasks"][0]["findings"])


def test_a_task_edited_while_it_is_audited_is_not_recorded(example: CopyExample) -> None:
    task = example(TASK)
    (task / RECORD_FILE).unlink(missing_ok=True)
    edited: list[bool] = []

    def edit_once(_: object) -> None:
        if not edited:
            edited.append(True)
            edit_authored(task, "# endregion authored", "# edited\n# endregion authored")

    options = AuditOptions(default_python(), sample=None, record=True)
    report = audit_tasks([task], options, edit_once)
    [audit] = report.tasks
    assert edited and not (task / RECORD_FILE).exists()
    assert audit.record is not None and not audit.record.written
    assert "changed during the audit" in " ".join(audit.findings)


def test_record_options_that_contradict_each_other_are_usage_errors(
    example: CopyExample,
) -> None:
    task = example(TASK)
    for args, message in [
        (("--record",), "--record needs every mutant"),
        (("--record", "--full", "--operator", "sorting"), "--record needs every mutant"),
        (("--record", "--full", "--no-expectations"), "--record needs the expectations"),
        (("--record", "--full", "--recorded"), "not with --recorded"),
        (("--sample", "0"), "at least 1"),
    ]:
        result = invoke(task, *args)
        assert result.exit_code == 2 and message in result.output, (args, result.output)


def test_the_verification_sample_takes_fates_in_turn_and_depends_on_the_seed() -> None:
    fates = [(f"k{n}", "killed") for n in range(20)] + [(f"e{n}", "equivalent") for n in range(3)]
    chosen = verification_sample(fates, 4, seed=0)
    assert [i[0] for i in chosen] == ["k", "e", "k", "e"]
    assert verification_sample(list(reversed(fates)), 4, seed=0) == chosen
    assert verification_sample(fates, 4, seed=1) != chosen
    assert sorted(verification_sample(fates, 99, seed=0)) == sorted(i for i, _ in fates)
    assert verification_sample(fates, 0, seed=0) == []


IDS = st.text(st.characters(codec="utf-8"), min_size=1, max_size=30)
ENTRIES = st.builds(
    RecordedFate,
    st.text("0123456789abcdef", min_size=16, max_size=16),
    st.sampled_from(FATES),
    st.none() | st.integers(0, 5),
    st.booleans(),
)
VALUES = st.none() | st.integers() | st.text(max_size=10) | st.lists(st.text(max_size=5))
EXPECTATIONS = st.tuples(
    st.text(max_size=10), st.sampled_from(("main", "edge")), st.text(max_size=10), VALUES, VALUES,
    st.none() | st.booleans(),
)  # fmt: skip


@given(
    st.dictionaries(IDS, ENTRIES, max_size=8),
    st.lists(EXPECTATIONS, max_size=5, unique_by=lambda e: e[:3]),
)
def test_a_record_reads_back_as_it_was_written(
    mutants: dict[str, RecordedFate], expected: list[Any]
) -> None:
    record = Record("0" * 64, mutants, tuple(expected))
    text = record_text(record)
    again = parse_record(text)
    assert again.inputs == record.inputs and again.mutants == mutants
    assert sorted(again.expectations, key=repr) == sorted(record.expectations, key=repr)
    assert record_text(again) == text


def test_rewording_a_stage_message_keeps_the_record_and_other_edits_are_named(
    recorded: tuple[Path, dict[str, Any]],
) -> None:
    """Issue 28: a record knows each input file's fate digest, so a reworded stage message
    (scenario.json prose no judge reads) costs no new full audit, and a stale record names
    the files that changed."""
    task, _ = recorded
    assert read_record(task).files  # type: ignore[union-attr]
    scenario = json.loads((task / "scenario.json").read_text("utf-8"))
    scenario["stages"][0]["message"] += " Please hurry."
    scenario["title"] = "Another title"
    (task / "scenario.json").write_text(json.dumps(scenario, indent=2), "utf-8")
    record, why = record_state(task)
    assert record is not None and why == ""
    assert not any(d.code == "BS506" for d in lint_paths([task]))
    scenario["stages"][0]["inject"] = ["inputs"]
    (task / "scenario.json").write_text(json.dumps(scenario, indent=2), "utf-8")
    (task / "seed.py").write_text((task / "seed.py").read_text("utf-8") + "\n", "utf-8")
    record, why = record_state(task)
    assert record is None
    assert why == f"{RECORD_FILE} is stale: changed since its full audit: scenario.json, seed.py"


def test_a_record_without_file_digests_is_current_by_its_digest_alone(
    recorded: tuple[Path, dict[str, Any]],
) -> None:
    """Records written before they kept ``files`` stay current until the task changes."""
    task, _ = recorded
    _edit_record(task, lambda data: data.pop("files"))
    assert record_state(task) == (read_record(task), "")
    scenario = json.loads((task / "scenario.json").read_text("utf-8"))
    scenario["title"] = "Another title"
    (task / "scenario.json").write_text(json.dumps(scenario), "utf-8")
    assert record_state(task)[1].endswith("the task's files changed since its full audit")
