"""``until`` on ``[[outputs]]`` and ``[[commands]]``: a declared output or command applies
from its ``stage`` through its ``until`` stage, so a layout a later stage replaces is judged
at the stages before it (``judge.py --stage N``) and neither judged nor compared after."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchsmith.auditing.outputs import observe
from benchsmith.dsl.load import read_task, read_task_text
from benchsmith.generate.plan import judge_data
from benchsmith.runtime import benchlib

ROOT = Path(__file__).resolve().parents[2]
PANTRY = ROOT / "examples" / "02-pantry-ledger"
STAGES = ["initial", "returns", "reorder"]
COMMAND = 'command = "python -m solution.stock inputs --output output"\n'
# A stage-1 output and a stage-1 command the pantry's reference never satisfies: they must
# count at stage 1 only.
LEGACY = """
[[commands]]
run = "python -m solution.stock inputs --output output"

[[commands]]
run = "python -m solution.stock --no-such-option"
until = "initial"

[[outputs]]
path = "output/legacy.txt"
format = "text"
until = "initial"
"""


def _with(text: str, extra: str) -> str:
    """The pantry's task.toml with ``extra`` declared before its first output."""
    if "[[commands]]" in extra:
        text = text.replace(COMMAND, "")
    head, tail = text.split("\n[[outputs]]", 1)
    return head + extra + "\n[[outputs]]" + tail


def _pantry(tmp_path: Path, extra: str) -> Path:
    task = tmp_path / PANTRY.name
    shutil.copytree(PANTRY, task)
    toml = task / "task.toml"
    toml.write_text(_with(toml.read_text(encoding="utf-8"), extra), encoding="utf-8")
    return task


