# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 16: Markdown Knowledge-Base Repair.

Usage: python judge.py --workspace WS [--stage N] [--python EXE] [--fixture-cache DIR]

Runs the candidate's commands on a clean main fixture and on the edge fixture, then prints
exactly one JSON verdict (spec section 6). The workspace is only read. With --stage N (a
1-based number or a stage id) it judges the state after stage N with the checks that apply
by then; without it, the final (scored) verdict.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the task and corpus folders

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchlib

TASK = {
    "id": 16,
    "slug": "kb-repair",
    "stages": ["initial", "renames"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.kb_repair inputs/kb --redirects inputs/redirects.json --output output",
            "argv": [
                "python",
                "-m",
                "solution.kb_repair",
                "inputs/kb",
                "--redirects",
                "inputs/redirects.json",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 20.0,
        }
    ],
    "outputs": [
        {"path": "output/kb/", "format": "directory", "header": [], "stage": "initial"},
        {
            "path": "output/link_report.csv",
            "format": "csv",
            "header": ["source", "line", "target", "status", "new_target"],
            "stage": "initial",
        },
        {"path": "output/index.json", "format": "json", "header": [], "stage": "initial"},
        {"path": "output/redirects.json", "format": "json", "header": [], "stage": "renames"},
    ],
    "expect": [],
    "edge_expect": [],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import json
import posixpath
import re
import unicodedata

KB = "inputs/kb"
OUT = "output/kb"
REPORT = "output/link_report.csv"
INDEX = "output/index.json"
REDIRECTS = "output/redirects.json"
LINK_RE = re.compile(r"!?\[[^\]]*\]\(([^()\s]*)\)")
SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def anchor_rule(text: str) -> str:
    """NFKC, casefold, drop P*/S* except '-', whitespace to '-', collapse hyphens."""
    chars = []
    for c in unicodedata.normalize("NFKC", text).casefold():
        cat = unicodedata.category(c)
        if c != "-" and cat.startswith(("P", "S")):
            continue
        chars.append("-" if c.isspace() else c)
    return re.sub("-{2,}", "-", "".join(chars))


def fenced(lines: list[str]) -> list[bool]:
    """Which lines belong to a fence (opening and closing lines included)."""
    flags = [False] * len(lines)
    i = 0
    while i < len(lines):
        opener = re.match(r"(`{3,}|~{3,})", lines[i])
        if not opener:
            i += 1
            continue
        marker = opener.group(1)
        flags[i] = True
        i += 1
        while i < len(lines):
            flags[i] = True
            body = lines[i].rstrip(" ")
            i += 1
            if re.fullmatch(re.escape(marker[0]) + "{" + str(len(marker)) + ",}", body):
                break
    return flags


def headings_of(lines: list[str], flags: list[bool]) -> list[dict]:
    result: list[dict] = []
    counts: dict[str, int] = {}
    for line, inside in zip(lines, flags, strict=True):
        m = None if inside else re.match(r"(#{1,6}) ", line)
        if not m:
            continue
        text = line[m.end() :].strip()
        base = anchor_rule(text)
        n = counts.get(base, 0)
        counts[base] = n + 1
        result.append(
            {"level": len(m.group(1)), "text": text, "anchor": f"{base}-{n}" if n else base}
        )
    return result


class Truth:
    """The whole expected output, recomputed from the pristine fixture of the judged stage."""

    def __init__(self, source: benchlib.Files) -> None:
        root = source.path(KB)
        self.inputs = {
            p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*"))
            if p.is_file()
        }
        self.redirects = source.json("inputs/redirects.json")
        self.renames = (
            {r["old_path"]: r["new_path"] for r in source.csv("inputs/renames.csv")}
            if source.exists("inputs/renames.csv")
            else {}
        )
        docs = {}
        for rel, data in self.inputs.items():
            if rel.endswith(".md"):
                lines = data.decode("utf-8").split("\n")
                flags = fenced(lines)
                docs[rel] = (lines, flags, headings_of(lines, flags))
        self.docs = docs
        self.outputs: dict[str, bytes] = {}
        self.rows: list[tuple[str, str, str, str, str]] = []
        self.redirected: set[tuple[str, int, int]] = set()  # (source, line, nth) via a redirect
        self.index = []
        for rel, data in self.inputs.items():
            out = self.moved(rel)
            if rel not in docs:
                self.outputs[out] = data
                continue
            self.outputs[out] = self.repair(rel).encode("utf-8")
        self.rows.sort(key=lambda r: r[0])
        self.index.sort(key=lambda d: d["path"])
        self.redirects_out = {
            old: [self.moved(c) for c in cands] for old, cands in self.redirects.items()
        }
        self.redirects_out.update({old: [new] for old, new in self.renames.items()})

    def moved(self, rel: str) -> str:
        return self.renames.get(rel, rel)

    def resolve(self, rel: str, target: str) -> tuple[str, str | None, bool] | None:
        """(input target file, anchor or None, via redirect) or None when unresolved."""
        path, hash_, fragment = target.partition("#")
        via = False
        if path == "":
            file = rel
        else:
            file = posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))
            if file.split("/")[0] == "..":
                return None
            if file not in self.inputs:
                cands = self.redirects.get(file, [])
                if len(cands) != 1 or cands[0] not in self.inputs:
                    return None
                file, via = cands[0], True
        if not hash_:
            return file, None, via
        if file not in self.docs:
            return None
        names = [h["anchor"] for h in self.docs[file][2]]
        for candidate in (fragment, anchor_rule(fragment)):
            if candidate in names:
                return file, candidate, via
        return None

    def repair(self, rel: str) -> str:
        lines, flags, headings = self.docs[rel]
        src = self.moved(rel)
        folder = posixpath.dirname(src)
        links: set[str] = set()
        out_lines = []
        for number, (line, inside) in enumerate(zip(lines, flags, strict=True), start=1):
            if inside:
                out_lines.append(line)
                continue

            def rewrite(m: re.Match, number: int = number) -> str:
                target = m.group(1)
                if SCHEME_RE.match(target):
                    self.rows.append((src, str(number), target, "external", target))
                    return m.group(0)
                found = self.resolve(rel, target)
                if found is None:
                    self.rows.append((src, str(number), target, "unresolved", target))
                    return m.group(0)
                file, anchor, via = found
                final = self.moved(file)
                links.add(final)
                path = target.split("#")[0]
                if path and posixpath.normpath(posixpath.join(folder, path)) != final:
                    path = posixpath.relpath(final, folder if folder else ".")
                new = path if anchor is None else f"{path}#{anchor}"
                status = "ok" if new == target else "repaired"
                if via and self.moved(file) == file and src == rel:
                    self.redirected.add((src, number, target))
                self.rows.append((src, str(number), target, status, new))
                start = m.start(1) - m.start(0)
                return m.group(0)[:start] + new + ")"

            out_lines.append(LINK_RE.sub(rewrite, line))
        titles = [h["text"] for h in headings if h["level"] == 1]
        self.index.append(
            {
                "path": src,
                "title": titles[0] if titles else None,
                "headings": headings,
                "links": sorted(links),
            }
        )
        return "\n".join(out_lines)


