"""Property: arbitrary Unicode in anchor records, messages and prose survives generation.

Quotes, backslashes, newlines, triple quotes, template braces, U+2028 and NUL must give a
seed.py that compiles, runs and writes exactly those records, and a TASK.md and
scenario.json that carry the text verbatim.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchsmith.building import build
from benchsmith.dsl.toml_text import toml_string, toml_value
from tests.conftest import build_file_tree

NASTY = ['"""', "'''", "{{ x }}", "{% if %}", "\u2028", "\x00", "\\", "\r\n", "\r", "\n", "#", "é"]
texts = st.one_of(st.text(max_size=40), st.lists(st.sampled_from(NASTY), max_size=6).map("".join))
non_empty = texts.filter(lambda s: s.strip() != "")


def read_exact(path: Path) -> str:
    """Read text without newline translation (a lone CR must stay a CR)."""
    with open(path, encoding="utf-8", newline="") as stream:
        return stream.read()


def task_toml(title: str, prose: str, message: str, records: list[dict[str, str]]) -> str:
    anchors = "".join(
        f'\n[[anchors]]\nname = "a{i}"\nfile = "inputs/data.csv"\nrecord = {toml_value(r)}\n'
        for i, r in enumerate(records)
    )
    return f"""\
id = 9
slug = "unicode-task"
title = {toml_string(title)}
pressure = "L"
command = "python -m solution.main"
prose = {toml_string(prose)}

[[files]]
path = "inputs/data.csv"
rows = 6
columns.key = {{ seq = "K{{:03d}}" }}
columns.label = {{ choice = ["plain"] }}
{anchors}
[[stages]]
id = "initial"

[[stages]]
id = "follow-up"
message = {toml_string(message)}

[edge]
rule = {toml_string(prose + " edge")}
"""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    title=non_empty,
    prose=texts,
    message=non_empty,
    records=st.lists(st.fixed_dictionaries({"key": texts, "label": texts}), min_size=1, max_size=3),
)
def test_text_survives_generation(
    title: str, prose: str, message: str, records: list[dict[str, str]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        task = build_file_tree(
            Path(tmp) / "corpus" / "09-unicode-task",
            {"task.toml": task_toml(title, prose, message, records)},
        )
        build([task])
        out = Path(tmp) / "fixture"
        subprocess.run(
            [sys.executable, "seed.py", "--out", str(out)],
            cwd=task,
            check=True,
            capture_output=True,
        )
        rows = list(
            csv.DictReader(io.StringIO(read_exact(out / "inputs" / "data.csv"), newline=""))
        )
        assert len(rows) == 6
        for record in records:
            assert record in rows
        task_md = read_exact(task / "TASK.md")
        assert title in task_md
        assert prose.strip("\n") in task_md
        scenario = json.loads((task / "scenario.json").read_text(encoding="utf-8"))
        assert scenario["title"] == title
        assert scenario["stages"][1]["message"] == message
