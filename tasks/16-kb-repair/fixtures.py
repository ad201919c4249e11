"""Fixture generator of task 16: a Markdown knowledge base of 250 documents plus assets.

``knowledge_base`` writes ``inputs/kb/`` and ``inputs/redirects.json``. The named cases live
in a dozen hand-written documents (``ANCHOR_DOCS``, each case commented); about 235 filler
documents link to each other, to their headings, to assets and to the web, and carry fenced
code with link-like lines, all drawn from the entry's own stream. The stage-2 renames are a
static file (stages/renames/inputs/renames.csv) that moves three hand-written documents.
"""

from __future__ import annotations

import posixpath
import random
import unicodedata

import benchlib

FENCE = "```"
TRAIL = "  "  # trailing spaces: of a heading, of a closing fence line

# The hand-written documents: every named case of the task. Paths are kb-relative.
ANCHOR_DOCS: dict[str, str] = {
    # Root page: plain relative links, a redirected one, an external one.
    "index.md": f"""# Team Knowledge Base

Start with [Getting started](guides/getting-started.md) and the
[user admin guide](guides/admin/users.md).
The [API overview](reference/api/auth.md) and the [runbooks](ops/runbooks/backup.md) cover the rest.
Old bookmarks such as [setup](guides/setup.md) still work through redirects.
Questions go to [the team](team/onboarding.md) or [our site](https://example.com/kb/index.md).

{FENCE}text
[template](guides/setup.md) is how a link looks
{FENCE}
""",
    # Duplicate headings, Unicode headings, a code comment that is no heading.
    "guides/getting-started.md": f"""# Getting Started

A short tour. Jump to [Configure](#Configure) or [the second install](#install-1).

## Install

Download the bundle.

## Configure{TRAIL}

Edit the settings file; see [users](admin/users.md).

## Install

Again, for the second machine.

## Install

And for the third one.

## Über uns & FAQ

Who we are.

## Ｆｕｌｌｗｉｄｔｈ Ｓｅｔｕｐ

Set-up for wide terminals.

## Straße

Directions.

{FENCE}bash
# install the dependencies
./install.sh --prefix [dir](../old/dir.md)
{FENCE}{TRAIL}

###### Fine print

####### Seven hashes are plain text, and so is ``code`` or ~~struck~~ text:
``double backticks`` open no fence.
~~Struck-through lines~~ open none either.

#notes are tags, not headings
""",
    # Redirect repairs from a nested folder, anchors on redirected targets, two links per line.
    "guides/admin/users.md": """# Managing Users

Before you start, finish [setup](../setup.md) and [installation](../setup.md#Install).
Read [configure](../getting-started.md#Configure) and
[install again](../getting-started.md#install-2) here.
A [third install](../getting-started.md#Install-1) and a
[fourth](../getting-started.md#install-3).
See [roles](./roles.md), [roles again](../admin/roles.md) and
[uninstall](../getting-started.md#uninstall).
The [FAQ](../getting-started.md#Über-uns-FAQ), [directions](../getting-started.md#strasse),
[Straße](../getting-started.md#Straße) and [wide](../getting-started.md#ｆｕｌｌｗｉｄｔｈ-setup).
A [redirected anchor that is gone](../setup.md#removed-section) stays as it is.
Diagram: ![architecture](../../img/arch.png) and ![flow](../../assets/img/flow.png).
""",
    "guides/admin/roles.md": """# Roles

Roles are described in [users](users.md#managing-users) and
[the start page](../../index.md).
Old [permissions page](permissions.md) has moved; [deploy notes](../../ops/deploy.md) were split.
[Outside](../../../outside.md) is not part of the knowledge base.
[Backups](../../howto/old-backup.md) and [alumni](../../team/alumni.md) are broken links.
Assets have no anchors: [limits](../../assets/files/limits.csv#row-2).
""",
    # A document without a title heading and without a final newline.
    "guides/admin/permissions-v2.md": """Permissions are granted per role; see [roles](roles.md).

## Matrix

| Role | Read | Write |
| --- | --- | --- |
| admin | yes | yes |""",
    # Redirect into another folder; a same-folder link; an asset link.
    "reference/api/auth.md": """# Authentication

Tokens are explained in [tokens](tokens.md) and [token scopes](tokens.md#Scopes).
Users: [users](../../guides/admin/users.md#managing-users).
Logo: ![logo](../../assets/img/logo.png).
Errors are listed in [errors](errors.md#Error-Codes).

## Error handling

~~~python
# not a heading: [tokens](tokens.md)
print("[x](../../guides/setup.md)")
~~~~

Mail [the API team](mailto:api@example.org) or read
[RFC 6750](https://www.rfc-editor.org/rfc/rfc6750).
""",
    "reference/api/errors.md": """# Errors

## Error codes

Each code maps to an HTTP status. Back to [authentication](auth.md#error-handling).
""",
    "reference/security/tokens.md": """# Tokens

## Scopes

Read and write scopes. See [authentication](../api/auth.md) and
[onboarding](../../team/onboarding.md#first-week).
""",
    "ops/runbooks/backup.md": """# Backup Runbook

Run the nightly job. Restore steps are in [restore](restore.md) and the
[start page](../../index.md#team-knowledge-base).
""",
    "ops/runbooks/restore.md": """# Restore Runbook

Undo a [backup](backup.md). See also [getting started](../../guides/getting-started.md#straße).
""",
    "ops/runbooks/deploy-web.md": """# Deploy the Web Tier

Blue-green switch. Back to [backups](backup.md).
""",
    "ops/runbooks/deploy-db.md": """# Deploy the Database

Migrations first. Back to [backups](backup.md).
""",
    "team/onboarding.md": """# Onboarding

## First week

Read [getting started](../guides/getting-started.md), then
[roles](../guides/admin/roles.md#roles).
Our handbook: [handbook](handbook.md) and ![team photo](../assets/img/team.png).

````markdown
A link in Markdown looks like [this](../guides/setup.md).
````
""",
    "team/handbook.md": """# Handbook

Values and habits. New people start at [onboarding](onboarding.md#First-week).
""",
}