def canonical(value: object) -> str:
    """JSON text with sorted keys; Decimal (a number with a fraction) stays distinguishable."""
    return json.dumps(value, sort_keys=True, default=lambda d: f"Decimal({d})")


def truth(run: benchlib.Run) -> Truth:
    if "truth" not in run.memo:
        run.memo["truth"] = Truth(run.source)
    return run.memo["truth"]


def output_tree(run: benchlib.Run) -> dict[str, bytes]:
    """The candidate's output/kb as {relative path: bytes} (read once per fixture)."""
    if "tree" not in run.memo:
        root = run.files.path(OUT)
        benchlib.expect(root.is_dir(), f"{OUT} is not a folder")
        tree = {}
        for p in sorted(root.rglob("*")):
            rel = p.relative_to(root).as_posix()
            benchlib.expect(not p.is_symlink(), f"{OUT}/{rel} is a symlink")
            if p.is_file():
                benchlib.expect(p.stat().st_size < 1 << 22, f"{OUT}/{rel} is too large")
                tree[rel] = p.read_bytes()
        run.memo["tree"] = tree
    return run.memo["tree"]


def report_rows(run: benchlib.Run) -> list[tuple[str, str, str, str, str]]:
    return [
        (r["source"], r["line"], r["target"], r["status"], r["new_target"]) for r in run.csv(REPORT)
    ]


@judge.check(level=3)
def kb_copied(run: benchlib.Run) -> None:
    """Every file not renamed is copied to its own path; files without repairs stay identical."""
    t = truth(run)
    tree = output_tree(run)
    missing = [rel for rel in t.inputs if rel not in t.renames and rel not in tree]
    benchlib.expect(not missing, f"{len(missing)} files not copied, e.g. {missing[:3]}")
    changed = [
        rel
        for rel, data in t.inputs.items()
        if rel not in t.renames and t.outputs[rel] == data and tree[rel] != data
    ]
    benchlib.expect(not changed, f"{len(changed)} files changed that need no repair: {changed[:3]}")


