"""Schema-break monitor: watch the live log stream for a dropped column that breaks queries.

Usage, from the workspace root (the replay holds every log line of the incident period):

    python monitor/monitor.py < inputs/monitor_replay.log

Standard input carries the log lines of every service in arrival order, in the formats of
inputs/logs (access, application, deployment JSON and database lines). Only deployment and
application lines matter; all others are skipped.

The causal pattern: a deployment SCHEMA_CHANGE record whose operation drops a column
(``... DROP COLUMN <column>``), followed within 90 seconds by application records with the
event UndefinedColumn for that same column (``msg=column "<column>" does not exist``).

Times are the records' timestamps in UTC, corrected with the service clock offsets of
inputs/clock_offsets.json (true UTC = logged time - offset_ms; a service missing from the
file has offset 0). "Within 90 seconds" means causal_time < error time <= causal_time + 90 s.

For each occurrence of the pattern with at least one matching error the monitor prints one
alert, a single line of JSON, once the 90-second window is over (or at the end of input):

    {"release": "<release of the SCHEMA_CHANGE>", "column": "<column>",
     "causal_time": "<time of the SCHEMA_CHANGE>", "first_error_time": "<first matching error>",
     "affected_requests": <number of distinct request IDs among the matching errors>}

Each alert is json.dumps of that object (these keys in this order, default separators,
integers as integers); times are YYYY-MM-DDTHH:MM:SS.mmmZ. An error without a request ID
(req=-) counts as an error, not a request. The stream is endless: keep only open windows.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

WINDOW = timedelta(seconds=90)
OFFSETS_FILE = Path("inputs/clock_offsets.json")
APP_LINE = re.compile(
    r"^(?P<stamp>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}[+-]\d{4}) (?P<level>[A-Z]+) "
    r"(?P<service>\S+) \[[^\]]*\] req=(?P<req>\S+) rel=(?P<rel>\S+) event=(?P<event>\S+) "
    r"msg=(?P<msg>.*)$"
)
SCHEMA_DROP = re.compile(r"\bDROP\s+COLUMN\s+(?:IF\s+EXISTS\s+)?\"?(\w+)\"?", re.IGNORECASE)
MISSING_COLUMN = re.compile(r'column "(\w+)" does not exist')


def load_offsets() -> dict[str, int]:
    if OFFSETS_FILE.is_file():
        return json.loads(OFFSETS_FILE.read_text(encoding="utf-8"))["offsets_ms"]
    return {}


def corrected(moment: datetime, service: str, offsets: dict[str, int]) -> datetime:
    return moment - timedelta(milliseconds=offsets.get(service, 0))


def utc_text(moment: datetime) -> str:
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class Pattern:
    """One open pattern: a schema change and the errors that followed it."""

    def __init__(self, release: str, column: str, causal_time: datetime) -> None:
        self.release = release
        self.column = column
        self.causal_time = causal_time
        self.first_error: datetime | None = None
        self.requests: set[str] = set()

    def covers(self, moment: datetime) -> bool:
        return self.causal_time < moment <= self.causal_time + WINDOW

    def add_error(self, moment: datetime, request: str) -> None:
        if self.first_error is None or moment < self.first_error:
            self.first_error = moment
        if request != "-":
            self.requests.add(request)

    def alert(self) -> dict[str, object]:
        assert self.first_error is not None
        return {
            "release": self.release,
            "column": self.column,
            "causal_time": utc_text(self.causal_time),
            "first_error_time": utc_text(self.first_error),
            "affected_requests": len(self.requests),
        }


def close_expired(patterns: list[Pattern], now: datetime) -> list[Pattern]:
    """Print the alerts of windows that ended before ``now``; return the open patterns."""
    still_open = []
    for pattern in patterns:
        if now > pattern.causal_time + WINDOW:
            emit(pattern)
        else:
            still_open.append(pattern)
    return still_open


def emit(pattern: Pattern) -> None:
    if pattern.first_error is not None:
        print(json.dumps(pattern.alert()), flush=True)


def main() -> int:
    offsets = load_offsets()
    patterns: list[Pattern] = []
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        if line.startswith("{"):
            try:
                record = json.loads(line)
            except ValueError:
                continue
            moment = datetime.fromisoformat(record["ts"].replace("Z", "+00:00"))
            moment = corrected(moment, "deploy", offsets)
            patterns = close_expired(patterns, moment)
            if record.get("event") != "SCHEMA_CHANGE":
                continue
            match = SCHEMA_DROP.search(record.get("operation", ""))
            if match:
                patterns.append(Pattern(record["release"], match.group(1), moment))
            continue
        match = APP_LINE.match(line)
        if not match:
            continue
        moment = datetime.strptime(match["stamp"], "%Y-%m-%d %H:%M:%S,%f%z")
        moment = corrected(moment, match["service"], offsets)
        patterns = close_expired(patterns, moment)
        if match["event"] != "UndefinedColumn":
            continue
        missing = MISSING_COLUMN.search(match["msg"])
        for pattern in patterns:
            if missing and missing.group(1) == pattern.column and pattern.covers(moment):
                pattern.add_error(moment, match["req"])
    for pattern in patterns:
        emit(pattern)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
