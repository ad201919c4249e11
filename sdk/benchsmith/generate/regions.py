"""The authored region of judge.py: found, kept across rebuilds, excluded from ownership hashes."""

from __future__ import annotations

import ast
import warnings

from benchsmith.diagnostics import Diagnostic
from benchsmith.errors import BuildError, ConflictError
from benchsmith.generate.env import REGION_END, REGION_START


def _bounds(text: str, shown: str) -> tuple[int, int]:
    """Line indexes of the region's start and end markers."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("# region authored")]
    ends = [i for i, line in enumerate(lines) if line.strip() == REGION_END]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        found = f"{len(starts)} start and {len(ends)} end marker(s)"
        message = (
            f"cannot find the authored region ({found}); restore the lines "
            f"'{REGION_START}' and '{REGION_END}' around your checks"
        )
        line = (starts or ends or [0])[0] + 1
        raise ConflictError(f"{shown}: {message}", [Diagnostic(shown, line, 1, "BS504", message)])
    return starts[0], ends[0]


def authored_region(text: str, shown: str) -> str:
    """Return the text between the region markers (without them).

    Raises:
        ConflictError: When the markers are missing, repeated or out of order.
    """
    start, end = _bounds(text, shown)
    return "\n".join(text.splitlines()[start + 1 : end])


def with_region(text: str, region: str, shown: str) -> str:
    """Return ``text`` with the lines between its region markers replaced by ``region``.

    ``build`` formats generated code only: it puts the authored region back, byte for byte,
    into the formatted file.
    """
    start, end = _bounds(text, shown)
    lines = text.splitlines()
    inner = region.splitlines() if region else []
    return "\n".join(lines[: start + 1] + inner + lines[end:]) + "\n"


def skeleton(text: str, shown: str) -> str:
    """Return ``text`` with the authored region emptied: the part benchsmith owns."""
    start, end = _bounds(text, shown)
    lines = text.splitlines()
    return "\n".join(lines[: start + 1] + lines[end:]) + "\n"


def check_authored(text: str, shown: str) -> None:
    """Raise BuildError, located in ``text``, when the authored region does not parse.

    The region is parsed and compiled at its own line numbers (the generated lines above it
    blanked), so the error names the line and column ``lint`` reports and quotes the authored
    line; errors only the compiler finds (``return`` outside a function, a ``from __future__``
    import after other code) count too, as they do for lint.

    Raises:
        ConflictError: When the markers are missing, repeated or out of order.
        BuildError: With one BS400 diagnostic when the region is not valid Python.
    """
    start, end = _bounds(text, shown)
    lines = text.splitlines()
    # `pass` stands for the generated code above, so a `from __future__` import in the region
    # is refused as it is in the whole file; the region keeps its own line numbers.
    padded = "pass" + "\n" * (start + 1) + "\n".join(lines[start + 1 : end]) + "\n"
    try:
        tree = ast.parse(padded, filename=shown)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning (bad escapes) is not an error
            compile(tree, shown, "exec", dont_inherit=True)  # 'return' outside a function, ...
    except SyntaxError as exc:
        line = min(max(exc.lineno or start + 2, start + 2), max(end, start + 2))
        quoted = (exc.text or lines[line - 1] if line <= len(lines) else "").strip()
        message = f"the judge's authored region does not parse: {exc.msg}: {quoted[:120]}"
        found = Diagnostic(shown, line, max(exc.offset or 1, 1), "BS400", message)
        raise BuildError(f"{shown}:{line}: fix the authored region", [found]) from None
