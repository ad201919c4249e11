"""benchlib.make_verdict: the level is monotone and the contract's invariants always hold."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchsmith.runtime import benchlib

Outcomes = list[tuple[int, bool]]

outcomes = st.lists(
    st.tuples(st.sampled_from([3, 4]), st.booleans()), min_size=1, max_size=10
).filter(lambda main: any(level == 3 for level, _ in main))


def _verdict(main: Outcomes, started: bool, completed: bool, edge: bool) -> dict[str, object]:
    completed = completed and started
    return benchlib.make_verdict(
        started=started,
        completed=completed,
        main=main if completed else [],
        main_total=len(main),
        edge_passed=edge and completed,
        notes=["n"] * 60,
    )


@given(main=outcomes, started=st.booleans(), completed=st.booleans(), edge=st.booleans())
def test_invariants(main: Outcomes, started: bool, completed: bool, edge: bool) -> None:
    verdict = _verdict(main, started, completed, edge)
    level = verdict["progress_level"]
    completed = completed and started
    ran = main if completed else []
    all_main = bool(ran) and all(ok for _, ok in ran)
    assert (verdict["status"] == "pass") == (level == 5)
    assert (level == 5) == (all_main and edge)
    assert (level == 4) == (all_main and not edge)
    assert verdict["main_checks_passed"] == sum(ok for _, ok in ran) <= verdict["main_checks_total"]
    assert verdict["main_checks_total"] == len(main) >= 1
    assert len(verdict["notes"]) == 50  # type: ignore[arg-type]


@given(main=outcomes, started=st.booleans(), completed=st.booleans(), edge=st.booleans())
def test_the_level_is_the_first_failed_gate(
    main: Outcomes, started: bool, completed: bool, edge: bool
) -> None:
    level = _verdict(main, started, completed, edge)["progress_level"]
    completed = completed and started
    core = [ok for lv, ok in main if lv == 3]
    gates = [
        started,
        completed,
        completed and all(core),
        completed and all(ok for _, ok in main),
        completed and edge,
    ]
    expected = next((n for n, gate in enumerate(gates) if not gate), 5)
    assert level == expected


def test_level_3_needs_an_executed_core_check() -> None:
    with pytest.raises(ValueError, match="no level-3 check"):
        benchlib.make_verdict(
            started=True, completed=True, main=[(4, True)], main_total=1, edge_passed=True, notes=[]
        )


@pytest.mark.parametrize(
    ("started", "completed", "main", "total", "message"),
    [
        (True, True, [(3, True)], 0, "at least one main check"),
        (False, True, [], 1, "cannot complete without starting"),
        (True, False, [(3, True)], 1, "did not complete"),
        (True, True, [(3, True)], 2, "1 main outcomes for 2 declared checks"),
    ],
)
def test_inconsistent_inputs_are_refused(
    started: bool, completed: bool, main: Outcomes, total: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        benchlib.make_verdict(
            started=started,
            completed=completed,
            main=main,
            main_total=total,
            edge_passed=False,
            notes=[],
        )


def test_a_judge_without_level_3_checks_is_a_defect(tmp_path: object) -> None:
    judge = benchlib.Judge({"expect": [], "edge_expect": []})

    @judge.check(level=4)
    def only_rules(run: benchlib.Run) -> None:
        benchlib.expect(True, "fine")

    with pytest.raises(benchlib.JudgeDefect, match="no level-3 check"):
        judge.validate()


def test_checks_gate_only_levels_3_and_4() -> None:
    judge = benchlib.Judge({})
    with pytest.raises(ValueError, match="level 3 or 4"):
        judge.check(level=5)
