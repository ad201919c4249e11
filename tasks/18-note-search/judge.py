# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 18: Research-Note Search and Deduplication.

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
    "id": 18,
    "slug": "note-search",
    "stages": ["initial", "update"],
    "editable": ["solution/", "output/", "workspace/"],
    "commands": [
        {
            "run": "python -m solution.notes_index build inputs/notes workspace/notes.db output/duplicates.csv",
            "argv": [
                "python",
                "-m",
                "solution.notes_index",
                "build",
                "inputs/notes",
                "workspace/notes.db",
                "output/duplicates.csv",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 45.0,
        },
        {
            "run": 'python -m solution.notes_index search workspace/notes.db "STRASSENBAHN ﬁeldwork tram" --limit 10',
            "argv": [
                "python",
                "-m",
                "solution.notes_index",
                "search",
                "workspace/notes.db",
                "STRASSENBAHN ﬁeldwork tram",
                "--limit",
                "10",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 15.0,
        },
        {
            "run": 'python -m solution.notes_index search workspace/notes.db "Marmalade" --limit 10',
            "argv": [
                "python",
                "-m",
                "solution.notes_index",
                "search",
                "workspace/notes.db",
                "Marmalade",
                "--limit",
                "10",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 15.0,
        },
        {
            "run": 'python -m solution.notes_index search workspace/notes.db "lanternfish Lanternfish lanternfish" --limit 3',
            "argv": [
                "python",
                "-m",
                "solution.notes_index",
                "search",
                "workspace/notes.db",
                "lanternfish Lanternfish lanternfish",
                "--limit",
                "3",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 15.0,
        },
        {
            "run": 'python -m solution.notes_index search workspace/notes.db "The OF zyxwvut" --limit 10',
            "argv": [
                "python",
                "-m",
                "solution.notes_index",
                "search",
                "workspace/notes.db",
                "The OF zyxwvut",
                "--limit",
                "10",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 15.0,
        },
        {
            "run": 'python -m solution.notes_index search workspace/notes.db "protocol archive" --limit 25',
            "argv": [
                "python",
                "-m",
                "solution.notes_index",
                "search",
                "workspace/notes.db",
                "protocol archive",
                "--limit",
                "25",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 15.0,
        },
        {
            "run": "python -m solution.notes_index update workspace/notes.db inputs/notes-new inputs/deleted.txt",
            "argv": [
                "python",
                "-m",
                "solution.notes_index",
                "update",
                "workspace/notes.db",
                "inputs/notes-new",
                "inputs/deleted.txt",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "update",
            "timeout": 30.0,
        },
        {
            "run": 'python -m solution.notes_index search workspace/notes.db "STRASSENBAHN ﬁeldwork tram" --limit 10',
            "argv": [
                "python",
                "-m",
                "solution.notes_index",
                "search",
                "workspace/notes.db",
                "STRASSENBAHN ﬁeldwork tram",
                "--limit",
                "10",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "update",
            "timeout": 15.0,
        },
        {
            "run": 'python -m solution.notes_index search workspace/notes.db "Marmalade" --limit 10',
            "argv": [
                "python",
                "-m",
                "solution.notes_index",
                "search",
                "workspace/notes.db",
                "Marmalade",
                "--limit",
                "10",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "update",
            "timeout": 15.0,
        },
        {
            "run": 'python -m solution.notes_index search workspace/notes.db "lanternfish Lanternfish lanternfish" --limit 3',
            "argv": [
                "python",
                "-m",
                "solution.notes_index",
                "search",
                "workspace/notes.db",
                "lanternfish Lanternfish lanternfish",
                "--limit",
                "3",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "update",
            "timeout": 15.0,
        },
        {
            "run": 'python -m solution.notes_index search workspace/notes.db "protocol archive" --limit 25',
            "argv": [
                "python",
                "-m",
                "solution.notes_index",
                "search",
                "workspace/notes.db",
                "protocol archive",
                "--limit",
                "25",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "update",
            "timeout": 15.0,
        },
    ],
    "outputs": [
        {
            "path": "output/duplicates.csv",
            "format": "csv",
            "header": ["path", "canonical", "kind"],
            "stage": "initial",
        },
        {"path": "search-results", "format": "stdout", "header": [], "stage": "initial"},
    ],
    "expect": [
        {
            "name": "exact-group#1",
            "file": "output/duplicates.csv",
            "level": 3,
            "where": {"path": "reading/n9012-lanternfish.md"},
            "equals": {"canonical": "Field-Notes/n9101-lanternfish.md", "kind": "exact"},
        },
        {
            "name": "exact-group#2",
            "file": "output/duplicates.csv",
            "level": 4,
            "where": {"path": "travel/n9003-lanternfish.md"},
            "equals": {"canonical": "Field-Notes/n9101-lanternfish.md", "kind": "exact"},
        },
        {
            "name": "exact-group#3",
            "file": "output/duplicates.csv",
            "level": 4,
            "where": {"path": "linguistics/n9005-lanternfish.md"},
            "equals": {"canonical": "Field-Notes/n9101-lanternfish.md", "kind": "near"},
        },
        {
            "name": "exact-group#4",
            "file": "output/duplicates.csv",
            "level": 4,
            "where": {"path": "Field-Notes/n9101-lanternfish.md"},
            "absent": True,
        },
        {
            "name": "near-boundary#1",
            "file": "output/duplicates.csv",
            "level": 4,
            "where": {"path": "chemistry/n9020-basalt.md"},
            "equals": {"canonical": "biology/n9021-basalt.md", "kind": "near"},
        },
        {
            "name": "near-miss#1",
            "file": "output/duplicates.csv",
            "level": 4,
            "where": {"canonical": "history/n9030-heron.md"},
            "absent": True,
        },
        {
            "name": "token-sets#1",
            "file": "output/duplicates.csv",
            "level": 4,
            "where": {"path": "linguistics/n9040-quill.md"},
            "equals": {"canonical": "Inbox/n9041-quill.md", "kind": "near"},
        },
        {
            "name": "token-sets#2",
            "file": "output/duplicates.csv",
            "level": 4,
            "where": {"path": "travel/n9042-quill.md"},
            "equals": {"canonical": "Inbox/n9041-quill.md", "kind": "near"},
        },
        {
            "name": "chain#1",
            "file": "output/duplicates.csv",
            "level": 4,
            "where": {"path": "reading/n9052-fern.md"},
            "equals": {"canonical": "biology/n9050-fern.md", "kind": "near"},
        },
        {
            "name": "chain#2",
            "file": "output/duplicates.csv",
            "level": 4,
            "where": {"path": "travel/n9051-fern.md"},
            "equals": {"canonical": "biology/n9050-fern.md"},
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/duplicates.csv",
            "level": 4,
            "where": {"path": "zettel/cafe-composed.md"},
            "equals": {"canonical": "archive/cafe-decomposed.md", "kind": "exact"},
        },
        {
            "name": "edge#2",
            "file": "output/duplicates.csv",
            "level": 4,
            "where": {"kind": "near"},
            "absent": True,
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import math
import re
import unicodedata
from decimal import Decimal

DUPLICATES = "output/duplicates.csv"
WORD = re.compile(r"[^\W_]+")
SCORE = re.compile(r"[0-9]+\.[0-9]{6}")


def words(text: str, stop: frozenset[str]) -> list[str]:
    """TASK.md's tokens: NFKC, casefold, runs of str.isalnum() characters, no stop words."""
    return [
        w for w in WORD.findall(unicodedata.normalize("NFKC", text).casefold()) if w not in stop
    ]


class Note:
    """One note as TASK.md reads it: term counts, normalized body, body token set."""

    def __init__(self, text: str, stop: frozenset[str]) -> None:
        cut = text.index("\n\n")
        title = ""
        for line in text[:cut].split("\n"):
            if line.startswith("Title:"):
                title = line[len("Title:") :]
        body = unicodedata.normalize("NFKC", text[cut + 2 :]).casefold()
        mine = [w for w in WORD.findall(body) if w not in stop]
        self.count: dict[str, int] = {}
        for w in mine:
            self.count[w] = self.count.get(w, 0) + 1
        for w in words(title, stop):
            self.count[w] = self.count.get(w, 0) + 2
        self.key = " ".join(body.split())
        self.tokens = frozenset(mine)


def read_notes(folder: Path, stop: frozenset[str]) -> dict[str, Note]:
    return {
        f.relative_to(folder).as_posix(): Note(f.read_text(encoding="utf-8"), stop)
        for f in sorted(folder.rglob("*.md"))
    }


def ranking(notes: dict[str, Note], query: str, stop: frozenset[str]) -> list[tuple[str, str]]:
    """Every matching note as (written score, path), best first, ties by path."""
    n = len(notes)
    total: dict[str, float] = {}
    for term in sorted(set(words(query, stop))):
        having = {p: note.count[term] for p, note in notes.items() if term in note.count}
        idf = math.log((n + 1) / (len(having) + 1)) + 1
        for p, c in having.items():
            total[p] = total.get(p, 0.0) + (1 + math.log(c)) * idf
    written = [(f"{s:.6f}", p) for p, s in total.items()]
    return sorted(written, key=lambda w: (-Decimal(w[0]), w[1]))


def truth_rows(notes: dict[str, Note]) -> list[tuple[str, str, str]]:
    """duplicates.csv recomputed: exact bodies or Jaccard >= 23/25, grouped transitively."""
    paths = sorted(notes)
    root = list(range(len(paths)))  # union-find on indexes: the smallest index is the root

    def find(i: int) -> int:
        while root[i] != i:
            i = root[i]
        return i

    def join(i: int, j: int) -> None:
        a, b = find(i), find(j)
        root[max(a, b)] = min(a, b)

    first: dict[str, int] = {}
    for i, p in enumerate(paths):
        join(first.setdefault(notes[p].key, i), i)
    df: dict[str, int] = {}
    for p in paths:
        for t in notes[p].tokens:
            df[t] = df.get(t, 0) + 1
    seen: dict[str, list[int]] = {}
    for i, p in enumerate(paths):
        mine = notes[p].tokens
        ordered = sorted(mine, key=lambda t: (df[t], t))
        # 25 |A & B| >= 23 |A | B| needs a shared token among the first
        # |A| - ceil(23 |A| / 25) + 1 tokens of each (rarest first)
        keep = len(ordered) - (-(-23 * len(ordered) // 25)) + 1
        others: set[int] = set()
        for t in ordered[:keep]:
            others.update(seen.setdefault(t, []))
            seen[t].append(i)
        for j in others:
            theirs = notes[paths[j]].tokens
            if 25 * len(mine & theirs) >= 23 * len(mine | theirs):
                join(i, j)
    rows = []
    for i, p in enumerate(paths):
        r = find(i)
        if r != i:
            kind = "exact" if notes[p].key == notes[paths[r]].key else "near"
            rows.append((p, paths[r], kind))
    return rows


def declared_searches() -> list[tuple[bool, str]]:
    """(after the update?, query) of every declared search command, in order."""
    found, updated = [], False
    for command in TASK["commands"]:
        argv = command["argv"]
        updated = updated or "update" in argv
        if "search" in argv:
            found.append((updated, argv[argv.index("search") + 2]))
    return found


class Truth:
    """What the checks compare with, from the pristine notes alone (one tokenizing pass):
    the exact repeats, every duplicates.csv row and the full ranking of each declared search,
    before and after the update. A run.derived value: cached across sealed judgings."""

    def __init__(self, source: benchlib.Files) -> None:
        stop = frozenset(words(source.text("inputs/stopwords.txt"), frozenset()))
        before = read_notes(source.path("inputs/notes"), stop)
        first: dict[str, str] = {}
        self.repeated = [p for p in sorted(before) if first.setdefault(before[p].key, p) != p]
        self.rows = truth_rows(before)
        self.rankings = {
            (False, q): ranking(before, q, stop) for u, q in declared_searches() if not u
        }
        if source.exists("inputs/deleted.txt"):  # the update stage's files (judged at stage 2)
            after = dict(before)
            for path in source.text("inputs/deleted.txt").split():
                del after[path]
            after.update(read_notes(source.path("inputs/notes-new"), stop))
            for updated, query in declared_searches():
                if updated:
                    self.rankings[(True, query)] = ranking(after, query, stop)


def truth(run: benchlib.Run) -> Truth:
    return run.derived("truth", Truth)


def searches(run: benchlib.Run) -> list[tuple[bool, str, int, str]]:
    """(after the update?, query, limit, stdout) of every search command that ran."""
    found, updated = [], False
    for result in run.results:
        argv = result.argv
        if "update" in argv:
            updated = True
        if "search" in argv:
            at = argv.index("search")
            limit = int(argv[argv.index("--limit") + 1])
            found.append((updated, argv[at + 2], limit, result.stdout))
    return found


def printed(stdout: str, what: str) -> list[tuple[str, str]]:
    """The candidate's SCORE<TAB>PATH lines (LF endings, six decimals)."""
    benchlib.expect(stdout == "" or stdout.endswith("\n"), f"{what}: output does not end with LF")
    lines = []
    for line in stdout.split("\n")[:-1]:
        parts = line.split("\t")
        benchlib.expect(
            len(parts) == 2 and SCORE.fullmatch(parts[0]) is not None,
            f"{what}: line {line!r} is not SCORE<TAB>PATH with six decimals",
        )
        lines.append((parts[0], parts[1]))
    return lines


def same_ranking(got: list[tuple[str, str]], want: list[tuple[str, str]], what: str) -> None:
    benchlib.expect_equal([p for _, p in got], [p for _, p in want], f"{what}: paths in order")
    for (score, path), (expected, _) in zip(got, want, strict=True):
        close = abs(Decimal(score) - Decimal(expected)) <= Decimal("0.000001")
        benchlib.expect(close, f"{what}: {path}: score {score}, expected {expected}")


def check_searches(run: benchlib.Run, after: bool) -> None:
    done = [s for s in searches(run) if s[0] == after]
    benchlib.expect(bool(done), "no search ran")
    for _, query, limit, stdout in done:
        what = f"search {query!r}" + (" after the update" if after else "")
        want = truth(run).rankings[(after, query)][:limit]
        same_ranking(printed(stdout, what), want, what)


def candidate_rows(run: benchlib.Run) -> list[tuple[str, str, str]]:
    return [(r["path"], r["canonical"], r["kind"]) for r in run.csv(DUPLICATES)]


@judge.check(level=3)
def exact_duplicates_flagged(run: benchlib.Run) -> None:
    """Every note whose normalized body repeats an earlier one has a row; no row is invented."""
    flagged = {row[0] for row in candidate_rows(run)}
    missing = [p for p in truth(run).repeated if p not in flagged]
    benchlib.expect_equal(missing, [], "exact duplicates without a row")
    allowed = {row[0] for row in truth(run).rows}
    benchlib.expect_equal(sorted(flagged - allowed), [], "rows for notes that are no duplicates")


@judge.check(level=3)
def searches_find_matching_notes(run: benchlib.Run) -> None:
    """Before the update: each search prints min(limit, matching notes) notes that match."""
    done = [s for s in searches(run) if not s[0]]
    benchlib.expect(bool(done), "no search ran")
    for _, query, limit, stdout in done:
        what = f"search {query!r}"
        want = truth(run).rankings[(False, query)]
        got = printed(stdout, what)
        benchlib.expect_equal(len(got), min(limit, len(want)), f"{what}: lines")
        matching = {p for _, p in want}
        benchlib.expect_equal([p for _, p in got if p not in matching], [], f"{what}: no match")


@judge.check(level=4)
def duplicate_groups(run: benchlib.Run) -> None:
    """Every row of duplicates.csv: groups, canonical paths, kinds, sorted by path."""
    got, want = candidate_rows(run), truth(run).rows
    benchlib.expect_equal(len(got), len(want), "duplicates.csv rows")
    for have, wanted in zip(got, want, strict=True):
        benchlib.expect_equal(have, wanted, f"duplicates.csv row of {wanted[0]}")


@judge.check(level=4)
def ranking_before_update(run: benchlib.Run) -> None:
    """Scores (tf-idf, title twice), six decimals, ties by path, --limit; before the update."""
    check_searches(run, False)


@judge.check(level=4, stage="update")
def ranking_after_update(run: benchlib.Run) -> None:
    """After update: every search equals a fresh build over the changed collection."""
    check_searches(run, True)


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
