"""Lint rules, registered by code like ruff's: one small function per rule.

A task rule receives a :class:`~benchsmith.linting.context.TaskContext` and yields diagnostics;
a corpus rule receives a :class:`~benchsmith.linting.context.CorpusContext`. ``benchsmith rules``
lists them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from benchsmith.diagnostics import Diagnostic


@dataclass(frozen=True, slots=True)
class Rule:
    """A documented rule code.

    Attributes:
        code: ``BSnnn``.
        summary: One line: what the rule checks.
        scope: ``task``, ``corpus``, or ``builtin`` (reported by loading or building).
    """

    code: str
    summary: str
    scope: str


RULES: dict[str, Rule] = {}
TASK_RULES: list[Callable[[Any], Iterable[Diagnostic]]] = []
CORPUS_RULES: list[Callable[[Any], Iterable[Diagnostic]]] = []


def document(code: str, summary: str, scope: str = "builtin") -> None:
    """Register a code that another component reports (loading, building, purity)."""
    RULES[code] = Rule(code, summary, scope)


def task_rule(
    *codes: tuple[str, str],
) -> Callable[[Callable[[Any], Iterable[Diagnostic]]], Callable[[Any], Iterable[Diagnostic]]]:
    """Register a task rule reporting the given ``(code, summary)`` pairs."""

    def register(
        function: Callable[[Any], Iterable[Diagnostic]],
    ) -> Callable[[Any], Iterable[Diagnostic]]:
        for code, summary in codes:
            RULES[code] = Rule(code, summary, "task")
        TASK_RULES.append(function)
        return function

    return register


def corpus_rule(
    *codes: tuple[str, str],
) -> Callable[[Callable[[Any], Iterable[Diagnostic]]], Callable[[Any], Iterable[Diagnostic]]]:
    """Register a corpus rule reporting the given ``(code, summary)`` pairs."""

    def register(
        function: Callable[[Any], Iterable[Diagnostic]],
    ) -> Callable[[Any], Iterable[Diagnostic]]:
        for code, summary in codes:
            RULES[code] = Rule(code, summary, "corpus")
        CORPUS_RULES.append(function)
        return function

    return register


document(
    "BS001", "a file or folder could not be read or written (read-only, full disk, permissions)"
)
document("BS002", "another benchsmith process keeps the task or corpus locked")
document("BS101", "task.toml is not valid TOML (or not UTF-8)")
document("BS102", "task.toml violates the schema or its cross-references (stages, files, columns)")
document("BS400", "a Python file of the task does not parse or does not compile")
document("BS401", "import outside the standard library and the task's own modules")
document("BS402", "wall-clock read in seed.py, judge.py or fixtures.py")
document("BS403", "OS entropy (uuid4, os.urandom, secrets, SystemRandom)")
document("BS404", "unseeded or module-level random")
document("BS405", "builtin hash() (salted per process)")
document("BS406", "directory listing consumed unsorted")
document("BS407", "iteration over a set (order depends on PYTHONHASHSEED)")
