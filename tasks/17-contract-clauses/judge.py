# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 17: Contract Clause Index and Comparison.

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
    "id": 17,
    "slug": "contract-clauses",
    "stages": ["initial", "review", "late"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.clause_index inputs/contracts --output output",
            "argv": [
                "python",
                "-m",
                "solution.clause_index",
                "inputs/contracts",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 60.0,
            "until": "initial",
        },
        {
            "run": "python3.12 -E -S -m solution.clause_index inputs/contracts --output output",
            "argv": [
                "python3.12",
                "-E",
                "-S",
                "-m",
                "solution.clause_index",
                "inputs/contracts",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "review",
            "timeout": 60.0,
            "until": "review",
        },
        {
            "run": "python3.12 -E -S -m solution.clause_index inputs/contracts inputs/contracts-late --output output",
            "argv": [
                "python3.12",
                "-E",
                "-S",
                "-m",
                "solution.clause_index",
                "inputs/contracts",
                "inputs/contracts-late",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "late",
            "timeout": 60.0,
        },
    ],
    "outputs": [
        {
            "path": "output/clauses.csv",
            "format": "csv",
            "header": [
                "contract_id",
                "clause_type",
                "normalized_value",
                "start_line",
                "end_line",
                "excerpt",
            ],
            "stage": "initial",
        },
        {
            "path": "output/missing.csv",
            "format": "csv",
            "header": ["contract_id", "clause_type", "reason"],
            "stage": "initial",
        },
        {"path": "output/comparison.md", "format": "markdown", "header": [], "stage": "review"},
    ],
    "expect": [
        {
            "name": "caps-liability#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-1392", "clause_type": "liability_cap"},
            "equals": {
                "normalized_value": "fees_months:12",
                "excerpt": "LIABILITY UNDER THIS AGREEMENT SHALL NOT EXCEED TWELVE (12) MONTHS OF FEES",
            },
        },
        {
            "name": "amount-format#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-4479", "clause_type": "liability_cap"},
            "equals": {"normalized_value": "usd:2500000.00"},
        },
        {
            "name": "amount-format#2",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-2810", "clause_type": "liability_cap"},
            "equals": {"normalized_value": "usd:750000.50"},
        },
        {
            "name": "notice-after-days#1",
            "file": "output/missing.csv",
            "level": 4,
            "where": {
                "contract_id": "VA-5902",
                "clause_type": "termination_notice_days",
                "reason": "no_statement",
            },
            "count": 1,
        },
        {
            "name": "notices-plural#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-2291", "clause_type": "termination_notice_days"},
            "equals": {
                "normalized_value": "30",
                "excerpt": "notice of not less than thirty (30) days",
            },
        },
        {
            "name": "retained-word#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-3871", "clause_type": "data_retention_days"},
            "equals": {
                "normalized_value": "90",
                "excerpt": "retain Customer Data for no longer than ninety (90) days",
            },
        },
        {
            "name": "law-wrapped#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-1184", "clause_type": "governing_law"},
            "equals": {
                "normalized_value": "the State of New York",
                "excerpt": "governed by the laws of the State of New York",
            },
        },
        {
            "name": "law-construed#1",
            "file": "output/missing.csv",
            "level": 4,
            "where": {
                "contract_id": "VA-6904",
                "clause_type": "governing_law",
                "reason": "no_statement",
            },
            "count": 1,
        },
        {
            "name": "renew-no#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-3055", "clause_type": "auto_renewal"},
            "equals": {"normalized_value": "no"},
        },
        {
            "name": "statement-next-page#1",
            "file": "output/missing.csv",
            "level": 4,
            "where": {
                "contract_id": "VA-6317",
                "clause_type": "data_retention_days",
                "reason": "no_statement",
            },
            "count": 1,
        },
        {
            "name": "unrecognized-heading#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-2568", "clause_type": "termination_notice_days"},
            "equals": {"start_line": "291", "end_line": "300"},
        },
        {
            "name": "exhibit-second-clause#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-4023", "clause_type": "data_retention_days"},
            "equals": {"normalized_value": "180", "start_line": "3357"},
        },
        {
            "name": "exhibit-second-clause#2",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-1343", "clause_type": "data_retention_days"},
            "equals": {"normalized_value": "60"},
        },
        {
            "name": "two-statements#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-5230", "clause_type": "termination_notice_days"},
            "equals": {"normalized_value": "45", "excerpt": "notice of 45 days"},
        },
        {
            "name": "no-heading#1",
            "file": "output/missing.csv",
            "level": 4,
            "where": {
                "contract_id": "VA-7044",
                "clause_type": "governing_law",
                "reason": "no_heading",
            },
            "count": 1,
        },
        {
            "name": "heading-styles#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-1733", "clause_type": "governing_law"},
            "equals": {"start_line": "423"},
        },
        {
            "name": "heading-styles#2",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-1733", "clause_type": "termination_notice_days"},
            "equals": {"start_line": "395"},
        },
        {
            "name": "heading-styles#3",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-1733", "clause_type": "data_retention_days"},
            "equals": {"start_line": "233"},
        },
        {
            "name": "heading-styles#4",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-1733", "clause_type": "liability_cap"},
            "equals": {"start_line": "315"},
        },
        {
            "name": "alias-sentence#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-2046", "clause_type": "auto_renewal"},
            "equals": {"end_line": "302"},
        },
        {
            "name": "casefold-heading#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-5488", "clause_type": "governing_law"},
            "equals": {"normalized_value": "the Federal Republic of Germany", "end_line": "600"},
        },
        {
            "name": "casefold-heading#2",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-6022", "clause_type": "governing_law"},
            "equals": {"end_line": "393"},
        },
        {
            "name": "jurisdiction-line-end#1",
            "file": "output/comparison.md",
            "level": 4,
            "stage": "review",
            "contains": [
                "- VA-5714 inputs/contracts/VA-5714.txt:410-410 governed by the laws of Victoria\n"
            ],
        },
        {
            "name": "first-of-two-forms#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-3342", "clause_type": "auto_renewal"},
            "equals": {"normalized_value": "yes", "excerpt": "renews for twenty-four (24) months"},
        },
        {
            "name": "first-of-two-forms#2",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-3342", "clause_type": "liability_cap"},
            "equals": {"normalized_value": "usd:1000000.00"},
        },
        {
            "name": "blank-tail#1",
            "file": "output/clauses.csv",
            "level": 4,
            "where": {"contract_id": "VA-5714", "clause_type": "auto_renewal"},
            "equals": {"end_line": "341"},
        },
        {
            "name": "review-set#1",
            "file": "output/comparison.md",
            "level": 4,
            "stage": "review",
            "contains": [
                "- VA-1184 inputs/contracts/VA-1184.txt:461-462 governed by the laws of the State of New York\n",
                "Not stated: VA-6188, VA-6640\n",
                "Not stated: VA-6640\n",
                "Not stated: none\n",
                "### no automatic renewal\n",
            ],
        },
        {
            "name": "late-wrapped#1",
            "file": "output/clauses.csv",
            "level": 4,
            "stage": "late",
            "where": {"contract_id": "VA-8120", "clause_type": "liability_cap"},
            "equals": {
                "start_line": "341",
                "excerpt": "liability arising out of this Agreement shall not exceed $3,000,000",
            },
        },
        {
            "name": "late-wrapped#2",
            "file": "output/clauses.csv",
            "level": 4,
            "stage": "late",
            "where": {"contract_id": "VA-8120", "clause_type": "termination_notice_days"},
            "equals": {"end_line": "413"},
        },
        {
            "name": "late-wrapped#3",
            "file": "output/clauses.csv",
            "level": 4,
            "stage": "late",
            "where": {"contract_id": "VA-8120", "clause_type": "governing_law"},
            "equals": {"start_line": "439"},
        },
    ],
    "edge_expect": [],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
