"""JSON Schema validation that reports every problem at its source position.

jsonschema validates the parsed document; :mod:`benchsmith.dsl.locate` maps each error's path back
to the line and column of the key (or array element) in the original text.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

from benchsmith import resources
from benchsmith.diagnostics import Diagnostic
from benchsmith.dsl.locate import DocPath, position_of

_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "array": "an array",
    "object": "a table",
}


def dotted(path: DocPath) -> str:
    """Render a document path the way a TOML reader thinks of it: ``anchors[2].record``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the document"


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` for the option closest to a misspelt ``word``, else ``""``."""
    close = difflib.get_close_matches(word, sorted(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _typename(value: object) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return names.get(type(value), type(value).__name__)


def _expected_types(schema: Mapping[str, Any]) -> str:
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else list(kinds or [])
    return " or ".join(_TYPE_NAMES.get(k, k) for k in kinds)


def _describe(error: ValidationError) -> str:
    """Return a human message: what is wrong and what was expected."""
    where = dotted(tuple(error.absolute_path))
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    kind = error.validator
    if kind == "type":
        message = f"{where}: expected {_expected_types(schema)}, got {_typename(error.instance)}"
        if schema.get("type") == "array" and isinstance(error.instance, Mapping):
            key = str(error.absolute_path[-1]) if error.absolute_path else "it"
            message += f"; write {key} = [{{ ... }}], an array of tables, even for one"
        return message
    if kind == "enum":
        choices = ", ".join(repr(c) for c in schema["enum"])
        return f"{where}: {error.instance!r} is not allowed; expected one of {choices}"
    if kind == "required":
        return f"{where}: missing required key {error.message.split(chr(39))[1]!r}"
    if kind == "pattern":
        hint = schema.get("description") or f"a string matching {schema['pattern']}"
        return f"{where}: {error.instance!r} is not valid; expected {hint}"
    if kind == "format":
        return f"{where}: {error.instance!r} is not a valid {schema['format']}"
    if kind in ("maximum", "maxLength"):
        limit = schema[kind]
        what = "longer than" if kind == "maxLength" else "above"
        return (
            f"{where}: {_clip(error.instance)} is {what} the limit {limit} (CONTRIBUTING: Limits)"
        )
    if kind == "not":
        required = (
            error.validator_value.get("required", [])
            if isinstance(error.validator_value, Mapping)
            else []
        )
        keys = " and ".join(repr(k) for k in required)
        return f"{where}: {keys} cannot both be given; use one of them"
    if kind == "oneOf" and error.context:
        return _describe(_deepest(error.context))
    return f"{where}: {error.message}"


def _clip(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _deepest(errors: list[ValidationError]) -> ValidationError:
    """Among the alternatives of a failed oneOf, the error that got furthest."""
    return max(errors, key=lambda e: (len(e.absolute_path), e.validator != "type"))


def _unknown_keys(error: ValidationError) -> Iterator[tuple[DocPath, str]]:
    """Yield (path, message) for each key an additionalProperties error rejects."""
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    allowed = sorted(schema.get("properties", {}))
    parent = tuple(error.absolute_path)
    keys = error.instance if isinstance(error.instance, Mapping) else {}
    for key in sorted(set(keys) - set(allowed)):
        expected = ", ".join(allowed) if allowed else "no keys"
        where = dotted((*parent, key))
        hint = did_you_mean(key, allowed)
        yield (*parent, key), f"{where}: unknown key {key!r}{hint}; expected one of: {expected}"


def validate(
    document: Mapping[str, Any],
    schema_name: str,
    *,
    path: str,
    positions: Mapping[DocPath, tuple[int, int]],
    code: str,
) -> list[Diagnostic]:
    """Validate ``document`` against ``schemas/<schema_name>.schema.json``.

    Args:
        document: The parsed TOML or JSON document.
        schema_name: Schema file stem, e.g. ``"task"`` or ``"scenario"``.
        path: File name used in the diagnostics.
        positions: Source positions from :func:`benchsmith.dsl.locate.locate_toml` or
            ``locate_json``.
        code: Rule code of the resulting diagnostics.

    Returns:
        One located diagnostic per problem, empty when the document is valid.
    """
    validator = _validator(schema_name)
    found: list[Diagnostic] = []
    for error in validator.iter_errors(document):
        if error.validator == "oneOf" and error.context:  # e.g. a column: constant or table
            error = _deepest(error.context)
        if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
            items = list(_unknown_keys(error))
        else:
            items = [(tuple(error.absolute_path), _describe(error))]
        for doc_path, message in items:
            line, col = position_of(dict(positions), doc_path)
            found.append(Diagnostic(path, line, col, code, message))
    return found


_VALIDATORS: dict[str, Draft202012Validator] = {}


def _validator(schema_name: str) -> Draft202012Validator:
    if schema_name not in _VALIDATORS:
        schema = resources.schema(schema_name)
        _VALIDATORS[schema_name] = Draft202012Validator(schema, format_checker=FORMATS)
    return _VALIDATORS[schema_name]


# The formats our schemas use, checked with the standard library. (jsonschema's optional
# format packages would add dependencies and over a second of import time for two formats.)
FORMATS = FormatChecker(formats=())


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


@FORMATS.checks("date", raises=ValueError)
def _is_date(value: object) -> bool:
    """RFC 3339 full-date: YYYY-MM-DD and a real calendar day."""
    return not isinstance(value, str) or bool(_DATE.match(value) and date.fromisoformat(value))


@FORMATS.checks("date-time", raises=ValueError)
def _is_datetime(value: object) -> bool:
    """RFC 3339 date-time: with seconds and a UTC offset (or Z)."""
    if not isinstance(value, str):
        return True
    return bool(
        _DATE_TIME.match(value) and datetime.fromisoformat(value.upper().replace("Z", "+00:00"))
    )
