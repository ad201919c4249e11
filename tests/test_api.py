"""The library front door: ``benchsmith``'s top-level names, friendly arguments, lazy imports."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import benchsmith
from benchsmith import api
from tests.conftest import MINIMAL_TASK, REPO

HEAVY = ("typer", "click", "rich", "jinja2", "jsonschema", "faker", "cookiecutter")


HARBOR_SIDE = {"benchsmith.export.harbor_sandbox"}
"""Shipped beside a Harbor export and imported by Harbor's own venv, never by benchsmith's."""


def all_modules() -> list[str]:
    """Every importable module of the package but ``__main__`` (which runs the CLI)."""
    found = pkgutil.walk_packages(benchsmith.__path__, "benchsmith.")
    return sorted(
        m.name for m in found if not m.name.endswith("__main__") and m.name not in HARBOR_SIDE
    )


def test_the_functions_stay_functions_after_every_submodule_is_imported() -> None:
    for name in all_modules():
        importlib.import_module(name)
    for name in benchsmith.FUNCTIONS:
        assert getattr(benchsmith, name) is getattr(api, name), name
    from benchsmith import check, lint, run, vocab, workspace

    assert [f.__module__ for f in (check, lint, run, vocab, workspace)] == ["benchsmith.api"] * 5
    from benchsmith.checking import battery  # submodules stay importable with "from"

    assert battery.check_tasks.__name__ == "check_tasks"


def test_every_exported_name_resolves_and_is_documented() -> None:
    for name in benchsmith.__all__:
        value = getattr(benchsmith, name)
        if callable(value) and not name.startswith("_"):
            assert (inspect.getdoc(value) or "").strip(), name
    assert set(dir(benchsmith)) >= set(benchsmith.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        benchsmith.nothing  # type: ignore[attr-defined]  # noqa: B018


@pytest.mark.parametrize("name", benchsmith.FUNCTIONS)
def test_every_function_documents_its_arguments_results_and_errors(name: str) -> None:
    function = getattr(benchsmith, name)
    doc = inspect.getdoc(function) or ""
    parameters = inspect.signature(function).parameters
    for parameter in parameters:
        assert f"    {parameter}: " in doc, f"{name}: {parameter} undocumented"
    assert "Returns:" in doc, name
    assert "Raises:" in doc or not parameters, name


def test_import_benchsmith_loads_nothing_heavy() -> None:
    code = "import benchsmith, sys, json; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(done.stdout)
    assert [m for m in loaded if m.split(".")[0] in HEAVY] == []
    assert [m for m in loaded if m.startswith("benchsmith.")] == [
        "benchsmith._version",
        "benchsmith.api",
    ]


def test_tasks_can_be_named_by_folder_id_or_slug(
    make_task: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    task = make_task()
    corpus = task.parent
    by_path = benchsmith.build(str(task))
    assert [f.path.name for f in by_path.changed][:2] == ["seed.py", "judge.py"]
    benchsmith.lock(task)  # build --check also wants seed.py's hashes recorded
    by_id = benchsmith.build(7, corpus=corpus, check=True)
    by_slug = benchsmith.build(["tiny-task", "07"], corpus=corpus, check=True)
    assert [t.slug for t in by_id.tasks] == [t.slug for t in by_slug.tasks] == ["tiny-task"]
    monkeypatch.chdir(corpus.parent)
    assert benchsmith.build(all_tasks=True, corpus="corpus", check=True).changed == []


def test_build_errors_are_benchsmith_errors(make_task: Callable[..., Path]) -> None:
    task = make_task(MINIMAL_TASK.replace("rows = 5", "rows = 'x'"))
    with pytest.raises(benchsmith.TaskSpecError) as raised:
        benchsmith.build(task)
    assert isinstance(raised.value, benchsmith.BenchsmithError)
    assert raised.value.diagnostics[0].code == "BS102"
    with pytest.raises(benchsmith.TaskNotFoundError, match="no task given"):
        benchsmith.build()


def test_lint_takes_one_path_or_several(make_task: Callable[..., Path]) -> None:
    task = make_task()
    benchsmith.build(task)
    benchsmith.lock(task)
    one = benchsmith.lint(task)
    assert one == benchsmith.lint([str(task)]) == benchsmith.lint(task.parent)
    assert all(isinstance(d, benchsmith.Diagnostic) for d in one)
    assert {d.severity for d in one} == {benchsmith.Severity.WARNING}
    assert benchsmith.lint(task, select=["BS2"]) == []


def test_new_then_workspace_by_slug_at_a_relative_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    task = benchsmith.new("tiny-sum", task_id=5, pressure="n", parent="corpus", parents=True)
    assert task.resolve() == (tmp_path / "corpus/05-tiny-sum").resolve()
    made = benchsmith.workspace("tiny-sum", "ws", corpus="corpus")
    assert made == Path("ws")
    assert (made / "TASK.md").is_file() and not (made / "judge.py").exists()


def test_report_without_runs_is_a_records_error(tmp_path: Path) -> None:
    with pytest.raises(benchsmith.RecordsError, match="no runs database"):
        benchsmith.report(tmp_path)


def test_rules_lists_every_code() -> None:
    codes = [r.code for r in benchsmith.rules()]
    assert codes == sorted(set(codes), key=codes.index)
    assert "BS101" in codes and all(isinstance(r, benchsmith.Rule) for r in benchsmith.rules())


def test_check_announces_its_work_and_each_finished_control(
    example_copy: Callable[[str], Path],
) -> None:
    task = example_copy("01-grade-summary")
    started: list[tuple[list[Path], list[str]]] = []
    finished: list[benchsmith.ProgressEvent] = []
    report = benchsmith.check(
        task,
        controls=["isolation", "empty"],
        on_start=lambda dirs, controls: started.append((dirs, controls)),
        on_finish=finished.append,
    )
    assert report.ok, report.to_dict()
    assert started == [([task], ["empty", "isolation"])]  # battery order
    assert sorted(e.control for e in finished) == ["empty", "isolation"]
    with pytest.raises(benchsmith.UsageError, match="unknown control"):
        benchsmith.check(task, controls=["nope"])


def readme_example() -> str:
    """The Python block of the README's "Library use" section."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Library use\n", 1)[1].split("\n## ", 1)[0]
    [code] = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    return str(code)


def test_the_readme_library_example_runs(
    example_copy: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    task = example_copy("01-grade-summary")
    monkeypatch.chdir(task.parent.parent)
    exec(compile(readme_example(), "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("built ['grade-summary'], ")
    assert printed[1:3] == [
        "empty: observed 0, expected 0",
        "isolation: observed clean, expected nothing private",
    ]
    assert "TASK.md" in printed[3]
    assert printed[4].startswith("error: examples/no-such-task: not a task folder")
