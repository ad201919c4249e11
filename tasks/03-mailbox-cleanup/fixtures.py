"""Fixture generators of task 3: one person's work mailbox in March 2025, and an archive.

Every message is built with the standard library's ``email`` package (compat32 messages,
leaf parts encoded here, serialized by ``BytesGenerator``) and written in mbox format: a
``From `` line with the message's fixed arrival time, the message, a blank line. Nothing
reads the clock: every date is written in the fixture.

``inputs/current.mbox`` (stage 1) holds 180 messages in 42 threads: the authored cases
below (each commented) and seeded filler threads. ``inputs/archive.mbox`` (stage 2) holds
forwarded duplicates, older messages of current threads and February threads, some with
missing or invalid dates. The edge fixture holds one multipart message whose text part
declares a charset Python does not know (valid UTF-8 bytes) with a 1.5 MB binary attachment.
"""

from __future__ import annotations

import base64
import datetime as dt
import io
import quopri
import random
from email.generator import BytesGenerator
from email.message import Message
from email.mime.multipart import MIMEMultipart
from email.policy import compat32
from email.utils import format_datetime

import benchlib

POLICY = compat32.clone(linesep="\n")
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

ME = "Sam Keller <sam.keller@northwind.example>"
PEOPLE = [
    "Priya Natarajan <priya@northwind.example>",
    "Marco Rossi <marco@northwind.example>",
    '"Doe, Jane" <Jane.Doe@Northwind.example>',
    "Tom Becker <tom.becker@northwind.example>",
    '"Lee, Ann" <ann.lee@partner.example>',
    "=?iso-8859-1?q?Ren=E9e_Lef=E8vre?= <renee@atelier-lefevre.example>",
    "=?utf-8?b?SsO8cmdlbiBNw7xsbGVy?= <juergen.mueller@kunde.example>",
    "Olu Adeyemi <olu@printworks.example>",
    "Hana Sato <hana.sato@partner.example>",
    "Diego Ortiz <diego@ortiz-builders.example>",
    "Mia Chen <MIA.CHEN@Northwind.example>",
    "Karl Jensen <karl@fjord-supply.example>",
]
OFFSETS = [0, 60, -300, 120, -240, 330, 540, -480]
TOPICS = [
    ("Quarterly numbers", "utf-8"),
    ("Printer on floor 2", "utf-8"),
    ("Website refresh timeline", "utf-8"),
    ("Supplier contract renewal", "utf-8"),
    ("Team lunch on Friday", "utf-8"),
    ("Übergabe der Schlüssel", "utf-8"),
    ("Résumé review for the design role", "iso-8859-1"),
    ("Photo shoot schedule", "utf-8"),
    ("Invoice 2025-031", "utf-8"),
    ("Catalogue proofs", "utf-8"),
    ("Shipping labels", "utf-8"),
    ("Garden party – guest list", "utf-8"),
    ("VPN access for contractors", "utf-8"),
    ("Holiday rota", "utf-8"),
    ("Brand colours", "utf-8"),
    ("Trade fair booth", "utf-8"),
    ("Søren's visit", "iso-8859-1"),
    ("Laptop replacement", "utf-8"),
    ("Podcast interview", "utf-8"),
    ("Packaging samples", "utf-8"),
    ("Insurance renewal", "utf-8"),
    ("Office plants", "utf-8"),
    ("Fire drill", "utf-8"),
    ("Newsletter copy", "utf-8"),
    ("Client feedback – Atelier", "utf-8"),
    ("Server maintenance window", "utf-8"),
    ("Workshop materials", "utf-8"),
    ("Parking permits", "utf-8"),
    ("Annual report layout", "utf-8"),
    ("Kundenumfrage Ergebnisse", "utf-8"),
    ("Sample swatches", "utf-8"),
    ("Cafeteria menu", "utf-8"),
    ("Interns' onboarding", "utf-8"),
    ("Tax documents", "utf-8"),
    ("Courier pickup", "utf-8"),
    ("Exhibition loan agreement", "utf-8"),
]
SENTENCES = [
    "Thanks for the update, that works for me.",
    "Could you send the latest version before noon?",
    "I have added my comments in the shared folder.",
    "Let us discuss this in Thursday's meeting.",
    "The numbers look right to me, apart from the freight line.",
    "Please loop in the accounts team as well.",
    "I will be out of office on Monday, back on Tuesday.",
    "Attached is what we agreed on the phone.",
    "Small correction: the room is on the third floor.",
    "Sounds good — go ahead.",
    "Können wir das auf nächste Woche verschieben?",
    "Merci, c'est parfait pour nous.",
    "The supplier confirmed the delivery for next week.",
    "No objections from my side.",
]


