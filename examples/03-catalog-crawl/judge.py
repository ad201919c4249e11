# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 3: Catalog Crawl.

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
    "id": 3,
    "slug": "catalog-crawl",
    "stages": ["initial"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.crawl inputs/base_url.txt --output output/items.csv",
            "argv": [
                "python",
                "-m",
                "solution.crawl",
                "inputs/base_url.txt",
                "--output",
                "output/items.csv",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 10.0,
        }
    ],
    "outputs": [
        {
            "path": "output/items.csv",
            "format": "csv",
            "header": ["sku", "name", "price"],
            "stage": "initial",
        }
    ],
    "expect": [
        {
            "name": "last-page#1",
            "file": "output/items.csv",
            "level": 4,
            "where": {"sku": "K9001"},
            "equals": {"name": "gasket", "price": "2.50"},
        }
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/items.csv",
            "level": 4,
            "where": {"sku": "E2"},
            "equals": {"price": "0.30"},
        }
    ],
    "edge_include_visible": True,
    "services": [
        {
            "name": "catalog",
            "run": "python inputs/catalog_server.py",
            "url_file": "inputs/base_url.txt",
            "origins": {"mirror": ""},
        }
    ],
}

judge = benchlib.Judge(TASK)


# region authored: benchsmith keeps these lines when it rebuilds judge.py
def pages(run: benchlib.Run) -> dict[int, list[dict[str, str]]]:
    """page -> its items, from the pristine catalog."""
    found: dict[int, list[dict[str, str]]] = {}
    for row in run.source.csv("inputs/catalog.csv"):
        item = {"sku": row["sku"], "name": row["name"], "price": row["price"]}
        found.setdefault(int(row["page"]), []).append(item)
    return found


def crawlable(run: benchlib.Run) -> list[int]:
    """The pages a crawl reaches before a next link leaves the origin."""
    moved = {}
    if run.source.exists("inputs/moved.csv"):
        moved = {int(r["page"]): r["origin"] for r in run.source.csv("inputs/moved.csv")}
    reached = []
    for number in range(1, max(pages(run)) + 1):
        reached.append(number)
        if moved.get(number):
            break
    return reached


def expected_items(run: benchlib.Run) -> list[dict[str, str]]:
    catalog = pages(run)
    items = [item for number in crawlable(run) for item in catalog.get(number, [])]
    return sorted(items, key=lambda item: item["sku"])


@judge.check(level=3)
def items_listed_from_the_service(run: benchlib.Run) -> None:
    """The crawl asked the service, and listed every item it reached, sorted by sku."""
    targets = [r.target for r in run.requests("catalog")]
    benchlib.expect("/catalog?page=1" in targets, "the service was never asked for page 1")
    rows = [dict(r) for r in run.csv("output/items.csv")]
    benchlib.expect_equal(rows, expected_items(run), "items.csv")


@judge.check(level=4)
def every_page_fetched_once_in_order(run: benchlib.Run) -> None:
    """The request log shows each page fetched once, in order, with GET."""
    seen = [(r.method, r.target) for r in run.requests("catalog")]
    want = [("GET", f"/catalog?page={n}") for n in crawlable(run)]
    benchlib.expect_equal(seen, want, "requests to the catalog service")


@judge.check(level=4)
def one_request_at_a_time(run: benchlib.Run) -> None:
    """No request arrived while another was being answered."""
    busy = [r.target for r in run.requests("catalog") if r.in_flight > 1]
    benchlib.expect(not busy, f"requests in flight together: {busy[:5]}")


@judge.edge
def stays_on_its_origin(run: benchlib.Run) -> None:
    """A next link to another origin is not followed."""
    away = [r.target for r in run.requests("catalog") if r.origin != "catalog"]
    benchlib.expect(not away, f"requests to another origin: {away[:5]}")
    rows = [dict(r) for r in run.csv("output/items.csv")]
    benchlib.expect_equal(rows, expected_items(run), "items.csv")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
