"""A tiny task whose candidate program is a server (serve, http and stop steps) beside a
fixture sink service, built in a temporary corpus with ``benchsmith new`` and a task.toml of
its own, for the tests of candidate servers (tests/runtime, tests/check, tests/lint)."""

from __future__ import annotations

import difflib
from pathlib import Path

from typer.testing import CliRunner

from benchsmith.cli import app

SERVE = "python -m solution.server --db output/items.db --port 0"

TASK_TOML = f"""\
id = 41
slug = "item-service"
title = "Item Service"
pressure = "N"

prose = \"\"\"
Build a small loopback HTTP service that stores items in SQLite.
`{SERVE}` starts it: it must listen on 127.0.0.1 on a free port and print exactly one line
`LISTENING <port>` on standard output once it accepts connections. `POST /items` with a
JSON object `{{"name": ...}}` stores it and answers 202 with `{{"id": N}}` (ids count from 1).
`GET /items` answers 200 with `{{"count": N}}`. The items survive a restart of the service.
`python -m solution.report output/report.json` reads the service's address from the
environment variable `BENCHSMITH_SERVER_API`, writes the count it answers to
`output/report.json` as `{{"count": N}}` and posts the same JSON object to `/counts` of the
address in `inputs/sink_url.txt`.
\"\"\"

requirements = [
    "POST /items answers 202 and the new item's id as JSON.",
    "GET /items answers the number of stored items, also after a restart.",
]

[[outputs]]
path = "output/items.db"
format = "sqlite"
description = "the items"

[[outputs]]
path = "output/report.json"
description = "the count the report command read from the service"

[[commands]]
name = "start"
serve = "api"
run = "{SERVE}"
url_file = "output/url.txt"
timeout = 10

[[commands]]
name = "add"
http.server = "api"
http.method = "POST"
http.path = "/items"
http.headers = {{ "Content-Type" = "application/json" }}
http.body = '{{"name": "apple"}}'
timeout = 5

[[commands]]
name = "add-file"
http = {{ server = "api", method = "POST", path = "/items", body_file = "inputs/item.json" }}
timeout = 5

[[commands]]
stop = "api"
timeout = 5

[[commands]]
name = "restart"
serve = "api"
run = "{SERVE}"
timeout = 10

[[commands]]
name = "count"
http = {{ server = "api", path = "/items" }}
timeout = 5

[[commands]]
run = "python -m solution.report output/report.json"
timeout = 10

[[commands]]
name = "bad"
http = {{ server = "api", method = "POST", path = "/items", body = "not json" }}
timeout = 5

[[services]]
name = "sink"
run = "python inputs/sink.py"
url_file = "inputs/sink_url.txt"

[edge]
rule = "A POST /items whose body is not a JSON object answers 400 and stores nothing."

[[edge.expect]]
name = "non-JSON refused"
response = "bad"
status = 400

[[edge.expect]]
response = "count"
path = "count"
equals = 2

[judge]
timeout = 10
"""

JUDGE_CHECKS = '''\
@judge.check(level=3)
def items_are_stored(run: benchlib.Run) -> None:
    """POST /items answers 202 with the new id."""
    added = run.response("add")
    benchlib.expect_equal(added.status, 202, "status of POST /items")
    benchlib.expect_equal(added.json(), {"id": 1}, "body of the first POST /items")
    benchlib.expect_equal(run.response("add-file").json(), {"id": 2}, "second id")


@judge.check(level=4)
def state_survives_a_restart(run: benchlib.Run) -> None:
    """GET /items after the restart still counts both items; the report read it too."""
    benchlib.expect(run.server("restart").detail["port"] > 0, "the restart listens")
    benchlib.expect_equal(run.response("count").json(), {"count": 2}, "count after restart")
    benchlib.expect_equal(run.json("output/report.json"), {"count": 2}, "output/report.json")
    posted = [(r.method, r.target, r.status) for r in run.requests("sink")]
    benchlib.expect_equal(posted, [("POST", "/counts", 204)], "requests to the sink")


@judge.edge
def invalid_json_is_refused(run: benchlib.Run) -> None:
    """A body that is not JSON answers 400 and stores nothing."""
    benchlib.expect_equal(run.response("bad").status, 400, "status of a non-JSON POST")
    rows = run.sqlite("output/items.db").execute("SELECT COUNT(*) FROM items").fetchone()
    benchlib.expect_equal(rows[0], 2, "items stored")
'''

