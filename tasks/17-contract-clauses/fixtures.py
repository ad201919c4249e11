"""Fixture generator of task 17: 120 paginated vendor agreements, then 10 late ones.

``contracts`` writes ``inputs/contracts/`` (120 agreements, about 29 MB) and
``inputs/clause_aliases.json``; ``review_set`` (stage 2) writes ``inputs/review_set.csv``;
``late_contracts`` (stage 3) writes ``inputs/contracts-late/`` (10 agreements whose headings
are often wrapped across two lines); ``edge_contracts`` writes the whole edge fixture.

An agreement is a title page, a table of contents, numbered sections (the five extracted
clause types among other recognized and unrecognized sections), a signature block and
exhibits: a rate card of a few thousand lines (most of the bytes), service levels and data
processing terms. Pages hold 52-60 lines; every page after the first starts with a line that
holds a form feed (the running header follows it on the same line, or on the next line, by
agreement). Filler prose never contains the words of a clause form (notice, renew, governed,
liability, retain, days, months), a digit or a dollar sign, so every statement is one the
generator placed: the per-contract plan (``plan_contract``), the decoys (form words in
sections no extracted clause reaches), and the anchors of task.toml (records without a file:
``contract``, ``clause``, ``heading`` and ``body``, see ``apply_anchor``).

Every agreement draws from its own stream ``random.Random(f"{seed}/contract/{id}")``, so an
anchor edit changes only its own agreement.
"""

from __future__ import annotations

import json
import random

import benchlib

TYPES = [
    "auto_renewal", "termination_notice_days", "governing_law", "liability_cap",
    "data_retention_days",
]  # fmt: skip
ALIASES = {
    "auto_renewal": ["Term and Renewal", "Renewal", "Automatic Renewal", "Renewal Term"],
    "termination_notice_days": [
        "Termination", "Termination for Convenience", "Termination Rights", "Ending the Agreement",
    ],  # fmt: skip
    "governing_law": ["Governing Law", "Choice of Law", "Applicable Law"],
    "liability_cap": ["Limitation of Liability", "Limitations of Liability", "Liability Cap"],
    "data_retention_days": [
        "Data Retention", "Retention of Customer Data", "Record  Retention", "Retention and Deletion",
    ],  # fmt: skip
    "definitions": ["Definitions", "Definitions and Interpretation"],
    "services": ["Services", "Scope of Services"],
    "fees": ["Fees and Payment", "Charges and Invoicing", "Payment Terms"],
    "service_levels": ["Service Levels", "Service Level Agreement"],
    "confidentiality": ["Confidentiality", "Confidential Information"],
    "data_protection": ["Data Protection", "Data Processing"],
    "intellectual_property": ["Intellectual Property", "Ownership of Work Product"],
    "warranties": ["Warranties", "Representations and Warranties"],
    "indemnification": ["Indemnification", "Indemnities"],
    "insurance": ["Insurance"],
    "notices": ["Notices", "Communications"],
    "assignment": ["Assignment", "Assignment and Subcontracting"],
    "force_majeure": ["Force Majeure"],
    "entire_agreement": ["Entire Agreement", "General Provisions"],
    "pricing": ["Rate Card", "Pricing Schedule"],
    "security": ["Security Requirements", "Information Security"],
    "language": ["Language", "Maßgebliche Sprache"],
}
# Headings that are not in clause_aliases.json: ordinary text to a parser.
UNRECOGNIZED = [
    "Transition Assistance", "Non-Solicitation", "Publicity", "Audit Rights", "Subcontractors",
    "Dispute Resolution", "Export Control", "Anti-Bribery", "Severability", "Survival",
    "Counterparts", "Waiver", "Business Continuity", "Term",
]  # fmt: skip
MAIN_ORDER = [
    "definitions", "services", "fees", "service_levels", "confidentiality", "data_protection",
    "data_retention_days", "intellectual_property", "warranties", "indemnification",
    "liability_cap", "insurance", "auto_renewal", "termination_notice_days", "governing_law",
    "notices", "assignment", "force_majeure", "entire_agreement",
]  # fmt: skip
VENDORS = [
    "Northwind Analytics Ltd.", "Brightwater Logistics Inc.", "Kestrel Cloud Services GmbH",
    "Müller Datentechnik AG", "Société Lumière SARL", "Bluefin Payroll LLC",
    "Oakridge Facilities Co.", "Zephyr Telecom Ltd.", "Ångström Instruments AB",
    "Cobalt Print & Mail Inc.", "Harrow Security Services Ltd.", "Lumen Learning Systems Inc.",
    "Pinecrest Catering LLC", "Quayside Freight Ltd.", "Redwood HR Solutions Inc.",
    "Saffron Translation Services Ltd.", "Tidewater Energy Partners LLC", "Umbra Design Studio",
    "Vireo Software Inc.", "Wexford Legal Process Ltd.", "Yellowstone Fleet Leasing Corp.",
    "Ząbkowice Components Sp. z o.o.", "Atlas Records Management Inc.", "Beacon Helpdesk Ltd.",
    "Cedar Office Supplies Co.", "Dovetail Staffing LLC", "Everglade Water Services Inc.",
    "Foxglove Marketing Ltd.", "Granite Data Centres Ltd.", "Høglund Maritime AS",
]  # fmt: skip
KINDS = [
    "MASTER SERVICES AGREEMENT", "SOFTWARE SUBSCRIPTION AGREEMENT", "SUPPLY AGREEMENT",
    "PROFESSIONAL SERVICES AGREEMENT", "MAINTENANCE AND SUPPORT AGREEMENT",
]  # fmt: skip
CUSTOMER = "Harbor Retail Group, Inc."
WORDS = {
    6: "six", 12: "twelve", 24: "twenty-four", 36: "thirty-six", 30: "thirty", 45: "forty-five",
    60: "sixty", 90: "ninety", 120: "one hundred twenty", 180: "one hundred eighty",
    365: "three hundred sixty-five", 14: "fourteen", 10: "ten", 18: "eighteen",
}  # fmt: skip
JURISDICTIONS = [
    "the State of New York", "the State of Delaware", "the State of California",
    "England and Wales", "the Province of Ontario", "Ireland", "the Commonwealth of Massachusetts",
    "the State of Washington", "Singapore", "the Federal Republic of Germany",
]  # fmt: skip

