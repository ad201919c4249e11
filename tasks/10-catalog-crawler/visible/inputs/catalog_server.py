"""The supplier's web catalog: a loopback HTTP service (started with --port 0).

It serves the HTML pages of inputs/catalog_site.json, one page per request target; the
product links of the listings answer a small product page. Like the supplier's real site it
has a rate limiter: the 17th request it receives is answered 429 Too Many Requests with
Retry-After: 1 (once). Pages of the partner's site answer only through the partner origin.
"""

import html
import http.server
import json
import os
import sys
import threading
import time
from decimal import Decimal
from pathlib import Path

# Like a real supplier's server, it takes a moment to answer each request.
ANSWER_DELAY = 0.02

# The service's URL and the partner's, as the runner announces them (started by hand, the
# partner is the same port under the name localhost: another origin all the same).
ORIGIN = os.environ.get("BENCHSMITH_ORIGIN", "")
MIRROR = os.environ.get("BENCHSMITH_ORIGIN_MIRROR", "")
LIMITED_REQUEST = 17

SITE = json.loads(Path("inputs/catalog_site.json").read_text(encoding="utf-8"))
PAGES = {page["target"]: page for page in SITE["pages"]}
SKUS = {row["sku"] for page in SITE["pages"] for row in page["rows"]}
LOCK = threading.Lock()
COUNT = [0]


# A sidebar of recently viewed products: the same row markup, outside the catalog table.
RECENT = (
    '<aside class="products recent">\n<h2>Recently viewed</h2>\n<table class="recent">\n'
    '  <tr class="product"><td class="sku">NT-4040</td><td class="name">Cap nut M8 chrome</td>'
    '<td class="price"><span class="amount">0.95</span> <span class="currency">EUR</span></td>'
    '<td class="stock">0</td><td class="revision">1</td></tr>\n</table>\n</aside>\n'
)


def render(page: dict) -> str:
    rows = []
    for row in page["rows"]:
        amount = f"{Decimal(row['price']):,.2f}"
        rows.append(
            '    <tr class="product">\n'
            f'      <td class="sku"><a href="/product/{row["sku"]}">{row["sku"]}</a></td>\n'
            f'      <td class="name">{row["name_html"]}</td>\n'
            f'      <td class="price"><span class="amount">{amount}</span> '
            f'<span class="currency">{row["currency"]}</span></td>\n'
            f'      <td class="stock">{row["stock"]}</td>\n'
            f'      <td class="revision">{row["revision"]}</td>\n'
            "    </tr>\n"
        )
    links = []
    for rel, href, text in page["nav"]:
        if href is None:  # the current page
            links.append(f'    <a class="current" aria-current="page">{html.escape(text)}</a>\n')
            continue
        href = href.replace("{origin}", ORIGIN).replace("{mirror}", MIRROR)
        rel_attr = f' rel="{rel}"' if rel else ""
        links.append(f'    <a{rel_attr} href="{href}">{html.escape(text)}</a>\n')
    script = f"<script>{page['script']}</script>\n" if page["script"] else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>Northgate Fasteners &ndash; {html.escape(page['title'])}</title>\n"
        "</head>\n<body>\n"
        f'<header><a href="/">Northgate Fasteners</a> | <a href="{MIRROR}/">Partner site</a>'
        "</header>\n<main>\n"
        '<nav class="breadcrumbs"><a href="/">Home</a> &rsaquo; '
        '<a href="/catalog?page=1">Catalog</a></nav>\n'
        f"<h1>{html.escape(page['title'])}</h1>\n"
        '<p class="sort">Sort by <a href="?page=1&amp;sort=price">price</a> or '
        '<a href="?page=1&amp;sort=name">name</a></p>\n'
        '<table class="products">\n  <thead><tr><th>SKU</th><th>Product</th><th>Price</th>'
        "<th>In stock</th><th>Revision</th></tr></thead>\n  <tbody>\n"
        + "".join(rows)
        + "  </tbody>\n</table>\n"
        + '<nav class="pagination">\n'
        + "".join(links)
        + "</nav>\n"
        + RECENT
        + "</main>\n"
        + '<footer><a href="/terms">Terms</a> | <a href="/catalog?page=1">Catalog</a></footer>\n'
        + script
        + "</body>\n</html>\n"
    )


class Catalog(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        time.sleep(ANSWER_DELAY)
        with LOCK:
            COUNT[0] += 1
            number = COUNT[0]
        if number == LIMITED_REQUEST:
            self.answer(429, "<p>Too many requests, slow down.</p>", {"Retry-After": "1"})
            return
        via_mirror = self.headers.get("Host", "") == MIRROR.split("//", 1)[1]
        page = PAGES.get(self.path)
        if page is not None and (page["origin"] == "catalog" or via_mirror):
            self.answer(200, render(page))
        elif self.path.startswith("/product/") and self.path[9:] in SKUS:
            self.answer(200, f"<h1>{html.escape(self.path[9:])}</h1>")
        else:
            self.answer(404, "<p>Not found.</p>")

    def answer(self, status: int, body: str, headers: dict | None = None) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


port = int(sys.argv[sys.argv.index("--port") + 1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Catalog)
ORIGIN = ORIGIN or f"http://127.0.0.1:{server.server_address[1]}"
MIRROR = MIRROR or f"http://localhost:{server.server_address[1]}"
print(f"LISTENING {server.server_address[1]}", flush=True)
server.serve_forever()
