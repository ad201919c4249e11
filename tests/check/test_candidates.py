"""Synthetic candidates: entry points from commands, and programs that run."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pytest

from benchsmith.checking import candidates
from benchsmith.checking.candidates import CandidateError, entry_point, entry_points, facade_content
from benchsmith.dsl.load import load_task
from benchsmith.dsl.model import Command
from tests.check.conftest import EXAMPLES


def _command(run: str, cwd: str = ".") -> Command:
    return Command(run, tuple(run.split()), cwd, None, "initial", 10.0)


def test_a_module_command_needs_its_file_and_packages() -> None:
    entry = entry_point(_command("python -m app.jobs.nightly --out output", cwd="service"))
    assert entry.file == "service/app/jobs/nightly.py"
    assert entry.packages == ("service/app/__init__.py", "service/app/jobs/__init__.py")
    assert entry.depth == 1


def test_a_package_command_runs_its_main_module() -> None:
    entry = entry_point(_command("python -m tool.cli"), lambda module_file: True)
    assert entry.file == "tool/cli/__main__.py"
    assert entry.packages == ("tool/__init__.py", "tool/cli/__init__.py")


def test_entry_points_use_the_package_form_when_only_it_is_editable() -> None:
    spec = load_task(EXAMPLES / "01-grade-summary")
    spec = dataclasses.replace(spec, editable=("solution/grades/",))
    assert [e.file for e in entry_points(spec)] == ["solution/grades/__main__.py"]


def test_a_script_command_needs_its_file() -> None:
    entry = entry_point(_command("python3 -u tools/../bin/run.py inputs/a.csv"))
    assert (entry.file, entry.packages, entry.depth) == ("bin/run.py", (), 0)


@pytest.mark.parametrize("run", ["sqlite3 db.sqlite", "python -c pass", "python"])
def test_commands_without_python_code_are_refused(run: str) -> None:
    with pytest.raises(CandidateError):
        entry_point(_command(run))


def test_entry_points_must_be_editable() -> None:
    spec = load_task(EXAMPLES / "01-grade-summary")
    assert [e.file for e in entry_points(spec)] == ["solution/grades.py"]
    with pytest.raises(CandidateError, match="outside the editable paths"):
        entry_points(dataclasses.replace(spec, editable=("output/",)))


def test_facade_content_is_empty_or_header_only() -> None:
    assert facade_content("csv", ["id", "a,b"]) == 'id,"a,b"\n'
    assert facade_content("csv", []) == ""
    assert facade_content("json", []) == "{}\n"
    assert facade_content("text", []) == ""


@pytest.mark.parametrize("kind", sorted(candidates.BODIES))
def test_every_program_compiles(kind: str, tmp_path: Path) -> None:
    spec = load_task(EXAMPLES / "02-pantry-ledger")
    source = candidates.program(kind, spec, "benchsmith-orphan-test").replace("__DEPTH__", "0")
    compile(source, f"<{kind}>", "exec")


def test_the_facade_program_creates_every_output_empty(tmp_path: Path, python: str) -> None:
    spec = load_task(EXAMPLES / "02-pantry-ledger")
    entries = entry_points(spec)
    candidates.install(tmp_path, entries, candidates.program("facade", spec))
    assert (tmp_path / "solution" / "__init__.py").read_text("utf-8") == ""
    subprocess.run([python, "-m", "solution.stock", "inputs"], cwd=tmp_path, check=True)
    assert (tmp_path / "output" / "stock.csv").read_text("utf-8") == "item,on_hand\n"
    assert (tmp_path / "output" / "reorder.csv").read_text(
        "utf-8"
    ) == "item,on_hand,threshold,shortfall\n"


def test_shadow_modules_are_planted_at_the_root_and_beside_the_code(tmp_path: Path) -> None:
    spec = load_task(EXAMPLES / "01-grade-summary")
    planted = candidates.plant(tmp_path, entry_points(spec))
    assert "sitecustomize.py" in planted and "solution/json.py" in planted
    assert (tmp_path / "solution" / "sitecustomize.py").is_file()