# Filler prose: none of these pieces holds a form word, a digit or a dollar sign.
SUBJECTS = [
    "Vendor", "Customer", "Each party", "The receiving party", "Either party",
    "The Vendor Account Manager", "The steering committee", "The disclosing party",
    "Vendor Personnel", "Customer's project lead", "The parties", "Any Affiliate of Customer",
]  # fmt: skip
VERBS = [
    "shall maintain", "will provide", "shall document", "may request", "shall promptly report",
    "will cooperate in", "shall review", "may audit", "shall comply with", "shall coordinate",
    "will make available", "shall not disclose", "may approve", "shall keep confidential",
    "shall perform", "will escalate", "shall protect", "may update", "shall support",
]  # fmt: skip
OBJECTS = [
    "all applicable security standards", "the agreed service descriptions",
    "accurate records of the Services", "reasonable assistance", "the change control procedure",
    "the acceptance criteria set out in the relevant Order Form", "its quality management system",
    "the Deliverables", "any Confidential Information of the other party",
    "the business continuity plan", "the governance reports", "each agreed milestone",
    "the incident management procedure", "the Documentation", "the approved subcontractors",
    "the operating manual", "a named contact for escalations", "the implementation plan",
    "all reasonable instructions of Customer", "the technical specifications",
]  # fmt: skip
TAILS = [
    "", "", " in a timely manner", " at its own cost", " as reasonably requested by the other party",
    " in accordance with Good Industry Practice", " during the Term",
    " without undue delay", " in writing", " through the agreed governance forum",
    " to the extent permitted by applicable law", " for each Service Period",
    " in line with the Documentation", " as described in the relevant Order Form",
]  # fmt: skip
OPENERS = [
    "", "", "", "Subject to the terms of this Agreement, ", "Where practicable, ",
    "Unless otherwise agreed in writing, ", "For the avoidance of doubt, ", "In addition, ",
    "Without limiting the foregoing, ", "Except as set out in an Order Form, ",
]  # fmt: skip
DEFINED = [
    "Affiliate", "Business Day", "Confidential Information", "Customer Data", "Deliverables",
    "Documentation", "Effective Date", "Good Industry Practice", "Order Form", "Personnel",
    "Service Period", "Services", "Term", "Work Product", "Authorised User", "Change Request",
]  # fmt: skip
UNITS = ["EA", "HR", "MO", "USER", "GB", "SITE", "LOT", "KIT"]
ITEMS = [
    "Premium support hours", "Onsite engineer visit", "Cloud storage block", "Licence seat",
    "Label printer ribbon", "Courier collection", "Translation page", "Security guard shift",
    "Catering service cover", "Pallet storage week", "Data migration run", "Training session",
    "Hardware refresh unit", "Network port activation", "Archive box retrieval",
    "Background screening check", "Payroll run", "Fleet vehicle lease", "Print and mail pack",
    "Helpdesk ticket bundle",
]  # fmt: skip
TIERS = ["standard", "priority", "tier 1", "tier 2", "tier 3", "regional", "national", "express"]