def _date(day: dt.datetime) -> str:
    """An RFC 5322 date in the datetime's own offset (-0000 for a naive datetime)."""
    return format_datetime(day)


def _at(day: int, hour: int, minute: int, offset: int = 0, second: int = 0) -> dt.datetime:
    zone = dt.timezone(dt.timedelta(minutes=offset))
    return dt.datetime(2025, 3, day, hour, minute, second, tzinfo=zone)


def _from_line(sender: str, arrival: dt.datetime) -> bytes:
    """An mbox ``From `` line: envelope sender and the arrival time in asctime form (UTC)."""
    t = arrival.astimezone(dt.UTC)
    stamp = f"{DAYS[t.weekday()]} {MONTHS[t.month - 1]} {t.day:2d} {t:%H:%M:%S} {t.year}"
    return f"From {sender} {stamp}\n".encode("ascii")


def _address(person: str) -> str:
    return person.rsplit("<", 1)[1].rstrip(">").lower()


def encoded_word(text: str, charset: str = "utf-8", q: bool = False) -> str:
    """``text`` as one RFC 2047 encoded word (Q or B encoding); ASCII text stays plain."""
    if text.isascii():
        return text
    data = text.encode(charset)
    if q:
        quoted = quopri.encodestring(data, quotetabs=True, header=True).decode("ascii")
        return f"=?{charset}?Q?{quoted.replace('=' + chr(10), '')}?="
    return f"=?{charset}?B?{base64.b64encode(data).decode('ascii')}?="


def leaf(
    ctype: str,
    data: bytes,
    cte: str,
    charset: str | None = None,
    filename: str | None = None,
    disposition: str | None = None,
) -> Message:
    """A single MIME part whose body is ``data`` in the transfer encoding ``cte``."""
    part = Message()
    part["Content-Type"] = ctype + (f'; charset="{charset}"' if charset else "")
    if disposition or filename:
        part["Content-Disposition"] = (disposition or "attachment") + (
            f'; filename="{filename}"' if filename else ""
        )
    part["Content-Transfer-Encoding"] = cte
    if cte == "base64":
        payload = base64.encodebytes(data).decode("ascii")
    elif cte == "quoted-printable":
        payload = quopri.encodestring(data).decode("ascii")
    else:
        payload = data.decode("ascii", "surrogateescape")
    part.set_payload(payload)
    return part


def text(body: str, charset: str = "utf-8", cte: str = "quoted-printable") -> Message:
    if body.isascii() and cte == "quoted-printable":
        cte = "7bit"
    return leaf("text/plain", body.encode(charset), cte, charset)


def html(body: str, charset: str = "utf-8") -> Message:
    return leaf("text/html", body.encode(charset), "quoted-printable", charset)


def multipart(subtype: str, *parts: Message, boundary: str) -> Message:
    container = MIMEMultipart(subtype, boundary=boundary)
    del container["MIME-Version"]
    for part in parts:
        container.attach(part)
    return container


class Box:
    """The messages of one mbox file, written in arrival order (ties: insertion order)."""

    def __init__(self) -> None:
        self.items: list[tuple[dt.datetime, int, str, Message]] = []

    def add(
        self,
        arrival: dt.datetime,
        sender: str,
        headers: list[tuple[str, str]],
        body: Message,
    ) -> None:
        message = body
        top = [(k, v) for k, v in message.items()]
        for key in list(message.keys()):
            del message[key]
        for key, value in headers:
            if value is not None:
                message[key] = value
        if message.is_multipart():
            message["MIME-Version"] = "1.0"
        for key, value in top:
            message[key] = value
        self.items.append((arrival, len(self.items), _address(sender), message))

    def data(self) -> bytes:
        out = io.BytesIO()
        for arrival, _, sender, message in sorted(self.items, key=lambda i: (i[0], i[1])):
            out.write(_from_line(sender, arrival))
            flat = io.BytesIO()
            BytesGenerator(flat, mangle_from_=True, maxheaderlen=0, policy=POLICY).flatten(message)
            data = flat.getvalue()
            out.write(data if data.endswith(b"\n") else data + b"\n")
            out.write(b"\n")
        return out.getvalue()

    def __len__(self) -> int:
        return len(self.items)


