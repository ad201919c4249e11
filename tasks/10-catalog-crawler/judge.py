# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 10: Local Supplier Catalog Crawler.

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
    "id": 10,
    "slug": "catalog-crawler",
    "stages": ["initial"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.catalog_sync --base-url-file inputs/base_url.txt --output output/catalog.csv",
            "argv": [
                "python",
                "-m",
                "solution.catalog_sync",
                "--base-url-file",
                "inputs/base_url.txt",
                "--output",
                "output/catalog.csv",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 20.0,
        }
    ],
    "outputs": [
        {
            "path": "output/catalog.csv",
            "format": "csv",
            "header": ["sku", "name", "price", "currency", "stock", "revision"],
            "stage": "initial",
        }
    ],
    "expect": [],
    "edge_expect": [],
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
import html
import re
from collections import Counter

CATALOG = "output/catalog.csv"
FIELDS = ("sku", "name", "price", "currency", "stock", "revision")
SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)
TAG = re.compile(r"<[^>]*>")


def site(run: benchlib.Run) -> list[dict]:
    return run.source.json("inputs/catalog_site.json")["pages"]


def crawled(run: benchlib.Run) -> list[dict]:
    """The pages a polite crawl fetches: the listing pages of the catalog's own origin."""
    return [p for p in site(run) if p["origin"] == "catalog" and p["kind"] == "listing"]


def plain_name(name_html: str) -> str:
    """The text of a name cell: scripts and tags dropped, entities decoded, ends stripped."""
    return html.unescape(TAG.sub("", SCRIPT.sub("", name_html))).strip()


def expected(run: benchlib.Run) -> list[dict[str, str]]:
    """One row per SKU of the crawled pages, from its highest revision, sorted by sku."""
    if "rows" not in run.memo:
        best: dict[str, dict] = {}
        for page in crawled(run):
            for row in page["rows"]:
                if row["sku"] not in best or row["revision"] > best[row["sku"]]["revision"]:
                    best[row["sku"]] = row
        run.memo["rows"] = [
            {
                "sku": sku,
                "name": plain_name(best[sku]["name_html"]),
                "price": str(best[sku]["price"]),
                "currency": best[sku]["currency"],
                "stock": str(best[sku]["stock"]),
                "revision": str(best[sku]["revision"]),
            }
            for sku in sorted(best)
        ]
    return run.memo["rows"]


def by_sku(rows: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    return {row["sku"]: row for row in rows}


@judge.check(level=3)
def catalog_mostly_right(run: benchlib.Run) -> None:
    """The crawl asked the service for the first page, and at least 90% of the catalog's
    SKUs have exactly their expected row."""
    targets = [r.target for r in run.requests("catalog")]
    benchlib.expect("/catalog?page=1" in targets, "the service was never asked for page 1")
    want = expected(run)
    got = by_sku([dict(r) for r in run.csv(CATALOG)])
    right = sum(got.get(row["sku"]) == row for row in want)
    benchlib.expect(right * 10 >= len(want) * 9, f"{right} of {len(want)} SKUs exactly right")


@judge.check(level=4)
def every_page_fetched_once(run: benchlib.Run) -> None:
    """Each listing page fetched once with GET through the catalog's origin (the 429 one
    twice), and nothing else: no partner page, product page, sort link or script link."""
    log = run.requests("catalog")
    away = [r.target for r in log if r.origin != "catalog" or r.method != "GET"]
    benchlib.expect(not away, f"requests to another origin or not GET: {away[:5]}")
    retried = [r.target for r in log if r.status == 429]
    want = Counter([p["target"] for p in crawled(run)] + retried)
    got = Counter(r.target for r in log)
    extra = sorted((got - want).elements())
    missing = sorted((want - got).elements())
    benchlib.expect(not extra, f"requested more than once or not a catalog page: {extra[:5]}")
    benchlib.expect(not missing, f"catalog pages never fetched: {missing[:5]}")


@judge.check(level=4)
def retry_after_honoured(run: benchlib.Run) -> None:
    """The one 429 is followed, after its Retry-After delay (1 s) and before any other
    request, by one more request of the same URL."""
    log = run.requests("catalog")
    limited = [i for i, r in enumerate(log) if r.status == 429]
    benchlib.expect_equal(len(limited), 1, "429 answers")
    index = limited[0]
    benchlib.expect(index + 1 < len(log), "no request after the 429")
    first, retry = log[index], log[index + 1]
    benchlib.expect_equal(retry.target, first.target, "the request after the 429")
    gap = retry.time - first.time
    benchlib.expect(gap >= 1.0, f"retried {gap:.3f} s after the 429 (Retry-After: 1)")


@judge.check(level=4)
def one_request_at_a_time(run: benchlib.Run) -> None:
    busy = [r.target for r in run.requests("catalog") if r.in_flight > 1]
    benchlib.expect(not busy, f"requests in flight together: {busy[:5]}")


@judge.check(level=4)
def exact_sku_set(run: benchlib.Run) -> None:
    got = sorted(r["sku"] for r in run.csv(CATALOG))
    want = [row["sku"] for row in expected(run)]
    benchlib.expect_equal(sorted(set(got) - set(want))[:5], [], "SKUs not in the catalog")
    benchlib.expect_equal(sorted(set(want) - set(got))[:5], [], "SKUs missing")
    benchlib.expect_equal(len(got), len(want), "rows (one per SKU)")


@judge.check(level=4)
def names_decoded(run: benchlib.Run) -> None:
    """Every name is its cell's text: entities decoded, nested markup's text kept, scripts
    dropped."""
    got = by_sku([dict(r) for r in run.csv(CATALOG)])
    wrong = [
        (row["sku"], got.get(row["sku"], {}).get("name"), row["name"])
        for row in expected(run)
        if got.get(row["sku"], {}).get("name") != row["name"]
    ]
    benchlib.expect(not wrong, f"names (sku, got, want): {wrong[:3]}")


@judge.check(level=4)
def highest_revision_kept(run: benchlib.Run) -> None:
    """Every SKU's fields come from its highest revision."""
    got = by_sku([dict(r) for r in run.csv(CATALOG)])
    fields = ("price", "currency", "stock", "revision")
    wrong = [
        row["sku"]
        for row in expected(run)
        if [got.get(row["sku"], {}).get(f) for f in fields] != [row[f] for f in fields]
    ]
    benchlib.expect(not wrong, f"SKUs without their highest revision's fields: {wrong[:5]}")


@judge.check(level=4)
def csv_exact_and_sorted(run: benchlib.Run) -> None:
    """The whole file: one row per SKU, sorted by sku, exactly the expected values."""
    benchlib.expect_equal([dict(r) for r in run.csv(CATALOG)], expected(run), CATALOG)


@judge.edge
def relative_link_with_ampersand(run: benchlib.Run) -> None:
    """Every page of the edge catalog fetched once, on its origin, and every product listed."""
    got = sorted(r.target for r in run.requests("catalog"))
    want = sorted(p["target"] for p in crawled(run))
    benchlib.expect_equal(got, want, "requests to the catalog service")
    benchlib.expect_equal([dict(r) for r in run.csv(CATALOG)], expected(run), CATALOG)


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