# Expected values come from a small independent parser of the pristine agreements (one pass
# per fixture, about 2 s; a run.derived value): every clause row, every missing row and the
# whole comparison.md. Level 3 is the core of stage 1 on the first folder (which clauses
# exist, where they start, which are missing); everything else is level 4.
import json
import re

FIRST, LATE = "inputs/contracts", "inputs/contracts-late"
TYPES = ["auto_renewal", "data_retention_days", "governing_law", "liability_cap",
         "termination_notice_days"]  # fmt: skip
CLAUSES = "output/clauses.csv"
MISSING = "output/missing.csv"
COMPARISON = "output/comparison.md"
LABELED = re.compile(r"(?i)(?:(?:section|article)\s+)?[0-9]+(?:\.[0-9]+)*\.?\s+(.*)")
WS = re.compile(r"\s+")
B, E = r"(?<![A-Za-z0-9_])", r"(?![A-Za-z0-9_])"  # whole-word boundaries
# a completion: a number (digits alone, or in parentheses after a number in words), then words
DAYS = re.compile(r"\(([0-9]+)\)\s+days" + E + "|" + B + r"([0-9]+)\s+days" + E, re.I)
FEES = re.compile(r"\(([0-9]+)\)\s+months\s+of\s+fees" + E + "|" + B
                  + r"([0-9]+)\s+months\s+of\s+fees" + E, re.I)  # fmt: skip