def _build(task: Path) -> None:
    argv = [sys.executable, "-m", "benchsmith", "build", str(task)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def _judge(task: Path, workspace: Path, *stage: str) -> dict:
    argv = [sys.executable, "judge.py", "--workspace", str(workspace), "--unsealed", *stage]
    done = subprocess.run(argv, cwd=task, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _workspace(tmp_path: Path, task: Path) -> Path:
    ws = tmp_path / "ws"
    argv = [sys.executable, "-m", "benchsmith", "workspace", str(task), str(ws), "--final"]
    subprocess.run(argv, check=True, capture_output=True)
    shutil.copytree(task / "reference", ws, dirs_exist_ok=True)
    return ws


def test_an_output_and_a_command_apply_through_their_until_stage(tmp_path: Path) -> None:
    task = _pantry(tmp_path, LEGACY)
    _build(task)
    ws = _workspace(tmp_path, task)
    early = _judge(task, ws, "--stage", "1")
    assert early["progress_level"] == 1, early
    assert any("output/legacy.txt" in n for n in early["notes"]), early["notes"]
    for stage in (("--stage", "2"), ("--stage", "returns"), ()):
        later = _judge(task, ws, *stage)
        assert later["progress_level"] == 5, (stage, later)
        assert not any("legacy" in n or "no-such" in n for n in later["notes"])


def _located(task: Path, needle: str, message: str) -> None:
    spec, found = read_task(task)
    assert spec is None
    [diagnostic] = [d for d in found if message in d.message]
    lines = (task / "task.toml").read_text(encoding="utf-8").splitlines()
    want = next(i for i, text in enumerate(lines, 1) if needle in text)
    assert (diagnostic.code, diagnostic.line) == ("BS102", want), diagnostic
    assert diagnostic.col >= 1


@pytest.mark.parametrize(
    ("extra", "needle", "message"),
    [
        ('[[outputs]]\npath = "output/a.txt"\nuntil = "nowhere"\n', "nowhere", "unknown stage"),
        (
            '[[outputs]]\npath = "output/a.txt"\nstage = "reorder"\nuntil = "returns"\n',
            'until = "returns"',
            "until 'returns' comes before the stage 'reorder'",
        ),
        (
            '[[commands]]\nrun = "python -m solution.stock"\n\n'
            '[[commands]]\nrun = "python -V"\nstage = "returns"\nuntil = "initial"\n',
            'until = "initial"',
            "until 'initial' comes before the stage 'returns'",
        ),
    ],
)
def test_a_bad_until_is_a_located_error(
    tmp_path: Path, extra: str, needle: str, message: str
) -> None:
    _located(_pantry(tmp_path, extra), needle, message)


def test_a_check_of_an_ended_output_ends_with_it(tmp_path: Path) -> None:
    task = _pantry(tmp_path, "")
    toml = task / "task.toml"
    text = toml.read_text(encoding="utf-8")
    stock = 'description = "one row per item, sorted by item"\n'
    toml.write_text(text.replace(stock, stock + 'until = "returns"\n'), encoding="utf-8")
    spec, found = read_task(task)
    assert spec is not None, found
    ends = {e.name: (e.stage, e.until) for a in spec.anchors for e in a.expect}
    assert ends["at-threshold#2"] == ("initial", "returns")  # reads output/stock.csv
    assert ends["at-threshold#1"] == ("reorder", None)  # reads output/reorder.csv
    salt = '{ item = "Salt" }, equals = { on_hand = "5" } }'
    late = salt[:-2] + ', stage = "reorder" }'
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace(salt, late), encoding="utf-8")
    _located(task, late, "comes after 'returns', the last stage output/stock.csv applies to")


def test_the_audit_does_not_compare_an_output_that_no_longer_applies(tmp_path: Path) -> None:
    task = {
        "stages": STAGES,
        "commands": [{"run": "python -m x", "stage": "initial"}],
        "outputs": [
            {"path": "output/old.txt", "format": "text", "stage": "initial", "until": "initial"},
            {"path": "output/new.txt", "format": "text", "stage": "returns"},
        ],
        "expect": [],
        "edge_expect": [],
    }
    seen = {}
    for name in ("a", "b"):
        root = tmp_path / name
        (root / "output").mkdir(parents=True)
        (root / "output" / "old.txt").write_text(name, encoding="utf-8")
        (root / "output" / "new.txt").write_text("same", encoding="utf-8")
        files = benchlib.Files(root)
        run = benchlib.Run("main", root, files, files)
        run.results.append(benchlib.CommandResult(["python"], 0, False, "", "", 0.1))
        seen[name] = run
    final = [observe(seen[n], task) for n in ("a", "b")]
    assert final[0] == final[1] and "output/old.txt" not in dict(final[0].exact)
    first = [observe(seen[n], task, stage=1) for n in ("a", "b")]
    assert first[0].differences(first[1]) == ["output/old.txt"]
    assert "output/new.txt" not in dict(first[0].exact)


BASE = (PANTRY / "task.toml").read_text(encoding="utf-8")


@given(st.integers(0, 3), st.integers(0, 3))
def test_an_output_applies_exactly_from_its_stage_through_its_until(first: int, last: int) -> None:
    """Property: any stage/until pair either loads and applies on exactly that span of
    stages in the generated judge's data, or is one located error."""
    names = [*STAGES, "nowhere"]
    extra = f'[[outputs]]\npath = "output/a.txt"\nstage = "{names[first]}"\n'
    extra += f'until = "{names[last]}"\n'
    text = _with(BASE, '[[commands]]\nrun = "python -m solution.stock inputs"\n' + extra)
    source = Path("/nonexistent/corpus/02-pantry-ledger/task.toml")
    spec, found = read_task_text(text, source)
    if 3 in (first, last) or last < first:
        lines = text.splitlines()
        assert spec is None and found
        assert all(lines[d.line - 1].startswith(("stage =", "until =")) for d in found), found
        return
    assert spec is not None, found
    [output] = [o for o in judge_data(spec)["outputs"] if o["path"] == "output/a.txt"]
    applies = [benchlib.declared_at(output, STAGES, n) for n in (1, 2, 3)]
    assert applies == [first <= n - 1 <= last for n in (1, 2, 3)]