def number(value: int, rng: random.Random) -> str:
    """N as digits, or as words followed by the digits in parentheses."""
    if value in WORDS and rng.random() < 0.45:
        return f"{WORDS[value]} ({value})"
    return str(value)


def money(amount: str) -> str:
    """`$1,500,000` from "1500000", `$750,000.50` from "750000.50"."""
    whole, _, cents = amount.partition(".")
    return "$" + f"{int(whole):,}" + (f".{cents}" if cents else "")


def sentence(rng: random.Random) -> str:
    opener, subject = rng.choice(OPENERS), rng.choice(SUBJECTS)
    if opener and subject.startswith("The "):
        subject = "the " + subject[4:]
    text = opener + subject + " " + rng.choice(VERBS) + " " + rng.choice(OBJECTS) + rng.choice(TAILS)
    return text[0].upper() + text[1:] + "."


def filler(rng: random.Random, low: int = 2, high: int = 6) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(low, high)))


# --- the clause texts of the five types ---------------------------------------------------


def renewal_text(value: object, rng: random.Random) -> str:
    if value == "no":
        return rng.choice([
            "This Agreement does not automatically renew. Any extension requires an amendment signed by both parties.",
            "The Initial Term is three years. This Agreement does not automatically renew, and the parties shall review the Services before it expires.",
        ])  # fmt: skip
    if value == "unsupported":
        return rng.choice([
            "At the end of the Initial Term the Agreement continues for successive one-year periods unless either party objects in writing.",
            "Any extension of the Term shall be agreed by the parties in writing before the end of the Initial Term.",
        ])  # fmt: skip
    n = number(int(str(value)), rng)
    return rng.choice([
        f"Upon expiry of the Initial Term, this Agreement renews for {n} months unless either party objects in writing.",
        f"This Agreement automatically renews for {n} months at the end of each term, on the terms then in force.",
        f"The Initial Term is two years. Thereafter the Agreement renews for {n} months at a time.",
    ])  # fmt: skip


def termination_text(value: object, vendor: str, rng: random.Random) -> str:
    if value == "unsupported":
        n = number(rng.choice([30, 60, 90]), rng)
        return rng.choice([
            f"Either party may terminate this Agreement upon {n} days' prior written notice to the other party.",
            "Either party may terminate this Agreement for a material breach that remains uncured after a reasonable cure period.",
        ])  # fmt: skip
    n = number(int(str(value)), rng)
    return rng.choice([
        f"Either party may terminate this Agreement for convenience by giving written notice of at least {n} days to the other party.",
        f"Customer may terminate this Agreement at any time by notice to {vendor} of not less than {n} days.",
        f"Termination for convenience requires notice to the other party given no later than {n} days before the termination date.",
    ])  # fmt: skip


def law_text(value: object, rng: random.Random) -> str:
    if value == "unsupported":
        j = rng.choice(JURISDICTIONS)
        return rng.choice([
            f"This Agreement is governed by and construed in accordance with the laws of {j}.",
            f"The courts of {j} have exclusive jurisdiction over any dispute arising from this Agreement.",
        ])  # fmt: skip
    return rng.choice([
        f"This Agreement is governed by the laws of {value}, without regard to its conflict of laws rules.",
        f"This Agreement and any dispute arising from it shall be governed by the laws of {value}.",
        f"The parties agree that this Agreement is governed by the laws of {value}; the courts there have jurisdiction.",
    ])  # fmt: skip


