# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 2: Pantry Stock Ledger.

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
    "id": 2,
    "slug": "pantry-ledger",
    "stages": ["initial", "returns", "reorder"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.stock inputs --output output",
            "argv": ["python", "-m", "solution.stock", "inputs", "--output", "output"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 10.0,
        }
    ],
    "outputs": [
        {
            "path": "output/stock.csv",
            "format": "csv",
            "header": ["item", "on_hand"],
            "stage": "initial",
        },
        {
            "path": "output/rejected.csv",
            "format": "csv",
            "header": ["date", "item", "qty"],
            "stage": "returns",
        },
        {
            "path": "output/reorder.csv",
            "format": "csv",
            "header": ["item", "on_hand", "threshold", "shortfall"],
            "stage": "reorder",
        },
    ],
    "expect": [
        {
            "name": "unknown-return#1",
            "file": "output/rejected.csv",
            "level": 4,
            "stage": "returns",
            "where": {"item": "Saffron"},
            "equals": {"date": "2025-04-03", "qty": "2"},
        },
        {
            "name": "unknown-return#2",
            "file": "output/rejected.csv",
            "level": 4,
            "stage": "returns",
            "where": {"item": "Anise"},
            "equals": {"date": "2025-04-06", "qty": "1"},
        },
        {
            "name": "unknown-return#3",
            "file": "output/stock.csv",
            "level": 3,
            "stage": "returns",
            "where": {"item": "Saffron"},
            "absent": True,
        },
        {
            "name": "honey#1",
            "file": "output/reorder.csv",
            "level": 4,
            "stage": "reorder",
            "where": {"item": "Honey"},
            "equals": {"on_hand": "3", "threshold": "10", "shortfall": "7"},
        },
        {
            "name": "at-threshold#1",
            "file": "output/reorder.csv",
            "level": 4,
            "stage": "reorder",
            "where": {"item": "Salt"},
            "absent": True,
        },
        {
            "name": "at-threshold#2",
            "file": "output/stock.csv",
            "level": 4,
            "where": {"item": "Salt"},
            "equals": {"on_hand": "5"},
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/stock.csv",
            "level": 4,
            "where": {"item": "Tea"},
            "equals": {"on_hand": "0"},
        }
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)


# region authored: benchsmith keeps these lines when it rebuilds judge.py
def expected_stock(run: benchlib.Run) -> tuple[dict[str, int], list[dict[str, str]]]:
    """Stock after movements and accepted returns, and the rejected returns."""
    stock: dict[str, int] = {}
    for row in run.source.csv("inputs/movements.csv"):
        stock[row["item"]] = stock.get(row["item"], 0) + int(row["qty"])
    rejected: list[dict[str, str]] = []
    returns = run.source.exists("inputs/returns.csv")  # stage returns brings it
    for row in run.source.csv("inputs/returns.csv") if returns else []:
        if row["item"] in stock:
            stock[row["item"]] += int(row["qty"])
        else:
            rejected.append(row)
    return stock, rejected


@judge.check(level=3)
def every_item_once_sorted(run: benchlib.Run) -> None:
    items = [r["item"] for r in run.csv("output/stock.csv")]
    benchlib.expect_equal(items, sorted(expected_stock(run)[0]), "stock.csv items")


@judge.check(level=4, stage="returns")
def stock_includes_returns(run: benchlib.Run) -> None:
    got = {r["item"]: r["on_hand"] for r in run.csv("output/stock.csv")}
    want = {item: str(qty) for item, qty in expected_stock(run)[0].items()}
    benchlib.expect_equal(got, want, "on_hand per item")


@judge.check(level=4, stage="returns")
def rejected_returns(run: benchlib.Run) -> None:
    benchlib.expect_equal(run.csv("output/rejected.csv"), expected_stock(run)[1], "rejected.csv")


@judge.check(level=4, stage="reorder")
def reorder_list(run: benchlib.Run) -> None:
    stock = expected_stock(run)[0]
    limits = run.source.json("inputs/policy.json")["thresholds"]
    want = [
        {"item": i, "on_hand": str(stock[i]), "threshold": str(t), "shortfall": str(t - stock[i])}
        for i, t in limits.items()
        if i in stock and stock[i] < t
    ]
    want.sort(key=lambda r: (-int(r["shortfall"]), r["item"]))
    benchlib.expect_equal(run.csv("output/reorder.csv"), want, "reorder.csv")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
