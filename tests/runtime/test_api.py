"""benchlib's ``__all__`` is exactly the API corpus code may rely on, and it is complete.

Corpus code is what ends up in a task folder: the generated seed.py and judge.py (their
templates and the placeholder checks of a new task's authored region), fixtures.py
generators and authored judge regions, plus the examples CONTRIBUTING.md documents.
Reference solutions are standard library only and never import benchlib.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from benchsmith.generate.plan import PLACEHOLDER_CHECKS
from benchsmith.runtime import benchlib

REPO = Path(__file__).resolve().parents[2]
CORPUS_FILES = ("judge.py", "seed.py", "fixtures.py")
ATTRIBUTE = re.compile(r"\bbenchlib\.([A-Za-z_]\w*)")


def names_in_python(source: str) -> set[str]:
    """Every ``benchlib.X`` attribute and ``from benchlib import X`` name in ``source``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "benchlib":
                names.add(node.attr)
        elif isinstance(node, ast.ImportFrom) and node.module == "benchlib":
            names.update(alias.name for alias in node.names)
    return names


def corpus_sources() -> dict[str, str]:
    """The corpus Python files of tasks/ and examples/ (reference solutions excluded)."""
    sources = {}
    for corpus in ("tasks", "examples"):
        for task in sorted((REPO / corpus).iterdir()):
            for name in CORPUS_FILES:
                path = task / name
                if path.is_file():
                    sources[str(path.relative_to(REPO))] = path.read_text(encoding="utf-8")
    return sources


def python_blocks(markdown: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", markdown, flags=re.DOTALL)


def used_names() -> dict[str, set[str]]:
    """Name -> where corpus code uses it."""
    used: dict[str, set[str]] = {}

    def add(names: set[str], where: str) -> None:
        for name in names:
            used.setdefault(name, set()).add(where)

    for where, source in corpus_sources().items():
        add(names_in_python(source), where)
    for template in sorted((REPO / "templates" / "generate").glob("*.j2")):
        # Jinja templates are not Python; their benchlib references are plain text.
        add(set(ATTRIBUTE.findall(template.read_text(encoding="utf-8"))), template.name)
    add(names_in_python(PLACEHOLDER_CHECKS), "generate/plan.py placeholder checks")
    contributing = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for block in python_blocks(contributing):
        add(set(ATTRIBUTE.findall(block)), "CONTRIBUTING.md")
    return used


def test_corpus_code_uses_only_the_declared_api() -> None:
    used = used_names()
    # The scan found the corpus (a broken scan would pass vacuously otherwise).
    assert {"Judge", "seed_main", "SeedContext", "Run", "expect"} <= set(used)
    outside = {name: sorted(where) for name, where in used.items() if name not in benchlib.__all__}
    assert not outside, f"used by corpus code but not in benchlib.__all__: {outside}"


def test_every_declared_name_exists_and_is_public() -> None:
    assert len(set(benchlib.__all__)) == len(benchlib.__all__)
    for name in benchlib.__all__:
        assert not name.startswith("_"), name
        assert hasattr(benchlib, name), f"benchlib.__all__ names missing {name}"


def test_star_import_gives_exactly_the_api() -> None:
    namespace: dict[str, object] = {}
    exec("from benchsmith.runtime.benchlib import *", namespace)
    assert sorted(k for k in namespace if k != "__builtins__") == sorted(benchlib.__all__)