def liability_text(value: object, rng: random.Random) -> str:
    if value == "unsupported":
        return "Each party's aggregate liability is limited to the total charges paid by Customer in the twelve-month period before the claim arose."
    kind, _, amount = str(value).partition(":")
    if kind == "fees_months":
        n = number(int(amount), rng)
        return rng.choice([
            f"Vendor's total liability under this Agreement is limited to {n} months of fees paid by Customer.",
            f"Except for breaches of confidentiality, each party's aggregate liability shall not exceed an amount equal to {n} months of fees.",
        ])  # fmt: skip
    return rng.choice([
        f"Each party's aggregate liability arising out of this Agreement shall not exceed {money(amount)} in total.",
        f"In no event shall either party's total liability exceed {money(amount)} for all claims in any contract year.",
    ])  # fmt: skip


def retention_text(value: object, rng: random.Random) -> str:
    if value == "unsupported":
        return rng.choice([
            "Customer Data is deleted within a commercially reasonable period after the end of the Services.",
            "Backups are kept in line with Vendor's standard backup schedule and then securely destroyed.",
        ])  # fmt: skip
    n = number(int(str(value)), rng)
    return rng.choice([
        f"Vendor shall retain Customer Data for no longer than {n} days after termination, and shall then delete it.",
        f"On termination Vendor will retain backups of Customer Data for {n} days before secure deletion.",
        f"Vendor may retain Customer Data for up to {n} days to support the exit plan.",
    ])  # fmt: skip


# Decoys: form words in sections no extracted clause's body reaches.
DECOYS = {
    "fees": "Vendor may change its list prices on notice given at least 45 days before the change takes effect.",
    "insurance": "Vendor shall maintain general liability insurance of at least $2,000,000 per occurrence.",
    "confidentiality": "The receiving party may retain one archival copy for 30 days after a request for return.",
    "definitions": "“Renewal Term” means each period for which this Agreement renews for 12 months.",
    "notices": "A notice sent by courier is deemed received 3 days after dispatch.",
}


# --- layout --------------------------------------------------------------------------------


class Doc:
    """Lines of an agreement, paginated as they are added."""

    def __init__(self, cid: str, kind: str, vendor: str, rng: random.Random) -> None:
        self.lines: list[str] = []
        self.page = 1
        self.used = 0
        self.page_len = rng.randint(52, 60)
        self.width = rng.randint(66, 78)
        self.indent = rng.choice(["", "", "    "])
        self.blank = rng.choice(["", "", "", self.indent or "  "])  # some blank lines hold spaces
        self.header_alone = rng.random() < 0.35  # the form feed alone on its line
        self.header = f"{cid} {kind.title()} ({vendor})"

    def new_page(self) -> None:
        self.page += 1
        head = f"{self.header}{' ' * 6}Page {self.page}"
        if self.header_alone:
            self.lines += ["\f", head, ""]
            self.used = 3
        else:
            self.lines += ["\f" + head, ""]
            self.used = 2

    def room(self) -> int:
        return self.page_len - self.used

    def add(self, lines: list[str], keep: bool = False) -> None:
        if keep and len(lines) > self.room():
            self.new_page()
        for line in lines:
            if self.room() <= 0:
                self.new_page()
                if not line.strip():
                    continue
            self.lines.append(line)
            self.used += 1

    def wrap(self, text: str, indent: str | None = None) -> list[str]:
        pad = self.indent if indent is None else indent
        out, cur = [], pad
        for word in text.split(" "):
            if len(cur) + len(word) + 1 > self.width and cur.strip():
                out.append(cur)
                cur = pad + word
            else:
                cur = cur + word if not cur.strip() else cur + " " + word
        out.append(cur)
        # never a short last line (two words could spell a heading: "applicable law.")
        while len(out) > 1 and len(out[-1].split()) < 3 and len(out[-2].split()) > 3:
            head, moved = out[-2].rsplit(" ", 1)
            out[-2], out[-1] = head, pad + moved + " " + out[-1].strip()
        return out

    def paragraph(self, text: str, keep: bool = False) -> None:
        self.add(self.wrap(text) + [self.blank], keep)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def heading_line(style: int, num: str, title: str, upper: bool) -> str:
    words = title.upper() if upper else title
    if style == 0:
        return f"{num}. {words}"
    if style == 1:
        return f"Section {num}. {words}."
    if style == 2:
        return f"ARTICLE {num} {words}" if upper else f"Article {num} {words}"
    if style == 3:
        return f"{num}.1  {words}:"
    return f"  {num}.  {words}"


