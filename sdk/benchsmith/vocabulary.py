"""``benchsmith vocab``: freeze a Faker vocabulary into a committed file of the task.

Faker is used only here, at authoring time. seed.py draws from the frozen values with its own
``random.Random`` and never imports Faker, so fixtures do not change when Faker does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import faker

from benchsmith.dsl.load import load_task
from benchsmith.dsl.model import SEED_BASE
from benchsmith.errors import UsageError
from benchsmith.generate.write import write_all
from benchsmith.locking import locked

NAME_PATTERN = re.compile(r"^[a-z0-9_]+$")
MAX_DRAWS_PER_VALUE = 50


def _draw(fake: faker.Faker, provider: str, count: int) -> list[Any]:
    method = getattr(fake, provider, None)
    if provider.startswith("_") or not callable(method):
        raise UsageError(f"Faker has no provider method {provider!r}")
    values: dict[str, Any] = {}
    for _ in range(count * MAX_DRAWS_PER_VALUE):
        value = method()
        if not isinstance(value, str | int | float | bool):
            value = str(value)
        values.setdefault(json.dumps(value, ensure_ascii=False), value)
        if len(values) == count:
            return list(values.values())
    raise UsageError(f"{provider!r} gave only {len(values)} distinct values; lower --count")


def freeze_vocabulary(
    task_dir: Path,
    name: str,
    *,
    provider: str,
    count: int,
    locale: str = "en_US",
    seed: int | None = None,
) -> Path:
    """Write ``task_dir/vocab/<name>.json`` with ``count`` distinct Faker values.

    The file records the provider, locale, seed and Faker version; values keep Faker's
    order. The seed defaults to the task seed (``20260831 + id``).

    Returns:
        The written file.

    Raises:
        UsageError: For an invalid name, provider or locale.
        TaskSpecError: When ``task_dir`` holds an invalid task.toml.
    """
    if not NAME_PATTERN.match(name):
        raise UsageError(f"vocabulary name {name!r} must match {NAME_PATTERN.pattern}")
    spec = load_task(task_dir)
    chosen = SEED_BASE + spec.id if seed is None else seed
    try:
        fake = faker.Faker(locale)
    except AttributeError as exc:
        raise UsageError(f"unknown Faker locale {locale!r}") from exc
    fake.seed_instance(chosen)
    payload = {
        "name": name,
        "provider": provider,
        "locale": locale,
        "seed": chosen,
        "faker_version": faker.VERSION,
        "values": _draw(fake, provider, count),
    }
    path = spec.task_dir / "vocab" / f"{name}.json"
    with locked([spec.task_dir, spec.task_dir.parent]):
        write_all({path: json.dumps(payload, indent=2, ensure_ascii=False) + "\n"})
    return path
