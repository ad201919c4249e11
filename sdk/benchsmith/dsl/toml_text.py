"""Writing TOML values (used by the scaffold and by tests that generate task.toml)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _char(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    code = ord(ch)
    if code < 0x20 or code == 0x7F:
        return f"\\u{code:04x}"
    return ch


def toml_string(value: str) -> str:
    """Return ``value`` as a TOML basic string (quotes, backslashes, controls escaped)."""
    return '"' + "".join(_char(ch) for ch in value) + '"'


def toml_value(value: Any) -> str:
    """Return a TOML inline value for a string, number, boolean, array or table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, Mapping):
        items = ", ".join(f"{toml_string(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{ " + items + " }" if items else "{}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