# --- the plan of one agreement -------------------------------------------------------------


def plan_contract(rng: random.Random) -> dict[str, object]:
    """Random values of the five clause types ('absent' / 'unsupported' for missing ones)."""
    def pick(values: list[object]) -> object:
        roll = rng.random()
        return "absent" if roll < 0.05 else "unsupported" if roll < 0.11 else rng.choice(values)

    return {
        "auto_renewal": pick([12, 12, 12, 24, 24, 36, 6, "no", "no"]),
        "termination_notice_days": pick([30, 30, 60, 60, 90, 45, 120, 180]),
        "governing_law": pick(list(JURISDICTIONS)),
        "liability_cap": pick(["usd:1000000", "usd:500000", "usd:2000000", "usd:250000",
                               "usd:5000000", "fees_months:12", "fees_months:12",
                               "fees_months:24", "fees_months:6"]),  # fmt: skip
        "data_retention_days": pick([30, 30, 60, 90, 90, 180, 365]),
    }


def clause_body(kind: str, value: object, vendor: str, rng: random.Random) -> str:
    if kind == "auto_renewal":
        return renewal_text(value, rng)
    if kind == "termination_notice_days":
        return termination_text(value, vendor, rng)
    if kind == "governing_law":
        return law_text(value, rng)
    if kind == "liability_cap":
        value = value if value == "unsupported" or "." in str(value) else f"{value}"
        return liability_text(value, rng)
    return retention_text(value, rng)


def build(cid: str, rng: random.Random, anchors: list[dict], aliases: dict, late: bool) -> str:
    """The text of one agreement (anchors: this contract's anchor records)."""
    vendor = rng.choice(VENDORS)
    kind = rng.choice(KINDS)
    doc = Doc(cid, kind, vendor, rng)
    values = plan_contract(rng)
    style = rng.randrange(5)
    upper = rng.random() < 0.5
    special = {a["clause"]: a for a in anchors}
    decoys = {a["decoy_in"]: a["decoy"] for a in anchors if a.get("decoy")}
    # retention lives in the main body, in the data processing exhibit, or both
    retention_at = rng.choice(["main", "main", "exhibit", "both"])
    if "data_retention_days" in special:
        retention_at = "main"
    both_stated = rng.random() < 0.5 and isinstance(values["data_retention_days"], int)
    if retention_at == "both" and both_stated:  # the exhibit repeats the clause, another value
        values["exhibit_retention"] = rng.choice([v for v in (30, 60, 90, 180, 365) if v != values["data_retention_days"]])

    order = [k for k in MAIN_ORDER if not (k == "data_retention_days" and retention_at == "exhibit")]
    for k in ("service_levels", "insurance", "force_majeure", "intellectual_property"):
        if k in order and rng.random() < 0.2:
            order.remove(k)
    sections: list[tuple[str, str]] = []  # (kind, title); kind "" for unrecognized
    for k in order:
        if k in special and special[k].get("absent"):
            continue
        if k in TYPES and values[k] == "absent" and k not in special:
            continue
        sections.append((k, rng.choice(aliases[k])))
        if rng.random() < 0.16:
            sections.append(("", rng.choice(UNRECOGNIZED)))

    # title page and contents
    doc.add(["", " " * 8 + kind, "", f"    Agreement No. {cid}", "", f"    between {CUSTOMER}",
             f"    and {vendor}", ""])  # fmt: skip
    doc.paragraph(filler(rng, 3, 5))
    doc.add(["CONTENTS", ""])
    for n, (_, title) in enumerate(sections, start=1):
        label = f"{n}. {title} "
        doc.add([label + "." * max(4, doc.width - len(label) - 4) + f" {n + 1 + n // 2:>3}"])
    doc.new_page()

    for n, (k, title) in enumerate(sections, start=1):
        anchor = special.get(k)
        head = heading_line(style, str(n), title, upper)
        if anchor is not None:
            emit_anchor(doc, anchor, head, late, rng)
            continue
        head_lines = wrapped(head, aliases, rng) if late and k and rng.random() < 0.6 else [head]
        if k in TYPES:
            if k == "data_retention_days" and retention_at == "both" and both_stated:
                body = clause_body(k, values[k], vendor, rng)  # the exhibit states another value
            elif k == "data_retention_days" and retention_at == "both":
                body = "Vendor's obligations for Customer Data after termination are set out in the Data Processing Terms."
            else:
                body = clause_body(k, values[k], vendor, rng)
            intro = filler(rng, 1, 2) + " " if rng.random() < 0.3 else ""
            doc.add(head_lines + [doc.blank] + doc.wrap(intro + body) + [doc.blank], keep=True)
        else:
            doc.add(head_lines + [doc.blank], keep=True)
            if k in DECOYS and rng.random() < 0.7:
                doc.paragraph(filler(rng, 1, 3) + " " + DECOYS[k])
            if k in decoys:
                doc.paragraph(decoys[k])
        for _ in range(rng.randint(1, 4) if k != "definitions" else 0):
            doc.paragraph(filler(rng))
        if k == "definitions":
            for word in rng.sample(DEFINED, 10):
                doc.paragraph(f"“{word}” means {rng.choice(OBJECTS)}{rng.choice(TAILS)}.")

    doc.add(["IN WITNESS WHEREOF the parties have executed this Agreement.", doc.blank,
             f"For {CUSTOMER}: ____________________", doc.blank,
             f"For {vendor}: ____________________"])  # fmt: skip
    exhibits(doc, rng, style, upper, aliases, values, retention_at, special, vendor, late)
    return doc.text()


