"""Cross-service incident timeline.

python -m solution.incident LOGS --window-start ISO --window-end ISO --output OUT

Streams every log file under LOGS (plain or gzip) twice: first the access logs, to find the
failed requests of the window, then every file, to collect the records of their request
chains, the deployment records and the notable database records of the window. Writes
OUT/timeline.csv and OUT/incident_report.md.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import gzip
import json
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NamedTuple

OFFSETS_FILE = Path("inputs/clock_offsets.json")  # from stage clock-offsets on
CHAIN_GAP = timedelta(minutes=15)
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

# One expression per format; the first line of a file tells its format.
FORMATS = {
    "access": re.compile(
        r'^\S+ \S+ \S+ \[(?P<raw>[^\]]+)\] "[^"]*" (?P<status>\d{3}) .* rid=(?P<req>\S+)'
    ),
    "app": re.compile(
        r"^(?P<raw>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}[+-]\d{4}) (?P<level>[A-Z]+) "
        r"(?P<service>\S+) \[[^\]]*\] req=(?P<req>\S+) rel=(?P<rel>\S+) event=(?P<code>\S+) "
        r"msg=(?P<msg>.*)"
    ),
    "db": re.compile(
        r"^(?P<raw>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC) \[\d+\] (?P<level>[A-Z]+):\s+"
        r"code=(?P<code>\S+)(?: req=(?P<req>\S+))?(?: rel=(?P<rel>\S+))?"
    ),
    "deploy": re.compile(r"^\{"),
}
# strptime format of each kind's raw timestamp, and the zone to append to it
TIME_FORMATS = {
    "access": ("%d/%b/%Y:%H:%M:%S.%f %z", ""),
    "app": ("%Y-%m-%d %H:%M:%S,%f%z", ""),
    "db": ("%Y-%m-%d %H:%M:%S.%f UTC%z", "+0000"),
    "deploy": ("%Y-%m-%dT%H:%M:%S.%f%z", ""),
}
STATUS_SEVERITY = {"5": "ERROR", "4": "WARN"}  # by the status's first digit; others INFO
DB_SEVERITY = {"LOG": "INFO", "WARNING": "WARN"}  # ERROR and FATAL as written
REQUEST_ID = re.compile(r" (?:rid|req)=(\S+)")
FAILED_STATUS = re.compile(r'^[^"]*"[^"]*" 5\d\d ')


class Fields(NamedTuple):
    """The timeline fields a line states itself (all but utc_time and source)."""

    raw: str
    service: str
    severity: str
    request_id: str
    release_id: str
    event_code: str


class Record(NamedTuple):
    """One log record; records sort by (utc, path, line), the timeline's order."""

    utc: datetime
    path: str
    line: int
    fields: Fields
    kind: str
    text: str  # the whole line


# -- reading ---------------------------------------------------------------------------------


def log_files(root: Path, shown: str) -> dict[str, list[tuple[str, Path]]]:
    """(source path as shown, real path) of every file under root, by format."""
    found = defaultdict(list)
    for folder, _, files in os.walk(root):
        for name in files:
            path = Path(folder, name)
            found[kind_of(path)].append((f"{shown}/{path.relative_to(root).as_posix()}", path))
    return found


def read_lines(path: Path) -> Iterator[str]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", newline="") as stream:  # type: ignore[operator]
        for line in stream:
            yield line.rstrip("\r\n")


def kind_of(path: Path) -> str:
    first = next(read_lines(path))
    for kind, regex in FORMATS.items():
        if regex.match(first):
            return kind
    raise ValueError(f"{path}: not a log format this tool knows")


def parse(kind: str, line: str) -> Fields:
    """The fields of a line of the given format."""
    if kind == "deploy":
        data = json.loads(line)
        raw, service, level = data["ts"], "deploy", data["level"].upper()
        rid, rel, code = "", data["release"], data["event"]
    else:
        fields = FORMATS[kind].match(line).groupdict()
        raw, rid, rel = fields["raw"], fields["req"], fields.get("rel")
        if kind == "access":
            status = fields["status"]
            service, code = "gateway", f"HTTP_{status}"
            level = STATUS_SEVERITY.get(status[0], "INFO")
        else:
            service = fields.get("service", "db")
            level, code = DB_SEVERITY.get(fields["level"], fields["level"]), fields["code"]
    return Fields(raw, service, level, none(rid), none(rel), code)


def none(value: str | None) -> str:
    """An ID as the timeline writes it: empty when the log has none (missing or `-`)."""
    return "" if value in (None, "-") else value


# -- analysis --------------------------------------------------------------------------------


def load_offsets() -> dict[str, int]:
    offsets: dict[str, int] = defaultdict(int)  # a service without an offset is not corrected
    with contextlib.suppress(FileNotFoundError):  # before stage clock-offsets: none known
        offsets.update(json.loads(OFFSETS_FILE.read_text(encoding="utf-8"))["offsets_ms"])
    return offsets


def split_chains(records: list[Record]) -> list[list[Record]]:
    """One request ID's records, in time order, split at gaps of more than 15 minutes."""
    chains: list[list[Record]] = []
    for record in sorted(records):
        if chains and record.utc - chains[-1][-1].utc <= CHAIN_GAP:
            chains[-1].append(record)
        else:
            chains.append([record])
    return chains


