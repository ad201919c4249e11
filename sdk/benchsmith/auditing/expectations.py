"""Load-bearing expectations (verifier audit check 10): every private datum must matter.

Each expected value the judge holds through the DSL -- the ``equals`` fields, ``count``,
``contains`` needles, ``exit_code`` and ``status`` of the anchors' ``expect`` entries and of
``[[edge.expect]]`` -- is perturbed in a copy of the judge's embedded task data, and the
reference is judged again: the check holding that value must now fail. One that still passes
checks nothing (a selector that matches no row, a comparison that cannot fail).

Expectations are independent checks, so one judge run can perturb one value of every
expectation at once: round *k* perturbs the *k*-th value of each, and the number of runs is
the largest number of values any single expectation holds (times the number of distinct
stages they are judged at: an expectation checked ``until`` an earlier stage is judged at that
stage, every other one at the final stage). ``absent`` and ``not_contains`` assert an absence
and hold no value to perturb.
"""

from __future__ import annotations

import copy
import decimal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

PERTURBED_TEXT = "~perturbed"


@dataclass(frozen=True, slots=True)
class Perturbation:
    """One expected value changed.

    Attributes:
        section: ``expect`` (main fixture) or ``edge_expect`` (edge fixture).
        index: Position of the expectation in its section.
        name: The expectation's (check's) name.
        field: Which value: ``equals.FIELD``, ``equals``, ``count``, ``contains[N]``,
            ``exit_code``, ``status``.
        original: The value the judge holds.
        perturbed: The value put in its place.
        stage: The 1-based stage to judge it at (``None``: the final stage), the last one
            its check applies to.
    """

    section: str
    index: int
    name: str
    field: str
    original: Any
    perturbed: Any
    stage: int | None = None

    @property
    def fixture(self) -> str:
        """The fixture whose checks hold the expectation."""
        return "edge" if self.section == "edge_expect" else "main"

    def apply(self, task: dict[str, Any]) -> None:
        """Put the perturbed value into ``task`` (the embedded data, edited in place)."""
        entry = task[self.section][self.index]
        key, _, rest = self.field.partition(".")
        if key.startswith("contains["):
            entry["contains"][int(key[len("contains[") : -1])] = self.perturbed
        elif rest:
            entry[key][rest] = self.perturbed
        else:
            entry[key] = self.perturbed


def perturb(value: Any) -> Any:
    """A value no exact or numeric comparison confuses with ``value``."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return _perturb_text(value)
    if isinstance(value, list):
        return [*value, _perturb_text(str(value[-1]) if value else "")]
    if isinstance(value, dict):
        return {**value, PERTURBED_TEXT: 1}
    return PERTURBED_TEXT


def _perturb_text(text: str) -> str:
    """Numeric text moves by one unit in its last place; other text gains a suffix."""
    try:
        number = decimal.Decimal(text.strip())
    except decimal.InvalidOperation:
        number = None
    if number is not None and number.is_finite() and text.strip():
        unit = decimal.Decimal(1).scaleb(number.as_tuple().exponent)  # type: ignore[arg-type]
        return str(number + unit)
    return text + PERTURBED_TEXT if text else PERTURBED_TEXT


def entry_perturbations(
    section: str, index: int, entry: Mapping[str, Any], stages: Sequence[str] = ()
) -> list[Perturbation]:
    """Every value of one expectation entry, each perturbed (``stages``: the task's stage
    names, which place an ``until`` entry's judging)."""
    name = str(entry.get("name", f"{section}#{index + 1}"))
    fields: list[tuple[str, Any]] = []
    equals = entry.get("equals")
    if isinstance(equals, Mapping) and "where" in entry:
        fields += [(f"equals.{key}", value) for key, value in equals.items()]
    elif "equals" in entry:
        fields.append(("equals", equals))
    if "count" in entry:
        fields.append(("count", entry["count"]))
    fields += [(f"contains[{i}]", v) for i, v in enumerate(entry.get("contains", ()))]
    if "exit_code" in entry:
        fields.append(("exit_code", entry["exit_code"]))
    if "status" in entry:  # the HTTP status of a response expectation
        fields.append(("status", entry["status"]))
    until = str(entry.get("until", ""))
    stage = list(stages).index(until) + 1 if until in stages[:-1] else None
    return [Perturbation(section, index, name, f, v, perturb(v), stage) for f, v in fields]


def rounds(task: Mapping[str, Any]) -> list[list[Perturbation]]:
    """Perturbations grouped into judge runs: round *k* of a stage holds the *k*-th value of
    each entry judged at that stage (the final stage's rounds first)."""
    stages = list(task.get("stages", ()))
    per_entry = [
        entry_perturbations(section, index, entry, stages)
        for section in ("expect", "edge_expect")
        for index, entry in enumerate(task.get(section, ()))
    ]
    judged = sorted({p[0].stage for p in per_entry if p}, key=lambda s: (s is not None, s))
    result = []
    for stage in judged:
        entries = [p for p in per_entry if p and p[0].stage == stage]
        depth = max(len(p) for p in entries)
        result += [[p[k] for p in entries if k < len(p)] for k in range(depth)]
    return result


def perturbed_task(
    task: Mapping[str, Any], perturbations: Sequence[Perturbation]
) -> dict[str, Any]:
    """A deep copy of ``task`` with every perturbation applied."""
    data = copy.deepcopy(dict(task))
    for perturbation in perturbations:
        perturbation.apply(data)
    return data


def unperturbable(task: Mapping[str, Any]) -> list[str]:
    """Names of expectations that hold no value (absence assertions)."""
    return [
        str(entry.get("name", f"{section}#{index + 1}"))
        for section in ("expect", "edge_expect")
        for index, entry in enumerate(task.get(section, ()))
        if not entry_perturbations(section, index, entry)
    ]
