"""build's errors are where the mistake is: authored-region syntax errors at lint's position."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchsmith.building import build
from benchsmith.errors import BenchsmithError, BuildError
from benchsmith.linting import lint_paths
from tests.conftest import EXAMPLES

BROKEN_LINES = {
    "unbalanced": "    rows = run.csv('output/summary.csv'))",
    "indent": "  @judge.check(level=4)",
    "unclosed": "    total = sum([1, 2",
    "keyword": "    return = 3",
}


@pytest.mark.parametrize("kind", sorted(BROKEN_LINES))
def test_build_reports_an_authored_syntax_error_where_lint_does(
    example_copy: Callable[[str], Path], kind: str
) -> None:
    task = example_copy("01-grade-summary")
    judge = task / "judge.py"
    lines = judge.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# region authored"))
    target = start + 12
    lines.insert(target, BROKEN_LINES[kind])
    judge.write_text("\n".join(lines) + "\n", encoding="utf-8")

    with pytest.raises(BuildError) as caught:
        build([task])
    [reported] = caught.value.diagnostics
    [linted] = [d for d in lint_paths([task]) if d.code == "BS400"]
    assert (reported.path, reported.line, reported.col) == (linted.path, linted.line, linted.col)
    assert reported.code == "BS400"
    assert start + 1 < reported.line <= target + 2
    assert "authored region" in reported.message
    assert "generated code" not in reported.message
    if kind != "unclosed":  # Python names the line that opened the bracket
        assert BROKEN_LINES[kind].strip()[:20] in reported.message


# Lines the parser accepts but Python refuses to run: build and lint used to pass them, and
# the judge then died at its first run.
COMPILE_ONLY = {
    "future": "from __future__ import annotations",
    "return": "return 5",
    "yield": "yield 1",
    "nonlocal": "nonlocal total",
    "await": "await run",
    "async-comprehension": "rows = [r async for r in run]",
}


@pytest.mark.parametrize("kind", sorted(COMPILE_ONLY))
def test_build_and_lint_refuse_an_authored_line_only_the_compiler_rejects(
    example_copy: Callable[[str], Path], cli: Callable[..., Any], kind: str
) -> None:
    task = example_copy("01-grade-summary")
    judge = task / "judge.py"
    lines = judge.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# region authored"))
    lines.insert(start + 2, COMPILE_ONLY[kind])  # after the region's first import
    judge.write_text("\n".join(lines) + "\n", encoding="utf-8")
    where = re.compile(rf"judge\.py:{start + 3}:\d+: BS400")

    built = cli("build", task)
    assert built.exit_code == 1, built.output
    assert COMPILE_ONLY[kind] in built.output
    linted = cli("lint", task)
    assert linted.exit_code == 1, linted.output
    [at_build] = where.findall(built.output)
    assert where.findall(linted.output) == [at_build]


def test_lint_refuses_a_generator_module_python_cannot_compile(
    example_copy: Callable[[str], Path], cli: Callable[..., Any]
) -> None:
    task = example_copy("01-grade-summary")
    (task / "fixtures.py").write_text("import benchlib\n\nreturn 1\n", encoding="utf-8")
    linted = cli("lint", task)
    assert "fixtures.py:3:1: BS400" in linted.output, linted.output
    assert "'return' outside function" in linted.output


def test_build_locates_a_syntax_error_in_the_generator_module_once(
    tmp_path: Path, cli: Callable[..., Any]
) -> None:
    """Issue 28: build said "fixtures.py defines no function ..." at task.toml; it now names
    the line of fixtures.py that does not parse, as lint does, and lint says it once."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    task = Path(shutil.copytree(EXAMPLES.parent / "tasks" / "01-expense-reconciliation",
                                corpus / "01-expense-reconciliation"))  # fmt: skip
    module = task / "fixtures.py"
    lines = module.read_text("utf-8").count("\n")
    module.write_text(module.read_text("utf-8") + "def broken(:\n    pass\n", "utf-8")
    built = cli("build", task)
    assert built.exit_code != 0
    assert f"fixtures.py:{lines + 1}:12: BS400 file does not parse: invalid syntax" in built.output
    assert "defines no function" not in built.output
    assert "problem(s) in fixtures.py" in built.output
    linted = cli("lint", task)
    assert linted.output.count(f"fixtures.py:{lines + 1}:12: BS400") == 1, linted.output


FRAGMENTS = [
    "x = 1",
    "import csv",
    "from __future__ import annotations",
    "return 5",
    "def f(:",
    "    y = 2",
    "total = sum([1, 2",
    "]",
    "nonlocal q",
    "'''",
    "print 'a'",
    "@judge.check(level=4)",
    "break",
    "",
]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.sampled_from(FRAGMENTS)), min_size=1, max_size=3))
def test_build_and_lint_agree_on_any_authored_region(inserts: list[tuple[int, str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        task = Path(shutil.copytree(EXAMPLES / "01-grade-summary", Path(tmp) / "01-grade-summary"))
        judge = task / "judge.py"
        lines = judge.read_text(encoding="utf-8").splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("# region authored"))
        end = next(i for i, line in enumerate(lines) if line.startswith("# endregion authored"))
        for offset, fragment in inserts:
            lines.insert(start + 1 + offset % (end - start), fragment)
            end += 1
        judge.write_text("\n".join(lines) + "\n", encoding="utf-8")
        linted = [
            d
            for d in lint_paths([task], select=frozenset({"BS400"}))
            if d.path.endswith("judge.py")
        ]
        try:
            build([task], check=True)
        except BenchsmithError as error:  # stale (formatting) or BS400
            reported = [d for d in error.diagnostics if d.code == "BS400"]
        else:
            reported = []
        positions = [(d.line, d.col) for d in reported]
        assert positions == [(d.line, d.col) for d in linted]
        for found in reported:
            assert lines[found.line - 1].strip()[:40] in found.message
