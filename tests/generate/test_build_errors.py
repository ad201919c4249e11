"""build's errors are where the mistake is: authored-region syntax errors at lint's position."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from benchsmith.building import build
from benchsmith.errors import BuildError
from benchsmith.lint import lint_paths

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