SERVER = '''\
"""The item service: POST /items, GET /items, SQLite-backed."""

import argparse
import http.server
import json
import os
import sqlite3


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(os.path.dirname(args.db) or ".", exist_ok=True)
    with sqlite3.connect(args.db) as db:
        db.execute("CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, name TEXT)")

    class Handler(http.server.BaseHTTPRequestHandler):
        def answer(self, status, document):
            body = json.dumps(document).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                item = json.loads(raw)
            except ValueError:
                item = None
            if not isinstance(item, dict):
                self.answer(400, {"error": "expected a JSON object"})
                return
            with sqlite3.connect(args.db) as db:
                cursor = db.execute("INSERT INTO items (name) VALUES (?)", (item.get("name"),))
            self.answer(202, {"id": cursor.lastrowid})

        def do_GET(self):
            with sqlite3.connect(args.db) as db:
                count = db.execute("SELECT COUNT(*) FROM items").fetchone()[0]
            self.answer(200, {"count": count})

    server = http.server.HTTPServer(("127.0.0.1", args.port), Handler)
    print(f"LISTENING {server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
'''

REPORT = '''\
"""Write the service's item count to a JSON file."""

import json
import os
import sys
import urllib.request


def main() -> None:
    url = os.environ["BENCHSMITH_SERVER_API"] + "/items"
    with urllib.request.urlopen(url, timeout=5) as response:
        count = json.load(response)["count"]
    with open(sys.argv[1], "w", encoding="utf-8") as stream:
        json.dump({"count": count}, stream)
    with open("inputs/sink_url.txt", encoding="utf-8") as stream:
        sink = stream.read().strip()
    body = json.dumps({"count": count}).encode()
    request = urllib.request.Request(sink + "/counts", data=body, method="POST")
    urllib.request.urlopen(request, timeout=5).close()


if __name__ == "__main__":
    main()
'''


SINK = '''\
"""A fixture sink: answers 204 to every POST (the judge reads its request log)."""

import argparse
import http.server


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(204)
        self.end_headers()


parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, default=0)
server = http.server.HTTPServer(("127.0.0.1", parser.parse_args().port), Handler)
print(f"LISTENING {server.server_port}", flush=True)
server.serve_forever()
'''


def invoke(*args: str | Path) -> None:
    """Run the benchsmith CLI in-process; fail with its output when it fails."""
    result = CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output


def build_server_task(root: Path) -> Path:
    """Create the item-service task in the corpus folder ``root``; its folder."""
    invoke("new", "item-service", "--id", "41", "--pressure", "N", "--dir", root, "--parents")
    task = root / "41-item-service"
    (task / "task.toml").write_text(TASK_TOML, encoding="utf-8")
    (task / "visible" / "inputs").mkdir(parents=True)
    (task / "visible" / "inputs" / "item.json").write_text('{"name": "pear"}\n', "utf-8")
    (task / "visible" / "inputs" / "sink.py").write_text(SINK, "utf-8")
    solution = task / "reference" / "solution"
    (solution / "main.py").unlink()
    (solution / "server.py").write_text(SERVER, encoding="utf-8")
    (solution / "report.py").write_text(REPORT, encoding="utf-8")
    judge = task / "judge.py"
    text = judge.read_text(encoding="utf-8")
    start = text.index("@judge.check(level=3)")
    end = text.index("# endregion authored")
    judge.write_text(text[:start] + JUDGE_CHECKS + "\n\n" + text[end:], encoding="utf-8")
    invoke("build", task)
    invoke("lock", task)
    for level, (old, new) in WITNESSES.items():
        changed = SERVER.replace(old, new)
        assert changed != SERVER
        diff = difflib.unified_diff(
            SERVER.splitlines(keepends=True), changed.splitlines(keepends=True),
            "a/solution/server.py", "b/solution/server.py",
        )  # fmt: skip
        (task / "witnesses" / f"level{level}.patch").write_text("".join(diff), encoding="utf-8")
    return task


# Level 3: a restart drops the items; level 4: a body that is not JSON is stored as an item
# with no name (the edge).
DROP = '        db.execute("DROP TABLE IF EXISTS items")\n'
WITNESSES = {
    3: ('        db.execute("CREATE', DROP + '        db.execute("CREATE'),
    4: ("                item = None", '                item = {"name": None}'),
}
