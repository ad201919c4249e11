"""Imports: the package's modules form no cycle; the installed package imports from anywhere.

The import graph is read from the source with :mod:`ast`, without importing anything:

* Every import that can run is an edge: at module level, in class bodies, in ``try`` blocks
  and inside functions. A deferred import still runs, and a cycle through it still means two
  modules that need each other (the old ``benchsmith.cli`` <-> ``check/cli.py`` cycle ran
  through an import inside a function). Deferring an import is for start-up time, not for
  hiding a cycle. Imports under ``if TYPE_CHECKING:`` never run and are not edges.
* An edge points at the module named: ``from a.b import c`` is an edge to ``a.b.c`` when that
  is a module, else to ``a.b``. Importing ``a.b.c`` also initializes the packages ``a`` and
  ``a.b`` first, but those implicit edges are left out: Python registers a package before
  its ``__init__`` runs, so an ``__init__`` importing its own submodules (as ``lint/`` and
  ``cli/`` do) is not a cycle, and counting parents would make it one.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path

from tests.conftest import REPO

SOURCE = REPO / "sdk"
PACKAGE = "benchsmith"

Graph = Mapping[str, set[str]]


def module_name(path: Path, source: Path) -> str:
    """The dotted name of a module file under the source root ``source``."""
    parts = list(path.relative_to(source).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _names_type_checking(test: ast.expr) -> bool:
    name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", "")
    return name == "TYPE_CHECKING"


def runtime_imports(nodes: Iterable[ast.AST]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement in ``nodes`` that can run (not under ``if TYPE_CHECKING:``)."""
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _names_type_checking(node.test):
            yield from runtime_imports(node.orelse)
        else:
            yield from runtime_imports(ast.iter_child_nodes(node))


