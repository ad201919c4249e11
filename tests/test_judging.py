"""The judge contract: the command, the judge process, its one JSON object and the invariants."""

from __future__ import annotations

import json
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchsmith.judging import (
    STDOUT_LIMIT,
    Captured,
    JudgeCall,
    JudgeCommandError,
    judge_command_problem,
    parse_verdict,
    read_judge_command,
    run_judge,
    verdict_problems,
)
from benchsmith.runtime import benchlib
from benchsmith.runtime.benchlib import hold_verdict

SOUND = {
    "status": "pass", "progress_level": 5, "main_checks_passed": 2, "main_checks_total": 2,
    "edge_check_passed": True, "notes": [],
}  # fmt: skip


def verdict(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "status": "fail",
        "progress_level": 3,
        "main_checks_passed": 2,
        "main_checks_total": 4,
        "edge_check_passed": False,
        "notes": ["main: rule: expected 1, got 2"],
    }
    return base | changes


@pytest.mark.parametrize(
    ("stdout", "problem"),
    [
        ("", "the judge printed nothing on stdout"),
        ("  \n", "the judge printed nothing on stdout"),
        ("{} {}", "the judge printed 2 JSON values; exactly one object is required"),
        ('{"a": 1}\n{"b": 2}\n', "the judge printed 2 JSON values; exactly one object is required"),
        ("[1, 2]", "the judge printed a JSON list, not an object"),
        (
            "Traceback (most recent call last)",
            "the judge's stdout holds text that is not JSON: 'Traceback (most recent call last)'",
        ),
        ('{"a": 1} trailing', "the judge's stdout holds text that is not JSON: 'trailing'"),
    ],
)
def test_stdout_that_is_not_one_object_is_explained(stdout: str, problem: str) -> None:
    assert parse_verdict(stdout) == (None, problem)


def test_one_object_is_returned() -> None:
    assert parse_verdict(json.dumps(verdict()) + "\n") == (verdict(), "")


def test_a_sound_verdict_has_no_problem() -> None:
    assert verdict_problems(verdict()) == []


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"status": "pass"}, "contract: status 'pass' at level 3"),
        ({"main_checks_passed": 5}, "contract: main_checks_passed 5 exceeds main_checks_total 4"),
        (
            {"main_checks_total": 0, "main_checks_passed": 0, "progress_level": 2},
            "contract: main_checks_total is 0: a judge needs at least one main check",
        ),
        (
            {"progress_level": 4},
            "contract: level 4 iff all main checks pass and the edge fails "
            "(level 4, 2/4 main checks, edge failed)",
        ),
        (
            {"progress_level": 3, "main_checks_passed": 0},
            "contract: level 3 with no passed main check (nothing verified)",
        ),
        ({"progress_level": 1}, "contract: 2 main check(s) passed below level 2"),
    ],
)
def test_each_invariant_is_enforced(changes: dict[str, Any], problem: str) -> None:
    assert problem in verdict_problems(verdict(**changes))


def test_level_5_needs_the_edge() -> None:
    problems = verdict_problems(
        verdict(status="pass", progress_level=5, main_checks_passed=4, edge_check_passed=False)
    )
    assert (
        "contract: level 5 iff all main and edge pass (level 5, 4/4 main checks, edge failed)"
        in problems
    )


def test_schema_problems_come_first_and_alone() -> None:
    broken = verdict(progress_level=7, extra=True)
    del broken["notes"]
    problems = verdict_problems(broken)
    assert all(p.startswith("schema: ") for p in problems)
    assert len(problems) == 3


def test_an_error_verdict_is_a_failure_with_its_note() -> None:
    error = benchlib.error_verdict("judge error: OSError: disk full")
    assert verdict_problems(error) == [
        "the judge reported an error: judge error: OSError: disk full"
    ]


def test_check_details_must_agree_with_the_counts() -> None:
    checks = [
        {"name": "a", "level": 3, "fixture": "main", "passed": True, "note": ""},
        {"name": "b", "level": 4, "fixture": "main", "passed": True, "note": ""},
    ]
    problems = verdict_problems(verdict(checks=checks))
    assert "contract: 2 main checks ran, main_checks_total says 4" in problems
    assert "contract: the passed main checks disagree with main_checks_passed" not in problems


outcomes = st.lists(
    st.tuples(st.sampled_from([3, 4]), st.booleans()), min_size=1, max_size=8
).filter(lambda main: any(level == 3 for level, _ in main))


