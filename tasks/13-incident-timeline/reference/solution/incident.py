"""Cross-service incident timeline.

python -m solution.incident LOGS --window-start ISO --window-end ISO --output OUT

Streams every log file under LOGS (plain or gzip) twice: first the access logs, to find the
failed requests of the window, then every file, to collect the records of their request
chains, the deployment records and the notable database records of the window. Writes
OUT/timeline.csv and OUT/incident_report.md.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import gzip
import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
CHAIN_GAP_MS = 15 * 60 * 1000
MONTHS = {
    m: i
    for i, m in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}
HEADER = [
    "utc_time",
    "raw_time",
    "service",
    "severity",
    "request_id",
    "release_id",
    "event_code",
    "source",
]

ACCESS_RE = re.compile(r'^\S+ \S+ \S+ \[([^\]]+)\] "[^"]*" (\d{3}) ')
APP_RE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}[+-]\d{4} ")
DB_RE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC ")
DB_LEVELS = {"LOG": "INFO", "WARNING": "WARN", "ERROR": "ERROR", "FATAL": "FATAL"}
DB_MARKS = ("ERROR:", "FATAL:", "code=SCHEMA_")
MISSING_COLUMN = re.compile(r'column "([^"]+)" does not exist')


# -- time ------------------------------------------------------------------------------------

_minutes: dict[str, int] = {}


def _minute_ms(year: int, month: int, day: int, hour: int, minute: int, zone: str) -> int:
    sign = -1 if zone[0] == "-" else 1
    shift = sign * (int(zone[1:3]) * 60 + int(zone[3:5]))
    moment = dt.datetime(year, month, day, hour, minute, tzinfo=dt.UTC)
    return (moment - EPOCH) // dt.timedelta(milliseconds=1) - shift * 60_000


def parse_raw(kind: str, raw: str) -> int:
    """Epoch milliseconds (UTC) of a raw timestamp of the given log kind."""
    if kind == "access":  # 17/Apr/2025:14:04:33.160 +0000
        key = raw[:17] + raw[-5:]
        base = _minutes.get(key)
        if base is None:
            base = _minutes[key] = _minute_ms(
                int(raw[7:11]),
                MONTHS[raw[3:6]],
                int(raw[0:2]),
                int(raw[12:14]),
                int(raw[15:17]),
                raw[-5:],
            )
        return base + int(raw[18:20]) * 1000 + int(raw[21:24])
    # app 2025-04-17 16:04:28,900+0200 | db 2025-04-17 14:04:31.800 UTC | deploy ...T...Z
    zone = raw[23:28] if kind == "app" else "+0000"
    key = raw[:16] + zone
    base = _minutes.get(key)
    if base is None:
        base = _minutes[key] = _minute_ms(
            int(raw[0:4]), int(raw[5:7]), int(raw[8:10]), int(raw[11:13]), int(raw[14:16]), zone
        )
    return base + int(raw[17:19]) * 1000 + int(raw[20:23])


_stamps: dict[int, str] = {}


def utc_text(moment: int) -> str:
    """YYYY-MM-DDTHH:MM:SS.mmmZ of epoch milliseconds."""
    minute, rest = divmod(moment, 60_000)
    head = _stamps.get(minute)
    if head is None:
        head = _stamps[minute] = (EPOCH + dt.timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M")
    return f"{head}:{rest // 1000:02d}.{rest % 1000:03d}Z"


def parse_window(text: str) -> int:
    moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return (moment - EPOCH) // dt.timedelta(milliseconds=1)


# -- files and records -----------------------------------------------------------------------


def log_files(root: Path, shown: str) -> list[tuple[str, Path]]:
    """(source path as shown, real path) of every file under root, sorted."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = Path(folder, name)
            rel = path.relative_to(root).as_posix()
            found.append((f"{shown}/{rel}", path))
    return found


def read_lines(path: Path) -> Iterator[str]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", newline="") as stream:  # type: ignore[operator]
        for line in stream:
            yield line.rstrip("\r\n")


