"""Tests for the static purity and determinism checks in ``benchsmith.linting.purity``."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchsmith.diagnostics import Diagnostic
from benchsmith.linting.purity import check_determinism, check_imports, check_syntax

Found = list[tuple[str, int, int]]


def _src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def determinism(text: str) -> Found:
    return [(d.code, d.line, d.col) for d in check_determinism("seed.py", _src(text))]


def imports(text: str, local: frozenset[str] = frozenset()) -> Found:
    found = check_imports("judge.py", _src(text), local_modules=local)
    return [(d.code, d.line, d.col) for d in found]


# ----------------------------------------------------------------------------------- BS400


def test_syntax_error_is_located() -> None:
    found = check_syntax("stages/a.py", "x = 1\ny = (1 +\n")

    assert len(found) == 1
    assert (found[0].path, found[0].code, found[0].line) == ("stages/a.py", "BS400", 2)
    assert found[0].col >= 1
    assert "does not parse" in found[0].message


def test_syntax_error_column_points_at_the_error() -> None:
    [diagnostic] = check_syntax("a.py", "x = 1 +\n")

    assert (diagnostic.line, diagnostic.col) == (1, 8)


def test_valid_source_has_no_syntax_finding() -> None:
    assert check_syntax("a.py", "import os\nprint(os.sep)\n") == []


@pytest.mark.parametrize("source", ["a\x00b\n", "1" + "+1" * 100_000])
def test_unparsable_input_is_bs400_not_a_crash(source: str) -> None:
    assert [d.code for d in check_syntax("a.py", source)] == ["BS400"]


def test_other_checks_return_nothing_on_syntax_error() -> None:
    source = "import numpy\nimport time\ntime.time(\n"

    assert check_imports("a.py", source) == []
    assert check_determinism("a.py", source) == []


# ----------------------------------------------------------------------------------- BS401


def test_third_party_import_is_flagged_at_the_alias() -> None:
    assert imports("import os, numpy.linalg\n") == [("BS401", 1, 12)]


def test_third_party_from_import_is_flagged() -> None:
    assert imports("import json\n\nfrom yaml.loader import SafeLoader\n") == [("BS401", 3, 1)]


def test_message_names_the_module_and_the_fix() -> None:
    [diagnostic] = check_imports("visible/x.py", "import requests\n")

    assert diagnostic.path == "visible/x.py"
    assert "`requests`" in diagnostic.message
    assert "standard library" in diagnostic.message


def test_stdlib_imports_are_allowed() -> None:
    source = """
    from __future__ import annotations
    import os.path
    import xml.etree.ElementTree as ET
    from collections import abc
    from importlib import import_module
    """
    assert imports(source) == []


def test_local_modules_are_allowed() -> None:
    source = "import benchlib\nfrom fixtures.gen import make\nimport other\n"

    assert imports(source, frozenset({"benchlib", "fixtures"})) == [("BS401", 3, 8)]


def test_relative_imports_are_allowed() -> None:
    assert imports("from . import helpers\nfrom ..pkg.mod import thing\n") == []


def test_imports_inside_functions_are_checked() -> None:
    source = """
    def main():
        import pandas
    """
    assert imports(source) == [("BS401", 2, 12)]


@pytest.mark.parametrize(
    "call",
    [
        "__import__('yaml')",
        "importlib.import_module('yaml.constructor')",
        "im('yaml')",
    ],
)
def test_dynamic_imports_with_literal_names_are_checked(call: str) -> None:
    source = f"import importlib\nfrom importlib import import_module as im\nmod = {call}\n"

    assert imports(source) == [("BS401", 3, 7)]


def test_dynamic_imports_of_stdlib_relative_or_computed_names_are_allowed() -> None:
    source = """
    import importlib
    a = __import__('json')
    b = importlib.import_module('.sibling', __package__)
    c = importlib.import_module(NAME)
    """
    assert imports(source) == []


# ----------------------------------------------------------------------------------- BS402


@pytest.mark.parametrize(
    "source",
    [
        "import time\nx = time.time()\n",
        "import time\nx = time.time_ns()\n",
        "from time import time\nx = time()\n",
        "from time import time as now\nx = now()\n",
        "from datetime import datetime\nx = datetime.now()\n",
        "from datetime import datetime\nx = datetime.utcnow()\n",
        "from datetime import datetime\nx = datetime.today()\n",
        "from datetime import date\nx = date.today()\n",
        "import datetime\nx = datetime.datetime.now()\n",
        "import datetime\nx = datetime.date.today()\n",
        "import datetime as dt\nx = dt.datetime.now()\n",
    ],
)
def test_wall_clock_reads_are_flagged(source: str) -> None:
    assert determinism(source) == [("BS402", 2, 5)]


def test_wall_clock_message_suggests_an_alternative() -> None:
    [diagnostic] = check_determinism("seed.py", "import time\nt = time.time()\n")

    assert "`time.time()`" in diagnostic.message
    assert "wall clock" in diagnostic.message
    assert "seed" in diagnostic.message


def test_monotonic_clocks_and_timestamp_conversions_are_allowed() -> None:
    source = """
    import time
    from datetime import datetime, timezone
    start = time.monotonic()
    elapsed = time.perf_counter() - start
    fixed = datetime(2024, 1, 1, tzinfo=timezone.utc)
    stamp = datetime.fromtimestamp(0, tz=timezone.utc)
    """
    assert determinism(source) == []


def test_unrelated_names_called_now_are_allowed() -> None:
    source = """
    class Clock:
        def now(self):
            return 0
    clock = Clock()
    t = clock.now()
    """
    assert determinism(source) == []


# ----------------------------------------------------------------------------------- BS403


@pytest.mark.parametrize(
    "source",
    [
        "import uuid\nx = uuid.uuid4()\n",
        "import uuid\nx = uuid.uuid1()\n",
        "import os\nx = os.urandom(16)\n",
        "import os\nx = os.getrandom(16)\n",
        "from uuid import uuid4 as u\nx = u()\n",
        "import random\nx = random.SystemRandom()\n",
        "from random import SystemRandom\nx = SystemRandom()\n",
    ],
)
def test_entropy_calls_are_flagged(source: str) -> None:
    assert determinism(source) == [("BS403", 2, 5)]


@pytest.mark.parametrize(
    ("source", "col"),
    [("import os, secrets\n", 12), ("from secrets import token_hex\n", 1)],
)
def test_importing_secrets_is_flagged(source: str, col: int) -> None:
    assert determinism(source) == [("BS403", 1, col)]


def test_deterministic_uuids_are_allowed() -> None:
    source = """
    import uuid
    x = uuid.uuid5(uuid.NAMESPACE_DNS, "example.org")
    y = uuid.UUID(int=42)
    """
    assert determinism(source) == []


# ----------------------------------------------------------------------------------- BS404


@pytest.mark.parametrize(
    "call",
    [
        "random.random()",
        "random.randint(1, 6)",
        "random.choice(items)",
        "random.shuffle(items)",
        "random.sample(items, 2)",
        "random.uniform(0, 1)",
        "random.gauss(0, 1)",
        "random.choices(items, k=3)",
        "random.randrange(10)",
        "random.getrandbits(8)",
        "random.seed()",
        "random.Random()",
    ],
)
def test_module_level_random_is_flagged(call: str) -> None:
    assert determinism(f"import random\nx = {call}\n") == [("BS404", 2, 5)]


@pytest.mark.parametrize(
    "source",
    [
        "import random as rnd\nx = rnd.choice(items)\n",
        "from random import choice\nx = choice(items)\n",
        "from random import shuffle as mix\nx = mix(items)\n",
        "from random import Random\nx = Random()\n",
    ],
)
def test_aliased_module_level_random_is_flagged(source: str) -> None:
    assert determinism(source) == [("BS404", 2, 5)]


def test_module_random_message_points_at_a_seeded_instance() -> None:
    [diagnostic] = check_determinism("seed.py", "import random\nrandom.shuffle(x)\n")

    assert "`random.shuffle()`" in diagnostic.message
    assert "random.Random(SEED)" in diagnostic.message
    assert "ctx.rng.shuffle" in diagnostic.message
    assert "ctx.stream(name)" in diagnostic.message


def test_third_party_message_agrees_with_the_spec() -> None:
    [diagnostic] = check_imports("fixtures.py", "import numpy\n", local_modules=frozenset())
    assert "vendor the code" not in diagnostic.message
    assert "vendored" in diagnostic.message and "standard library" in diagnostic.message


def test_seeded_random_instances_are_allowed() -> None:
    source = """
    import random
    from random import Random
    rng = random.Random(1234)
    other = Random(x=7)
    value = rng.choice([1, 2, 3])
    rng.shuffle(items)
    other.seed(5)
    """
    assert determinism(source) == []


def test_subclassing_random_is_allowed() -> None:
    source = """
    import random
    class Rng(random.Random):
        pass
    value = random.Random.random(rng)
    """
    assert determinism(source) == []


# ----------------------------------------------------------------------------------- BS405


def test_builtin_hash_is_flagged() -> None:
    assert determinism("bucket = hash(name) % 10\n") == [("BS405", 1, 10)]


def test_explicit_builtins_hash_is_flagged() -> None:
    assert determinism("import builtins\nx = builtins.hash(name)\n") == [("BS405", 2, 5)]


def test_stable_digests_and_imported_hash_are_allowed() -> None:
    source = """
    import hashlib
    from mylib import hash
    digest = hashlib.sha256(b"x").hexdigest()
    value = hash(name)
    obj.hash(name)
    """
    assert determinism(source) == []


# ----------------------------------------------------------------------------------- BS406


@pytest.mark.parametrize(
    "expr",
    [
        "os.listdir(d)",
        "os.scandir(d)",
        "glob.glob('*.txt')",
        "glob.iglob('*.txt')",
        "list(os.walk(d))",
        "path.iterdir()",
        "path.glob('*.txt')",
        "path.rglob('*.txt')",
        "list(path.walk())",
        "ls(d)",
    ],
)
def test_unsorted_listings_are_flagged(expr: str) -> None:
    source = f"import os, glob\nfrom os import listdir as ls\nfor x in {expr}:\n    pass\n"
    col = 15 if expr.startswith("list(") else 10

    assert determinism(source) == [("BS406", 3, col)]


@pytest.mark.parametrize(
    "expr",
    [
        "sorted(os.listdir(d))",
        "sorted(os.scandir(d), key=lambda e: e.name)",
        "sorted(glob.glob('*.txt'))",
        "sorted(path.iterdir())",
        "sorted(path.rglob('*.py'))",
        "sorted(p.name for p in path.iterdir())",
        "sorted([p.name for p in path.glob('*')])",
    ],
)
def test_sorted_listings_are_allowed(expr: str) -> None:
    source = f"import os, glob\nfor x in {expr}:\n    pass\n"

    assert determinism(source) == []


def test_order_free_consumers_of_listings_are_allowed() -> None:
    source = """
    import os
    count = len(os.listdir(d))
    names = set(os.listdir(d))
    stems = {p.stem for p in path.iterdir()}
    """
    assert determinism(source) == []


def test_listing_message_says_to_sort() -> None:
    [diagnostic] = check_determinism("judge.py", "import os\nnames = os.listdir('.')\n")

    assert "`os.listdir()`" in diagnostic.message
    assert "sorted(" in diagnostic.message


@pytest.mark.parametrize(
    "sort_stmt",
    ["dirs.sort()", "dirs[:] = sorted(dirs)", "if dirs:\n        dirs.sort(reverse=True)"],
)
def test_os_walk_loop_sorting_dirs_is_allowed(sort_stmt: str) -> None:
    source = (
        "import os\n"
        "for root, dirs, files in os.walk(top):\n"
        f"    {sort_stmt}\n"
        "    for name in sorted(files):\n"
        "        print(name)\n"
    )
    assert determinism(source) == []


def test_os_walk_loop_without_sorting_dirs_is_flagged() -> None:
    source = """
    import os
    for root, dirs, files in os.walk(top):
        files.sort()
        other.sort()
    """
    assert determinism(source) == [("BS406", 2, 26)]


def test_aliased_os_walk_loop_is_checked() -> None:
    source = """
    from os import walk as w
    for root, dirs, files in w(top):
        pass
    for root, subdirs, files in w(top):
        subdirs.sort()
    """
    assert determinism(source) == [("BS406", 2, 26)]


def test_ast_walk_is_not_a_directory_listing() -> None:
    assert determinism("import ast\nfor node in ast.walk(tree):\n    pass\n") == []


# ----------------------------------------------------------------------------------- BS407


@pytest.mark.parametrize(
    ("source", "col"),
    [
        ("for x in {'a', 'b'}:\n    pass\n", 10),
        ("for x in set(names):\n    pass\n", 10),
        ("for x in frozenset(names):\n    pass\n", 10),
        ("for x in {n.lower() for n in names}:\n    pass\n", 10),
        ("out = [x for x in set(names)]\n", 19),
        ("out = {x: 1 for x in {'a', 'b'}}\n", 22),
        ("out = ''.join(x for x in set(names))\n", 26),
    ],
)
def test_iterating_a_set_is_flagged(source: str, col: int) -> None:
    assert determinism(source) == [("BS407", 1, col)]


@pytest.mark.parametrize(
    "source",
    [
        "for x in sorted({'a', 'b'}):\n    pass\n",
        "for x in sorted(set(names)):\n    pass\n",
        "out = sorted(x.upper() for x in set(names))\n",
        "out = {x.upper() for x in set(names)}\n",
        "ok = name in {'a', 'b'}\n",
        "for x in ['a', 'b']:\n    pass\n",
        "from mylib import set\nfor x in set(names):\n    pass\n",
    ],
)
def test_ordered_set_uses_are_allowed(source: str) -> None:
    assert determinism(source) == []


def test_set_iteration_message_says_to_sort() -> None:
    [diagnostic] = check_determinism("seed.py", "for x in set(y):\n    pass\n")

    assert "PYTHONHASHSEED" in diagnostic.message
    assert "sorted(" in diagnostic.message


# ------------------------------------------------------------------------------- combined


def test_findings_come_in_source_order_with_the_given_path() -> None:
    source = """
    import random, time
    def main():
        for x in {1, 2}:
            print(hash(x), time.time())
    random.random()
    """
    found = check_determinism("tasks/t1/seed.py", _src(source))

    assert {d.path for d in found} == {"tasks/t1/seed.py"}
    assert [(d.code, d.line) for d in found] == [
        ("BS407", 3),
        ("BS405", 4),
        ("BS402", 4),
        ("BS404", 5),
    ]


def test_clean_seed_has_no_findings() -> None:
    source = """
    import json
    import random
    import sys
    from pathlib import Path

    SEED = 1234


    def main(out: Path) -> None:
        rng = random.Random(SEED)
        rows = [rng.randint(0, 9) for _ in range(10)]
        names = sorted(p.name for p in out.iterdir())
        for key in sorted({"b", "a"}):
            rows.append(len(key))
        out.joinpath("data.json").write_text(json.dumps({"rows": rows, "names": names}))


    if __name__ == "__main__":
        main(Path(sys.argv[1]))
    """
    assert check_syntax("seed.py", _src(source)) == []
    assert check_imports("seed.py", _src(source)) == []
    assert check_determinism("seed.py", _src(source)) == []


# ------------------------------------------------------------------------------- property

_FRAGMENTS = [
    "import random\n",
    "from time import time as t\n",
    "import os, numpy\n",
    "for a, b, c in os.walk(x):\n    b.sort()\n",
    "x = sorted(os.listdir(d))\n",
    "y = [i for i in {1, 2}]\n",
    "random.choice(s)\n",
    "hash(t())\n",
    "__import__('yaml')\n",
    "def f(",
    "):\n    return 1\n",
    "    ",
    "(",
    ")",
    "\n",
]


@given(
    st.one_of(
        st.text(),
        st.lists(st.sampled_from(_FRAGMENTS), max_size=12).map("".join),
    )
)
def test_checks_never_raise_on_arbitrary_text(source: str) -> None:
    results = [
        check_syntax("a.py", source),
        check_imports("a.py", source, local_modules=frozenset({"benchlib"})),
        check_determinism("a.py", source),
    ]

    for result in results:
        assert isinstance(result, list)
        assert all(isinstance(d, Diagnostic) and d.path == "a.py" for d in result)
        assert all(d.line >= 0 and d.col >= 0 for d in result)
