"""Located findings: what is wrong, where, and how bad.

Every user-facing problem benchsmith finds (a TOML syntax error, a schema violation, a lint
finding, a stale file) is a :class:`Diagnostic`. Library code returns or raises them; only the
CLI prints them, in the ruff-like text form or as JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path


class Severity(StrEnum):
    """How much a finding matters: errors fail builds and lint; warnings only inform."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True, order=True)
class Diagnostic:
    """One located finding.

    Attributes:
        path: The file the finding is about, as given by the caller (usually relative).
        line: 1-based line; a finding about the file as a whole points at line 1 (or at the
            first line that differs). Values below 1 are raised to 1: every finding has a
            real position.
        col: 1-based column (1 when the finding concerns a whole line or file).
        code: Stable rule code such as ``BS102``; documented in ``benchsmith rules``.
        message: What is wrong and, where possible, what was expected.
        severity: :attr:`Severity.ERROR` or :attr:`Severity.WARNING`.
    """

    path: str
    line: int
    col: int
    code: str
    message: str
    severity: Severity = Severity.ERROR

    def __post_init__(self) -> None:
        if self.line < 1:
            object.__setattr__(self, "line", 1)
        if self.col < 1:
            object.__setattr__(self, "col", 1)

    def render(self) -> str:
        """Return the ruff-like ``path:line:col: CODE message`` form."""
        where = f"{self.path}:{self.line}:{self.col}"
        level = "" if self.severity is Severity.ERROR else "[warning] "
        return f"{where}: {self.code} {level}{self.message}"

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready mapping of the finding."""
        data = asdict(self)
        data["severity"] = str(self.severity)
        return data


def display_path(path: Path | str, root: Path | None = None) -> str:
    """Return ``path`` relative to ``root`` (default: the working directory) when possible."""
    resolved = Path(path).resolve()
    base = (root or Path.cwd()).resolve()
    try:
        return resolved.relative_to(base).as_posix()
    except ValueError:
        return Path(path).as_posix()


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Return findings in a stable reading order: by file, position, then code."""
    return sorted(set(diagnostics))


def render_text(diagnostics: Iterable[Diagnostic]) -> str:
    """Render findings one per line, followed by a count summary."""
    items = sort_diagnostics(diagnostics)
    lines = [d.render() for d in items]
    errors = sum(d.severity is Severity.ERROR for d in items)
    warnings = len(items) - errors
    if items:
        lines.append(f"Found {errors} error(s) and {warnings} warning(s).")
    return "\n".join(lines)


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    """Render findings as a JSON array (stable order, sorted keys)."""
    payload = [d.to_dict() for d in sort_diagnostics(diagnostics)]
    return json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False)


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    """Return True when any finding is an error."""
    return any(d.severity is Severity.ERROR for d in diagnostics)