def imported(
    module: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: Collection[str]
) -> set[str]:
    """The modules of ``known`` an import statement names."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names} & set(known)
    base = node.module or ""
    if node.level:  # relative: anchored at the importing module's package
        anchor = module if is_package else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            anchor = anchor.rpartition(".")[0]
        base = f"{anchor}.{base}" if base else anchor
    found = {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
    return found & set(known)


def import_graph(source: Path, package: str) -> dict[str, set[str]]:
    """Module -> the package's modules it imports at run time."""
    files = {module_name(p, source): p for p in sorted((source / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        edges = [imported(module, is_package, n, files.keys()) for n in runtime_imports([tree])]
        graph[module] = set().union(*edges) - {module}
    return graph


def find_cycle(graph: Graph) -> list[str] | None:
    """One import cycle as a path ``[a, b, ..., a]``, or None when the graph is acyclic."""
    state: dict[str, str] = {}  # "open" while on the current path, "done" once explored
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        state[module] = "done"
        path.pop()
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_the_package_has_no_import_cycle() -> None:
    cycle = find_cycle(import_graph(SOURCE, PACKAGE))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_graph_sees_deferred_imports_and_skips_type_checking_ones() -> None:
    graph = import_graph(SOURCE, PACKAGE)
    assert len(graph) > 50
    assert "benchsmith.building" in graph["benchsmith.api"]  # imported inside build()
    assert "benchsmith.cli.authoring" in graph["benchsmith.cli"]  # from benchsmith.cli import ...
    assert "benchsmith.running.batch" not in graph["benchsmith.cli.running"]  # TYPE_CHECKING only
    assert "benchsmith.errors" in graph["benchsmith.cli.running"]


def test_a_cycle_is_found_and_printed(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg import a\n", encoding="utf-8")
    (package / "a.py").write_text("import pkg.b\n", encoding="utf-8")
    (package / "b.py").write_text("def f():\n    from . import c\n", encoding="utf-8")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.d\n"
        "from pkg.a import x\n",
        encoding="utf-8",
    )
    (package / "d.py").write_text("import pkg.c\n", encoding="utf-8")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.c"] == {"pkg.a"}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]
    assert find_cycle({"x": {"y"}, "y": set()}) is None


def _python(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run this venv's interpreter in ``cwd``, with nothing added to its import path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def test_benchsmith_imports_from_any_folder_and_sdk_is_not_a_package(tmp_path: Path) -> None:
    done = _python("-c", "import benchsmith; print(benchsmith.build.__module__)", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "benchsmith.api\n"), done.stderr
    sdk = _python("-c", "import sdk", cwd=tmp_path)
    assert sdk.returncode == 1
    assert "ModuleNotFoundError: No module named 'sdk'" in sdk.stderr


def test_python_m_benchsmith_runs_the_cli(tmp_path: Path) -> None:
    done = _python("-m", "benchsmith", "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Usage: python -m benchsmith" in done.stdout
    version = _python("-m", "benchsmith", "--version", cwd=tmp_path)
    assert version.stdout.startswith("benchsmith 0.")


# --- layers ----------------------------------------------------------------------------------

# Each unit of the package (a top-level module or subpackage) sits in one layer; a unit imports
# units of its own layer or below, and a stage imports no other stage. ARCHITECTURE.md draws it.
BASE = {
    "_version", "errors", "diagnostics", "resources", "signals", "children", "pythons",
    "tables", "runtime", "corpus", "assembly",
}  # fmt: skip
TASK_LAYER = {
    "dsl", "generate", "building", "lockfile", "locking", "workspaces", "judging", "sealing",
    "patches", "seeds", "environments", "fixturepaths", "auditrecord",
}  # fmt: skip
STAGES = {
    "scaffold": "author", "vocabulary": "author", "linting": "validate", "checking": "validate",
    "auditing": "audit", "running": "run", "export": "export",
}  # fmt: skip
TOP = {"api", "cli", "entry", "__init__", "__main__"}
# Known exceptions, each with its reason; the list may only shrink.
ALLOWED = {
    ("export", "linting"): "the pre-export gate lints the tasks it exports",
}


def layer_of(unit: str) -> tuple[int, str]:
    """(rank, name): 0 base, 1 the task layer, 2 a stage (named), 3 the front ends."""
    if unit in BASE:
        return 0, "base"
    if unit in TASK_LAYER:
        return 1, "task"
    if unit in STAGES:
        return 2, STAGES[unit]
    assert unit in TOP, f"benchsmith.{unit} is in no layer: add it to tests/test_imports.py"
    return 3, "front"


def unit_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def layer_violations(graph: Graph) -> set[tuple[str, str]]:
    """(importer unit, imported unit) pairs that break the layer rule."""
    found = set()
    for module, targets in graph.items():
        for target in targets:
            here, there = unit_of(module), unit_of(target)
            (rank, name), (other_rank, other_name) = layer_of(here), layer_of(there)
            upward = other_rank > rank
            sideways = rank == other_rank == 2 and name != other_name
            if here != there and (upward or sideways):
                found.add((here, there))
    return found


def test_layers_only_point_down_and_stages_never_import_each_other() -> None:
    violations = layer_violations(import_graph(SOURCE, PACKAGE))
    assert violations <= set(ALLOWED), sorted(violations - set(ALLOWED))
    assert set(ALLOWED) <= violations, f"fixed, drop from ALLOWED: {set(ALLOWED) - violations}"


def test_a_sideways_or_upward_import_is_a_violation() -> None:
    graph = {
        "benchsmith.auditing.runner": {"benchsmith.checking.battery", "benchsmith.judging"},
        "benchsmith.judging": {"benchsmith.running.records", "benchsmith.runtime"},
        "benchsmith.checking.battery": {"benchsmith.linting.registry"},
    }
    assert layer_violations(graph) == {("auditing", "checking"), ("judging", "running")}


def longest_chain(graph: Graph) -> list[str]:
    """The longest import path (the graph has no cycle)."""
    best: dict[str, list[str]] = {}

    def visit(module: str) -> list[str]:
        if module not in best:
            tails = [visit(t) for t in sorted(graph.get(module, ()))]
            best[module] = [module, *max(tails, key=len, default=[])]
        return best[module]

    return max((visit(m) for m in sorted(graph)), key=len)


def test_every_submodule_imports_by_its_dotted_name() -> None:
    """No submodule is shadowed by a function of the same name (``import a.b.c as m`` works,
    and so do string ``mock.patch`` targets)."""
    # __main__ runs the CLI; harbor_sandbox is copied into Harbor's own venv (it imports harbor)
    skipped = ("benchsmith.__main__", "benchsmith.export.harbor_sandbox")
    modules = sorted(m for m in import_graph(SOURCE, PACKAGE) if m not in skipped)
    script = (
        "import importlib, sys, benchsmith\n"
        f"for name in {modules!r}:\n"
        "    module = importlib.import_module(name)\n"
        "    assert sys.modules[name] is module, name\n"
        "import benchsmith.linting.registry as registry\n"
        "assert registry.__name__ == 'benchsmith.linting.registry'\n"
        "assert callable(benchsmith.check) and callable(benchsmith.lint)\n"
        "assert callable(benchsmith.run) and callable(benchsmith.audit)\n"
    )
    done = _python("-c", script, cwd=REPO)
    assert done.returncode == 0, done.stderr + done.stdout


def test_the_longest_import_chain_is_reported() -> None:
    chain = longest_chain(import_graph(SOURCE, PACKAGE))
    assert len(chain) >= 3
    assert longest_chain({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"c"}}) == ["a", "b", "c"]
