"""Run.derived: truth computed from the pristine fixture once per fixture and judge.py."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from benchsmith.runtime import benchlib
from tests.check.conftest import copy_example
from tests.runtime.test_judge import _judge, _reference_workspace


def _run(tmp_path: Path, cache: Path | None) -> benchlib.Run:
    root = tmp_path / "root"
    (root / "inputs").mkdir(parents=True, exist_ok=True)
    (root / "inputs" / "n.txt").write_text("41\n", "utf-8")
    return benchlib.Run(
        "main", root, benchlib.Files(root), benchlib.Files(root), derived_cache=cache
    )


class Counting:
    """A factory that records its calls."""

    calls = 0

    def __call__(self, source: benchlib.Files) -> dict[str, int]:
        Counting.calls += 1
        return {"n": int(source.text("inputs/n.txt")) + 1}


@pytest.fixture(autouse=True)
def _reset() -> None:
    Counting.calls = 0


def test_a_cached_value_is_loaded_by_the_next_judging(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _run(tmp_path, cache).derived("truth", Counting())
    second = _run(tmp_path, cache).derived("truth", Counting())
    assert first == second == {"n": 42}
    assert Counting.calls == 1
    assert len(list(cache.glob("*.pickle"))) == 1


def test_each_key_and_each_run_without_cache_computes(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _run(tmp_path, cache).derived("one", Counting())
    _run(tmp_path, cache).derived("two", Counting())
    run = _run(tmp_path, None)
    run.derived("one", Counting())
    run.derived("one", Counting())  # the memo: once per run
    assert Counting.calls == 3
    assert len(list(cache.glob("*.pickle"))) == 2


def test_a_forged_cache_file_is_refused_and_recomputed(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _run(tmp_path, cache).derived("truth", Counting())
    [stored] = cache.glob("*.pickle")
    marker = tmp_path / "pwned"

    class Exploit:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {marker}",))

    stored.write_bytes(pickle.dumps(Exploit()))
    assert _run(tmp_path, cache).derived("truth", Counting()) == {"n": 42}
    assert Counting.calls == 2 and not marker.exists()
    assert pickle.loads(stored.read_bytes()) == {"n": 42}  # rewritten with the true value


def test_a_value_that_cannot_be_pickled_is_computed_each_time(tmp_path: Path) -> None:
    cache = tmp_path / "cache"

    def closure(source: benchlib.Files) -> object:
        Counting.calls += 1
        return lambda: source

    for _ in range(2):
        _run(tmp_path, cache).derived("f", closure)
    assert Counting.calls == 2
    assert not list(cache.glob("*.pickle"))


DERIVED_CHECK = """

class Truth:
    def __init__(self, source):
        with open({log!r}, "a", encoding="utf-8") as log:
            log.write("computed\\n")
        self.rows = len(source.csv("inputs/scores.csv"))


@judge.check(level=4)
def derived_truth(run: benchlib.Run) -> None:
    benchlib.expect(run.derived("truth", Truth).rows > 0, "rows")

"""


def test_sealed_judgings_with_a_fixture_cache_share_the_value(tmp_path: Path) -> None:
    if not benchlib.sandbox_status()[0]:
        pytest.skip("bubblewrap is not available")
    task = copy_example(tmp_path / "corpus", "01-grade-summary")
    log = tmp_path / "computed.log"
    judge = task / "judge.py"
    text = judge.read_text("utf-8").replace(
        "# endregion authored", DERIVED_CHECK.format(log=str(log)) + "# endregion authored"
    )
    judge.write_text(text, "utf-8")
    workspace, cache = _reference_workspace(task, tmp_path), tmp_path / "cache"
    verdicts = [_judge(task, workspace, cache)[0] for _ in range(2)]
    assert verdicts[0] == verdicts[1] and verdicts[0]["progress_level"] == 5
    assert log.read_text("utf-8") == "computed\n"  # the second judging loaded it
    assert sorted(p.name for p in (cache / benchlib.DERIVED_FOLDER).iterdir()) == ["main"]
