"""benchsmith vocab: Faker at authoring time only, frozen into a committed file."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import faker

from benchsmith.building import build
from tests.conftest import MINIMAL_TASK


def test_vocabulary_is_frozen_with_provenance(
    cli: Callable[..., Any], make_task: Callable[..., Path]
) -> None:
    task = make_task()
    result = cli("vocab", "cities", "--provider", "city", "--count", "25", "--task", task)
    assert result.exit_code == 0, result.output
    data = json.loads((task / "vocab" / "cities.json").read_text(encoding="utf-8"))
    assert data["faker_version"] == faker.VERSION
    assert (data["provider"], data["locale"], data["seed"]) == ("city", "en_US", 20260831 + 7)
    assert len(data["values"]) == len(set(data["values"])) == 25
    first = data["values"]
    cli("vocab", "cities", "--provider", "city", "--count", "25", "--task", task)
    again = json.loads((task / "vocab" / "cities.json").read_text(encoding="utf-8"))["values"]
    assert again == first


def test_seed_draws_from_the_vocabulary_without_faker(
    cli: Callable[..., Any], make_task: Callable[..., Path], tmp_path: Path
) -> None:
    task = make_task()
    cli("vocab", "cities", "--provider", "city", "--count", "10", "--task", task)
    toml = MINIMAL_TASK.replace("rows = 5", "rows = 40").replace(
        "columns.value = { int = [1, 9] }", 'columns.value = { vocab = "cities" }'
    )
    (task / "task.toml").write_text(toml, encoding="utf-8")
    build([task])
    assert "faker" not in (task / "seed.py").read_text(encoding="utf-8").lower()
    out = tmp_path / "fixture"
    subprocess.run([sys.executable, "-S", "seed.py", "--out", str(out)], cwd=task, check=True)
    with open(out / "inputs" / "data.csv", newline="", encoding="utf-8") as stream:
        values = {row["value"] for row in csv.DictReader(stream)}
    frozen = json.loads((task / "vocab" / "cities.json").read_text(encoding="utf-8"))["values"]
    assert values <= set(frozen) and len(values) > 3


def test_bad_provider_and_name(cli: Callable[..., Any], make_task: Callable[..., Path]) -> None:
    task = make_task()
    bad = cli("vocab", "x", "--provider", "no_such_provider", "--count", "3", "--task", task)
    assert bad.exit_code == 2 and "no provider method" in bad.output
    name = cli("vocab", "Bad-Name", "--provider", "city", "--count", "3", "--task", task)
    assert name.exit_code == 2
    too_many = cli("vocab", "b", "--provider", "boolean", "--count", "5", "--task", task)
    assert too_many.exit_code == 2 and "distinct values" in too_many.output
    assert not (task / "vocab").exists()
