"""Flag anomalous monthly meter readings against a robust rolling baseline (reference).

python -m solution.utility_anomalies USAGE.csv --output DIR
"""

from __future__ import annotations

import argparse
import csv
import html
from decimal import ROUND_HALF_UP, Decimal
from itertools import pairwise
from pathlib import Path
from statistics import median

WINDOW = 6
TOP = 10
ANOMALY_HEADER = ["meter_id", "month", "kwh", "median", "mad", "severity", "direction"]
GAP_HEADER = ["meter_id", "first_missing", "last_missing", "months"]
TOP_COLUMNS = ["meter_id", "month", "kwh", "median", "severity", "direction"]


def month_index(month: str) -> int:
    year, number = month.split("-")
    return int(year) * 12 + int(number) - 1


def month_name(index: int) -> str:
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def read_usage(path: Path) -> tuple[dict[str, list[tuple[int, str]]], int]:
    """Readings per meter, as (month index, kwh text) sorted by month; and the row count."""
    meters: dict[str, list[tuple[int, str]]] = {}
    rows = 0
    with open(path, newline="", encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            meters.setdefault(row["meter_id"], []).append((month_index(row["month"]), row["kwh"]))
            rows += 1
    for readings in meters.values():
        readings.sort()
    return meters, rows


def anomalies_of(meter: str, readings: list[tuple[int, str]]) -> list[dict[str, str]]:
    found = []
    values = [Decimal(kwh) for _, kwh in readings]
    for position in range(WINDOW, len(readings)):
        baseline = values[position - WINDOW : position]
        center = median(baseline)
        mad = median(abs(v - center) for v in baseline)
        value = values[position]
        deviation = abs(value - center)
        if deviation > max(3 * mad, Decimal("0.25") * center):
            severity = deviation / center if center > 0 else Decimal(0)
            found.append({
                "meter_id": meter,
                "month": month_name(readings[position][0]),
                "kwh": readings[position][1],
                "median": f"{center:.2f}",
                "mad": f"{mad:.2f}",
                "severity": str(severity.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)),
                "direction": "high" if value > center else "low",
            })  # fmt: skip
    return found


def gaps_of(meter: str, readings: list[tuple[int, str]]) -> list[dict[str, str]]:
    gaps = []
    for (before, _), (after, _) in pairwise(readings):
        if after - before > 1:
            gaps.append({"meter_id": meter, "first_missing": month_name(before + 1),
                         "last_missing": month_name(after - 1),
                         "months": str(after - before - 1)})  # fmt: skip
    return gaps


def write_csv(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def report(summary: list[tuple[str, int]], top: list[dict[str, str]]) -> str:
    def cells(tag: str, values: list[str]) -> str:
        return "".join(f"<{tag}>{html.escape(v)}</{tag}>" for v in values)

    lines = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8"><title>Utility consumption anomalies</title>',
        "<style>table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:2px 6px}</style>",
        "</head>",
        "<body>",
        "<h1>Utility consumption anomalies</h1>",
        '<table id="summary">',
        *(f"<tr><th>{label}</th><td>{value}</td></tr>" for label, value in summary),
        "</table>",
        "<h2>Largest anomalies</h2>",
        '<table id="top-anomalies">',
        f"<tr>{cells('th', TOP_COLUMNS)}</tr>",
        *(f"<tr>{cells('td', [row[c] for c in TOP_COLUMNS])}</tr>" for row in top),
        "</table>",
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("usage", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()

    meters, rows = read_usage(args.usage)
    anomalies, gaps = [], []
    for meter in sorted(meters):
        anomalies += anomalies_of(meter, meters[meter])
        gaps += gaps_of(meter, meters[meter])
    anomalies.sort(key=lambda a: (-Decimal(a["severity"]), a["meter_id"], a["month"]))

    args.output.mkdir(parents=True, exist_ok=True)
    write_csv(args.output / "anomalies.csv", ANOMALY_HEADER, anomalies)
    write_csv(args.output / "gaps.csv", GAP_HEADER, gaps)
    summary = [
        ("meters", len(meters)),
        ("readings", rows),
        ("gaps", len(gaps)),
        ("missing_months", sum(int(g["months"]) for g in gaps)),
        ("anomalies", len(anomalies)),
        ("high", sum(a["direction"] == "high" for a in anomalies)),
        ("low", sum(a["direction"] == "low" for a in anomalies)),
    ]
    with open(args.output / "report.html", "w", encoding="utf-8", newline="\n") as stream:
        stream.write(report(summary, anomalies[:TOP]))


if __name__ == "__main__":
    main()
