"""Stream expectations: ``stream = "stderr"`` with contains / not_contains reads the last
command's standard error (or output), and the audit then observes that stream."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from benchsmith.auditing.outputs import observe, observed_streams
from benchsmith.dsl.load import read_task
from benchsmith.runtime import benchlib
from tests.conftest import MINIMAL_TASK

EDGE = "\n[[edge.expect]]\n{body}\n"


def findings(make_task: Callable[..., Path], body: str) -> list[str]:
    task = make_task(MINIMAL_TASK + EDGE.format(body=body))
    spec, found = read_task(task)
    assert (spec is None) == bool(found)
    return [f"{d.code} {d.message}" for d in found]


def test_a_stderr_expectation_loads_and_reaches_the_judge(
    make_task: Callable[..., Path],
) -> None:
    task = make_task(MINIMAL_TASK + EDGE.format(body='stream = "stderr"\ncontains = ["cycle"]'))
    spec, found = read_task(task)
    assert not found and spec is not None and spec.edge is not None
    [expectation] = spec.edge.expect
    assert expectation.file is None
    assert expectation.to_runtime()["stream"] == "stderr"
    assert expectation.private_values() == ("cycle",)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('stream = "stderr"\nfile = "output/x.txt"\ncontains = ["a"]', "either file or stream"),
        ('stream = "stderr"\ncount = 1', "asserts contains or not_contains"),
        ('stream = "stderr"\npath = "a"\ncontains = ["a"]', "takes no path"),
        ('stream = "stdin"\ncontains = ["a"]', "stdin"),
    ],
)
def test_misused_stream_expectations_are_located_errors(
    make_task: Callable[..., Path], body: str, message: str
) -> None:
    [finding] = findings(make_task, body)
    assert finding.startswith("BS102") and message in finding


def _run(tmp_path: Path, stderr: str) -> benchlib.Run:
    run = benchlib.Run("edge", tmp_path, benchlib.Files(tmp_path), benchlib.Files(tmp_path))
    run.results.append(benchlib.CommandResult(["python"], 2, False, "out", stderr))
    return run


def test_the_runtime_reads_the_last_commands_stream(tmp_path: Path) -> None:
    run = _run(tmp_path, "substitution cycle: a -> b -> a\n")
    benchlib.check_expectation(run, {"stream": "stderr", "contains": ["a -> b -> a"]})
    benchlib.check_expectation(run, {"stream": "stdout", "contains": ["out"]})
    with pytest.raises(benchlib.CheckFailed, match="stderr of the last command: does not"):
        benchlib.check_expectation(run, {"stream": "stderr", "contains": ["b -> a -> b"]})
    with pytest.raises(benchlib.CheckFailed, match="must not contain"):
        benchlib.check_expectation(run, {"stream": "stderr", "not_contains": ["cycle"]})


def test_the_audit_observes_a_stream_only_when_an_expectation_reads_it(tmp_path: Path) -> None:
    task = {
        "commands": [{"run": "python -m x"}],
        "outputs": [],
        "expect": [],
        "edge_expect": [{"name": "edge#1", "stream": "stderr", "contains": ["cycle"]}],
    }
    assert observed_streams(task) == ["stderr"]
    assert observed_streams({**task, "edge_expect": []}) == []
    one = observe(_run(tmp_path, "substitution cycle: a -> b -> a\n"), task)
    other = observe(_run(tmp_path, "substitution cycle: b -> a -> b\n"), task)
    assert one.differences(other) == ["stderr of python -m x"]
    quiet = {**task, "edge_expect": []}
    assert observe(_run(tmp_path, "x"), quiet) == observe(_run(tmp_path, "y"), quiet)