AFTER_WORD = re.compile(r"[A-Za-z]\s+\Z")
DOLLARS = re.compile(r"\$([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(\.[0-9]{2})?")
RENEWS = re.compile(B + r"renews\s+for\s+(?:[A-Za-z]+(?:-[A-Za-z]+)*\s+)+\(([0-9]+)\)\s+months" + E
                    + "|" + B + r"renews\s+for\s+([0-9]+)\s+months" + E, re.I)  # fmt: skip
NO_RENEWAL = re.compile(B + r"does\s+not\s+automatically\s+renew" + E, re.I)
LAW = re.compile(B + r"governed\s+by\s+the\s+laws\s+of" + E, re.I)
FIRST_WORD = {k: re.compile(B + w + E, re.I) for k, w in (
    ("termination_notice_days", "notice"), ("liability_cap", "liability"),
    ("data_retention_days", "retain"))}  # fmt: skip


def heading_key(text: str) -> str:
    text = text.strip()
    labeled = LABELED.fullmatch(text)
    if labeled:
        text = labeled.group(1)
    if text[-1:] in (".", ":"):
        text = text[:-1]
    return " ".join(text.split()).casefold()


def completion(pattern: re.Pattern, text: str, pos: int) -> re.Match | None:
    """The first completion after ``pos`` (a number in parentheses must follow a word)."""
    for match in pattern.finditer(text, pos):
        if match.group(2) or AFTER_WORD.search(text, max(pos, match.start() - 80), match.start()):
            return match
    return None


def number_of(match: re.Match) -> int:
    return int(match.group(1) or match.group(2))


def find_statement(kind: str, text: str) -> tuple[int, int, str, str] | None:
    """(start, end, normalized value, comparison value) of a body's first statement."""
    if kind == "auto_renewal":
        hits = [m for m in (RENEWS.search(text), NO_RENEWAL.search(text)) if m]
        if not hits:
            return None
        hit = min(hits, key=lambda m: m.start())
        if hit.re is NO_RENEWAL:
            return hit.start(), hit.end(), "no", "no automatic renewal"
        months = int(hit.group(1) or hit.group(2))
        return hit.start(), hit.end(), "yes", f"{months} months"
    if kind == "governing_law":
        hit = LAW.search(text)
        if not hit:
            return None
        stop = min([i for i in (text.find(c, hit.end()) for c in ",;.(") if i >= 0] + [len(text)])
        place = text[hit.end() : stop]
        end = hit.end() + len(place.rstrip())
        value = WS.sub(" ", place).strip()
        return hit.start(), end, value, value
    first = FIRST_WORD[kind].search(text)
    if not first:
        return None
    if kind == "liability_cap":
        found = [
            m for m in (DOLLARS.search(text, first.end()), completion(FEES, text, first.end())) if m
        ]
        if not found:
            return None
        hit = min(found, key=lambda m: m.end())
        if hit.re is DOLLARS:
            value = f"usd:{hit.group(1).replace(',', '')}{hit.group(2) or '.00'}"
        else:
            value = f"fees_months:{number_of(hit)}"
        return first.start(), hit.end(), value, value
    hit = completion(DAYS, text, first.end())
    if not hit:
        return None
    return first.start(), hit.end(), str(number_of(hit)), ""


def contract_truth(data: str, aliases: dict[str, str], shown: str) -> dict:
    """Rows (by type) and missing reasons of one agreement."""
    lines = data.split("\n")[:-1] if data.endswith("\n") else data.split("\n")
    heads = []  # (first line index, body line index, type)
    i = 0
    while i < len(lines):
        here = lines[i]
        kind = aliases.get(heading_key(here))
        if kind:
            heads.append((i, i + 1, kind))
        elif here.strip() and i + 1 < len(lines):
            kind = aliases.get(heading_key(here.strip() + " " + lines[i + 1].strip()))
            if kind:
                heads.append((i, i + 2, kind))
                i += 1
        i += 1
    rows, reasons = {}, {}
    for n, (first, body, kind) in enumerate(heads):
        if kind not in TYPES or kind in rows:
            continue
        stop = heads[n + 1][0] if n + 1 < len(heads) else len(lines)
        cut = next((j for j in range(body, stop) if "\f" in lines[j]), stop)
        text = "\n".join(lines[body:cut])
        found = find_statement(kind, text)
        if found is None:
            reasons[kind] = "no_statement"
            continue
        start, end, value, compared = found
        last = max(j for j in range(body, cut) if lines[j].strip())
        rows[kind] = {
            "normalized_value": value,
            "start_line": str(first + 1),
            "end_line": str(last + 1),
            "excerpt": " ".join(text[start:end].split()),
            "cited": " ".join(" ".join(lines[first : last + 1]).split()),
            "compared": compared,
            "range": f"{body + 1 + text.count(chr(10), 0, start)}-{body + 1 + text.count(chr(10), 0, end - 1)}",
            "path": shown,
        }
    missing = {k: reasons.get(k, "no_heading") for k in TYPES if k not in rows}
    return {"rows": rows, "missing": missing}


