"""Research-note index: build, search and update (reference solution).

python -m solution.notes_index build NOTES_DIR DB DUPLICATES_CSV
python -m solution.notes_index search DB "QUERY" --limit N
python -m solution.notes_index update DB NEW_NOTES_DIR DELETED_TXT
"""

import argparse
import csv
import heapq
import math
import re
import sqlite3
import sys
import unicodedata
from collections import Counter
from fractions import Fraction
from pathlib import Path

TOKEN = re.compile(r"[^\W_]+")
THRESHOLD = Fraction(23, 25)  # token-set Jaccard of near duplicates: at least 0.92
SCHEMA = """
CREATE TABLE notes (path TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE postings (term TEXT, path TEXT, count INTEGER, PRIMARY KEY (term, path)) WITHOUT ROWID;
CREATE INDEX postings_path ON postings (path);
CREATE TABLE stopwords (word TEXT PRIMARY KEY) WITHOUT ROWID;
"""


def normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def tokens(text: str, stop: frozenset[str]) -> list[str]:
    return [t for t in TOKEN.findall(normalize(text)) if t not in stop]


def read_note(path: Path) -> tuple[str, str]:
    """(title, body): the metadata block ends at the first empty line."""
    head, _, body = path.read_text(encoding="utf-8").partition("\n\n")
    title = ""
    for line in head.split("\n"):
        key, _, value = line.partition(":")
        if key == "Title":
            title = value
    return title, body


def note_files(folder: Path) -> list[tuple[str, Path]]:
    return [(p.relative_to(folder).as_posix(), p) for p in folder.rglob("*.md")]


def counts(title: str, body: str, stop: frozenset[str]) -> Counter[str]:
    found = Counter(tokens(body, stop))
    for term in tokens(title, stop):
        found[term] += 2
    return found


def store(db: sqlite3.Connection, path: str, title: str, body: str, stop: frozenset[str]) -> None:
    db.execute("DELETE FROM postings WHERE path = ?", (path,))
    db.execute("INSERT OR REPLACE INTO notes VALUES (?)", (path,))
    found = counts(title, body, stop)
    db.executemany(
        "INSERT INTO postings VALUES (?, ?, ?)", [(t, path, c) for t, c in found.items()]
    )


def body_key(body: str) -> str:
    return " ".join(normalize(body).split())


class Groups:
    """Union-find whose root is the lexically first path of its group."""

    def __init__(self, paths: list[str]) -> None:
        self.parent = {p: p for p in paths}

    def find(self, path: str) -> str:
        parent = self.parent[path]
        return path if parent == path else self.find(parent)

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        self.parent[max(ra, rb)] = min(ra, rb)


def similar(a: frozenset[str], b: frozenset[str]) -> bool:
    return Fraction(len(a & b), len(a | b)) >= THRESHOLD


def duplicate_rows(keys: dict[str, str], sets: dict[str, frozenset[str]]) -> list[list[str]]:
    paths = sorted(keys)
    groups = Groups(paths)
    first: dict[str, str] = {}
    for path in paths:
        groups.union(first.setdefault(keys[path], path), path)
    df = Counter(t for s in sets.values() for t in s)
    index: dict[str, list[str]] = {}
    for path in paths:
        # prefix filter: two sets with Jaccard >= 0.92 share a token among the rarest
        # len - ceil(0.92 * len) + 1 of each (rarest: fewest notes, then by text)
        size = len(sets[path])
        prefix = heapq.nsmallest(
            size - math.ceil(THRESHOLD * size) + 1, sets[path], key=lambda t: (df[t], t)
        )
        candidates: set[str] = set()
        for term in prefix:
            candidates.update(index.setdefault(term, []))
            index[term].append(path)
        for other in candidates:
            if similar(sets[path], sets[other]):
                groups.union(path, other)
    rows = []
    for path in paths:
        canonical = groups.find(path)
        if canonical != path:
            kind = "exact" if keys[path] == keys[canonical] else "near"
            rows.append([path, canonical, kind])
    return rows


def build(notes: Path, db_path: Path, duplicates: Path) -> None:
    stop = frozenset(
        tokens((notes.parent / "stopwords.txt").read_text(encoding="utf-8"), frozenset())
    )
    db_path.parent.mkdir(parents=True, exist_ok=True)
    db_path.unlink(missing_ok=True)
    db = sqlite3.connect(db_path)
    db.executescript(SCHEMA)
    db.executemany("INSERT INTO stopwords VALUES (?)", [(w,) for w in stop])
    keys: dict[str, str] = {}
    sets: dict[str, frozenset[str]] = {}
    for rel, file in note_files(notes):
        title, body = read_note(file)
        store(db, rel, title, body, stop)
        keys[rel] = body_key(body)
        sets[rel] = frozenset(tokens(body, stop))
    db.commit()
    db.close()
    duplicates.parent.mkdir(parents=True, exist_ok=True)
    with duplicates.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["path", "canonical", "kind"])
        writer.writerows(duplicate_rows(keys, sets))


def stopwords(db: sqlite3.Connection) -> frozenset[str]:
    return frozenset(w for (w,) in db.execute("SELECT word FROM stopwords"))


def search(db_path: Path, query: str, limit: int) -> None:
    db = sqlite3.connect(db_path)
    n = db.execute("SELECT COUNT(*) FROM notes").fetchone()[0]
    scores: dict[str, float] = {}
    for term in dict.fromkeys(tokens(query, stopwords(db))):
        rows = db.execute("SELECT path, count FROM postings WHERE term = ?", (term,)).fetchall()
        idf = math.log((n + 1) / (len(rows) + 1)) + 1
        for path, count in rows:
            scores[path] = scores.get(path, 0.0) + (1 + math.log(count)) * idf
    db.close()
    # ties: notes whose scores print the same, by path
    ranked = sorted(
        ((f"{s:.6f}", p) for p, s in scores.items()), key=lambda r: (-float(r[0]), r[1])
    )
    sys.stdout.write("".join(f"{s}\t{p}\n" for s, p in ranked[:limit]))


def update(db_path: Path, new_notes: Path, deleted: Path) -> None:
    db = sqlite3.connect(db_path)
    stop = stopwords(db)
    for path in deleted.read_text(encoding="utf-8").split():
        db.execute("DELETE FROM postings WHERE path = ?", (path,))
        db.execute("DELETE FROM notes WHERE path = ?", (path,))
    for rel, file in note_files(new_notes):
        title, body = read_note(file)
        store(db, rel, title, body, stop)
    db.commit()
    db.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m solution.notes_index")
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("build")
    p.add_argument("notes", type=Path)
    p.add_argument("db", type=Path)
    p.add_argument("duplicates", type=Path)
    p = commands.add_parser("search")
    p.add_argument("db", type=Path)
    p.add_argument("query")
    p.add_argument("--limit", type=int, required=True)
    p = commands.add_parser("update")
    p.add_argument("db", type=Path)
    p.add_argument("new_notes", type=Path)
    p.add_argument("deleted", type=Path)
    args = parser.parse_args(argv)
    if args.command == "build":
        build(args.notes, args.db, args.duplicates)
    elif args.command == "search":
        search(args.db, args.query, args.limit)
    else:
        update(args.db, args.new_notes, args.deleted)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
