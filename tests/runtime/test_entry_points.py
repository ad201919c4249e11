"""benchlib.python_target and entry_point_problem: what a declared command runs (level 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchsmith.runtime import benchlib


@pytest.mark.parametrize(
    ("argv", "target"),
    [
        (["python", "-m", "solution.main", "x"], ("module", "solution.main")),
        (["python3", "-u", "-X", "utf8", "-m", "pkg.mod"], ("module", "pkg.mod")),
        (["python", "-mpkg"], ("module", "pkg")),
        (["python", "-B", "tools/run.py", "-m", "x"], ("script", "tools/run.py")),
        (["python", "-c", "pass"], ("", "runs inline code (-c), not a module or script")),
        (["python", "-", "x"], ("", "reads its program from standard input")),
        (["python", "-u"], ("", "names no module or script")),
        (["python", "-m"], ("", "-m names no module")),
    ],
)
def test_python_target(argv: list[str], target: tuple[str, str]) -> None:
    assert benchlib.python_target(argv) == target


def test_entry_point_problems(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "good.py").write_text("X = 1\n", "utf-8")
    (tmp_path / "pkg" / "bad.py").write_text("def (:\n", "utf-8")
    problem = benchlib.entry_point_problem
    assert problem(["python", "-m", "pkg.good"], tmp_path) == ""
    assert problem(["python", "-m", "pkg.none"], tmp_path) == "module pkg.none not found"
    assert problem(["python", "-m", "pkg.bad"], tmp_path).startswith("pkg.bad does not compile")
    assert problem(["python", "pkg/good.py"], tmp_path) == ""
    assert problem(["python", "-c", "pass"], tmp_path).startswith("runs inline code")