def kind_of(path: Path) -> str | None:
    for line in read_lines(path):
        if not line.strip():
            continue
        if line.startswith("{"):
            return "deploy"
        if APP_RE.match(line):
            return "app"
        if DB_RE.match(line):
            return "db"
        if ACCESS_RE.match(line):
            return "access"
        return None
    return None


def _field(line: str, key: str, start: int = 0) -> str:
    at = line.find(key, start)
    if at < 0:
        return ""
    end = line.find(" ", at + len(key))
    value = line[at + len(key) : end if end >= 0 else len(line)]
    return "" if value == "-" else value


def parse(kind: str, line: str) -> tuple[str, str, str, str, str, str] | None:
    """(raw, service, severity, request_id, release_id, event_code) of a line."""
    if kind == "access":
        match = ACCESS_RE.match(line)
        if not match:
            return None
        status = int(match.group(2))
        severity = "ERROR" if 500 <= status <= 599 else "WARN" if 400 <= status <= 499 else "INFO"
        rid = _field(line, " rid=", match.end())
        return match.group(1), "gateway", severity, rid, "", f"HTTP_{status}"
    if kind == "app":
        parts = line[29:].split(" ", 3)
        msg_at = line.find(" msg=")
        head = line[:msg_at] if msg_at >= 0 else line
        return (
            line[:28],
            parts[1],
            parts[0],
            _field(head, " req="),
            _field(head, " rel="),
            _field(head, " event="),
        )
    if kind == "db":
        close = line.find("] ", 27)
        level_end = line.find(":", close)
        level = line[close + 2 : level_end]
        body = line[level_end + 1 :].lstrip()
        code = _field(" " + body, " code=")
        return (
            line[:27],
            "db",
            DB_LEVELS.get(level, level),
            _field(body, " req="),
            _field(body, " rel="),
            code,
        )
    record = json.loads(line)
    return (
        record["ts"],
        "deploy",
        str(record.get("level", "")).upper(),
        "",
        record.get("release", "") or "",
        record.get("event", ""),
    )


def quick_rid(kind: str, line: str) -> str:
    """The request ID of a line, cheaply (empty when none)."""
    if kind == "access":
        at = line.rfind(" rid=")
        return _field(line, " rid=", at) if at >= 0 else ""
    if kind == "app":
        return _field(line, " req=", 28)
    if kind == "db":
        at = line.find(" req=", 28)
        return _field(line, " req=", at) if at >= 0 else ""
    return ""


# -- analysis --------------------------------------------------------------------------------


def load_offsets(logs: Path) -> dict[str, int]:
    for candidate in (logs.parent / "clock_offsets.json", Path("inputs/clock_offsets.json")):
        if candidate.is_file():
            data = json.loads(candidate.read_text(encoding="utf-8"))
            return {k: int(v) for k, v in data.get("offsets_ms", {}).items()}
    return {}