def comparison_text(review: list[str], contracts: dict) -> str:
    out = ["# Renewal review comparison", "", f"Contracts under review: {len(review)}"]
    for title, kind in (("Renewal window", "auto_renewal"), ("Liability cap", "liability_cap"),
                        ("Governing law", "governing_law")):  # fmt: skip
        out += ["", f"## {title}"]
        groups: dict[str, list[str]] = {}
        absent = []
        for cid in sorted(set(review)):
            row = contracts.get(cid, {"rows": {}})["rows"].get(kind)
            if row is None:
                absent.append(cid)
            else:
                groups.setdefault(row["compared"], []).append(
                    f"- {cid} {row['path']}:{row['range']} {row['excerpt']}")  # fmt: skip
        for value in sorted(groups, key=lambda v: (-len(groups[v]), v)):
            out += ["", f"### {value}", "", *groups[value]]
        out += ["", "Not stated: " + (", ".join(absent) or "none")]
    return "\n".join(out) + "\n"


class Truth:
    """Every expected row of the fixture, by folder; the expected comparison.md."""

    def __init__(self, source: benchlib.Files) -> None:
        table = source.json("inputs/clause_aliases.json")
        aliases = {
            WS.sub(" ", a).strip().casefold(): k for k, names in table.items() for a in names
        }
        self.folders: dict[str, list[str]] = {}
        self.contracts: dict[str, dict] = {}
        for folder in (FIRST, LATE):
            if not source.exists(folder):
                continue
            names = sorted(p.name for p in source.path(folder).iterdir() if p.name.endswith(".txt"))
            self.folders[folder] = [n[:-4] for n in names]
            for name in names:
                data = source.bytes(f"{folder}/{name}").decode("utf-8")
                self.contracts[name[:-4]] = contract_truth(data, aliases, f"{folder}/{name}")
        self.comparison = None
        if source.exists("inputs/review_set.csv"):
            review = [r["contract_id"] for r in source.csv("inputs/review_set.csv")]
            self.comparison = comparison_text(review, self.contracts)


def truth(run: benchlib.Run) -> Truth:
    return run.derived("truth", Truth)


def candidate(run: benchlib.Run) -> tuple[dict, dict]:
    """clauses.csv rows by (contract, type), missing.csv reasons by (contract, type)."""
    if "candidate" not in run.memo:
        rows = {}
        for row in run.csv(CLAUSES):
            rows.setdefault((row["contract_id"], row["clause_type"]), row)
        gaps = {}
        for row in run.csv(MISSING):
            gaps.setdefault((row["contract_id"], row["clause_type"]), row["reason"])
        run.memo["candidate"] = (rows, gaps)
    return run.memo["candidate"]


def compare(got: dict, want: dict, what: str) -> None:
    """Equal mappings; the note names the first few differences."""
    bad = [k for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k)]
    shown = "; ".join(f"{k}: got {got.get(k)!r}, expected {want.get(k)!r}" for k in bad[:3])
    benchlib.expect(not bad, f"{what}: {len(bad)} differ ({shown})")


def expected(run: benchlib.Run, folders: list[str], fields: list[str]) -> tuple[dict, dict]:
    """The expected rows (only ``fields``) and missing reasons of the contracts of folders."""
    want = truth(run)
    rows, gaps = {}, {}
    for folder in folders:
        for cid in want.folders.get(folder, []):
            for kind, row in want.contracts[cid]["rows"].items():
                rows[(cid, kind)] = tuple(row[f] for f in fields)
            for kind, reason in want.contracts[cid]["missing"].items():
                gaps[(cid, kind)] = reason
    return rows, gaps


def got_rows(run: benchlib.Run, ids: set[str], fields: list[str]) -> tuple[dict, dict]:
    rows, gaps = candidate(run)
    pick = {k: tuple(r[f] for f in fields) for k, r in rows.items() if k[0] in ids}
    return pick, {k: v for k, v in gaps.items() if k[0] in ids}


def line_number(text: str) -> int | str:
    try:
        return int(text.strip())
    except ValueError:
        return text


