"""Crawl the supplier's catalog, one page at a time, and list its items."""

import argparse
import csv
import json
import urllib.parse
import urllib.request
from pathlib import Path


def origin(url: str) -> tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme, parts.netloc


def crawl(base: str) -> list[dict[str, str]]:
    items: dict[str, dict[str, str]] = {}
    url: str | None = base + "/catalog?page=1"
    while url is not None and origin(url) == origin(base):
        with urllib.request.urlopen(url, timeout=30) as response:
            page = json.load(response)
        for item in page["items"]:
            items[item["sku"]] = {k: item[k] for k in ("sku", "name", "price")}
        url = page["next"]
    return [items[sku] for sku in sorted(items)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base_url_file")
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    base = Path(args.base_url_file).read_text(encoding="utf-8").strip().rstrip("/")
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, fieldnames=["sku", "name", "price"])
        writer.writeheader()
        writer.writerows(crawl(base))


if __name__ == "__main__":
    main()