# Redirects of the hand-written cases (kb-relative old path -> candidate targets).
ANCHOR_REDIRECTS: dict[str, list[str]] = {
    "guides/setup.md": ["guides/getting-started.md"],
    "img/arch.png": ["assets/img/arch.png"],
    "guides/admin/permissions.md": ["guides/admin/permissions-v2.md"],
    "reference/api/tokens.md": ["reference/security/tokens.md"],
    "ops/deploy.md": ["ops/runbooks/deploy-web.md", "ops/runbooks/deploy-db.md"],
    "howto/old-backup.md": ["howto/backup-v2.md"],
    "howto/backup-v2.md": ["ops/runbooks/backup.md"],
    "old/dir.md": ["guides/getting-started.md"],
}

FOLDERS = [
    "guides",
    "guides/admin",
    "howto",
    "ops",
    "ops/runbooks",
    "reference",
    "reference/api",
    "projects/alpha",
    "projects/beta",
    "team",
]
TOPICS = [
    "billing",
    "search",
    "storage",
    "alerts",
    "mobile",
    "export",
    "import",
    "caching",
    "logging",
    "release",
    "network",
    "printing",
    "payroll",
    "vpn",
    "email",
]
HEADINGS = [
    "Overview",
    "Overview",
    "Notes",
    "Step 2: Verify (optional)",
    "Q&A",
    "Résumé des étapes",
    "Naïve approach",
    "Über den Dienst",
    "API v2.1 — changes",
    "Known issues",
    "Troubleshooting",
    "See also",
    "Ｆｕｌｌ ｗｉｄｔｈ notes",
]
WORDS = [
    "the", "service", "stores", "every", "request", "in", "a", "queue", "and", "the",
    "worker", "reads", "it", "back", "later", "configure", "the", "client", "before",
    "you", "deploy", "a", "new", "release", "to", "production", "check", "logs",
]  # fmt: skip
ASSETS = ["arch", "flow", "logo", "team", "chart-a", "chart-b", "screen-1", "screen-2"]
FILES = ["limits.csv", "contacts.csv", "checklist.txt"]
FILLER = 236  # plus 14 hand-written documents: 250