def headers(
    mid: str | None,
    date: str | None,
    sender: str,
    to: str,
    subject: str | None,
    *,
    cc: str | None = None,
    irt: str | None = None,
    refs: str | None = None,
    extra: list[tuple[str, str]] | None = None,
) -> list[tuple[str, str]]:
    out = [("From", sender), ("To", to)]
    if cc:
        out.append(("Cc", cc))
    if subject is not None:
        out.append(("Subject", subject))
    if date is not None:
        out.append(("Date", date))
    if mid is not None:
        out.append(("Message-ID", mid))
    if irt:
        out.append(("In-Reply-To", irt))
    if refs:
        out.append(("References", refs))
    return out + (extra or [])


def _arr(day: dt.datetime, minutes: int = 2) -> dt.datetime:
    return day.astimezone(dt.UTC) + dt.timedelta(minutes=minutes)


# --------------------------------------------------------------------------- main, stage 1


def authored_current(box: Box) -> None:
    p = PEOPLE
    # dedup-winner: three copies of one Message-ID. The latest instant is the -0500 copy
    # (11:15Z), second in the file; the +0300 copy has the latest wall clock (13:30) but is
    # 10:30Z. A reply lists the root in References but replies (In-Reply-To) to a message of
    # another thread: References wins.
    root = "<budget-q2.1@northwind.example>"
    subject = "Q2 budget draft"
    body = "Hi all, the Q2 budget draft is in the shared folder. Comments by Friday please."
    for n, (when, via) in enumerate(
        [(_at(4, 11, 0), "direct"), (_at(4, 6, 15, -300), "resent"), (_at(4, 13, 30, 180), "list")]
    ):
        hdr = headers(root, _date(when), p[0], ME, subject, extra=[("X-Delivery", via)])
        box.add(_at(4, 11, 1 + 20 * n), p[0], hdr, text(body))
    r1 = "<budget-q2.2@northwind.example>"
    when = _at(4, 15, 5, 60)
    hdr = headers(r1, _date(when), p[1], p[0], "Re: " + subject, cc=ME, irt=root, refs=root)
    box.add(
        _arr(when),
        p[1],
        hdr,
        text("Travel is high; cap it at 4k? Q&amp;A: <https://northwind.example/b/q2>"),
    )
    when = _at(5, 9, 12)
    hdr = headers(
        "<budget-q2.3@northwind.example>",
        _date(when),
        p[2],
        f"{p[0]}, {ME}",
        "RE: Re: " + subject,
        cc=f"{p[1]}, {p[4]}",
        irt=r1,
        refs=f"{root} {r1}",
    )
    box.add(_arr(when), p[2], hdr, text("Agreed with Marco. Ann from Partner will review too."))
    # references-win: References names the budget root, In-Reply-To a hiring message.
    when = _at(6, 8, 30, 60)
    hdr = headers(
        "<budget-q2.4@northwind.example>",
        _date(when),
        p[4],
        ME,
        "Re: " + subject,
        irt="<hiring-loop.2@northwind.example>",
        refs=f"{root}\n\t<budget-q2.3@northwind.example>",
    )
    box.add(_arr(when), p[4], hdr, text("Reviewed: fine from the partner side."))

    # dedup-tie: two copies at the same instant (10:00 +0100 = 09:00 +0000): the first in the
    # file is kept. no-id: two identical replies without Message-ID both stay.
    root = "<offsite-venue.1@northwind.example>"
    subject = "Offsite venue"
    body = "Two options for the offsite: the boathouse or the old mill. Vote by Thursday."
    hdr = headers(root, _date(_at(5, 10, 0, 60)), p[3], ME, subject, extra=[("X-Copy", "1")])
    box.add(_at(5, 9, 1), p[3], hdr, text(body))
    hdr = headers(root, _date(_at(5, 9, 0)), p[3], ME, subject, extra=[("X-Copy", "2")])
    box.add(_at(5, 9, 3), p[3], hdr, text(body))
    for n in range(2):
        when = _at(5, 12, 0)
        hdr = headers(None, _date(when), p[10], p[3], "Re: " + subject, irt=root)
        box.add(_arr(when, 1 + n), p[10], hdr, text("Boathouse! Count me in."))
    when = _at(5, 7, 0, -300)
    hdr = headers(
        "<offsite-venue.2@northwind.example>",
        _date(when),
        p[8],
        p[3],
        "Re: " + subject,
        cc=ME,
        irt=root,
        refs=root,
    )
    box.add(_at(5, 11, 58), p[8], hdr, text("The old mill has better parking."))

    # missing-root: the root <launch-plan.0@vendor.example> is not in this mailbox (the
    # archive of stage 2 brings it). The earliest message's subject carries three prefixes.
    root = "<launch-plan.0@vendor.example>"
    prior = root
    for n, (when, who, subj, line) in enumerate(
        [
            (_at(6, 9, 40), p[7], "Re: Fwd: RE: Launch plan for the spring line", "Print run ok."),
            (_at(6, 16, 5, 60), p[1], "Re: Launch plan for the spring line", "Dates fixed."),
            (_at(7, 8, 0, -480), p[9], "RE: Launch plan for the spring line", "Booth is ours."),
        ]
    ):
        mid = f"<launch-plan.{n + 1}@vendor.example>"
        refs = root if n == 0 else f"{root} {prior}"
        hdr = headers(mid, _date(when), who, ME, subj, irt=prior, refs=refs)
        box.add(_arr(when), who, hdr, text(line))
        prior = mid

    # irt-chain: replies that carry only In-Reply-To, to a reply, join the root's thread.
    # ghost: In-Reply-To names a message absent from every mailbox; its Date has no zone.
    root = "<hiring-loop.1@northwind.example>"
    subject = "Hiring loop for the junior designer"
    when = _at(3, 14, 0)
    box.add(_arr(when), ME, headers(root, _date(when), ME, p[0], subject), text("Panel: P, M, J."))
    when = _at(3, 15, 30)
    hdr = headers(
        "<hiring-loop.2@northwind.example>",
        _date(when),
        p[0],
        ME,
        "Re: " + subject,
        irt=root,
        refs=root,
    )
    box.add(_arr(when), p[0], hdr, text("I can do Tuesday and Wednesday."))
    when = _at(3, 17, 45, 60)
    hdr = headers(
        "<hiring-loop.3@northwind.example>",
        _date(when),
        p[1],
        ME,
        "Re: Re: " + subject,
        irt="<hiring-loop.2@northwind.example>",
    )
    box.add(_arr(when), p[1], hdr, text("Wednesday afternoon works."))
    when = dt.datetime(2025, 3, 4, 8, 10)  # no zone: -0000
    hdr = headers(
        "<hiring-loop.4@northwind.example>",
        _date(when),
        p[2],
        ME,
        "Re: " + subject,
        irt="<hiring-loop.3@northwind.example>",
    )
    box.add(_at(4, 8, 12), p[2], hdr, text("Booked room 3 for Wednesday."))
    when = dt.datetime(2025, 3, 7, 16, 20)
    hdr = headers(
        "<ghost-reply.1@printworks.example>",
        _date(when),
        p[7],
        ME,
        "RE: Fwd: Re: Paper stock",
        irt="<paper-stock.9@printworks.example> <paper-stock.8@printworks.example>",
    )
    box.add(
        _arr(when.replace(tzinfo=dt.UTC)),
        p[7],
        hdr,
        leaf("text/plain", b"Coated 170gsm is back.\n", "7bit"),
    )

    # refund: the root's clock is late, so the first reply is the thread's earliest message;
    # "Refund:" is not a reply prefix.
    root = "<refund-hall.1@ortiz-builders.example>"
    subject = "Refund: deposit for the hall"
    when = _at(10, 11, 0, -300)
    box.add(_arr(when), p[9], headers(root, _date(when), p[9], ME, subject), text("Deposit?"))
    when = _at(10, 15, 40)
    hdr = headers(
        "<refund-hall.2@northwind.example>",
        _date(when),
        ME,
        p[9],
        "Re: " + subject,
        irt=root,
        refs=root,
    )
    box.add(_at(10, 16, 30), ME, hdr, text("We refund it in full next week."))
    when = _at(10, 17, 5)
    hdr = headers(
        "<refund-hall.3@ortiz-builders.example>",
        _date(when),
        p[9],
        ME,
        "RE: Re: " + subject,
        irt="<refund-hall.2@northwind.example>",
        refs=f"{root} <refund-hall.2@northwind.example>",
    )
    box.add(_arr(when), p[9], hdr, text("Thank you!"))

    # subject decoding: B and Q words, several charsets, adjacent words (the space between
    # them is dropped), an invalid UTF-8 byte (U+FFFD).
    root = "<gruesse.1@kunde.example>"
    when = _at(11, 9, 0, 60)
    subj = encoded_word("Grüße aus München")
    box.add(_arr(when), p[6], headers(root, _date(when), p[6], ME, subj), text("Bis bald!"))
    when = _at(11, 10, 30)
    hdr = headers(
        "<gruesse.2@northwind.example>",
        _date(when),
        ME,
        p[6],
        "Re: " + encoded_word("Grüße aus München", q=True),
        irt=root,
        refs=root,
    )
    box.add(_arr(when), ME, hdr, text("Danke, Jürgen!"))
    when = _at(11, 14, 0, 60)
    subj = encoded_word("Café order for the studio", "iso-8859-1", q=True)
    hdr = headers("<cafe.1@atelier-lefevre.example>", _date(when), p[5], ME, subj)
    box.add(_arr(when), p[5], hdr, text("Deux kilos, s'il vous plaît.", "iso-8859-1"))
    root = "<invoice-eur.1@fjord-supply.example>"
    when = _at(12, 8, 0, 60)
    subj = encoded_word("Invoice €120 overdue", "windows-1252", q=True)
    box.add(_arr(when), p[11], headers(root, _date(when), p[11], ME, subj), text("Reminder."))
    when = _at(12, 9, 15)
    hdr = headers(
        "<invoice-eur.2@northwind.example>",
        _date(when),
        ME,
        p[11],
        "RE: " + encoded_word("Invoice €120 overdue", "windows-1252"),
        irt=root,
        refs=root,
    )
    box.add(_arr(when), ME, hdr, text("Paid this morning."))
    when = _at(12, 11, 0, 180)
    subj = encoded_word("Отчёт за март", "koi8-r")
    hdr = headers("<report-ru.1@partner.example>", _date(when), p[8], ME, subj)
    box.add(_arr(when), p[8], hdr, text("См. вложение.", "koi8-r", "base64"))
    when = _at(12, 13, 0, 60)
    subj = "=?utf-8?Q?Stra=C3=9Fe?= =?utf-8?Q?nfest_2025?="
    hdr = headers("<strassenfest.1@kunde.example>", _date(when), p[6], ME, subj)
    box.add(_arr(when), p[6], hdr, text("Stand 14 ist unserer."))
    when = _at(12, 15, 30)
    subj = "=?utf-8?Q?Men=FC_tasting?="
    hdr = headers("<menu-tasting.1@northwind.example>", _date(when), p[3], ME, subj)
    box.add(_arr(when), p[3], hdr, text("Tasting at 4 in the canteen."))

    # body selection: the thread "Studio move". A text/plain attachment before the body, an
    # HTML-only body with a PDF, HTML before plain in an alternative, Latin-1
    # quoted-printable, a long base64 body, an inline image before the text.
    root = "<studio-move.1@northwind.example>"
    subject = "Studio move"
    when = _at(13, 9, 0)
    long_body = (
        "Hello everyone,\n\nthe studio move is confirmed for the 28th.\n"
        "Please pack your desks by Thursday evening and label every box\n"
        "with your name and the new room number.\n\nThanks, Sam\n"
    )
    hdr = headers(root, _date(when), ME, "team@northwind.example", subject)
    box.add(_arr(when), ME, hdr, text(long_body, "utf-8", "base64"))
    replies = [
        (
            p[0],
            multipart(
                "mixed",
                leaf(
                    "text/plain",
                    b"Box inventory: 14 boxes, 2 plants, 1 lamp.\n",
                    "7bit",
                    "us-ascii",
                    filename="inventory.txt",
                ),
                multipart(
                    "alternative",
                    text("Packing list attached. I will bring extra tape."),
                    html("<p>Packing list <b>attached</b>. I will bring extra tape.</p>"),
                    boundary="==alt-studio-2==",
                ),
                boundary="==mixed-studio-2==",
            ),
        ),
        (
            p[1],
            multipart(
                "mixed",
                html(
                    "<html><body><p>Floor plan &amp; seating</p><p>Desk A goes by the"
                    " window.</p></body></html>"
                ),
                leaf(
                    "application/pdf",
                    b"%PDF-1.4\n" + bytes(range(256)) * 4,
                    "base64",
                    filename="floorplan.pdf",
                ),
                boundary="==mixed-studio-3==",
            ),
        ),
        (
            p[2],
            multipart(
                "alternative",
                html("<div>HTML version: <i>moving truck at 8</i></div>"),
                text("Plain version: moving truck at 8, not 9."),
                boundary="==alt-studio-4==",
            ),
        ),
        (p[5], text("Très bien, à jeudi pour les cartons.", "iso-8859-1")),
        (
            p[8],
            multipart(
                "related",
                leaf(
                    "image/png",
                    b"\x89PNG\r\n\x1a\n" + bytes(range(200)),
                    "base64",
                    filename="map.png",
                    disposition="inline",
                ),
                text("Map of the new street is above; the entrance is round the back."),
                boundary="==rel-studio-6==",
            ),
        ),
    ]
    prior = root
    for n, (who, body_part) in enumerate(replies):
        mid = f"<studio-move.{n + 2}@northwind.example>"
        when = _at(13, 10 + n, 5 * n, OFFSETS[n])
        hdr = headers(mid, _date(when), who, ME, "Re: " + subject, irt=prior, refs=root)
        box.add(_arr(when), who, hdr, body_part)

    # unsubscribe: a newsletter delivered twice (the older copy has an old target that must
    # not appear), a second issue, a shop with an upper-case MAILTO, a list with an ftp
    # target (ignored) on a folded header, one list mailed from two sender domains.
    news = '"Makerspace News" <news@Updates.Makerspace.example>'
    lu_old = (
        "<mailto:leave-news@lists.makerspace.example?subject=unsubscribe>, "
        "<https://makerspace.example/unsub?u=8841&l=old>"
    )
    lu_new = (
        "<mailto:Leave-News@Lists.Makerspace.example?subject=unsubscribe>, "
        "<https://makerspace.example/unsub?u=8841&l=news>"
    )
    for n, (when, lu) in enumerate([(_at(3, 7, 0), lu_old), (_at(3, 7, 45), lu_new)]):
        hdr = headers(
            "<issue-112@makerspace.example>",
            _date(when),
            news,
            ME,
            "Makerspace News #112",
            extra=[("List-Id", "<news.makerspace.example>"), ("List-Unsubscribe", lu)],
        )
        box.add(
            _arr(when, 3 * n), news, hdr, html("<h1>Issue 112</h1><p>Laser cutter is back.</p>")
        )
    when = _at(10, 7, 0)
    hdr = headers(
        "<issue-113@makerspace.example>",
        _date(when),
        news,
        "undisclosed-recipients:;",
        "Makerspace News #113",
        extra=[("List-Id", "<news.makerspace.example>"), ("List-Unsubscribe", lu_new)],
    )
    box.add(_arr(when), news, hdr, html("<h1>Issue 113</h1><p>New 3D printer hours.</p>"))
    shop = "Fjord Shop <deals@shop.fjord-supply.example>"
    when = _at(8, 6, 30, 60)
    hdr = headers(
        "<deal-0308@shop.fjord-supply.example>",
        _date(when),
        shop,
        ME,
        "Spring sale: 20% off tape",
        extra=[
            (
                "List-Unsubscribe",
                "<https://shop.fjord-supply.example/u/7f3a?src=mail>, "
                "<MAILTO:Unsubscribe@Shop.Fjord-Supply.example>",
            )
        ],
    )
    box.add(_arr(when), shop, hdr, text("Everything tape is 20% off this week."))
    old = "Old Designers List <list@old-designers.example>"
    when = _at(9, 12, 0)
    hdr = headers(
        "<odl-4411@old-designers.example>",
        _date(when),
        old,
        "designers@old-designers.example",
        "[odl]   Kerning question",
        extra=[
            ("List-Id", "<designers.old-designers.example>"),
            (
                "List-Unsubscribe",
                "<ftp://old-designers.example/unsub>,\n\t< http://old-designers.example/leave >",
            ),
        ],
    )
    box.add(_arr(when), old, hdr, text("Is optical kerning good enough for logos?"))
    lu_forum = "<mailto:forum-leave@typeforum.example>, <https://typeforum.example/leave>"
    first = "<tf-901@typeforum.example>"
    for n, (who, when) in enumerate([(p[8], _at(14, 9, 0, 540)), (p[11], _at(14, 11, 0))]):
        hdr = headers(
            f"<tf-90{n + 1}@typeforum.example>",
            _date(when),
            who,
            "forum@typeforum.example",
            ("Re: " if n else "") + "[typeforum] Variable fonts on the web",
            irt=first if n else None,
            refs=first if n else None,
            extra=[("List-Id", "<forum.typeforum.example>"), ("List-Unsubscribe", lu_forum)],
        )
        box.add(_arr(when), who, hdr, text("Variable fonts cut our page weight in half."))


