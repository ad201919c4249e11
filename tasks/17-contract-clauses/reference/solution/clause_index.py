"""Clause index of plain-text vendor agreements.

python -m solution.clause_index FOLDER [FOLDER ...] --output DIR writes DIR/clauses.csv and
DIR/missing.csv, and DIR/comparison.md when review_set.csv lies beside the first folder.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from pathlib import Path

TYPES = [
    "auto_renewal", "data_retention_days", "governing_law", "liability_cap",
    "termination_notice_days",
]  # fmt: skip
LABEL = re.compile(r"(?:(?:section|article)\s+)?\d+(?:\.\d+)*\.?\s+", re.I)
NUM = r"(?:(?:[a-z]+(?:-[a-z]+)*\s+)+\((?P<paren>\d+)\)|\b(?P<digits>\d+))"
AMOUNT = r"\$(?P<amount>\d{1,3}(?:,\d{3})+|\d+)(?P<cents>\.\d\d)?"
FORMS = {
    "auto_renewal": re.compile(
        rf"\brenews\s+for\s+{NUM}\s+months\b|\bdoes\s+not\s+automatically\s+renew\b", re.I
    ),
    "termination_notice_days": re.compile(rf"\bnotice\b.*?{NUM}\s+days\b", re.I | re.S),
    "governing_law": re.compile(r"\bgoverned\s+by\s+the\s+laws\s+of\b(?P<place>[^,;.(]*)", re.I),
    "liability_cap": re.compile(
        rf"\bliability\b.*?(?:{AMOUNT}|{NUM}\s+months\s+of\s+fees\b)", re.I | re.S
    ),
    "data_retention_days": re.compile(rf"\bretain\b.*?{NUM}\s+days\b", re.I | re.S),
}
SECTIONS = [
    ("Renewal window", "auto_renewal"),
    ("Liability cap", "liability_cap"),
    ("Governing law", "governing_law"),
]


def heading_text(line: str) -> str:
    text = line.strip()
    label = LABEL.match(text)
    if label:
        text = text[label.end() :]
    if text.endswith((".", ":")):
        text = text[:-1]
    return " ".join(text.split()).casefold()


def find_headings(lines: list[str], aliases: dict[str, str]) -> list[tuple[int, int, str]]:
    """(index of the first heading line, number of heading lines, clause type), top-down."""
    heads = []
    skip = False
    for i, (line, nxt) in enumerate(zip(lines, [*lines[1:], ""])):
        if skip:
            skip = False
        elif kind := aliases.get(heading_text(line)):
            heads.append((i, 1, kind))
        elif line.strip() and (kind := aliases.get(heading_text(line + " " + nxt))):
            heads.append((i, 2, kind))
            skip = True
    return heads


def statement(kind: str, text: str) -> tuple[int, int, str, str] | None:
    """(start, end, normalized value, renewal window) of the body's statement, or None."""
    match = FORMS[kind].search(text)
    if match is None:
        return None
    groups = match.groupdict()
    number = groups.get("paren") or groups.get("digits")
    end = match.end()
    if kind == "auto_renewal":
        value = "yes" if number else "no"
        return match.start(), end, value, f"{int(number)} months" if number else "no automatic renewal"
    if kind == "governing_law":
        place = groups["place"].rstrip()
        end = match.start("place") + len(place)
        value = " ".join(place.split())
    elif kind == "liability_cap" and groups["amount"]:
        value = "usd:" + groups["amount"].replace(",", "") + (groups["cents"] or ".00")
    elif kind == "liability_cap":
        value = f"fees_months:{int(number)}"
    else:
        value = str(int(number))
    return match.start(), end, value, ""


def index_contract(path: Path, shown: str, aliases: dict[str, str]) -> dict[str, dict]:
    """clause type -> its row (with the statement's lines and renewal window), or reason."""
    lines = path.read_text(encoding="utf-8").split("\n")
    heads = find_headings(lines, aliases)
    found: dict[str, dict] = {}
    for (first, size, kind), (limit, *_) in zip(heads, [*heads[1:], (None,)]):
        if kind not in TYPES or "row" in found.get(kind, {}):
            continue
        body = []
        for line in lines[first + size : limit]:
            if "\f" in line:
                break
            body.append(line)
        text = "\n".join(body)
        hit = statement(kind, text)
        if hit is None:
            found[kind] = {"reason": "no_statement"}
            continue
        start, end, value, window = hit
        last = first + size + max(i for i, line in enumerate(body) if line.strip())
        base = first + size + 1  # line number of the body's first line
        found[kind] = {"row": {
            "normalized_value": value,
            "start_line": first + 1,
            "end_line": last + 1,
            "excerpt": " ".join(text[start:end].split()),
        }, "window": window, "path": shown,
            "lines": (base + text.count("\n", 0, start), base + text.count("\n", 0, end))}  # fmt: skip
    return found


def comparison(review: list[str], index: dict[str, dict]) -> str:
    blocks = ["# Renewal review comparison", f"Contracts under review: {len(review)}"]
    for title, kind in SECTIONS:
        blocks.append(f"## {title}")
        groups: dict[str, list[str]] = {}
        missing = []
        for cid in sorted(review):
            entry = index.get(cid, {}).get(kind, {})
            if "row" not in entry:
                missing.append(cid)
                continue
            value = entry["window"] if kind == "auto_renewal" else entry["row"]["normalized_value"]
            first, last = entry["lines"]
            item = f"- {cid} {entry['path']}:{first}-{last} {entry['row']['excerpt']}"
            groups.setdefault(value, []).append(item)
        for value, items in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
            blocks += [f"### {value}", "\n".join(items)]
        blocks.append("Not stated: " + (", ".join(missing) if missing else "none"))
    return "\n\n".join(blocks) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder")
    parser.add_argument("more", nargs="*")
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    base = Path(args.folder).parent
    table = json.loads((base / "clause_aliases.json").read_text(encoding="utf-8"))
    aliases = {" ".join(a.split()).casefold(): kind for kind, names in table.items() for a in names}
    index: dict[str, dict] = {}
    for folder in [args.folder, *args.more]:
        for path in Path(folder).glob("*.txt"):
            index[path.stem] = index_contract(path, f"{folder}/{path.name}", aliases)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    header = ["contract_id", "clause_type", "normalized_value", "start_line", "end_line", "excerpt"]
    with open(out / "clauses.csv", "w", encoding="utf-8", newline="") as rows, open(
        out / "missing.csv", "w", encoding="utf-8", newline=""
    ) as gaps:
        found, missing = csv.writer(rows, lineterminator="\n"), csv.writer(gaps, lineterminator="\n")
        found.writerow(header)
        missing.writerow(["contract_id", "clause_type", "reason"])
        for cid in sorted(index):
            for kind in TYPES:
                entry = index[cid].get(kind, {"reason": "no_heading"})
                if "row" in entry:
                    found.writerow([cid, kind, *entry["row"].values()])
                else:
                    missing.writerow([cid, kind, entry["reason"]])
    try:
        with open(base / "review_set.csv", encoding="utf-8", newline="") as handle:
            review = [row["contract_id"] for row in csv.DictReader(handle)]
    except FileNotFoundError:
        return  # no review set yet
    (out / "comparison.md").write_text(comparison(review, index), encoding="utf-8")


if __name__ == "__main__":
    main()
