"""Each mutation operator makes the intended edit, located, and nothing else."""

from __future__ import annotations

import ast

import pytest

from benchsmith.auditing import operators
from benchsmith.auditing.mutants import file_mutants, unified_diff


def _mutated(source: str, operator: str) -> list[str]:
    """The mutated sources ``operator`` makes of ``source`` (each still parses)."""
    found = [m.source for m in file_mutants(source, "m.py") if m.operator == operator]
    for text in found:
        ast.parse(text)
    return found


CASES = [
    ("compare", "ok = a < b\n", ["ok = a <= b\n"]),
    ("compare", "ok = a >= b\n", ["ok = a > b\n"]),
    ("compare", "ok = a == b != c\n", ["ok = a != b != c\n", "ok = a == b == c\n"]),
    ("compare", "ok = x in xs\n", ["ok = x not in xs\n"]),
    ("constant", "limit = 10\n", ["limit = 11\n", "limit = 9\n"]),
    ("constant", "first = row[0]\n", ["first = row[1]\n", "first = row[(-1)]\n"]),
    ("sorting", "xs = sorted(a)\n", ["xs = a\n", "xs = sorted(a, reverse=True)\n"]),
    (
        "sorting",
        "xs = sorted(a, key=k, reverse=True)\n",
        ["xs = a\n", "xs = sorted(a, key=k, reverse=False)\n"],
    ),
    ("sorting", "rows.sort(key=k)\n", ["rows.sort(key=k, reverse=True)\n"]),
    ("sort-dropped", "rows.sort(key=k)\n", ["None\n"]),
    ("sorting", "for x in reversed(xs):\n    pass\n", ["for x in xs:\n    pass\n"]),
    (
        "condition",
        "if a > 1:\n    b = 2\n",
        ["if True:\n    b = 2\n", "if False:\n    b = 2\n"],
    ),
    ("condition", "v = a if c else b\n", ["v = a if True else b\n", "v = a if False else b\n"]),
    ("filter", "xs = [x for x in ys if x]\n", ["xs = [x for x in ys]\n"]),
    ("filter", "n = sum(x for x in ys if x > 0)\n", ["n = sum(x for x in ys)\n"]),
    ("boolean", "ok = a and b\n", ["ok = b\n", "ok = a\n"]),
    ("boolean", "ok = a or b or c\n", ["ok = b or c\n", "ok = a or c\n", "ok = a or b\n"]),
    ("boolean", "ok = not a\n", ["ok = a\n"]),
    ("boolean", "ok = not (a and b)\n", ["ok = (a and b)\n", "ok = not (b)\n", "ok = not (a)\n"]),
    ("swap", "d = a - b\n", ["d = b - a\n"]),
    ("swap", "d = total / count\n", ["d = count / total\n"]),
    ("swap", "p = folder / 'out.csv'\nq = '%s' % x\nr = a + b\n", []),
    (
        "decimal",
        "from decimal import Decimal\nv = Decimal(text)\n",
        ["from decimal import Decimal\nv = float(text)\n"],
    ),
    (
        "decimal",
        "import decimal\nv = x.quantize(q, rounding=decimal.ROUND_HALF_UP)\n",
        ["import decimal\nv = x.quantize(q, rounding='ROUND_HALF_EVEN')\n"],
    ),
    ("casefold", "k = name.casefold()\n", ["k = name.lower()\n"]),
    ("normalize", "k = name.strip()\n", ["k = name\n"]),
    (
        "normalize",
        "import unicodedata\nk = unicodedata.normalize('NFKC', s)\n",
        ["import unicodedata\nk = s\n"],
    ),
    ("normalize", "k = ' '.join(s.split())\n", ["k = s\n"]),
    ("normalize", "import re\nk = re.sub(r'\\s+', ' ', s)\n", ["import re\nk = s\n"]),
    ("normalize", "k = (a + b).lower()\n", ["k = (a + b)\n"]),
]


@pytest.mark.parametrize(("operator", "source", "expected"), CASES)
def test_logic_operators(operator: str, source: str, expected: list[str]) -> None:
    assert _mutated(source, operator) == expected


CSV_SOURCE = """\
import csv
w = csv.DictWriter(stream, ["id", "total"], lineterminator="\\n")
w.writeheader()
"""


def test_csv_quoting_line_terminator_and_header() -> None:
    assert _mutated(CSV_SOURCE, "csv-quoting") == [
        CSV_SOURCE.replace(
            'csv.DictWriter(stream, ["id", "total"], lineterminator="\\n")',
            "csv.DictWriter(stream, ['id', 'total'], lineterminator='\\n', quoting=csv.QUOTE_ALL)",
        )
    ]
    assert _mutated(CSV_SOURCE, "csv-lineterminator") == [
        CSV_SOURCE.replace(
            'csv.DictWriter(stream, ["id", "total"], lineterminator="\\n")',
            "csv.DictWriter(stream, ['id', 'total'], lineterminator='\\r\\n')",
        )
    ]
    assert _mutated(CSV_SOURCE, "csv-header") == [
        CSV_SOURCE.replace("w.writeheader()", "None"),
        CSV_SOURCE.replace("w.writeheader()", "w.writerow({n: n.upper() for n in w.fieldnames})"),
    ]