def wrapped(head: str, aliases: dict, rng: random.Random) -> list[str]:
    """A heading split across two lines, neither of which is a heading by itself."""
    words = head.split()
    cuts = list(range(2, len(words)))
    rng.shuffle(cuts)
    for cut in cuts:
        first, second = " ".join(words[:cut]), "    " + " ".join(words[cut:])
        if not is_heading(first, aliases) and not is_heading(second, aliases):
            return [first, second]
    return [head]


def is_heading(line: str, aliases: dict) -> bool:
    """The generator's own view of the heading rule (only to keep wrapped headings honest)."""
    text = line.strip()
    parts = text.split(None, 1)
    if parts and parts[0].lower() in ("section", "article") and len(parts) > 1:
        text = parts[1]
    parts = text.split(None, 1)
    if parts and parts[0].rstrip(".").replace(".", "").isdigit() and len(parts) > 1:
        text = parts[1]
    text = text[:-1] if text[-1:] in ".:" else text
    text = " ".join(text.split()).casefold()
    return any(text == " ".join(a.split()).casefold() for names in aliases.values() for a in names)


def emit_anchor(doc: Doc, anchor: dict, head: str, late: bool, rng: random.Random) -> None:
    """An anchor clause: its own heading line(s) and body, then optional extras.

    Keys: ``heading`` (the heading line; ``|`` separates the lines of a wrapped heading),
    ``body`` (a paragraph, or explicit lines separated by ``|``), ``page_break_after``
    (a page break after that many body lines), ``then`` (an unrecognized section that
    follows, with filler), ``tail`` (a paragraph after the body).
    """
    heading = anchor.get("heading") or head
    lines = heading.split("|")
    body = anchor["body"]
    body_lines = body.split("|") if "|" in body else doc.wrap(body)
    cut = int(anchor.get("page_break_after", 0))
    if cut:
        doc.add(lines + body_lines[:cut], keep=True)
        doc.new_page()
        doc.add(body_lines[cut:] + [doc.blank])
    else:
        doc.add(lines + [doc.blank] + body_lines + [doc.blank], keep=True)
    if anchor.get("tail"):
        doc.paragraph(anchor["tail"])
    if "|" not in body and not anchor.get("then"):
        for _ in range(rng.randint(1, 3)):
            doc.paragraph(filler(rng))
    if anchor.get("then"):
        doc.add(anchor["then"].split("|") + [doc.blank], keep=True)
        doc.paragraph(filler(rng))
        doc.paragraph(filler(rng))


