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
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

WINDOW = timedelta(seconds=90)
OFFSETS_FILE = Path("inputs/clock_offsets.json")
APP_LINE = re.compile(
    r"^(?P<stamp>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}[+-]\d{4}) [A-Z]+ (?P<service>\S+) "
    r"\[[^\]]*\] req=(?P<req>\S+) rel=\S+ (?P<rest>.*)"
)
SCHEMA_DROP = re.compile(r"\bDROP\s+COLUMN\s+(?:IF\s+EXISTS\s+)?\"?(\w+)\"?", re.IGNORECASE)
MISSING_COLUMN = re.compile(r'event=UndefinedColumn msg=column "(\w+)" does not exist')


def load_offsets() -> dict[str, int]:
    offsets: dict[str, int] = defaultdict(int)  # a service missing from the file: offset 0
    offsets.update(json.loads(OFFSETS_FILE.read_text(encoding="utf-8"))["offsets_ms"])
    return offsets


def utc_text(moment: datetime) -> str:
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class Pattern:
    """One open pattern: a schema change and the errors that followed it."""

    def __init__(self, release: str, column: str, causal_time: datetime) -> None:
        self.release = release
        self.column = column
        self.causal_time = causal_time
        self.errors: list[datetime] = []
        self.requests: set[str] = set()

    def add_error(self, moment: datetime, column: str, request: str) -> None:
        """An error while the pattern is open: lines arrive in time order, so the pattern
        sees only errors after its schema change and is closed (:func:`close_expired`)
        before it could see one past its 90 seconds."""
        if column == self.column:
            self.errors.append(moment)
            self.requests.add(request)

    def alert(self) -> dict[str, object]:
        return {
            "release": self.release,
            "column": self.column,
            "causal_time": utc_text(self.causal_time),
            "first_error_time": utc_text(min(self.errors)),
            "affected_requests": len(self.requests - {"-"}),  # req=- is no request
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
    if pattern.errors:
        print(json.dumps(pattern.alert()), flush=True)


def main() -> int:
    offsets = load_offsets()
    patterns: list[Pattern] = []
    for line in sys.stdin:
        if line.startswith("{"):
            record = json.loads(line)
            moment = datetime.fromisoformat(record["ts"])
            moment -= timedelta(milliseconds=offsets["deploy"])
            patterns = close_expired(patterns, moment)
            drop = SCHEMA_DROP.search(record.get("operation", ""))
            if drop:
                patterns.append(Pattern(record["release"], drop[1], moment))
            continue
        app = APP_LINE.match(line)
        if app:
            moment = datetime.strptime(app["stamp"], "%Y-%m-%d %H:%M:%S,%f%z")
            moment -= timedelta(milliseconds=offsets[app["service"]])
            patterns = close_expired(patterns, moment)
            missing = MISSING_COLUMN.match(app["rest"])
            if missing:
                for pattern in patterns:
                    pattern.add_error(moment, missing[1], app["req"])
    for pattern in patterns:
        emit(pattern)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
