"""Markdown knowledge-base repair (reference solution).

python -m solution.kb_repair KB --redirects REDIRECTS.json --output DIR
"""

from __future__ import annotations

import argparse
import csv
import json
import posixpath
import re
import shutil
import unicodedata
from pathlib import Path

LINK = re.compile(r"!?\[[^\]]*\]\(([^()\s]*)\)")
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
HEADING = re.compile(r"(#{1,6}) (.*)")
FENCE_OPEN = re.compile(r"`{3,}|~{3,}")


def slug(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    out = []
    for char in text:
        if char != "-" and unicodedata.category(char)[0] in "PS":
            continue
        out.append("-" if char.isspace() else char)
    return re.sub(r"-+", "-", "".join(out))


def fence_mask(lines: list[str]) -> list[bool]:
    """True for every line that belongs to a fenced code block."""
    mask = []
    fence = ""
    for line in lines:
        if fence:
            mask.append(True)
            stripped = line.rstrip(" ")
            if set(stripped) == set(fence) and len(stripped) >= len(fence):
                fence = ""
            continue
        match = FENCE_OPEN.match(line)
        if match:
            fence = match.group()
            mask.append(True)
        else:
            mask.append(False)
    return mask


class Doc:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.lines = text.split("\n")
        self.mask = fence_mask(self.lines)
        self.headings: list[dict] = []
        seen: dict[str, int] = {}
        for line, fenced in zip(self.lines, self.mask, strict=True):
            match = None if fenced else HEADING.match(line)
            if match:
                base = slug(match.group(2).strip())
                count = seen.get(base, 0)
                seen[base] = count + 1
                anchor = base if count == 0 else f"{base}-{count}"
                self.headings.append(
                    {"level": len(match.group(1)), "text": match.group(2).strip(), "anchor": anchor}
                )
        self.anchors = {h["anchor"] for h in self.headings}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kb")
    parser.add_argument("--redirects", required=True)
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    kb = Path(args.kb)
    out = Path(args.output)
    redirects = json.loads(Path(args.redirects).read_text(encoding="utf-8"))
    renames_file = Path(args.redirects).parent / "renames.csv"
    renames: dict[str, str] = {}
    present = renames_file.exists()
    if present:
        with renames_file.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                renames[row["old_path"]] = row["new_path"]

    files = [p.relative_to(kb).as_posix() for p in kb.rglob("*") if p.is_file()]
    existing = set(files)
    docs = {f: Doc(f, (kb / f).read_text(encoding="utf-8")) for f in files if f.endswith(".md")}

    def new(path: str) -> str:
        return renames.get(path, path)

    def resolve(doc: Doc, target: str) -> tuple[str, str | None] | None:
        path, _, fragment = target.partition("#")
        has_fragment = "#" in target
        if path:
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(doc.path), path))
            if joined not in existing:
                candidates = list(redirects.get(joined, []))
                if len(candidates) != 1:
                    return None  # no redirect, or several candidates: ambiguous
                joined = candidates.pop()  # followed once, never chained
                if joined not in existing:
                    return None
        else:
            joined = doc.path
        if not has_fragment:
            return joined, None
        if joined not in docs:
            return None
        anchor = slug(fragment)  # an anchor is its own slug: as written or repaired
        if anchor in docs[joined].anchors:
            return joined, anchor
        return None

    shutil.rmtree(out / "kb", ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    report = []
    index = []
    for name in files:
        dest = out / "kb" / new(name)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if name not in docs:
            shutil.copyfile(kb / name, dest)
            continue
        doc = docs[name]
        folder = posixpath.dirname(new(name))
        links = set()
        lines = []
        for number, (line, fenced) in enumerate(zip(doc.lines, doc.mask, strict=True), 1):
            if fenced:
                lines.append(line)
                continue
            pieces = []
            last = 0
            for match in LINK.finditer(line):
                target = match.group(1)
                written = target
                if SCHEME.match(target):
                    status = "external"
                else:
                    found = resolve(doc, target)
                    if found is None:
                        status = "unresolved"
                    else:
                        final = new(found[0])
                        links.add(final)
                        path = target.partition("#")[0]
                        if path:
                            here = posixpath.normpath(posixpath.join(folder, path))
                            if here != final:
                                path = posixpath.relpath(final, folder)
                        written = path + (f"#{found[1]}" if found[1] is not None else "")
                        status = "ok" if written == target else "repaired"
                report.append((new(name), number, target, status, written))
                start, end = match.span(1)
                pieces.append(line[last:start] + written)
                last = end
            pieces.append(line[last:])
            lines.append("".join(pieces))
        dest.write_text("\n".join(lines), encoding="utf-8")
        title = next((h["text"] for h in doc.headings if h["level"] == 1), None)
        index.append(
            {"path": new(name), "title": title, "headings": doc.headings, "links": sorted(links)}
        )

    report.sort(key=lambda r: r[0])
    with (out / "link_report.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "line", "target", "status", "new_target"])
        writer.writerows(report)
    index.sort(key=lambda d: d["path"])
    (out / "index.json").write_text(
        json.dumps({"documents": index}, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    if present:
        moved = {old: [new(c) for c in targets] for old, targets in redirects.items()}
        for old, target in renames.items():
            moved[old] = [target]
        (out / "redirects.json").write_text(
            json.dumps(moved, ensure_ascii=False, sort_keys=True) + "\n",
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