class Analysis:
    def __init__(self, logs: Path, shown: str, start: int, end: int) -> None:
        self.start, self.end = start, end
        self.offsets = load_offsets(logs)
        self.files = [(s, p, kind_of(p)) for s, p in log_files(logs, shown)]
        self.records: dict[tuple[str, int], tuple] = {}  # (path, line) -> record
        self.lines: dict[tuple[str, int], str] = {}  # raw text of kept records

    def record(self, kind: str, line: str, source: str, number: int) -> tuple | None:
        fields = parse(kind, line)
        if fields is None:
            return None
        raw, service, severity, rid, rel, code = fields
        moment = parse_raw(kind, raw) - self.offsets.get(service, 0)
        return (moment, raw, service, severity, rid, rel, code, source, number)

    def run(self) -> list[tuple]:
        failed = self.failed_requests()
        wanted = {r[4] for r in failed}
        by_rid: dict[str, list[tuple]] = {rid: [] for rid in wanted}
        kept: dict[tuple[str, int], tuple] = {}
        for source, path, kind in self.files:
            if kind is None:
                continue
            for number, line in enumerate(read_lines(path), start=1):
                rid = quick_rid(kind, line)
                notable = kind == "deploy" or (
                    kind == "db" and any(mark in line for mark in DB_MARKS)
                )
                if rid not in by_rid and not notable:
                    continue
                rec = self.record(kind, line, source, number)
                if rec is None:
                    continue
                if rec[4] in by_rid:
                    by_rid[rec[4]].append(rec)
                    self.lines[(source, number)] = line
                wanted_row = (
                    kind == "deploy"
                    or rec[3] in ("ERROR", "FATAL")
                    or (rec[6].startswith("SCHEMA_"))
                )
                if notable and wanted_row and self.start <= rec[0] < self.end:
                    kept[(source, number)] = rec
                    self.lines[(source, number)] = line
        failed_keys = {(r[7], r[8]) for r in failed}
        self.chains: dict[tuple[str, int], list[tuple]] = {}
        for recs in by_rid.values():
            recs.sort(key=lambda r: (r[0], r[7], r[8]))
            for chain in split_chains(recs):
                hits = [(r[7], r[8]) for r in chain if (r[7], r[8]) in failed_keys]
                for key in hits:
                    self.chains[key] = chain
                if hits:
                    for r in chain:
                        kept[(r[7], r[8])] = r
        self.failed = sorted(failed, key=lambda r: (r[0], r[7], r[8]))
        self.rows = sorted(kept.values(), key=lambda r: (r[0], r[7], r[8]))
        return self.rows

    def failed_requests(self) -> list[tuple]:
        failed = []
        for source, path, kind in self.files:
            if kind != "access":
                continue
            for number, line in enumerate(read_lines(path), start=1):
                if '" 5' not in line:
                    continue
                rec = self.record(kind, line, source, number)
                if rec and rec[3] == "ERROR" and self.start <= rec[0] < self.end:
                    failed.append(rec)
        return failed


def split_chains(recs: list[tuple]) -> list[list[tuple]]:
    """Split one request ID's records (sorted by time) at gaps of more than 15 minutes."""
    chains: list[list[tuple]] = []
    for rec in recs:
        if chains and rec[0] - chains[-1][-1][0] <= CHAIN_GAP_MS:
            chains[-1].append(rec)
        else:
            chains.append([rec])
    return chains


# -- outputs ---------------------------------------------------------------------------------