def exhibits(doc: Doc, rng: random.Random, style: int, upper: bool, aliases: dict,
             values: dict, retention_at: str, special: dict, vendor: str, late: bool) -> None:  # fmt: skip
    doc.new_page()
    doc.add(["EXHIBIT A", "", heading_line(0, "1", rng.choice(aliases["pricing"]), upper), ""])
    doc.paragraph(filler(rng, 1, 2))
    rows = rng.randint(2100, 3000) if not late else rng.randint(600, 1000)
    base = rng.randint(10000, 89999)
    for i in range(rows):
        item = f"{ITEMS[(base + i * 7) % len(ITEMS)]}, {TIERS[(base + i) % len(TIERS)]}"
        price = rng.randint(500, 990000)
        doc.add([f"  SKU-{base + i:05d}  {item:<44} {UNITS[i % len(UNITS)]:<5}"
                 f" {'$' + format(price / 100, ',.2f'):>12}"])  # fmt: skip
    doc.new_page()
    doc.add(["EXHIBIT B", "", heading_line(0, "1", rng.choice(aliases["service_levels"]), upper), ""])
    for sev in ("Severity 1", "Severity 2", "Severity 3", "Severity 4"):
        doc.add([f"  {sev:<12} response {rng.randint(1, 8)} hours   resolve within {rng.randint(1, 10)} days"])
    doc.add([doc.blank])
    for _ in range(rng.randint(8, 14)):
        doc.paragraph(filler(rng))
    doc.new_page()
    doc.add(["EXHIBIT C", "", heading_line(0, "1", rng.choice(aliases["data_protection"]), upper), ""])
    for _ in range(rng.randint(3, 6)):
        doc.paragraph(filler(rng))
    anchor = special.get("data_retention_days", {})
    if retention_at in ("exhibit", "both") or anchor.get("exhibit_body"):
        head = heading_line(0, "2", rng.choice(aliases["data_retention_days"]), upper)
        head_lines = wrapped(head, aliases, rng) if late and rng.random() < 0.6 else [head]
        body = anchor.get("exhibit_body") or clause_body(
            "data_retention_days", values.get("exhibit_retention", values["data_retention_days"]), vendor, rng
        )
        doc.add(head_lines + [doc.blank] + doc.wrap(body) + [doc.blank], keep=True)
        for _ in range(rng.randint(1, 3)):
            doc.paragraph(filler(rng))
    doc.add([heading_line(0, "3", rng.choice(aliases["security"]), upper), doc.blank], keep=True)
    for _ in range(rng.randint(6, 12)):
        doc.paragraph(filler(rng))


# --- generators ----------------------------------------------------------------------------

MAIN_CONTRACTS = 120
LATE_CONTRACTS = 10


def contract_ids(ctx: benchlib.SeedContext, count: int, taken: set[str], name: str) -> list[str]:
    rng = ctx.stream(name)
    ids: list[str] = []
    while len(ids) < count:
        cid = f"VA-{rng.randint(1000, 9999)}"
        if cid not in taken and cid not in ids:
            ids.append(cid)
    return ids


def anchor_records(ctx: benchlib.SeedContext, names: list[str]) -> dict[str, list[dict]]:
    by_contract: dict[str, list[dict]] = {}
    for name in names:
        for record in ctx.anchor(name):
            by_contract.setdefault(record["contract"], []).append(record)
    return by_contract


MAIN_ANCHORS = [
    "caps-liability", "amount-format", "notice-after-days", "notices-plural", "retained-word",
    "law-wrapped", "law-construed", "renew-no", "statement-next-page", "unrecognized-heading",
    "exhibit-second-clause", "two-statements", "no-heading", "heading-styles",
    "alias-sentence", "first-of-two-forms", "blank-tail", "casefold-heading", "jurisdiction-line-end",
]  # fmt: skip
LATE_ANCHORS = ["late-wrapped"]


def write_folder(ctx: benchlib.SeedContext, folder: str, ids: list[str],
                 anchors: dict[str, list[dict]], late: bool) -> None:  # fmt: skip
    for cid in sorted(ids):
        rng = random.Random(f"{ctx.seed}/contract/{cid}")
        ctx.write_text(f"{folder}/{cid}.txt", build(cid, rng, anchors.get(cid, []), ALIASES, late))


