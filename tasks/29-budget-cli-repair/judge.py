# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 29: Budget Cli Repair.

Usage: python judge.py --workspace WS [--stage N] [--python EXE] [--fixture-cache DIR]

Runs the candidate's commands on a clean main fixture and on the edge fixture, then prints
exactly one JSON verdict (spec section 6). The workspace is only read. With --stage N (a
1-based number or a stage id) it judges the state after stage N with the checks that apply
by then; without it, the final (scored) verdict.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the task and corpus folders

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchlib

TASK = {
    "id": 29,
    "slug": "budget-cli-repair",
    "stages": ["initial", "stage-2", "stage-3"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.main inputs/records.csv --output output",
            "argv": ["python", "-m", "solution.main", "inputs/records.csv", "--output", "output"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 120.0,
        }
    ],
    "outputs": [
        {
            "path": "output/result.csv",
            "format": "csv",
            "header": ["record_id", "total"],
            "stage": "initial",
        }
    ],
    "expect": [
        {
            "name": "first-case#1",
            "file": "output/result.csv",
            "level": 4,
            "where": {"record_id": "R9001"},
            "equals": {"total": "10.00"},
        }
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/result.csv",
            "level": 4,
            "where": {"record_id": "E0001"},
            "equals": {"total": "0.00"},
        }
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)


# region authored: benchsmith keeps these lines when it rebuilds judge.py
@judge.check(level=3)
def core_transformation(run: benchlib.Run) -> None:
    """TODO: the core transformation is substantially correct."""
    benchlib.expect(False, "TODO: write the level-3 checks of this task")


@judge.check(level=4)
def stated_rules(run: benchlib.Run) -> None:
    """TODO: every stated business rule holds on the main fixture."""
    benchlib.expect(False, "TODO: write the level-4 checks of this task")


@judge.edge
def edge_rule(run: benchlib.Run) -> None:
    """TODO: the edge rule holds on the edge fixture."""
    benchlib.expect(False, "TODO: write the edge check of this task")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