@judge.check(level=3)
def clauses_found_and_started(run: benchlib.Run) -> None:
    """Which clause types each first-folder contract states, and at which heading line."""
    want, _ = expected(run, [FIRST], ["start_line"])
    got, _ = got_rows(run, set(truth(run).folders[FIRST]), ["start_line"])
    compare({k: line_number(v[0]) for k, v in got.items()},
            {k: int(v[0]) for k, v in want.items()}, "clause rows (start_line)")  # fmt: skip


@judge.check(level=3)
def missing_clauses_found(run: benchlib.Run) -> None:
    """Which clause types each first-folder contract lacks."""
    _, want = expected(run, [FIRST], [])
    _, got = got_rows(run, set(truth(run).folders[FIRST]), [])
    compare(dict.fromkeys(got, "missing"), dict.fromkeys(want, "missing"), "missing.csv rows")


@judge.check(level=4)
def normalized_values(run: benchlib.Run) -> None:
    want, _ = expected(run, [FIRST], ["normalized_value"])
    got, _ = got_rows(run, set(truth(run).folders[FIRST]), ["normalized_value"])
    compare(got, want, "normalized_value")


@judge.check(level=4)
def citations_and_excerpts(run: benchlib.Run) -> None:
    """Exact start_line, end_line and excerpt text; excerpts come from the cited lines."""
    fields = ["start_line", "end_line", "excerpt"]
    want, _ = expected(run, [FIRST], fields)
    got, _ = got_rows(run, set(truth(run).folders[FIRST]), fields)
    compare(got, want, "start_line, end_line, excerpt")


@judge.check(level=4)
def missing_reasons(run: benchlib.Run) -> None:
    _, want = expected(run, [FIRST], [])
    _, got = got_rows(run, set(truth(run).folders[FIRST]), [])
    compare(got, want, "missing.csv reasons")


@judge.check(level=4)
def rows_sorted_and_known(run: benchlib.Run) -> None:
    """Both CSVs sorted by contract_id then clause_type, no repeats, no unknown keys."""
    known = set(truth(run).contracts)
    for path in (CLAUSES, MISSING):
        keys = [(r["contract_id"], r["clause_type"]) for r in run.csv(path)]
        benchlib.expect(keys == sorted(set(keys)), f"{path}: rows not sorted or repeated")
        strange = [k for k in keys if k[0] not in known or k[1] not in TYPES]
        benchlib.expect(not strange, f"{path}: unknown contract or clause type {strange[:2]}")


@judge.check(level=4, stage="review")
def comparison_report(run: benchlib.Run) -> None:
    """comparison.md exactly as TASK.md lays it out (compared line by line)."""
    want = truth(run).comparison
    benchlib.expect(want is not None, "fixture sanity: a review set")
    try:
        got = run.files.bytes(COMPARISON).decode("utf-8")
    except UnicodeDecodeError:
        got = "(not UTF-8)"
    if got != want:
        mine, theirs = want.split("\n"), got.split("\n")
        n = next(
            (i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs))
        )
        benchlib.expect(
            False,
            f"comparison.md line {n + 1}: got {theirs[n : n + 1]}, expected {mine[n : n + 1]}",
        )
    benchlib.expect_equal(got, want, "comparison.md")


@judge.check(level=4, stage="late")
def late_agreements(run: benchlib.Run) -> None:
    """Every row and missing row of inputs/contracts-late/ (wrapped headings)."""
    fields = ["normalized_value", "start_line", "end_line", "excerpt"]
    want, want_gaps = expected(run, [LATE], fields)
    got, got_gaps = got_rows(run, set(truth(run).folders[LATE]), fields)
    compare(got, want, "contracts-late rows")
    compare(got_gaps, want_gaps, "contracts-late missing rows")


def whole_output(run: benchlib.Run, folders: list[str]) -> None:
    fields = ["normalized_value", "start_line", "end_line", "excerpt"]
    ids = {c for f in folders for c in truth(run).folders.get(f, [])}
    want, want_gaps = expected(run, folders, fields)
    got, got_gaps = got_rows(run, ids, fields)
    compare(got, want, "clauses.csv rows")
    compare(got_gaps, want_gaps, "missing.csv rows")


@judge.edge(until="review")
def edge_single_line_headings(run: benchlib.Run) -> None:
    """Before stage 3: the edge fixture's first folder (single-line headings)."""
    whole_output(run, [FIRST])


@judge.edge(stage="late")
def edge_wrapped_headings(run: benchlib.Run) -> None:
    """Wrapped headings start at their first line, even above a line that is a heading alone."""
    whole_output(run, [FIRST, LATE])


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