@judge.check(level=3)
def links_found(run: benchlib.Run) -> None:
    """The report lists exactly the links outside fences (sources compared after renames)."""
    t = truth(run)
    seen = sorted((t.moved(r[0]), r[1], r[2]) for r in report_rows(run))
    expected = sorted((r[0], r[1], r[2]) for r in t.rows)
    missing = [r for r in expected if r not in seen]
    extra = [r for r in seen if r not in expected]
    benchlib.expect(
        not missing and not extra, f"links missing {missing[:3]}, not links {extra[:3]}"
    )
    benchlib.expect_equal(len(seen), len(expected), "number of links")


@judge.check(level=3)
def redirect_repairs(run: benchlib.Run) -> None:
    """Links repaired through a redirect (away from renamed documents) are rewritten."""
    t = truth(run)
    rows = {(r[0], r[1], r[2]): r for r in report_rows(run)}
    expected = [r for r in t.rows if (r[0], int(r[1]), r[2]) in t.redirected]
    benchlib.expect(len(expected) >= 10, "the fixture holds redirect repairs")
    wrong = [r for r in expected if rows.get(r[:3]) != r]
    benchlib.expect(not wrong, f"{len(wrong)} redirect repairs wrong, e.g. {wrong[:2]}")


@judge.check(level=4)
def report_exact(run: benchlib.Run) -> None:
    """Every report row (status and new target) and the row order."""
    t = truth(run)
    rows = report_rows(run)
    wrong = [e for e in t.rows if e not in rows]
    benchlib.expect(not wrong, f"{len(wrong)} rows wrong or missing, e.g. {wrong[:3]}")
    benchlib.expect_equal(rows, t.rows, "link report rows in order")


@judge.check(level=4)
def kb_exact(run: benchlib.Run) -> None:
    """output/kb holds exactly the expected files, byte for byte."""
    t = truth(run)
    tree = output_tree(run)
    benchlib.expect_equal(sorted(tree), sorted(t.outputs), "files of output/kb")
    wrong = [rel for rel in sorted(t.outputs) if tree[rel] != t.outputs[rel]]
    benchlib.expect(not wrong, f"{len(wrong)} files differ from the repair, e.g. {wrong[:3]}")


@judge.check(level=4)
def index_exact(run: benchlib.Run) -> None:
    """Titles, headings with anchors and outgoing links of every document."""
    t = truth(run)
    index = run.json(INDEX)
    benchlib.expect(isinstance(index, dict) and set(index) == {"documents"}, "index keys")
    docs = index["documents"]
    benchlib.expect(isinstance(docs, list), "documents is a list")
    benchlib.expect_equal([d.get("path") for d in docs], [d["path"] for d in t.index], "paths")
    for got, want in zip(docs, t.index, strict=True):
        # typed comparison: a level must be the integer 2, not 2.0 or true
        benchlib.expect_equal(canonical(got), canonical(want), f"index entry {want['path']}")


@judge.check(level=4, stage="renames")
def renamed_documents(run: benchlib.Run) -> None:
    """Renamed documents live at their new path only."""
    t = truth(run)
    benchlib.expect(len(t.renames) > 0, "the fixture renames documents")
    for old, new in t.renames.items():
        benchlib.expect(run.exists(f"{OUT}/{new}"), f"{new} missing")
        benchlib.expect(not run.exists(f"{OUT}/{old}"), f"{old} still present")


@judge.check(level=4, stage="renames")
def redirects_kept(run: benchlib.Run) -> None:
    """output/redirects.json: the input redirects after renames, plus old -> new."""
    benchlib.expect_equal(run.json(REDIRECTS), truth(run).redirects_out, "redirects.json")


@judge.edge
def fenced_link_untouched(run: benchlib.Run) -> None:
    """A link-like line inside a long fence stays byte-identical; the one outside is repaired."""
    t = truth(run)
    tree = output_tree(run)
    for rel, (lines, flags, _) in t.docs.items():
        got = tree.get(t.moved(rel), b"").decode("utf-8", "replace").split("\n")
        for number, (line, inside) in enumerate(zip(lines, flags, strict=True), start=1):
            if inside:
                benchlib.expect(
                    number <= len(got) and got[number - 1] == line,
                    f"{rel}:{number}: fenced line changed",
                )
    benchlib.expect_equal(sorted(tree), sorted(t.outputs), "files of output/kb")
    for rel in sorted(t.outputs):
        benchlib.expect(tree[rel] == t.outputs[rel], f"{rel} differs from the repair")
    benchlib.expect_equal(report_rows(run), t.rows, "link report rows")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
