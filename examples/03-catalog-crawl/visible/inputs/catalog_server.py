"""The supplier's catalog: a loopback HTTP service (started with --port 0).

GET /catalog?page=N answers one page of inputs/catalog.csv as JSON:
{"page": N, "items": [{"sku", "name", "price"}, ...], "next": absolute URL or null}.
"""

import csv
import http.server
import json
import os
import sys
import time
import urllib.parse
from pathlib import Path

# Like a real supplier's server, it takes a moment to answer each request.
ANSWER_DELAY = 0.02

ORIGIN = os.environ.get("BENCHSMITH_ORIGIN", "")
MIRROR = os.environ.get("BENCHSMITH_ORIGIN_MIRROR", ORIGIN)

with Path("inputs/catalog.csv").open(newline="", encoding="utf-8") as stream:
    ROWS = list(csv.DictReader(stream))
PAGES = max((int(r["page"]) for r in ROWS), default=1)
MOVED = {}  # page -> the origin its next link points to (inputs/moved.csv, when present)
if Path("inputs/moved.csv").exists():
    with Path("inputs/moved.csv").open(newline="", encoding="utf-8") as stream:
        MOVED = {int(r["page"]): r["origin"] for r in csv.DictReader(stream)}


class Catalog(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        time.sleep(ANSWER_DELAY)
        url = urllib.parse.urlsplit(self.path)
        page = urllib.parse.parse_qs(url.query).get("page", ["0"])[0]
        if url.path != "/catalog" or not page.isdigit() or not 1 <= int(page) <= PAGES:
            self.send_error(404)
            return
        number = int(page)
        origin = MIRROR if MOVED.get(number) == "mirror" else ORIGIN
        items = [
            {"sku": r["sku"], "name": r["name"], "price": r["price"]}
            for r in ROWS
            if int(r["page"]) == number
        ]
        link = f"{origin}/catalog?page={number + 1}" if number < PAGES else None
        body = json.dumps({"page": number, "items": items, "next": link}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


port = int(sys.argv[sys.argv.index("--port") + 1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Catalog)
print(f"LISTENING {server.server_address[1]}", flush=True)
server.serve_forever()
