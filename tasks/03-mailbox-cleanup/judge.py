# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 3: Mailbox Thread Cleanup.

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
    "id": 3,
    "slug": "mailbox-cleanup",
    "stages": ["initial", "archive"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.mailbox_clean inputs/current.mbox --output output",
            "argv": [
                "python",
                "-m",
                "solution.mailbox_clean",
                "inputs/current.mbox",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 20.0,
        },
        {
            "run": "python -m solution.mailbox_clean inputs/current.mbox inputs/archive.mbox --output output",
            "argv": [
                "python",
                "-m",
                "solution.mailbox_clean",
                "inputs/current.mbox",
                "inputs/archive.mbox",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "archive",
            "timeout": 20.0,
        },
    ],
    "outputs": [
        {"path": "output/cleaned.mbox", "format": "mbox", "header": [], "stage": "initial"},
        {
            "path": "output/messages.csv",
            "format": "csv",
            "header": ["thread_id", "message_id", "date", "from", "subject", "body_preview"],
            "stage": "initial",
        },
        {
            "path": "output/threads.csv",
            "format": "csv",
            "header": [
                "thread_id",
                "subject",
                "participants",
                "first_date",
                "last_date",
                "message_count",
            ],
            "stage": "initial",
        },
        {
            "path": "output/unsubscribe.csv",
            "format": "csv",
            "header": ["sender_domain", "scheme", "target"],
            "stage": "initial",
        },
    ],
    "expect": [],
    "edge_expect": [],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import base64
import codecs
import datetime as dt
import email
import html
import re
from collections import Counter
from collections.abc import Callable
from email.header import decode_header
from email.message import Message
from email.utils import getaddresses, parsedate_to_datetime

MESSAGES = "output/messages.csv"
THREADS = "output/threads.csv"
UNSUBSCRIBE = "output/unsubscribe.csv"
CLEANED = "output/cleaned.mbox"
CSVS = [MESSAGES, THREADS, UNSUBSCRIBE]
TOKEN = re.compile(r"<[^<>]*>")
PREFIXES = re.compile(r"^(?:\s*(?:re|fwd|fw)\s*:)+", re.IGNORECASE)
KEPT_HEADERS = [
    "message-id", "date", "subject", "from", "to", "cc", "in-reply-to", "references",
    "list-unsubscribe", "resent-from", "x-copy", "x-delivery",
]  # fmt: skip


def split_mbox(data: bytes) -> list[Message]:
    """The messages of an mbox file, as mailbox.mbox splits it (compat32 parsing)."""
    starts = [m.start() for m in re.finditer(rb"(?m)^From ", data)]
    out = []
    for i, start in enumerate(starts):
        chunk = data[start : starts[i + 1] if i + 1 < len(starts) else len(data)]
        chunk = chunk.split(b"\n", 1)[1] if b"\n" in chunk else b""
        if chunk.endswith(b"\n\n"):
            chunk = chunk[:-1]
        out.append(email.message_from_bytes(chunk))
    return out


def parts(message: Message) -> list[Message]:
    """The MIME tree depth-first, as Message.walk() yields it."""
    found = [message]
    if message.is_multipart():
        for sub in message.get_payload():
            found += parts(sub)
    return found


def charset_or_utf8(name: str | None) -> str:
    try:
        return codecs.lookup(name).name if name else "utf-8"
    except LookupError:
        return "utf-8"


def decoded(value: object) -> str:
    if value is None:
        return ""
    parts = []
    for data, charset in decode_header(str(value)):
        if isinstance(data, str):
            parts.append(data)
        else:
            parts.append(data.decode(charset_or_utf8(charset), "replace"))
    return "".join(parts)


def collapse(text: str) -> str:
    return " ".join(text.split())


def when(message: Message) -> dt.datetime | None:
    raw = message["Date"]
    if raw is None:
        return None
    try:
        day = parsedate_to_datetime(str(raw))
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return day if day.tzinfo else day.replace(tzinfo=dt.UTC)


def ids(value: object) -> list[str]:
    return TOKEN.findall(str(value)) if value is not None else []


def body_text(message: Message) -> str:
    for wanted in ("text/plain", "text/html"):
        for part in parts(message):
            if part.is_multipart() or part.get_content_type() != wanted:
                continue
            if part.get_content_disposition() == "attachment":
                continue
            data = part.get_payload(decode=True) or b""
            text = data.decode(charset_or_utf8(part.get_content_charset()), "replace")
            if wanted == "text/html":
                text = html.unescape(re.sub(r"<[^>]*>", " ", text))
            return text
    return ""


def fingerprint(message: Message) -> tuple:
    """What 'written unchanged' preserves: the copy's headers, its parts and its text."""
    heads = tuple((k, collapse(str(message[k] or ""))) for k in KEPT_HEADERS)
    types = tuple(p.get_content_type() for p in parts(message))
    return heads, types, body_text(message)


class Mailbox:
    """TASK.md recomputed from the pristine mailboxes of the judged stage."""

    def __init__(self, source: benchlib.Files, archive: bool) -> None:
        paths = ["inputs/current.mbox"] + (["inputs/archive.mbox"] if archive else [])
        everything = [m for path in paths for m in split_mbox(source.bytes(path))]
        best: dict[str, int] = {}
        kept: list[int] = []
        for position, message in enumerate(everything):
            own = ids(message["Message-ID"])
            if not own:
                kept.append(position)
                continue
            if own[0] not in best:
                best[own[0]] = position
                kept.append(position)
                continue
            old, new = when(everything[best[own[0]]]), when(message)
            if new is not None and (old is None or new > old):
                kept[kept.index(best[own[0]])] = position
                best[own[0]] = position
        kept.sort()
        self.messages = [everything[i] for i in kept]
        self.by_id = {ids(m["Message-ID"])[0]: m for m in self.messages if m["Message-ID"]}
        threads: dict[str, list[tuple[int, Message]]] = {}
        for order, message in enumerate(self.messages):
            threads.setdefault(self.root(message, 0), []).append((order, message))
        self.threads = {}
        for tid, members in sorted(threads.items()):
            self.threads[tid] = [
                m
                for _, m in sorted(
                    members,
                    key=lambda om: (when(om[1]) is None, when(om[1]) or dt.datetime.min, om[0]),
                )
            ]

    def root(self, message: Message, depth: int) -> str:
        refs = ids(message["References"])
        if refs:
            return refs[0]
        parent = ids(message["In-Reply-To"])
        if parent:
            if parent[0] in self.by_id and depth < 50:
                return self.root(self.by_id[parent[0]], depth + 1)
            return parent[0]
        return ids(message["Message-ID"])[0]

    def cleaned(self) -> list[Message]:
        return [m for members in self.threads.values() for m in members]

    def message_rows(self) -> list[dict[str, str]]:
        rows = []
        for tid, members in self.threads.items():
            for m in members:
                rows.append(
                    {
                        "thread_id": tid,
                        "message_id": (ids(m["Message-ID"]) or [""])[0],
                        "date": stamp(when(m)),
                        "from": sender(m),
                        "subject": collapse(decoded(m["Subject"])),
                        "body_preview": collapse(body_text(m))[:80],
                    }
                )
        return rows

    def thread_rows(self) -> list[dict[str, str]]:
        rows = []
        for tid, members in self.threads.items():
            people = set()
            for m in members:
                fields = [str(v) for k in ("From", "To", "Cc") for v in m.get_all(k, [])]
                people |= {a.lower() for _, a in getaddresses(fields) if a}
            dates = [d for d in map(when, members) if d is not None]
            rows.append(
                {
                    "thread_id": tid,
                    "subject": PREFIXES.sub("", collapse(decoded(members[0]["Subject"]))).strip(),
                    "participants": ";".join(sorted(people)),
                    "first_date": stamp(min(dates)) if dates else "",
                    "last_date": stamp(max(dates)) if dates else "",
                    "message_count": str(len(members)),
                }
            )
        return rows

    def unsubscribe_rows(self) -> list[dict[str, str]]:
        rows = set()
        for m in self.messages:
            domain = sender(m).rpartition("@")[2]
            for token in ids(m["List-Unsubscribe"]):
                uri = token[1:-1].strip()
                scheme, _, rest = uri.partition(":")
                scheme = scheme.lower()
                if scheme == "mailto":
                    rows.add((domain, scheme, rest.split("?")[0].lower()))
                elif scheme in ("http", "https"):
                    rows.add((domain, scheme, uri))
        keys = ["sender_domain", "scheme", "target"]
        return [dict(zip(keys, row, strict=True)) for row in sorted(rows)]


def stamp(day: dt.datetime | None) -> str:
    return day.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if day else ""


def sender(message: Message) -> str:
    found = getaddresses([str(v) for v in message.get_all("From", [])])
    return found[0][1].lower() if found else ""


def model(run: benchlib.Run, first_only: bool = False) -> Mailbox:
    """The truth of the judged stage; ``first_only``: of inputs/current.mbox alone."""
    key = "first" if first_only else "model"
    if key not in run.memo:
        # The archive is an input once the stage-2 command (the second one) has run: the
        # main fixture has no archive before stage 2; the edge fixture has it at every stage.
        archive = len(run.results) > 1 and run.source.exists("inputs/archive.mbox")
        run.memo[key] = Mailbox(run.source, archive and not first_only)
    return run.memo[key]


def columns(rows: list[dict[str, str]], *names: str) -> list[tuple[str, ...]]:
    return [tuple(row.get(n, "") for n in names) for row in rows]


def count_by_thread(rows: list[dict[str, str]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["thread_id"]] = counts.get(row["thread_id"], 0) + 1
    return counts


def within(
    got: Counter, run: benchlib.Run, counts: Callable[[Mailbox], Counter], what: str
) -> None:
    """Level 3 is the core work on the first mailbox: each count lies between the count
    of current.mbox alone and the count with every input (equal before stage 2)."""
    first, full = counts(model(run, first_only=True)), counts(model(run))
    wrong = [
        key
        for key in sorted(set(got) | set(first) | set(full))
        if not min(first[key], full[key]) <= got[key] <= max(first[key], full[key])
    ]
    benchlib.expect(not wrong, f"{what}: wrong for {len(wrong)}, first {wrong[:3]}")


@judge.check(level=3)
def cleaned_message_set(run: benchlib.Run) -> None:
    """One row per cleaned message: duplicates dropped, messages without an ID kept."""
    got = Counter(r["message_id"] for r in run.csv(MESSAGES))
    within(got, run, lambda m: Counter(r["message_id"] for r in m.message_rows()), "IDs")


@judge.check(level=3)
def threads_and_counts(run: benchlib.Run) -> None:
    """The threads found, each with its number of cleaned messages."""
    got = Counter()
    for row in run.csv(THREADS):
        got[row["thread_id"]] += benchlib.as_decimal(row["message_count"]) or 0
    within(got, run, lambda m: Counter(count_by_thread(m.message_rows())), "thread sizes")


@judge.check(level=3)
def messages_in_their_threads(run: benchlib.Run) -> None:
    """messages.csv puts every message in the right thread."""
    got = Counter(columns(run.csv(MESSAGES), "thread_id", "message_id"))
    within(
        got,
        run,
        lambda m: Counter(columns(m.message_rows(), "thread_id", "message_id")),
        "message threads",
    )


@judge.check(level=4)
def message_order_and_dates(run: benchlib.Run) -> None:
    """Rows by thread, thread order inside (unknown dates last, blank), UTC dates."""
    expected = columns(model(run).message_rows(), "thread_id", "message_id", "date")
    got = columns(run.csv(MESSAGES), "thread_id", "message_id", "date")
    benchlib.expect_equal(got, expected, "messages.csv thread_id, message_id, date")


@judge.check(level=4)
def message_senders_and_subjects(run: benchlib.Run) -> None:
    """Lower-cased sender address; decoded, collapsed subject with its prefixes."""
    expected = columns(model(run).message_rows(), "message_id", "from", "subject")
    got = columns(run.csv(MESSAGES), "message_id", "from", "subject")
    benchlib.expect_equal(got, expected, "messages.csv from, subject")


@judge.check(level=4)
def body_previews(run: benchlib.Run) -> None:
    """First non-attachment text/plain, else text/html without tags; 80 characters."""
    expected = columns(model(run).message_rows(), "message_id", "body_preview")
    got = columns(run.csv(MESSAGES), "message_id", "body_preview")
    benchlib.expect_equal(got, expected, "messages.csv body_preview")


@judge.check(level=4)
def cleaned_mbox_copies(run: benchlib.Run) -> None:
    """cleaned.mbox holds the winning copies, unchanged, in messages.csv order."""
    expected = [fingerprint(m) for m in model(run).cleaned()]
    got = [fingerprint(m) for m in split_mbox(run.bytes(CLEANED))]
    benchlib.expect_equal(len(got), len(expected), "messages in cleaned.mbox")
    wrong = [i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b]
    benchlib.expect(not wrong, f"cleaned.mbox messages differ at positions {wrong[:5]}")


@judge.check(level=4)
def thread_subjects(run: benchlib.Run) -> None:
    """Display subject of the first message in thread order, reply prefixes removed."""
    expected = columns(model(run).thread_rows(), "thread_id", "subject")
    benchlib.expect_equal(columns(run.csv(THREADS), "thread_id", "subject"), expected, "subjects")


@judge.check(level=4)
def thread_participants_and_dates(run: benchlib.Run) -> None:
    """Participants from From/To/Cc; first and last valid dates; message counts."""
    names = ("thread_id", "participants", "first_date", "last_date", "message_count")
    expected = columns(model(run).thread_rows(), *names)
    benchlib.expect_equal(columns(run.csv(THREADS), *names), expected, "threads.csv")


@judge.check(level=4)
def unsubscribe_targets(run: benchlib.Run) -> None:
    """List-Unsubscribe targets of the cleaned messages, parsed, unique, sorted."""
    names = ("sender_domain", "scheme", "target")
    expected = columns(model(run).unsubscribe_rows(), *names)
    benchlib.expect_equal(columns(run.csv(UNSUBSCRIBE), *names), expected, "unsubscribe.csv")


@judge.check(level=4, stage="archive")
def archive_merged(run: benchlib.Run) -> None:
    """Stage 2: the archive's messages are merged and win or lose as duplicates."""
    got = count_by_thread(run.csv(MESSAGES))
    expected = count_by_thread(model(run).message_rows())
    benchlib.expect_equal(got, expected, "messages per thread with the archive")


@judge.check(level=4, stage="archive")
def unknown_dates_blank_and_last(run: benchlib.Run) -> None:
    """Stage 2: unknown dates are blank and sort after known dates within a thread."""
    rows = run.csv(MESSAGES)
    expected = [(r["message_id"], r["date"]) for r in model(run).message_rows() if not r["date"]]
    got = [(r["message_id"], r["date"]) for r in rows if not r.get("date")]
    benchlib.expect_equal(got, expected, "messages with unknown dates")
    seen_blank: set[str] = set()
    late = []
    for row in rows:
        if not row.get("date"):
            seen_blank.add(row["thread_id"])
        elif row["thread_id"] in seen_blank:
            late.append(row["message_id"])
    benchlib.expect(not late, f"known dates after unknown ones: {late[:5]}")


@judge.edge
def unknown_charset_and_attachment(run: benchlib.Run) -> None:
    """Unknown charset decoded as UTF-8 with replacement; no attachment byte in a CSV."""
    truth = model(run)
    benchlib.expect_equal(run.csv(MESSAGES), truth.message_rows(), "messages.csv")
    benchlib.expect_equal(run.csv(THREADS), truth.thread_rows(), "threads.csv")
    blobs = [
        part.get_payload(decode=True) or b""
        for m in truth.messages
        for part in parts(m)
        if part.get_content_disposition() == "attachment"
    ]
    benchlib.expect(bool(blobs), "the edge fixture has an attachment")
    for path in CSVS:
        data = run.bytes(path)
        benchlib.expect(len(data) < 65536, f"{path} is {len(data)} bytes")
        text = data.decode("utf-8", "replace")
        for blob in blobs:
            lines = base64.encodebytes(blob).decode("ascii").split()
            leaked = [line for line in lines[:-1] if line in text]
            benchlib.expect(not leaked, f"{path} holds base64 lines of the attachment")
            for start in range(0, len(blob) - 16, 4099):
                chunk = blob[start : start + 16]
                for form in (chunk.decode("latin-1"), chunk.decode("utf-8", "replace")):
                    benchlib.expect(form not in text, f"{path} holds attachment bytes")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