def test_a_literal_header_row_is_dropped_and_renamed() -> None:
    source = "import csv\nw = csv.writer(f)\nw.writerow(['id', 'Total'])\n"
    assert _mutated(source, "csv-header") == [
        source.replace("w.writerow(['id', 'Total'])", "None"),
        source.replace("w.writerow(['id', 'Total'])", "w.writerow(['ID', 'TOTAL'])"),
    ]
    defaults = _mutated(source, "csv-lineterminator")
    assert defaults == [source.replace("csv.writer(f)", "csv.writer(f, lineterminator='\\n')")]


JSON_SOURCE = "import json\ntext = json.dumps(doc, indent=2)\n"


@pytest.mark.parametrize(
    ("operator", "call"),
    [
        ("json-indent", "json.dumps(doc)"),
        ("json-sort-keys", "json.dumps(doc, indent=2, sort_keys=True)"),
        ("json-separators", "json.dumps(doc, indent=2, separators=(',', ':'))"),
        ("json-floats", "json.dumps(json.loads(json.dumps(doc), parse_int=float), indent=2)"),
        (
            "json-extra-field",
            "json.dumps(json.loads(json.dumps(doc), object_hook=lambda d: "
            "{**d, 'benchsmith_extra': 1}), indent=2)",
        ),
    ],
)
def test_json_writer_operators(operator: str, call: str) -> None:
    assert _mutated(JSON_SOURCE, operator) == [
        JSON_SOURCE.replace("json.dumps(doc, indent=2)", call)
    ]


def test_json_floats_and_extra_fields_change_what_is_written() -> None:
    [floats] = _mutated(JSON_SOURCE, "json-floats")
    [extra] = _mutated(JSON_SOURCE, "json-extra-field")
    written: dict[str, str] = {}
    for name, source in (("floats", floats), ("extra", extra)):
        scope: dict[str, object] = {"doc": {"n": 2, "rows": [{"id": 1}]}}
        exec(compile(source, name, "exec"), scope)
        written[name] = str(scope["text"])
    assert '"n": 2.0' in written["floats"] and '"id": 1.0' in written["floats"]
    assert written["extra"].count('"benchsmith_extra": 1') == 2


def test_crlf_on_text_writes_and_json_dump() -> None:
    source = "import json\npath.write_text(body)\njson.dump(doc, stream, indent=2)\n"
    assert _mutated(source, "crlf") == [
        source.replace("path.write_text(body)", "path.write_text(body.replace('\\n', '\\r\\n'))"),
        source.replace(
            "json.dump(doc, stream, indent=2)",
            "stream.write(json.dumps(doc, indent=2).replace('\\n', '\\r\\n'))",
        ),
    ]


def test_guards_docstrings_and_annotations_are_left_alone() -> None:
    source = '''\
"""Docstring 1."""
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import os


def f(x: "list[int]" = 3) -> int:
    """Doc."""
    return x


if __name__ == "__main__":
    f()
'''
    mutants = file_mutants(source, "m.py")
    assert [(m.operator, m.line) for m in mutants] == [("constant", 8), ("constant", 8)]


def test_mutants_are_located_with_stable_ids_and_minimal_diffs() -> None:
    source = "# ü comment\nx = 'é' + g(c < d)\ny = 1\n"
    first = file_mutants(source, "pkg/m.py")
    assert [m.id for m in first] == [
        "compare@pkg/m.py:2:13",
        "constant@pkg/m.py:3:5",
        "constant@pkg/m.py:3:5#2",
    ]
    assert [m.id for m in file_mutants(source, "pkg/m.py")] == [m.id for m in first]
    assert first[0].description == "comparison flipped: `c < d` → `c <= d`"
    assert first[0].source == "# ü comment\nx = 'é' + g(c <= d)\ny = 1\n"
    assert first[0].diff == unified_diff(source, first[0].source, "pkg/m.py")
    assert first[0].diff.startswith("--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1,3 +1,3 @@\n")


def test_every_operator_is_documented() -> None:
    assert all(op.summary for op in operators.OPERATORS.values())
    assert "compare" in operators.OPERATORS and "json-extra-field" in operators.OPERATORS


def test_a_negative_literal_is_one_constant() -> None:
    assert _mutated("top = (-1, set())\n", "constant") == [
        "top = (0, set())\n",
        "top = (-2, set())\n",
    ]
