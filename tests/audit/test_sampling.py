"""benchsmith audit --sample / --seed / --full: a seeded sample, stratified by operator."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from benchsmith.auditing.mutants import task_mutants
from benchsmith.auditing.sampling import quotas, sample_mutants
from benchsmith.dsl.load import load_task
from benchsmith.workspaces import layout_for
from tests.audit.conftest import CopyExample, audit_json, invoke

REPO = Path(__file__).resolve().parents[2]
LARGE = REPO / "tasks" / "13-incident-timeline"  # 118 mutants, 16 operators
OPERATORS = ("--operator", "condition", "--operator", "sorting", "--operator", "constant")


def _large_mutants():  # type: ignore[no-untyped-def]
    spec = load_task(LARGE)
    return task_mutants(spec.task_dir, layout_for(spec)).mutants


def test_quotas_keep_one_per_operator_and_share_the_rest_proportionally() -> None:
    assert quotas({"a": 8, "b": 6, "c": 4}, 5) == {"a": 2, "b": 2, "c": 1}
    assert quotas({"a": 8, "b": 6, "c": 4}, 2) == {"a": 1, "b": 1, "c": 1}  # all represented
    assert quotas({"a": 8, "b": 6, "c": 4}, 18) == {"a": 8, "b": 6, "c": 4}
    assert quotas({"a": 100, "b": 1}, 11) == {"a": 10, "b": 1}
    assert sum(quotas({"a": 310, "b": 122, "c": 64, "d": 1}, 40).values()) == 40


def test_the_same_seed_draws_the_same_stratified_sample() -> None:
    mutants = _large_mutants()
    operators = Counter(m.operator for m in mutants)
    first = sample_mutants(mutants, 40, seed=7)
    again = sample_mutants(list(mutants), 40, seed=7)
    other = sample_mutants(mutants, 40, seed=8)
    assert [m.id for m in first.chosen] == [m.id for m in again.chosen]
    assert [m.id for m in first.chosen] != [m.id for m in other.chosen]
    assert len(first.chosen) == 40 and len(first.skipped) == len(mutants) - 40
    assert {m.operator for m in first.chosen} == set(operators)  # every operator represented
    assert {m.id for m in first.chosen}.isdisjoint(m.id for m in first.skipped)
    order = [m.id for m in mutants]
    assert [order.index(m.id) for m in first.chosen] == sorted(
        order.index(m.id) for m in first.chosen
    )
    assert sample_mutants(mutants, None).skipped == ()
    with pytest.raises(ValueError, match="at least 1"):
        sample_mutants(mutants, 0)


def test_the_cli_samples_reports_the_skipped_and_full_runs_all(example: CopyExample) -> None:
    task = example("01-grade-summary")
    code, report = audit_json(task, *OPERATORS, "--sample", "5", "--seed", "3", "--no-expectations")
    [audit] = report["tasks"]
    assert code == 0, audit
    sample = audit["sample"]
    assert sample["size"] == 5 and sample["seed"] == 3
    assert sample["run"] == audit["mutants"]["total"] == 5
    assert sample["operators"] == {
        "condition": {"run": 2, "total": 8},
        "constant": {"run": 1, "total": 4},
        "sorting": {"run": 2, "total": 6},
    }
    assert sample["skipped"] == len(sample["skipped_ids"]) == 13
    ran = set(audit["killed"]) | {e["id"] for e in audit["equivalents"]}
    assert ran.isdisjoint(sample["skipped_ids"])

    text = invoke(task, *OPERATORS, "--sample", "5", "--seed", "3", "--no-expectations")
    assert text.exit_code == 0
    assert (
        "sampled 5 of 18 generated mutants (seed 3; --full runs all); skipped 13: " in text.stdout
    )
    assert "condition 6, constant 3, sorting 4" in text.stdout
    assert "5 mutant(s) (13 more skipped by the sample)" in text.stdout

    code, full = audit_json(
        task, "--operator", "sorting", "--sample", "1", "--full", "--no-expectations"
    )
    [audit] = full["tasks"]
    assert code == 0 and audit["mutants"]["total"] == 6
    assert audit["sample"]["size"] is None and audit["sample"]["skipped"] == 0
    assert invoke(task, "--sample", "0").exit_code == 2