def _body(rng: random.Random, n: int, charset: str) -> Message:
    """A filler body: plain text, plain + HTML, or with a small binary attachment."""
    lines = [rng.choice(SENTENCES) for _ in range(rng.randint(1, 3))]
    plain = "\n".join(lines) + "\n"
    kind = rng.choices(["plain", "alt", "pdf"], weights=[6, 3, 2])[0]
    cte = rng.choice(["quoted-printable", "base64", "8bit"])
    if kind == "plain":
        return text(plain, "utf-8", cte)
    alternative = multipart(
        "alternative",
        text(plain, "utf-8", cte),
        html("<p>" + "</p><p>".join(lines) + "</p>"),
        boundary=f"==alt-{n}==",
    )
    if kind == "alt":
        return alternative
    data = bytes(rng.randrange(256) for _ in range(rng.randint(300, 1200)))
    return multipart(
        "mixed",
        alternative,
        leaf("application/pdf", data, "base64", filename=f"document-{n}.pdf"),
        boundary=f"==mixed-{n}==",
    )


def filler(
    box: Box,
    rng: random.Random,
    prefix: str,
    month: int,
    sizes: list[int],
    topics: list[tuple[str, str]],
    copies: int,
    no_date: int = 0,
) -> None:
    """Seeded threads: ``sizes[i]`` messages each, ``copies`` extra duplicate copies."""
    made = []
    for t, size in enumerate(sizes):
        topic, charset = topics[t]
        people = rng.sample(PEOPLE, rng.randint(2, 4))
        start = dt.datetime(
            2025,
            month,
            rng.randint(1, 27),
            rng.randint(7, 18),
            rng.randint(0, 59),
            tzinfo=dt.UTC,
        )
        chain: list[str] = []
        when = start
        for k in range(size):
            who = people[k % len(people)] if k else people[0]
            others = [x for x in people if x != who] or [ME]
            domain = _address(who).split("@")[1]
            mid = f"<{prefix}{t:02d}.{k + 1}.{rng.randrange(10**6):06d}@{domain}>"
            offset = rng.choice(OFFSETS)
            local = when.astimezone(dt.timezone(dt.timedelta(minutes=offset)))
            subject = encoded_word(topic, charset, q=rng.random() < 0.5)
            if k:
                subject = (
                    rng.choice(["Re: ", "Re: ", "RE: ", "Re: Re: ", "Fwd: ", "AW: "]) + subject
                )
            style = rng.random()
            irt = chain[-1] if chain else None
            refs = " ".join(chain) if chain and style < 0.8 else None
            date = _date(local)
            if no_date and k and rng.random() < 0.3:
                date = None
                no_date -= 1
            hdr = headers(
                mid,
                date,
                who,
                ", ".join(others[:2]),
                subject,
                irt=irt,
                refs=refs,
                cc=ME if rng.random() < 0.3 else None,
            )
            box.add(_arr(when, rng.randint(1, 9)), who, hdr, _body(rng, len(box), charset))
            made.append((when, who, hdr, mid))
            chain.append(mid)
            when = when + dt.timedelta(minutes=rng.randint(20, 60 * 30))
    for when, who, hdr, _ in rng.sample(made, copies):
        later = when + dt.timedelta(minutes=rng.randint(5, 600))
        changed = [(k, _date(later) if k == "Date" else v) for k, v in hdr]
        box.add(_arr(later, 1), who, changed, _body(rng, len(box), "utf-8"))


