"""Mailbox thread cleanup (reference solution).

python -m solution.mailbox_clean MBOX [MBOX ...] --output DIR
"""

from __future__ import annotations

import argparse
import codecs
import csv
import datetime as dt
import html
import mailbox
import re
from email import message_from_bytes
from email.header import decode_header
from email.message import Message
from email.utils import getaddresses, parsedate_to_datetime
from pathlib import Path

ID_TOKEN = re.compile(r"<[^<>]*>")
REPLY_PREFIX = re.compile(r"^(?:\s*(?:re|fwd|fw)\s*:)+", re.IGNORECASE)
TAG = re.compile(r"<[^>]*>")


class Mail:
    """One message of the input: its raw bytes, parsed form and input position."""

    def __init__(self, raw: bytes, position: int) -> None:
        self.raw = raw
        self.position = position
        self.msg: Message = message_from_bytes(raw)
        self.message_id = first_id(self.raw_header("Message-ID"))
        self.date = parse_date(self.raw_header("Date"))
        self.thread_id = ""
        senders = self.addresses("From")
        self.sender = senders[0] if senders else ""
        self.subject = " ".join(decode_words(self.raw_header("Subject") or "").split())

    def raw_header(self, name: str) -> str | None:
        value = self.msg.get(name)
        return None if value is None else str(value)

    def addresses(self, *names: str) -> list[str]:
        values = [str(v) for name in names for v in self.msg.get_all(name, [])]
        return [address.lower() for _, address in getaddresses(values) if address]

    def sort_key(self) -> tuple:
        known = self.date is not None
        instant = self.date.timestamp() if self.date else 0.0
        return (not known, instant, self.position)


def decode_words(value: str) -> str:
    """RFC 2047 decoding with replacement; unknown charsets as UTF-8."""
    text = []
    for chunk, charset in decode_header(value):
        if isinstance(chunk, str):
            text.append(chunk)
        else:
            text.append(chunk.decode(known_charset(charset), "replace"))
    return "".join(text)


def first_id(value: str | None) -> str:
    found = ID_TOKEN.findall(value or "")
    return found[0] if found else ""


def parse_date(value: str | None) -> dt.datetime | None:
    if value is None:
        return None
    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=dt.UTC)
    return parsed


def utc(day: dt.datetime | None) -> str:
    return day.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if day else ""


def known_charset(name: str | None) -> str:
    if not name:
        return "utf-8"
    try:
        codecs.lookup(name)
    except LookupError:
        return "utf-8"
    return name


def body_text(msg: Message) -> str:
    for kind in ("text/plain", "text/html"):
        for part in msg.walk():
            if part.is_multipart() or part.get_content_type() != kind:
                continue
            if part.get_content_disposition() == "attachment":
                continue
            payload = part.get_payload(decode=True) or b""
            content = payload.decode(known_charset(part.get_content_charset()), "replace")
            if kind == "text/html":
                content = html.unescape(TAG.sub(" ", content))
            return content
    return ""


def read_mailboxes(paths: list[str]) -> list[Mail]:
    mails = []
    for path in paths:
        box = mailbox.mbox(path, create=False)
        try:
            for key in box.iterkeys():
                mails.append(Mail(box.get_bytes(key), len(mails)))
        finally:
            box.close()
    return mails


def later(mail: Mail, current: Mail) -> bool:
    """Whether ``mail`` has a valid Date after the current copy's (or it has none)."""
    if mail.date is None:
        return False
    return current.date is None or mail.date > current.date


def deduplicate(mails: list[Mail]) -> list[Mail]:
    winners: dict[str, Mail] = {}
    kept: list[Mail] = []
    for mail in mails:
        if not mail.message_id:
            kept.append(mail)
            continue
        current = winners.get(mail.message_id)
        if current is None or later(mail, current):
            winners[mail.message_id] = mail
    return kept + list(winners.values())


def assign_threads(mails: list[Mail]) -> None:
    by_id = {m.message_id: m for m in mails if m.message_id}

    def root(mail: Mail, seen: set[str]) -> str:
        references = ID_TOKEN.findall(mail.raw_header("References") or "")
        if references:
            return references[0]
        parent = first_id(mail.raw_header("In-Reply-To"))
        if parent:
            if parent in by_id and parent not in seen:
                return root(by_id[parent], seen | {parent})
            return parent
        return mail.message_id

    for mail in mails:
        mail.thread_id = root(mail, set())


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mailboxes", nargs="+")
    parser.add_argument("--output", required=True)
    args = parser.parse_args(argv)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)

    mails = deduplicate(read_mailboxes(args.mailboxes))
    assign_threads(mails)
    threads: dict[str, list[Mail]] = {}
    for mail in mails:
        threads.setdefault(mail.thread_id, []).append(mail)
    ordered = {tid: sorted(threads[tid], key=Mail.sort_key) for tid in sorted(threads)}

    message_rows, thread_rows = [], []
    with (out / "cleaned.mbox").open("wb") as handle:
        for tid, members in ordered.items():
            for mail in members:
                handle.write(
                    b"From MAILER-DAEMON Thu Jan  1 00:00:00 1970\n"  # a fixed envelope line
                )
                handle.write(mail.raw if mail.raw.endswith(b"\n") else mail.raw + b"\n")
                handle.write(b"\n")
                preview = " ".join(body_text(mail.msg).split())[:80]
                message_rows.append(
                    [tid, mail.message_id, utc(mail.date), mail.sender, mail.subject, preview]
                )
            people = sorted({a for m in members for a in m.addresses("From", "To", "Cc")})
            dates = [m.date for m in members if m.date is not None]
            thread_rows.append(
                [
                    tid,
                    REPLY_PREFIX.sub("", members[0].subject).strip(),
                    ";".join(people),
                    utc(min(dates)) if dates else "",
                    utc(max(dates)) if dates else "",
                    str(len(members)),
                ]
            )

    targets = set()
    for mail in mails:
        domain = mail.sender.rpartition("@")[2]
        for token in ID_TOKEN.findall(mail.raw_header("List-Unsubscribe") or ""):
            uri = token[1:-1].strip()
            scheme, _, rest = uri.partition(":")
            scheme = scheme.lower()
            if scheme == "mailto":
                targets.add((domain, scheme, rest.split("?", 1)[0].lower()))
            elif scheme in ("http", "https"):
                targets.add((domain, scheme, uri))

    header = ["thread_id", "message_id", "date", "from", "subject", "body_preview"]
    write_csv(out / "messages.csv", header, message_rows)
    header = ["thread_id", "subject", "participants", "first_date", "last_date", "message_count"]
    write_csv(out / "threads.csv", header, thread_rows)
    write_csv(out / "unsubscribe.csv", ["sender_domain", "scheme", "target"], sorted(targets))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