class Analysis:
    def __init__(self, logs: Path, start: datetime, end: datetime) -> None:
        self.start, self.end = start, end
        self.offsets = load_offsets()
        self.files = log_files(logs, logs.as_posix())

    def in_window(self, record: Record) -> bool:
        return self.start <= record.utc < self.end

    def record(self, kind: str, line: str, fields: Fields, path: str, number: int) -> Record:
        """The record of a parsed line, its time corrected by the service's clock offset."""
        time_format, zone = TIME_FORMATS[kind]
        moment = datetime.strptime(fields.raw + zone, time_format).astimezone(UTC)
        moment -= timedelta(milliseconds=self.offsets[fields.service])
        return Record(moment, path, number, fields, kind, line)

    def run(self) -> None:
        """Find the failed requests, then collect the timeline's records (rules 1-3)."""
        failed = []
        for source, path in self.files["access"]:
            for number, line in enumerate(read_lines(path), start=1):
                if FAILED_STATUS.match(line):
                    record = self.record("access", line, parse("access", line), source, number)
                    if self.in_window(record):
                        failed.append(record)
        self.failed = set(failed)
        by_request: dict[str, list[Record]] = {r.fields.request_id: [] for r in failed}
        rows: dict[tuple[str, int], Record] = {}
        for kind, files in self.files.items():
            for source, path in files:
                for number, line in enumerate(read_lines(path), start=1):
                    # parse only what may matter: deployment and database lines, and the
                    # lines of the failed requests' IDs
                    if kind in ("deploy", "db") or REQUEST_ID.search(line)[1] in by_request:
                        fields = parse(kind, line)
                        if fields.request_id in by_request:
                            record = self.record(kind, line, fields, source, number)
                            by_request[fields.request_id].append(record)
                        if notable(kind, fields):
                            record = self.record(kind, line, fields, source, number)
                            if self.in_window(record):
                                rows[(source, number)] = record
        self.chains = [
            chain
            for records in by_request.values()
            for chain in split_chains(records)
            if self.failed.intersection(chain)
        ]
        rows.update(((r.path, r.line), r) for chain in self.chains for r in chain)
        self.rows = sorted(rows.values())


def notable(kind: str, fields: Fields) -> bool:
    """Deployment records, and database errors and schema events (rules 2 and 3)."""
    if kind == "db":
        return fields.severity in ("ERROR", "FATAL") or fields.event_code.startswith("SCHEMA_")
    return kind == "deploy"


# -- outputs ---------------------------------------------------------------------------------


def utc_text(moment: datetime) -> str:
    """YYYY-MM-DDTHH:MM:SS.mmmZ."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def write_timeline(path: Path, rows: list[Record]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(HEADER)
        for r in rows:
            writer.writerow([utc_text(r.utc), *r.fields, f"{r.path}:{r.line}"])


def cite(record: Record) -> str:
    what = f"{record.fields.service} {record.fields.event_code}"
    return f"{utc_text(record.utc)} {what} (`{record.path}:{record.line}`)"


def anchor(record: Record) -> str:
    return f"{record.path}:{record.line} {utc_text(record.utc)}"


def error_of(record: Record) -> tuple[str, str]:
    """(event code, message) of an application record."""
    return record.fields.event_code, record.text.partition(" msg=")[2]


def write_report(path: Path, analysis: Analysis) -> None:
    """The incident: the application error that most records of the failed requests' chains
    share, the first failure whose chain holds it, and the earliest schema change."""
    errors = Counter(error_of(r) for chain in analysis.chains for r in chain if r.kind == "app")
    error = max(errors, key=errors.__getitem__)
    incident = [chain for chain in analysis.chains if error in map(error_of, chain)]
    first_error = min(r for chain in incident for r in chain if error_of(r) == error)
    first_failure = min(analysis.failed.intersection(r for chain in incident for r in chain))
    # the stage message: the causal anchor is the earliest corrected-UTC schema event, the
    # deployment SCHEMA_CHANGE; the database's SCHEMA_APPLIED of its release confirms it
    causal = min(r for r in analysis.rows if r.fields.event_code == "SCHEMA_CHANGE")
    operation, release = json.loads(causal.text)["operation"], causal.fields.release_id
    applied = [
        r for r in analysis.rows
        if r.fields.event_code == "SCHEMA_APPLIED" and r.fields.release_id == release
    ]  # fmt: skip
    lines = [
        "# Incident report",
        "",
        "## Failure sequence",
        "",
        f"- {cite(causal)}: release {release} runs `{operation}`.",
        *(f"- {cite(r)}: the database confirms the schema change." for r in applied),
        f"- {cite(first_error)}: the first application error of the incident.",
        f"- {cite(first_failure)}: the first failed request of the incident.",
        "",
        "## Earliest causal event",
        "",
        cite(causal),
        "",
        "## First user-visible failure",
        "",
        cite(first_failure),
        "",
        "## Root cause",
        "",
        f"Release: {release}",
        f"Schema operation: {operation}",
        "",
        "## Source anchors",
        "",
        f"- causal: {anchor(causal)}",
        f"- first-error: {anchor(first_error)}",
        f"- first-failure: {anchor(first_failure)}",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")


def parse_window(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("logs")
    parser.add_argument("--window-start", required=True)
    parser.add_argument("--window-end", required=True)
    parser.add_argument("--output", required=True)
    args = parser.parse_args(argv)
    analysis = Analysis(
        Path(args.logs), parse_window(args.window_start), parse_window(args.window_end)
    )
    analysis.run()
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    write_timeline(out / "timeline.csv", analysis.rows)
    write_report(out / "incident_report.md", analysis)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