def _sizes(rng: random.Random, threads: int, total: int) -> list[int]:
    sizes = [1] * threads
    for _ in range(total - threads):
        sizes[rng.randrange(threads)] += 1
    return sizes


def mailbox_current(ctx: benchlib.SeedContext) -> None:
    rng = ctx.rng
    box = Box()
    authored_current(box)
    authored = len(box)  # 43 messages in 18 threads
    copies = 4
    filler(box, rng, "f", 3, _sizes(rng, 24, 180 - authored - copies), TOPICS[:24], copies)
    assert len(box) == 180, len(box)
    ctx.write_bytes("inputs/current.mbox", box.data())


# --------------------------------------------------------------------------- main, stage 2


def authored_archive(box: Box) -> None:
    p = PEOPLE
    # forwarded duplicates: the budget root again, later than every copy of current.mbox
    # (it wins); the offsite root with an impossible date (the valid copy stays).
    when = _at(5, 8, 0)
    hdr = headers(
        "<budget-q2.1@northwind.example>",
        _date(when),
        p[0],
        ME,
        "Q2 budget draft",
        extra=[("Resent-From", p[3]), ("X-Delivery", "forwarded")],
    )
    box.add(_arr(when), p[0], hdr, text("Hi all, the Q2 budget draft is in the shared folder."))
    hdr = headers(
        "<offsite-venue.1@northwind.example>",
        "Thu, 31 Feb 2025 10:00:00 +0000",
        p[3],
        ME,
        "Offsite venue",
        extra=[("Resent-From", p[2]), ("X-Copy", "3")],
    )
    box.add(_at(6, 7, 0), p[3], hdr, text("Two options for the offsite."))
    # all-invalid copies: the first in input order (no Date) is kept; its reply is dated,
    # so the root sorts after it.
    root = "<board-minutes.1@northwind.example>"
    for n, date in enumerate([None, "sometime last week"]):
        hdr = headers(
            root, date, p[0], ME, "Board minutes (February)", extra=[("X-Copy", str(n + 1))]
        )
        box.add(_at(1, 8, n), p[0], hdr, text("Minutes attached as text below.\nItem 1: budget."))
    when = _at(1, 9, 30, 60)
    hdr = headers(
        "<board-minutes.2@northwind.example>",
        _date(when),
        p[1],
        p[0],
        "Re: Board minutes (February)",
        irt=root,
        refs=root,
    )
    box.add(_arr(when), p[1], hdr, text("Approved from my side."))
    # all-unknown thread: no valid date at all, blank first_date and last_date.
    root = "<storage-keys.1@northwind.example>"
    hdr = headers(root, "Mon, 03 Mar 2025 25:61:00 +0000", p[3], ME, "Storage room keys")
    box.add(_at(2, 8, 0), p[3], hdr, text("Who has the storage room keys?"))
    hdr = headers(
        "<storage-keys.2@northwind.example>",
        None,
        p[10],
        p[3],
        "Re: Storage room keys",
        irt=root,
        refs=root,
    )
    box.add(_at(2, 8, 30), p[10], hdr, text("Reception has a spare set."))
    # the missing root of the launch thread, older than its replies: the thread's subject
    # becomes its subject.
    when = _at(5, 17, 0, 60)
    hdr = headers(
        "<launch-plan.0@vendor.example>",
        _date(when),
        p[7],
        ME,
        encoded_word("Launch plan for the spring line – draft", q=True),
    )
    box.add(_arr(when), p[7], hdr, text("Draft plan below; print run in week 11."))
    # a copy without a Date, then one with a valid Date: the valid one wins.
    for n, date in enumerate([None, _date(_at(24, 16, 0, 60).replace(month=2))]):
        hdr = headers(
            "<courier-pickup.1@northwind.example>",
            date,
            p[3],
            ME,
            "Courier pickup",
            extra=[("X-Copy", str(n + 1))],
        )
        box.add(_at(3, 8, 40 + n), p[3], hdr, text("The courier comes at 3 pm on Monday."))
    # a cross-file chain: In-Reply-To only, to the last hiring reply of current.mbox.
    when = _at(4, 9, 0)
    hdr = headers(
        "<hiring-loop.5@northwind.example>",
        None,
        p[10],
        ME,
        None,  # no Subject header
        irt="<hiring-loop.4@northwind.example>",
    )
    box.add(_arr(when), p[10], hdr, text("Can I sit in as an observer?"))