def slug(text: str) -> str:
    """The anchor rule (without the duplicate suffix)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    kept = "".join(
        c for c in text if c == "-" or not unicodedata.category(c).startswith(("P", "S"))
    )
    out = "".join("-" if c.isspace() else c for c in kept)
    while "--" in out:
        out = out.replace("--", "-")
    return out


def anchors(headings: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    result = []
    for text in headings:
        base = slug(text)
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.append(base if count == 0 else f"{base}-{count}")
    return result


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 12))]
    return " ".join(words).capitalize() + "."


def knowledge_base(ctx: benchlib.SeedContext) -> None:
    rng = ctx.rng
    assets = [f"assets/img/{name}.png" for name in ASSETS] + [
        f"assets/files/{name}" for name in FILES
    ]
    for path in assets:
        if path.endswith(".png"):
            data = b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(96))
            ctx.write_bytes(f"inputs/kb/{path}", data)
        else:
            rows = [f"{rng.choice(WORDS)},{rng.randint(1, 99)}" for _ in range(5)]
            ctx.write_text(f"inputs/kb/{path}", "name,value\n" + "\n".join(rows) + "\n")

    # Filler documents: titles and headings first, so links can point at real anchors.
    docs: dict[str, tuple[str, list[str]]] = {}
    for n in range(FILLER):
        folder = FOLDERS[n % len(FOLDERS)]
        topic = rng.choice(TOPICS)
        path = f"{folder}/{topic}-{n:03d}.md"
        title = f"{topic.capitalize()} guide {n}"
        headings = [rng.choice(HEADINGS) for _ in range(rng.randint(1, 4))]
        docs[path] = (title, headings)
    filler = list(docs)
    redirects = dict(ANCHOR_REDIRECTS)
    moved = {}  # old filler path -> current path, for repairable broken links
    for path in rng.sample(filler, 30):
        old = f"archive/{posixpath.basename(path)}"
        moved[old] = path
        redirects[old] = [path]
    targets = filler + list(ANCHOR_DOCS)

    def link(src: str) -> str:
        here = posixpath.dirname(src)
        kind = rng.choices(
            ["doc", "anchor", "asset", "external", "moved", "case", "missing"],
            weights=[45, 15, 10, 8, 10, 7, 5],
        )[0]
        text = rng.choice(["details", "more", "this page", "notes", "reference", "guide"])
        if kind == "asset":
            return f"![{text}]({posixpath.relpath(rng.choice(assets), here or '.')})"
        if kind == "external":
            return f"[{text}](https://docs.example.com/{rng.choice(TOPICS)}/{rng.randint(1, 50)})"
        if kind == "missing":
            gone = f"{rng.choice(FOLDERS)}/retired-{rng.randint(100, 999)}.md"
            return f"[{text}]({posixpath.relpath(gone, here or '.')})"
        if kind == "moved":
            old = rng.choice(sorted(moved))
            return f"[{text}]({posixpath.relpath(old, here or '.')})"
        if kind == "doc":
            dest = rng.choice([t for t in targets if t != src])
            return f"[{text}]({posixpath.relpath(dest, here or '.')})"
        dest = rng.choice([t for t in filler if t != src])
        rel = posixpath.relpath(dest, here or ".")
        title, headings = docs[dest]
        names = anchors([title, *headings])
        i = rng.randrange(len(names))
        if kind == "anchor":
            return f"[{text}]({rel}#{names[i]})"
        return f"[{text}]({rel}#{names[i].title()})"

    for path in filler:
        title, headings = docs[path]
        lines = [f"# {title}", "", _sentence(rng) + " " + link(path), ""]
        for heading in headings:
            lines += [f"## {heading}", ""]
            for _ in range(rng.randint(1, 3)):
                parts = [_sentence(rng)]
                for _ in range(rng.randint(0, 2)):
                    parts.append(f"See {link(path)}.")
                lines.append(" ".join(parts))
            lines.append("")
            if rng.random() < 0.3:
                fence = rng.choice([FENCE, "~~~"])
                lines += [
                    f"{fence}{rng.choice(['', 'sh', 'python', 'text'])}",
                    "# a comment, not a heading",
                    f"echo '{link(path)}'",
                    fence,
                    "",
                ]
        ctx.write_text(f"inputs/kb/{path}", "\n".join(lines))

    for path, text in ANCHOR_DOCS.items():
        ctx.write_text(f"inputs/kb/{path}", text)
    ctx.write_json("inputs/redirects.json", dict(sorted(redirects.items())))
