# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 7: Utility Consumption Anomaly Report.

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
    "id": 7,
    "slug": "utility-anomalies",
    "stages": ["initial"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.utility_anomalies inputs/monthly_usage.csv --output output",
            "argv": [
                "python",
                "-m",
                "solution.utility_anomalies",
                "inputs/monthly_usage.csv",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 20.0,
        }
    ],
    "outputs": [
        {
            "path": "output/anomalies.csv",
            "format": "csv",
            "header": ["meter_id", "month", "kwh", "median", "mad", "severity", "direction"],
            "stage": "initial",
        },
        {
            "path": "output/gaps.csv",
            "format": "csv",
            "header": ["meter_id", "first_missing", "last_missing", "months"],
            "stage": "initial",
        },
        {"path": "output/report.html", "format": "html", "header": [], "stage": "initial"},
    ],
    "expect": [
        {
            "name": "threshold-boundary#1",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1207", "month": "2025-02"},
            "absent": True,
        },
        {
            "name": "threshold-boundary#2",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1207", "month": "2025-03"},
            "equals": {
                "kwh": "300",
                "median": "400.50",
                "mad": "1.00",
                "severity": "0.2509",
                "direction": "low",
            },
        },
        {
            "name": "half-up#1",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1348"},
            "equals": {
                "month": "2024-04",
                "kwh": "233",
                "median": "160.00",
                "mad": "1.00",
                "severity": "0.4563",
                "direction": "high",
            },
        },
        {
            "name": "mad-branch#1",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1422", "month": "2023-11"},
            "absent": True,
        },
        {
            "name": "mad-branch#2",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1422", "month": "2023-12"},
            "equals": {
                "median": "155.00",
                "mad": "30.00",
                "severity": "0.6129",
                "direction": "high",
            },
        },
        {
            "name": "gap-across-new-year#1",
            "file": "output/gaps.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1530"},
            "equals": {"first_missing": "2023-12", "last_missing": "2024-01", "months": "2"},
        },
        {
            "name": "gap-across-new-year#2",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1530", "month": "2024-02"},
            "equals": {
                "median": "299.50",
                "mad": "2.50",
                "severity": "0.3022",
                "direction": "high",
            },
        },
        {
            "name": "meter-replacement#1",
            "file": "output/gaps.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1188"},
            "absent": True,
        },
        {
            "name": "meter-replacement#2",
            "file": "output/gaps.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1189"},
            "absent": True,
        },
        {
            "name": "meter-replacement#3",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1189", "month": "2024-12"},
            "absent": True,
        },
        {
            "name": "meter-replacement#4",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1189", "month": "2025-01"},
            "equals": {"median": "517.00", "mad": "2.50", "severity": "0.4700"},
        },
        {
            "name": "level-shift#1",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1735"},
            "count": 3,
        },
        {
            "name": "level-shift#2",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1735", "month": "2024-11"},
            "equals": {"median": "251.00", "severity": "0.9960"},
        },
        {
            "name": "level-shift#3",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1735", "month": "2024-12"},
            "absent": True,
        },
        {
            "name": "net-exporter#1",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1804", "month": "2024-05"},
            "equals": {
                "kwh": "150",
                "median": "-401.50",
                "severity": "0.0000",
                "direction": "high",
            },
        },
        {
            "name": "net-exporter#2",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1804", "month": "2025-01"},
            "equals": {"kwh": "-470", "severity": "0.0000", "direction": "low"},
        },
        {
            "name": "net-zero-home#1",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1466", "month": "2023-07"},
            "equals": {"median": "0.00", "mad": "13.00", "severity": "0.0000", "direction": "high"},
        },
        {
            "name": "net-zero-home#2",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "MTR-1466", "month": "2024-09"},
            "equals": {"median": "0.50", "mad": "8.50", "severity": "119.0000"},
        },
        {
            "name": "escaped-label#1",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "R&D<LAB>-7"},
            "equals": {"month": "2024-10", "median": "800.50", "direction": "high"},
        },
        {
            "name": "escaped-label#2",
            "file": "output/report.html",
            "level": 4,
            "not_contains": ["R&D<LAB>-7"],
        },
        {
            "name": "rounded-tie#1",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "CMR-2001"},
            "equals": {"month": "2025-03", "median": "25000.00", "severity": "0.5000"},
        },
        {
            "name": "rounded-tie#2",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "CMR-2002"},
            "equals": {"month": "2025-03", "severity": "0.5000"},
        },
    ],
    "edge_expect": [
        {"name": "edge#1", "file": "output/anomalies.csv", "level": 4, "count": 1},
        {
            "name": "edge#2",
            "file": "output/anomalies.csv",
            "level": 4,
            "where": {"meter_id": "FLAT-3B", "month": "2024-07"},
            "equals": {
                "kwh": "520",
                "median": "400.00",
                "mad": "0.00",
                "severity": "0.3000",
                "direction": "high",
            },
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
from fractions import Fraction
from html.parser import HTMLParser
from itertools import pairwise

ANOMALIES = "output/anomalies.csv"
GAPS = "output/gaps.csv"
REPORT = "output/report.html"
TOP_COLUMNS = ["meter_id", "month", "kwh", "median", "severity", "direction"]
FORBIDDEN_TAGS = {"script", "link", "img", "iframe", "frame", "object", "embed", "audio", "video"}


def month_number(month: str) -> int:
    return int(month[:4]) * 12 + int(month[5:7]) - 1


def month_text(number: int) -> str:
    return f"{number // 12:04d}-{number % 12 + 1:02d}"


def middle(values: list[Fraction]) -> Fraction:
    """Median of six values."""
    ordered = sorted(values)
    return (ordered[2] + ordered[3]) / 2


def two_decimals(value: Fraction) -> str:
    hundredths = value * 100
    assert hundredths.denominator == 1, value
    sign, units = ("-" if hundredths < 0 else ""), abs(hundredths.numerator)
    return f"{sign}{units // 100}.{units % 100:02d}"


def four_decimals_half_up(value: Fraction) -> str:
    units = int(value * 10000 + Fraction(1, 2))  # value >= 0: floor(x + 1/2) is half-up
    return f"{units // 10000}.{units % 10000:04d}"


class Usage:
    """TASK.md's anomalies, gaps and counts, recomputed from the pristine input."""

    def __init__(self, source: benchlib.Files) -> None:
        rows = source.csv("inputs/monthly_usage.csv")
        self.readings = len(rows)
        series: dict[str, list[tuple[int, str]]] = {}
        for row in rows:
            series.setdefault(row["meter_id"], []).append((month_number(row["month"]), row["kwh"]))
        self.meters = len(series)
        self.anomalies: list[dict[str, str]] = []
        self.gaps: list[dict[str, str]] = []
        for meter in sorted(series):
            readings = sorted(series[meter])
            values = [Fraction(int(kwh)) for _, kwh in readings]
            for i in range(6, len(readings)):
                baseline = values[i - 6 : i]
                center = middle(baseline)
                spread = middle([abs(v - center) for v in baseline])
                deviation = abs(values[i] - center)
                if deviation > max(3 * spread, center / 4):
                    severity = deviation / center if center > 0 else Fraction(0)
                    self.anomalies.append(
                        {
                            "meter_id": meter,
                            "month": month_text(readings[i][0]),
                            "kwh": readings[i][1],
                            "median": two_decimals(center),
                            "mad": two_decimals(spread),
                            "severity": four_decimals_half_up(severity),
                            "direction": "high" if values[i] > center else "low",
                        }
                    )
            for (before, _), (after, _) in pairwise(readings):
                if after > before + 1:
                    self.gaps.append(
                        {
                            "meter_id": meter,
                            "first_missing": month_text(before + 1),
                            "last_missing": month_text(after - 1),
                            "months": str(after - before - 1),
                        }
                    )
        self.anomalies.sort(key=lambda a: (-Fraction(a["severity"]), a["meter_id"], a["month"]))

    def summary(self) -> dict[str, str]:
        counts = {
            "meters": self.meters,
            "readings": self.readings,
            "gaps": len(self.gaps),
            "missing_months": sum(int(g["months"]) for g in self.gaps),
            "anomalies": len(self.anomalies),
            "high": sum(a["direction"] == "high" for a in self.anomalies),
            "low": sum(a["direction"] == "low" for a in self.anomalies),
        }
        return {k: str(v) for k, v in counts.items()}


def usage(run: benchlib.Run) -> Usage:
    if "usage" not in run.memo:
        run.memo["usage"] = Usage(run.source)
    return run.memo["usage"]


class Tables(HTMLParser):
    """Rows of cell texts of every <table id=...>, and every start tag seen."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[tuple[str, str]]]] = {}
        self.tags: set[str] = set()
        self.table: str | None = None
        self.cell: list[str] | None = None
        self.kind = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag == "table":
            self.table = dict(attrs).get("id") or ""
            self.tables.setdefault(self.table, [])
        elif tag == "tr" and self.table is not None:
            self.tables[self.table].append([])
        elif tag in ("td", "th") and self.table is not None:
            self.cell, self.kind = [], tag

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None and self.table is not None:
            rows = self.tables[self.table]
            if rows:
                rows[-1].append((self.kind, " ".join("".join(self.cell).split())))
            self.cell = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def tables(run: benchlib.Run) -> Tables:
    if "tables" not in run.memo:
        parser = Tables()
        parser.feed(run.text(REPORT))
        parser.close()
        run.memo["tables"] = parser
    return run.memo["tables"]


def core_key(row: dict[str, str]) -> tuple:
    """An anomaly row's meaning apart from severity: numbers compared as numbers."""
    return (row["meter_id"], row["month"], benchlib.as_decimal(row["kwh"]),
            benchlib.as_decimal(row["median"]), benchlib.as_decimal(row["mad"]),
            row["direction"])  # fmt: skip


@judge.check(level=3)
def gaps_found(run: benchlib.Run) -> None:
    """The missing-month runs of every meter (any order)."""
    key = lambda g: (g["meter_id"], g["first_missing"], g["last_missing"], g["months"])  # noqa: E731
    got = sorted(key(g) for g in run.csv(GAPS))
    benchlib.expect_equal(got, sorted(key(g) for g in usage(run).gaps), "gaps (any order)")


@judge.check(level=3)
def anomalies_mostly_right(run: benchlib.Run) -> None:
    """At least 90% of the true anomalies are reported with the right baseline median, MAD and
    direction, and at least 90% of the reported rows are such true anomalies."""
    want = {core_key(a) for a in usage(run).anomalies}
    got = [core_key(a) for a in run.csv(ANOMALIES)]
    right = len(want.intersection(got))
    benchlib.expect(right * 10 >= len(want) * 9, f"{right} of {len(want)} anomalies found")
    benchlib.expect(right * 10 >= len(got) * 9, f"{len(got) - right} of {len(got)} rows wrong")


@judge.check(level=4)
def anomalies_exact(run: benchlib.Run) -> None:
    """Every anomaly, every field as written, in severity order."""
    benchlib.expect_equal(run.csv(ANOMALIES), usage(run).anomalies, ANOMALIES)


@judge.check(level=4)
def gaps_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(run.csv(GAPS), usage(run).gaps, GAPS)


@judge.check(level=4)
def report_summary(run: benchlib.Run) -> None:
    """The summary table holds the seven counts, recomputed from the input."""
    rows = tables(run).tables.get("summary")
    benchlib.expect(rows is not None, f'{REPORT}: no <table id="summary">')
    want = usage(run).summary()
    pairs = [(r[0][1], r[1][1]) for r in rows if [kind for kind, _ in r] == ["th", "td"]]
    got = {label: count for label, count in pairs if label in want}
    benchlib.expect_equal(got, want, f"{REPORT} summary <th>label</th><td>count</td> rows")


@judge.check(level=4)
def report_top_anomalies(run: benchlib.Run) -> None:
    """The top table: the header row, then the first ten anomalies (labels read back exactly,
    so a label that was not escaped fails)."""
    rows = tables(run).tables.get("top-anomalies")
    benchlib.expect(rows is not None, f'{REPORT}: no <table id="top-anomalies">')
    want = [[("th", c) for c in TOP_COLUMNS]]
    want += [[("td", a[c]) for c in TOP_COLUMNS] for a in usage(run).anomalies[:10]]
    benchlib.expect_equal(rows, want, f"{REPORT} top-anomalies rows")


@judge.check(level=4)
def report_self_contained(run: benchlib.Run) -> None:
    """No script or external resource, LF line endings."""
    text = run.text(REPORT)
    found = sorted(tables(run).tags & FORBIDDEN_TAGS)
    benchlib.expect(not found, f"{REPORT}: uses <{found[0] if found else ''}>")
    lowered = text.lower()
    benchlib.expect(
        "url(" not in lowered and "@import" not in lowered, f"{REPORT}: CSS loads a resource"
    )
    benchlib.expect("\r" not in text, f"{REPORT}: CR characters (LF line endings required)")


@judge.edge
def edge_anomalies_exact(run: benchlib.Run) -> None:
    """The edge fixture's anomalies, recomputed."""
    benchlib.expect_equal(run.csv(ANOMALIES), usage(run).anomalies, ANOMALIES)


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
