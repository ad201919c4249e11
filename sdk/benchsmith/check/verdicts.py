"""Reading a judge's standard output and holding its verdict to the contract.

A judge prints exactly one JSON object (spec section 6). :func:`parse_verdict` says why an
output is not that; :func:`verdict_problems` validates the object against
``schemas/judge-result.schema.json`` and the progress-level invariants:

* ``status`` is ``"pass"`` iff the level is 5;
* level 5 iff every main check and the edge check pass; level 4 iff every main check passes
  and the edge fails;
* ``main_checks_passed <= main_checks_total`` and ``main_checks_total >= 1``;
* a level above 2 needs at least one passed (so executed) main check, and no main check
  may have passed below level 2, where checks never run;
* the optional per-check details agree with the counts.
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from benchsmith import resources

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

NOTE_LIMIT = 300


def parse_verdict(stdout: str) -> tuple[dict[str, Any] | None, str]:
    """Return the one JSON object ``stdout`` holds, or ``None`` and why it holds no such thing."""
    text = stdout.strip()
    if not text:
        return None, "the judge printed nothing on stdout"
    values, rest = _decode_all(text)
    if rest:
        return None, f"the judge's stdout holds text that is not JSON: {clip(rest, 80)!r}"
    if len(values) != 1:
        return None, f"the judge printed {len(values)} JSON values; exactly one object is required"
    if not isinstance(values[0], dict):
        return None, f"the judge printed a JSON {type(values[0]).__name__}, not an object"
    return values[0], ""


def _decode_all(text: str) -> tuple[list[Any], str]:
    """Decode consecutive JSON values; return them and the undecodable remainder."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    position = 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        try:
            value, position = decoder.raw_decode(text, position)
        except ValueError:
            return values, text[position:]
        values.append(value)
    return values, ""


def verdict_problems(verdict: dict[str, Any]) -> list[str]:
    """Every way ``verdict`` breaks the schema or the contract (empty when it is sound)."""
    schema_errors = schema_problems(verdict)
    if schema_errors:
        return schema_errors
    if verdict["status"] == "error":
        notes = verdict["notes"]
        return [f"the judge reported an error: {notes[0] if notes else 'no note'}"]
    return contract_problems(verdict) + detail_problems(verdict)


@cache
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(resources.schema("judge-result"))


def schema_problems(verdict: dict[str, Any]) -> list[str]:
    """Where ``verdict`` breaks ``schemas/judge-result.schema.json``."""
    problems = []
    for error in sorted(_validator().iter_errors(verdict), key=lambda e: list(e.path)):
        where = "/".join(str(p) for p in error.path) or "the verdict"
        problems.append(f"schema: {where}: {clip(error.message, 120)}")
    return problems


def contract_problems(verdict: dict[str, Any]) -> list[str]:
    """Where a schema-valid verdict breaks the progress-level invariants."""
    level, status = verdict["progress_level"], verdict["status"]
    passed, total = verdict["main_checks_passed"], verdict["main_checks_total"]
    edge = verdict["edge_check_passed"]
    counts = f"level {level}, {passed}/{total} main checks, edge {'passed' if edge else 'failed'}"
    all_main = total >= 1 and passed == total
    rules = [
        (total >= 1, "main_checks_total is 0: a judge needs at least one main check"),
        (passed <= total, f"main_checks_passed {passed} exceeds main_checks_total {total}"),
        ((status == "pass") == (level == 5), f"status {status!r} at level {level}"),
        ((level == 5) == (all_main and edge), f"level 5 iff all main and edge pass ({counts})"),
        (
            (level == 4) == (all_main and not edge),
            f"level 4 iff all main checks pass and the edge fails ({counts})",
        ),
        (level < 3 or passed >= 1, f"level {level} with no passed main check (nothing verified)"),
        (level >= 2 or passed == 0, f"{passed} main check(s) passed below level 2"),
    ]
    return [f"contract: {message}" for ok, message in rules if not ok]


def detail_problems(verdict: dict[str, Any]) -> list[str]:
    """Where the optional per-check details disagree with the verdict's counts."""
    checks = verdict.get("checks") or []
    main = [c for c in checks if c["fixture"] == "main"]
    edge = [c for c in checks if c["fixture"] == "edge"]
    problems = []
    if main and len(main) != verdict["main_checks_total"]:
        total = verdict["main_checks_total"]
        problems.append(f"{len(main)} main checks ran, main_checks_total says {total}")
    if main and sum(c["passed"] for c in main) != verdict["main_checks_passed"]:
        problems.append("the passed main checks disagree with main_checks_passed")
    if verdict["edge_check_passed"] and checks and not edge:
        problems.append("edge_check_passed although no edge check ran")
    if edge and all(c["passed"] for c in edge) != verdict["edge_check_passed"]:
        problems.append("the edge checks disagree with edge_check_passed")
    return [f"contract: {p}" for p in problems]


def clip(text: str, limit: int = NOTE_LIMIT) -> str:
    """Collapse whitespace and shorten ``text`` to ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