def main_ids(ctx: benchlib.SeedContext) -> list[str]:
    anchored = set(anchor_records(ctx, MAIN_ANCHORS)) | {r["contract"] for r in ctx.anchor("review-set")}
    fill = contract_ids(ctx, MAIN_CONTRACTS - len(anchored), anchored, "main-ids")
    return sorted(anchored | set(fill))


def contracts(ctx: benchlib.SeedContext) -> None:
    anchors = anchor_records(ctx, MAIN_ANCHORS)
    for record in ctx.anchor("review-set"):
        anchors.setdefault(record["contract"], []).extend(review_clauses(record))
    write_folder(ctx, "inputs/contracts", main_ids(ctx), anchors, late=False)
    ctx.write_text("inputs/clause_aliases.json", json.dumps(ALIASES, indent=2, ensure_ascii=False) + "\n")


def review_clauses(record: dict) -> list[dict]:
    """Anchor-like clause records from a review-set row (values fixed by task.toml)."""
    rng = random.Random(f"review/{record['contract']}")
    out = []
    for kind, key in (("auto_renewal", "renewal"), ("liability_cap", "liability"),
                      ("governing_law", "law")):  # fmt: skip
        value = record[key]
        if value == "keep":
            continue
        if value == "absent":
            out.append({"contract": record["contract"], "clause": kind, "absent": True})
            continue
        if value == "unsupported":
            body = clause_body(kind, "unsupported", "the Vendor", rng)
        elif kind == "auto_renewal":
            body = renewal_text("no" if value == "no" else int(value), rng)
        else:
            body = clause_body(kind, value, "the Vendor", rng)
        out.append({"contract": record["contract"], "clause": kind, "body": body})
    return out


def review_set(ctx: benchlib.SeedContext) -> None:
    rows = [{"contract_id": r["contract"], "vendor_contact": r["contact"]} for r in ctx.anchor("review-set")]
    ctx.rng.shuffle(rows)
    ctx.write_csv("inputs/review_set.csv", ["contract_id", "vendor_contact"], rows)


def late_contracts(ctx: benchlib.SeedContext) -> None:
    taken = set(main_ids(ctx))
    anchors = anchor_records(ctx, LATE_ANCHORS)
    ids = sorted(set(anchors) | set(contract_ids(ctx, LATE_CONTRACTS - len(anchors), taken | set(anchors), "late-ids")))
    write_folder(ctx, "inputs/contracts-late", ids, anchors, late=True)


EDGE_PLAIN = """\
                MAINTENANCE AND SUPPORT AGREEMENT

    Agreement No. VA-7301

1. Definitions
“Services” means the maintenance services described in this Agreement.

2. Term and Renewal
This Agreement renews for 12 months at the end of each term.

3. Limitation of Liability
Each party's aggregate liability shall not exceed $400,000 in total.

4. Governing Law
This Agreement is governed by the laws of the State of Oregon.
\fVA-7301 Maintenance And Support Agreement      Page 2

5. Notices
Communications are sent to the addresses in the Order Form.
"""

EDGE_WRAPPED = """\
                MAINTENANCE AND SUPPORT AGREEMENT

    Agreement No. VA-7302

1. Definitions
“Services” means the maintenance services described in this Agreement.
2.
TERM AND RENEWAL
This Agreement renews for 24 months at the end of each term.
3. LIMITATION OF
   LIABILITY
Each party's aggregate liability shall not exceed $600,000 in total.
Section 4.
Governing Law
This Agreement is governed by the laws of the State of Idaho.
\fVA-7302 Maintenance And Support Agreement      Page 2

5. Notices
Communications are sent to the addresses in the Order Form.
"""


def edge_contracts(ctx: benchlib.SeedContext) -> None:
    ctx.write_text("inputs/contracts/VA-7301.txt", EDGE_PLAIN)
    ctx.write_text("inputs/contracts-late/VA-7302.txt", EDGE_WRAPPED)
    ctx.write_text("inputs/clause_aliases.json", json.dumps(ALIASES, indent=2, ensure_ascii=False) + "\n")
    ctx.write_csv("inputs/review_set.csv", ["contract_id", "vendor_contact"],
                  [{"contract_id": "VA-7301", "vendor_contact": "ops@example.com"}])  # fmt: skip