@given(main=outcomes, started=st.booleans(), completed=st.booleans(), edge=st.booleans())
def test_every_runtime_verdict_satisfies_the_checker(
    main: list[tuple[int, bool]], started: bool, completed: bool, edge: bool
) -> None:
    completed = completed and started
    made = benchlib.make_verdict(
        started=started,
        completed=completed,
        main=main if completed else [],
        main_total=len(main),
        edge_passed=edge and completed,
        notes=[],
    )
    assert verdict_problems(made) == []


# --- the command ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scenario", "problem"),
    [
        ([], "scenario.json is not a JSON object"),
        ({}, "judge_command is missing"),
        ({"judge_command": []}, "judge_command must be a non-empty list of strings, not []"),
        ({"judge_command": "python judge.py"}, "judge_command must be a non-empty list of strings"),
        ({"judge_command": ["python", 3]}, "judge_command holds an argument that is not a string"),
        (
            {"judge_command": ["python", "judge.py"]},
            "judge_command does not pass {workspace} (the candidate workspace): "
            "['python', 'judge.py']",
        ),
    ],
)
def test_unusable_judge_commands_are_explained(scenario: object, problem: str) -> None:
    assert judge_command_problem(scenario).startswith(problem)


@pytest.mark.parametrize(
    "command", [["python", "judge.py", "--workspace", "{workspace}"], ["j", "--ws={workspace}"]]
)
def test_a_command_passing_the_workspace_is_usable(tmp_path: Path, command: list[str]) -> None:
    assert judge_command_problem({"judge_command": command}) == ""
    (tmp_path / "scenario.json").write_text(json.dumps({"judge_command": command}), "utf-8")
    assert read_judge_command(tmp_path) == tuple(command)


def test_an_unreadable_scenario_is_a_judge_command_error(tmp_path: Path) -> None:
    with pytest.raises(JudgeCommandError, match=r"scenario\.json: cannot be read"):
        read_judge_command(tmp_path)
    (tmp_path / "scenario.json").write_text("{", "utf-8")
    with pytest.raises(JudgeCommandError, match=r"scenario\.json: cannot be read"):
        read_judge_command(tmp_path)


# --- what a judge process left -------------------------------------------------------------


def captured(stdout: str, code: int | None = 0, **flags: bool) -> Captured:
    return Captured(stdout.encode(), b"Traceback\nboom\n", code, **flags)


@pytest.mark.parametrize(
    ("result", "problem"),
    [
        (captured(""), "the judge printed nothing on stdout (exit status 0); stderr: boom"),
        (
            captured("debug\n" + json.dumps(SOUND)),
            "the judge's stdout holds text that is not JSON: 'debug",
        ),
        (
            captured(json.dumps(SOUND) + "\ntrailing words\n"),
            "the judge's stdout holds text that is not JSON: 'trailing words'",
        ),
        (captured("[1]"), "the judge printed a JSON list, not an object"),
        (captured("", None, timed_out=True), "the judge printed no verdict within 9 s"),
        (
            captured("", None, overflow=True),
            f"the judge printed more than {STDOUT_LIMIT >> 20} MiB",
        ),
        (captured(json.dumps(SOUND), 1), "the judge exited with status 1 after a sound verdict"),
        (captured(json.dumps({**SOUND, "progress_level": 9})), "schema: progress_level"),
        (captured(json.dumps({**SOUND, "notes": "x"})), "schema: notes"),
        (
            captured(json.dumps({**SOUND, "progress_level": 4})),
            "contract: status 'pass' at level 4",
        ),
    ],
)
def test_a_judge_breaking_the_contract_gives_an_error_verdict(
    result: Captured, problem: str
) -> None:
    verdict = hold_verdict(result, timeout=9, seconds=0.5)
    assert (verdict.status, verdict.progress_level, verdict.strict_pass) == ("error", 0, False)
    assert any(p.startswith(problem) for p in verdict.problems), verdict.problems
    assert verdict.notes[0].startswith(problem[:60])


def test_a_refused_verdict_keeps_what_the_judge_claimed() -> None:
    lying = {**SOUND, "edge_check_passed": False}
    verdict = hold_verdict(captured(json.dumps(lying)), timeout=9, seconds=0.5)
    assert verdict.status == "error" and verdict.raw == lying
    assert (verdict.claimed_level, verdict.exit_code, verdict.seconds) == (5, 0, 0.5)
    refused = verdict.refused("the judge changed the workspace")
    assert refused.problems == (*verdict.problems, "the judge changed the workspace")
    assert refused.raw == lying


def test_a_sound_verdict_is_read_as_printed() -> None:
    verdict = hold_verdict(captured(json.dumps(SOUND) + "\n"), timeout=9, seconds=1.5)
    assert verdict.problems == () and verdict.strict_pass
    assert (verdict.status, verdict.progress_level, verdict.main_checks_total) == ("pass", 5, 2)
    assert (verdict.raw, verdict.exit_code, verdict.seconds) == (SOUND, 0, 1.5)