def mailbox_archive(ctx: benchlib.SeedContext) -> None:
    rng = ctx.rng
    box = Box()
    authored_archive(box)
    filler(box, rng, "a", 2, _sizes(rng, 10, 48), TOPICS[24:] + TOPICS[:10], 3, no_date=4)
    ctx.write_bytes("inputs/archive.mbox", box.data())


# --------------------------------------------------------------------------- edge


EDGE_TEXT = (
    "Grüße aus Köln — der Vertrag liegt bei.\n"
    "Bitte bis Freitag unterschreiben und zurückschicken. Danke!\n"
)


def mailbox_edge(ctx: benchlib.SeedContext) -> None:
    rng = ctx.rng
    p = PEOPLE
    box = Box()
    # the edge: a text part in a charset Python does not know (its bytes are valid UTF-8),
    # then a 1.5 MB binary attachment; the subject is an encoded word in that charset too.
    contract = rng.randbytes(1_500_000)
    body = multipart(
        "mixed",
        leaf("text/plain", EDGE_TEXT.encode("utf-8"), "8bit", "x-northwind-legacy"),
        leaf("application/octet-stream", contract, "base64", filename="vertrag.bin"),
        boundary="==edge-mixed==",
    )
    when = _at(20, 10, 0, 60)
    hdr = headers(
        "<vertrag-koeln.1@kunde.example>",
        _date(when),
        p[6],
        ME,
        "=?x-northwind-legacy?Q?Vertrag_f=C3=BCr_K=C3=B6ln?=",
    )
    box.add(_arr(when), p[6], hdr, body)
    when = _at(20, 12, 0)
    hdr = headers(
        "<vertrag-koeln.2@northwind.example>",
        _date(when),
        ME,
        p[6],
        "Re: Vertrag",
        irt="<vertrag-koeln.1@kunde.example>",
        refs="<vertrag-koeln.1@kunde.example>",
    )
    box.add(_arr(when), ME, hdr, text("Received, thank you. Signed copy follows."))
    ctx.write_bytes("inputs/current.mbox", box.data())
    archive = Box()
    when = _at(19, 9, 0)
    hdr = headers("<kickoff.1@kunde.example>", _date(when), p[6], ME, "Kickoff")
    archive.add(_arr(when), p[6], hdr, text("Kickoff on the 20th in Cologne."))
    ctx.write_bytes("inputs/archive.mbox", archive.data())
