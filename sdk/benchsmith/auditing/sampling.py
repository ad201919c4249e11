"""A seeded sample of generated mutants, stratified by operator.

A large reference yields hundreds of mutants, and each costs a run of the task's commands on
both fixtures (and a judge run unless it is equivalent): task 13's 581 mutants took 44
minutes. ``benchsmith audit --sample N`` runs at most ``N`` generated mutants per task:

* every operator of the task keeps at least one mutant, so each is represented (a task with
  more operators than ``N`` runs one per operator);
* the rest of ``N`` is shared among the operators in proportion to how many mutants each
  made (largest remainders, exact arithmetic);
* inside an operator, the mutants with the smallest SHA-256 of ``"SEED/ID"`` are taken, so the
  same seed gives the same sample on every machine, whatever the order of the mutants;
* authored mutants (``mutants/*.patch``) are never sampled out: the author wrote each one.

The chosen mutants keep their generation order; the others are reported as skipped.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor

from benchsmith.auditing.mutants import AUTHORED, Mutant


@dataclass(frozen=True, slots=True)
class Sample:
    """The mutants a sampled audit runs, and what it leaves out.

    Attributes:
        size: The requested number of generated mutants (``None``: every mutant).
        seed: The seed that chose them.
        chosen: The mutants to run, in generation order (authored ones included).
        skipped: The generated mutants left out, in generation order.
        operators: Per operator, ``(run, total)`` counts of its mutants.
    """

    size: int | None
    seed: int
    chosen: tuple[Mutant, ...]
    skipped: tuple[Mutant, ...]
    operators: tuple[tuple[str, int, int], ...]

    @property
    def sampled(self) -> bool:
        """Whether any mutant was left out."""
        return bool(self.skipped)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready mapping (the ``sample`` entry of a task's report)."""
        return {
            "size": self.size,
            "seed": self.seed,
            "run": len(self.chosen),
            "skipped": len(self.skipped),
            "operators": {op: {"run": run, "total": total} for op, run, total in self.operators},
            "skipped_ids": [m.id for m in self.skipped],
        }


def rank(seed: int, mutant: Mutant) -> str:
    """The mutant's place in its operator's draw: a digest of the seed and its id."""
    return hashlib.sha256(f"{seed}/{mutant.id}".encode()).hexdigest()


def quotas(populations: dict[str, int], size: int) -> dict[str, int]:
    """How many mutants each operator keeps: one each, the rest of ``size`` proportionally.

    Args:
        populations: Mutants per operator (each at least 1).
        size: The sample size (when it reaches the total, every mutant is kept).
    """
    total = sum(populations.values())
    if size >= total:
        return dict(populations)
    quota = dict.fromkeys(populations, 1)
    extra = max(0, size - len(populations))
    rest = {op: n - 1 for op, n in populations.items()}
    spare = sum(rest.values())
    if extra == 0 or spare == 0:
        return quota
    shares = {op: Fraction(extra * n, spare) for op, n in rest.items()}
    for op, share in shares.items():
        quota[op] += floor(share)
    left = extra - sum(floor(s) for s in shares.values())
    by_remainder = sorted(shares, key=lambda op: (-(shares[op] - floor(shares[op])), op))
    for op in by_remainder[:left]:
        quota[op] += 1
    return quota


def sample_mutants(mutants: Sequence[Mutant], size: int | None, seed: int = 0) -> Sample:
    """Choose at most ``size`` generated mutants, stratified by operator (``None``: all).

    Raises:
        ValueError: When ``size`` is below 1.
    """
    if size is not None and size < 1:
        raise ValueError(f"the sample size must be at least 1, not {size}")
    generated = [m for m in mutants if m.operator != AUTHORED]
    groups: dict[str, list[Mutant]] = {}
    for mutant in generated:
        groups.setdefault(mutant.operator, []).append(mutant)
    populations = {op: len(group) for op, group in sorted(groups.items())}
    quota = populations if size is None else quotas(populations, size)
    keep: set[str] = set()
    for op, group in groups.items():
        keep.update(m.id for m in sorted(group, key=lambda m: rank(seed, m))[: quota[op]])
    chosen = tuple(m for m in mutants if m.operator == AUTHORED or m.id in keep)
    skipped = tuple(m for m in generated if m.id not in keep)
    operators = [(op, quota[op], n) for op, n in populations.items()]
    authored = len(mutants) - len(generated)
    if authored:
        operators.append((AUTHORED, authored, authored))
    return Sample(size, seed, chosen, skipped, tuple(operators))