# --- the judge process ---------------------------------------------------------------------


def judge_call(tmp_path: Path, body: str, timeout: float = 30.0) -> JudgeCall:
    """A task folder whose judge.py runs ``body`` (``workspace`` and ``SOUND`` are defined)."""
    task = tmp_path / "task"
    task.mkdir(exist_ok=True)
    prelude = (
        "import json, os, subprocess, sys, time\n"
        "from pathlib import Path\n"
        f"SOUND = {SOUND!r}\n"
        "workspace = Path(sys.argv[sys.argv.index('--workspace') + 1])\n"
    )
    (task / "judge.py").write_text(prelude + textwrap.dedent(body), "utf-8")
    command = ("python", "judge.py", "--workspace", "{workspace}")
    return JudgeCall(task, command, sys.executable, timeout)


def test_a_judge_printing_a_debug_line_first_is_refused(tmp_path: Path) -> None:
    call = judge_call(tmp_path, "print('judging', workspace)\nprint(json.dumps(SOUND))\n")
    verdict = run_judge(call, tmp_path)
    assert verdict.status == "error"
    assert verdict.problems[0].startswith("the judge's stdout holds text that is not JSON")


def test_the_judge_gets_its_arguments_environment_and_umask(tmp_path: Path) -> None:
    call = judge_call(
        tmp_path,
        """\
        mask = os.umask(0)
        notes = [os.environ["TZ"], oct(mask), str(workspace), *sys.argv[-2:]]
        print(json.dumps({**SOUND, "notes": notes}))
        """,
    )
    out = tmp_path / "judge.stdout"
    verdict = run_judge(call, tmp_path / "ws ü", variables={"TZ": "Pacific/Kiritimati"},
                        umask=0o077, output=out)  # fmt: skip
    assert verdict.problems == ()
    assert verdict.notes == (
        "Pacific/Kiritimati", "0o77", str(tmp_path / "ws ü"), "--python", sys.executable
    )  # fmt: skip
    assert json.loads(out.read_text("utf-8"))["notes"] == list(verdict.notes)
    assert out.with_suffix(".stderr").read_bytes() == b""


def test_a_judge_that_cannot_start_gives_an_error_verdict(tmp_path: Path) -> None:
    call = JudgeCall(tmp_path, ("./missing-judge", "{workspace}"), sys.executable, 30.0)
    verdict = run_judge(call, tmp_path)
    assert verdict.status == "error"
    assert verdict.problems[0].startswith("the judge could not start:")


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text("utf-8")
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] not in ("Z", "X")


def test_a_slow_judge_is_killed_with_the_children_that_left_its_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "escaped.pid"
    call = judge_call(
        tmp_path,
        f"""\
        child = subprocess.Popen(["sleep", "300"], start_new_session=True,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        Path({str(pid_file)!r}).write_text(str(child.pid))
        time.sleep(300)
        """,
        timeout=2.0,
    )
    started = time.monotonic()
    verdict = run_judge(call, tmp_path)
    assert time.monotonic() - started < 20
    assert verdict.problems == ("the judge printed no verdict within 2 s and was killed",)
    assert not _alive(int(pid_file.read_text()))


def test_a_judge_exits_even_when_a_child_holds_its_stdout(tmp_path: Path) -> None:
    call = judge_call(
        tmp_path,
        """\
        subprocess.Popen(["sleep", "300"], start_new_session=True)
        print(json.dumps(SOUND))
        """,
    )
    started = time.monotonic()
    verdict = run_judge(call, tmp_path)
    assert time.monotonic() - started < 20
    assert verdict.problems == () and verdict.strict_pass


def test_a_flooding_judge_is_stopped_at_the_limit(tmp_path: Path) -> None:
    call = judge_call(
        tmp_path, "chunk = b'x' * (1 << 20)\nwhile True:\n    sys.stdout.buffer.write(chunk)\n"
    )
    verdict = run_judge(call, tmp_path)
    assert verdict.problems == (
        f"the judge printed more than {STDOUT_LIMIT >> 20} MiB on stdout and was killed",
    )


def test_judging_leaks_no_descriptor(tmp_path: Path) -> None:
    def descriptors() -> int:
        return len(list(Path("/proc/self/fd").iterdir()))

    call = judge_call(tmp_path, "print(json.dumps(SOUND))\nprint('x' * 100, file=sys.stderr)\n")
    run_judge(call, tmp_path)
    before = descriptors()
    for _ in range(5):
        assert run_judge(call, tmp_path, output=tmp_path / "judge.stdout").strict_pass
    assert descriptors() == before