def write_timeline(path: Path, rows: list[tuple]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(HEADER)
        for moment, raw, service, severity, rid, rel, code, source, number in rows:
            writer.writerow(
                [utc_text(moment), raw, service, severity, rid, rel, code, f"{source}:{number}"]
            )


def anchor(rec: tuple) -> str:
    return f"{rec[7]}:{rec[8]} {utc_text(rec[0])}"


def cite(rec: tuple) -> str:
    return f"`{rec[7]}:{rec[8]}`"


def error_kind(analysis: Analysis, rec: tuple) -> tuple[str, str]:
    """(event code, message) of an application record."""
    text = analysis.lines.get((rec[7], rec[8]), "")
    at = text.find(" msg=")
    return rec[6], text[at + 5 :] if at >= 0 else ""


def write_report(path: Path, analysis: Analysis) -> None:
    rows = analysis.rows
    errors = Counter(  # (event, message) of the application errors in failed chains
        error_kind(analysis, r)
        for chain in analysis.chains.values()
        for r in chain
        if r[3] in ("ERROR", "FATAL") and r[2] not in ("gateway", "db") and r[6] != "REQUEST_DONE"
    )
    lines = ["# Incident report", ""]
    window = f"{utc_text(analysis.start)} to {utc_text(analysis.end)}"
    if not errors:
        lines += [f"No failed requests between {window}.", ""]
        for heading in (
            "Failure sequence",
            "Earliest causal event",
            "First user-visible failure",
            "Root cause",
            "Source anchors",
        ):
            lines += [f"## {heading}", "", "None found.", ""]
        path.write_text("\n".join(lines), encoding="utf-8")
        return
    error = errors.most_common(1)[0][0]
    error_code = error[0]
    incident = [
        f
        for f in analysis.failed
        if any(error_kind(analysis, r) == error for r in analysis.chains.get((f[7], f[8]), []))
    ]
    first_failure = incident[0]
    app_errors = sorted(
        (
            r
            for f in incident
            for r in analysis.chains[(f[7], f[8])]
            if error_kind(analysis, r) == error and r[2] not in ("gateway", "db")
        ),
        key=lambda r: (r[0], r[7], r[8]),
    )
    first_error = app_errors[0]
    error_line = analysis.lines[(first_error[7], first_error[8])]
    column_match = MISSING_COLUMN.search(error_line)
    column = column_match.group(1) if column_match else ""
    drop = re.compile(rf"\bDROP\s+COLUMN\s+(IF\s+EXISTS\s+)?\"?{re.escape(column)}\"?\b", re.I)
    schema_changes, applied = [], []
    for r in rows:
        if r[6] == "SCHEMA_CHANGE" and r[2] == "deploy":
            operation = json.loads(analysis.lines[(r[7], r[8])]).get("operation", "")
            if column and drop.search(operation):
                schema_changes.append((r, operation))
        elif r[6] == "SCHEMA_APPLIED" and column and drop.search(analysis.lines[(r[7], r[8])]):
            applied.append(r)
    causal, operation = schema_changes[0] if schema_changes else (first_error, "")
    release = causal[5]
    failures = len(analysis.failed)
    last = incident[-1]

    seq = []
    if schema_changes:
        seq.append(
            f"- {utc_text(causal[0])} deployment of release {release} ({causal[2]}) runs "
            f"the schema change `{operation}` ({cite(causal)})."
        )
    for r in applied:
        seq.append(
            f"- {utc_text(r[0])} the database confirms it applied the change "
            f"(SCHEMA_APPLIED, {cite(r)})."
        )
    seq.append(
        f"- {utc_text(first_error[0])} first application error {error_code} in "
        f"{first_error[2]} (request {first_error[4]}, {cite(first_error)})."
    )
    seq.append(
        f"- {utc_text(first_failure[0])} first user-visible failure: the gateway answers "
        f"{first_failure[6].replace('HTTP_', 'HTTP ')} to request {first_failure[4]} "
        f"({cite(first_failure)})."
    )
    seq.append(
        f"- {len(incident)} of the {failures} failed requests in the window fail with "
        f"{error_code}; the last one at {utc_text(last[0])} ({cite(last)})."
    )

    lines += [f"Window: {window}.", "", "## Failure sequence", "", *seq, ""]
    lines += [
        "## Earliest causal event",
        "",
        f"{utc_text(causal[0])}: {causal[2]} record {causal[6]} of release {release} "
        f"({cite(causal)}).",
    ]
    if applied:
        cited = ", ".join(cite(r) for r in applied)
        lines.append(
            f"Confirmed by the database's SCHEMA_APPLIED record {cited} "
            "(confirmation, not the primary anchor)."
        )
    lines += [
        "",
        "## First user-visible failure",
        "",
        f"{utc_text(first_failure[0])}: request {first_failure[4]} answered "
        f"{first_failure[6]} by the gateway ({cite(first_failure)}), after the "
        f"application error {cite(first_error)}.",
        "",
    ]
    lines += [
        "## Root cause",
        "",
        f"The deployment of release {release} removed the column `{column}` while the "
        f"application still queried it; every such query failed with {error_code}.",
        "",
        f"Release: {release}",
        f"Schema operation: {operation}",
        "",
    ]
    lines += [
        "## Source anchors",
        "",
        f"- causal: {anchor(causal)}",
        f"- first-error: {anchor(first_error)}",
        f"- first-failure: {anchor(first_failure)}",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs")
    parser.add_argument("--window-start", required=True)
    parser.add_argument("--window-end", required=True)
    parser.add_argument("--output", required=True)
    args = parser.parse_args(argv)
    shown = args.logs.rstrip("/").replace(os.sep, "/")
    logs = Path(args.logs)
    analysis = Analysis(logs, shown, parse_window(args.window_start), parse_window(args.window_end))
    analysis.run()
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    write_timeline(out / "timeline.csv", analysis.rows)
    write_report(out / "incident_report.md", analysis)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
