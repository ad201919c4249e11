"""Every reader of a verdict decides alike: one table of judge outputs, four readers.

The readers are the SDK's (``check``, ``audit`` and ``benchsmith run`` judge through
:func:`benchsmith.judging.run_judge`), the bundle's ``run.py`` (:class:`CommandJudge`), the
Harbor verifier (``tests/verify.py`` of an export, run as Harbor runs it, with only the
shipped ``benchlib.py`` importable) and the runtime's contract itself
(:func:`benchlib.hold_verdict`). Each judge output below is printed by a stand-in judge;
every reader must accept it at the same level or refuse it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchsmith.export import harbor_verify
from benchsmith.judging import JudgeCall, read_judge_command, run_judge, schema_problems
from benchsmith.runtime import benchlib, run

SOUND: dict[str, Any] = {
    "status": "fail",
    "progress_level": 3,
    "main_checks_passed": 1,
    "main_checks_total": 2,
    "edge_check_passed": False,
    "notes": ["main: totals: expected 3, got 4"],
}
PASSING: dict[str, Any] = {
    **SOUND,
    "status": "pass",
    "progress_level": 5,
    "main_checks_passed": 2,
    "edge_check_passed": True,
    "notes": [],
}


DETAIL = {"name": "a", "level": 3, "fixture": "main", "passed": True, "note": ""}


def printed(value: Any) -> bytes:
    return (json.dumps(value) + "\n").encode()


# (name, stdout, exit status, the level when accepted or None when refused)
CASES: list[tuple[str, bytes, int, int | None]] = [
    ("sound", printed(SOUND), 0, 3),
    ("passing", printed(PASSING), 0, 5),
    ("debug line before", b"judging...\n" + printed(SOUND), 0, None),
    ("debug line after", printed(SOUND) + b"done\n", 0, None),
    ("two objects", printed(SOUND) + printed(SOUND), 0, None),
    ("a list", b"[1, 2]\n", 0, None),
    ("nothing", b"", 0, None),
    ("level 3, no check passed", printed({**SOUND, "main_checks_passed": 0}), 0, None),
    ("no main check", printed({**SOUND, "main_checks_passed": 0, "main_checks_total": 0}), 0, None),
    ("pass below 5", printed({**SOUND, "status": "pass"}), 0, None),
    ("level 5, edge failed", printed({**PASSING, "edge_check_passed": False}), 0, None),
    ("a check passed at level 1", printed({**SOUND, "progress_level": 1}), 0, None),
    ("NaN", printed(SOUND).replace(b'"notes": [', b'"notes": NaN, "x": ['), 0, None),
    (
        "NaN level",
        printed(SOUND).replace(b'"progress_level": 3', b'"progress_level": NaN'),
        0,
        None,
    ),
    ("float level", printed({**SOUND, "progress_level": 3.0}), 0, None),
    ("boolean count", printed({**SOUND, "main_checks_passed": True}), 0, None),
    ("level above 5", printed({**SOUND, "progress_level": 7}), 0, None),
    ("unknown field", printed({**SOUND, "reward": 1}), 0, None),
    ("status error", printed({**SOUND, "status": "error", "progress_level": 0}), 0, None),
    ("a stage not asked for", printed({**SOUND, "stage": 1}), 0, None),
    ("exit 1 after a sound verdict", printed(SOUND), 1, None),
    ("not UTF-8", printed(SOUND).replace(b"expected 3", b"expected \xff"), 0, None),
    ("huge", printed(SOUND) + b" " * (benchlib.VERDICT_STDOUT_LIMIT + 1), 0, None),
    ("details disagree", printed({**SOUND, "checks": [DETAIL, DETAIL]}), 0, None),
]
UNSEALED = printed({**SOUND, "notes": ["unsealed: bwrap failed"]})

STAND_IN = """\
import sys
from pathlib import Path
sys.stdout.buffer.write(Path(__file__).with_name("stdout.bin").read_bytes())
sys.stdout.flush()
sys.exit(int(Path(__file__).with_name("exit.txt").read_text()))
"""


@pytest.fixture
def stand_in(example_copy: Callable[[str], Path]) -> Callable[[bytes, int], Path]:
    """An example task whose judge.py prints the given bytes and exits with the given code."""
    task = example_copy("01-grade-summary")
    (task / "judge.py").write_text(STAND_IN, encoding="utf-8")

    def prints(stdout: bytes, code: int) -> Path:
        (task / "stdout.bin").write_bytes(stdout)
        (task / "exit.txt").write_text(str(code), encoding="utf-8")
        return task

    return prints


def decision(verdict: benchlib.Verdict) -> int | None:
    return None if verdict.problems else verdict.progress_level


def sdk_reader(task: Path, workspace: Path) -> int | None:
    call = JudgeCall(task, read_judge_command(task), sys.executable, 60)
    return decision(run_judge(call, workspace))


def lean_reader(task: Path, workspace: Path) -> int | None:
    judge = run.CommandJudge(run.load_scenario(task), sys.executable, 60)
    return decision(judge(workspace, workspace.parent / "judge.stdout"))


def harbor_reader(task: Path, workspace: Path) -> int | None:
    """An exported tests/ folder, run with ``python -S`` so only the shipped benchlib.py is
    importable (as in the verifier's image), the reward read back as Harbor reads it."""
    tests = workspace.parent / "tests"
    shutil.rmtree(tests, ignore_errors=True)
    shutil.copytree(task, tests / "judge" / "task")
    shutil.copy(benchlib.__file__, tests / "judge" / "benchlib.py")
    shutil.copy(harbor_verify.__file__, tests / "verify.py")
    out = workspace.parent / "verifier"
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCHSMITH_")}
    subprocess.run(
        [sys.executable, "-S", str(tests / "verify.py"), "--workspace", str(workspace),
         "--out", str(out), "--fixture-cache", str(workspace.parent / "no-cache")],
        env=env, check=True, capture_output=True, stdin=subprocess.DEVNULL, timeout=120,
    )  # fmt: skip
    reward = json.loads((out / "reward.json").read_text(encoding="utf-8"))
    return None if reward["judge_error"] else int(reward["progress_level"])


def contract_reader(task: Path, workspace: Path) -> int | None:
    """The contract alone, on what :func:`benchlib.capture_judge` would have captured."""
    stdout = (task / "stdout.bin").read_bytes()
    code = int((task / "exit.txt").read_text(encoding="utf-8"))
    limit = benchlib.VERDICT_STDOUT_LIMIT
    captured = benchlib.Captured(stdout[:limit], b"", code, overflow=len(stdout) > limit)
    return decision(benchlib.hold_verdict(captured, timeout=60, seconds=0.1))


READERS = {
    "sdk": sdk_reader,
    "lean run.py": lean_reader,
    "harbor verify.py": harbor_reader,
    "contract": contract_reader,
}


@pytest.mark.parametrize(("name", "stdout", "code", "level"), CASES, ids=[c[0] for c in CASES])
def test_every_reader_decides_alike(
    stand_in: Callable[[bytes, int], Path],
    tmp_path: Path,
    name: str,
    stdout: bytes,
    code: int,
    level: int | None,
) -> None:
    task = stand_in(stdout, code)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    decisions = {reader: read(task, workspace) for reader, read in READERS.items()}
    assert decisions == dict.fromkeys(READERS, level), name


def test_a_judge_that_ran_unsealed_stands_only_where_sealing_was_not_required(
    stand_in: Callable[[bytes, int], Path], tmp_path: Path
) -> None:
    """Sealing is a requirement of the invocation, not of the contract: ``check`` and ``run``
    require it (unless told ``--unsealed``); the Harbor verifier's container is the seal."""
    task = stand_in(UNSEALED, 0)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    assert (sdk_reader(task, workspace), lean_reader(task, workspace)) == (None, None)
    call = JudgeCall(task, read_judge_command(task), sys.executable, 60, unsealed=True)
    assert decision(run_judge(call, workspace)) == 3
    assert harbor_reader(task, workspace) == 3


# --- the runtime's structural check against jsonschema -------------------------------------

scalars = st.none() | st.booleans() | st.integers(-2, 8) | st.floats(allow_nan=False)
values = st.recursive(
    scalars | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)
check_entries = st.fixed_dictionaries(
    {},
    optional={
        "name": st.text(max_size=3) | values,
        "level": st.integers(2, 6) | values,
        "fixture": st.sampled_from(["main", "edge", "other"]) | values,
        "passed": st.booleans() | values,
        "note": st.text(max_size=3) | values,
        "extra": values,
    },
)
verdicts = st.fixed_dictionaries(
    {},
    optional={
        "status": st.sampled_from(["pass", "fail", "error", "PASS"]) | values,
        "progress_level": st.integers(-1, 6) | values,
        "main_checks_passed": st.integers(-1, 4) | values,
        "main_checks_total": st.integers(-1, 4) | values,
        "edge_check_passed": st.booleans() | values,
        "notes": st.lists(st.text(max_size=3)) | values,
        "stage": st.integers(0, 3) | values,
        "checks": st.lists(check_entries, max_size=3) | values,
        "extra": values,
    },
)


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    return False


@settings(max_examples=400, deadline=None)
@given(verdicts)
def test_the_structural_check_is_the_schema_never_more_lenient(verdict: dict[str, Any]) -> None:
    runtime_ok = not benchlib.structure_problems(verdict)
    schema_ok = not schema_problems(verdict)
    if runtime_ok:
        assert schema_ok, schema_problems(verdict)
    if not _has_float(verdict):  # JSON Schema takes 3.0 for the integer 3; the runtime does not
        assert runtime_ok == schema_ok, (
            benchlib.structure_problems(verdict),
            schema_problems(verdict),
        )
