"""Crawl the supplier's web catalog and write its current listing as CSV."""

import argparse
import csv
import time
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

FIELDS = ["sku", "name", "price", "currency", "stock", "revision"]


class CatalogPage(HTMLParser):
    """The product rows and pagination links of one catalog page."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, str]] = []
        self.links: list[str] = []
        self.in_table = self.in_nav = self.in_script = False
        self.row: dict[str, str] | None = None
        self.cell = ""  # the cell or span whose text is being read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        classes = (attr.get("class") or "").split()
        if tag == "script":
            self.in_script = True
        elif tag == "table" and "products" in classes:
            self.in_table = True
        elif tag == "nav" and "pagination" in classes:
            self.in_nav = True
        elif tag == "a" and self.in_nav and attr.get("href"):
            self.links.append(attr["href"])
        elif tag == "tr" and self.in_table and "product" in classes:
            self.row = dict.fromkeys(FIELDS, "")
        elif self.row is not None and tag in ("td", "span"):
            for name in ("sku", "name", "stock", "revision", "currency"):
                if name in classes:
                    self.cell = name
            if "amount" in classes:
                self.cell = "price"

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.in_script = False
        elif tag == "table":
            self.in_table = False
        elif tag == "nav":
            self.in_nav = False
        elif tag == "tr" and self.row is not None:
            self.rows.append({k: v.strip() for k, v in self.row.items()})
            self.row = None
        elif tag == "td" or (tag == "span" and self.cell in ("price", "currency")):
            self.cell = ""

    def handle_data(self, data: str) -> None:
        if self.row is not None and self.cell and not self.in_script:
            self.row[self.cell] += data


def origin(url: str) -> tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


def fetch(url: str) -> str:
    """The page at ``url``; a 429 is retried once after its Retry-After delay."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        if error.code != 429:
            raise
        time.sleep(float(error.headers.get("Retry-After", "1")))
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")


def crawl(base: str) -> list[dict[str, str]]:
    start = base + "/catalog?page=1"
    queue, seen = [start], {start}
    best: dict[str, dict[str, str]] = {}
    while queue:
        url = queue.pop(0)
        page = CatalogPage()
        page.feed(fetch(url))
        page.close()
        for row in page.rows:
            row["price"] = row["price"].replace(",", "")
            kept = best.get(row["sku"])
            if kept is None or int(row["revision"]) > int(kept["revision"]):
                best[row["sku"]] = row
        for href in page.links:
            target = urllib.parse.urldefrag(urllib.parse.urljoin(url, href)).url
            if origin(target) == origin(start) and target not in seen:
                seen.add(target)
                queue.append(target)
    return [best[sku] for sku in sorted(best)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url-file", required=True)
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    base = Path(args.base_url_file).read_text(encoding="utf-8").strip().rstrip("/")
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(crawl(base))


if __name__ == "__main__":
    main()
