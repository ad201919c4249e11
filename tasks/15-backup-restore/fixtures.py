"""Fixture generators of task 15: three backup snapshots of an office file share.

``snapshots`` writes the main fixture: a full backup (gzip tar, every member stored with a
``./`` prefix, as ``tar -C share -czf ... .`` does), an incremental zip and an incremental
plain tar, plus inputs/restore_request.json. The filler is a seeded share of about 230 files;
each has a version in the full backup, and some have newer versions in the incrementals.
Versions written after the restore cutoff (2025-03-12 18:00 UTC) are the damage the restore
undoes: a faulty sync client truncated those files.

The anchors of task.toml are records of two shapes:

* ``{snapshot = "full" | "incr1" | "incr2", name, mtime, kind, ...}``: one archive member,
  stored under ``name`` exactly. ``kind`` is ``file`` (with ``text``, or ``binary`` = a byte
  count of seeded bytes), ``symlink`` or ``hardlink`` (with ``target``) or ``dir``. Members
  are sorted by name into their archive, except ``append = true`` ones, which go at its end
  (``tar -r``). A zip member with ``unix = false`` has MS-DOS attributes only.
* ``{request = "path"}``: a path of the restore request.

Everything is deterministic: fixed mtimes, member order, uid/gid 1000/1000, uname/gname
ana/office, modes, GNU tar format, gzip without timestamp or name, zip members stored
(uncompressed, so no zlib version can change the bytes) with Unix attributes.
"""

from __future__ import annotations

import datetime as dt
import io
import random
import tarfile
import zipfile
from typing import Any

import benchlib

FULL = "inputs/snapshots/2025-03-01-full.tar.gz"
INCR1 = "inputs/snapshots/2025-03-08-incremental.zip"
INCR2 = "inputs/snapshots/2025-03-15-incremental.tar"
REQUEST = "inputs/restore_request.json"
CUTOFF = "2025-03-12T18:00:00Z"
UTC = dt.UTC

# (snapshot, first and last possible mtime of a version it holds)
WINDOWS = {
    "full": ("2024-09-02T07:00:00Z", "2025-02-28T19:00:00Z"),
    "incr1": ("2025-03-01T06:00:00Z", "2025-03-07T22:00:00Z"),
    "incr2": ("2025-03-08T06:00:00Z", "2025-03-14T22:00:00Z"),
}
WORDS = [
    "account",
    "approve",
    "archive",
    "balance",
    "board",
    "budget",
    "client",
    "contract",
    "cost",
    "deadline",
    "delivery",
    "draft",
    "estimate",
    "freight",
    "invoice",
    "ledger",
    "margin",
    "meeting",
    "milestone",
    "order",
    "payment",
    "plan",
    "policy",
    "quote",
    "receipt",
    "review",
    "revenue",
    "schedule",
    "shipment",
    "site",
    "supplier",
    "tax",
    "team",
    "travel",
    "update",
    "vendor",
    "warehouse",
]
PROJECTS = ["harbor-bridge", "mill-street", "north-depot", "riverside-school", "solar-roof"]
EVENTS = ["2024-10-summer-fest", "2024-12-xmas-party", "2025-02-team-day"]


def epoch(text: str) -> int:
    return int(dt.datetime.fromisoformat(text).timestamp())


def _text(rng: random.Random, title: str, lines: int) -> bytes:
    body = [title, "=" * len(title), ""]
    for _ in range(lines):
        body.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))))
    return ("\n".join(body) + "\n").encode("utf-8")


def _binary(rng: random.Random, magic: bytes, size: int) -> bytes:
    return magic + rng.randbytes(size - len(magic))


def _catalog(rng: random.Random) -> list[tuple[str, str]]:
    """(path, content kind) of every filler file of the share."""
    files = []
    for year in (2024, 2025):
        for n in range(1, 29 if year == 2024 else 17):
            files.append((f"finance/{year}/invoices/INV-{year}-{n:04d}.pdf", "pdf"))
        for month in range(1, 13 if year == 2024 else 3):
            files.append((f"finance/{year}/reports/{year}-{month:02d}-summary.csv", "csv"))
    for project in PROJECTS:
        files += [(f"projects/{project}/{name}", "text") for name in (
            "README.md", "notes.md", "plan.txt", "contacts.txt", "risks.md"
        )]  # fmt: skip
        files += [(f"projects/{project}/drawings/sheet-{n:02d}.dwg", "dwg") for n in range(1, 9)]
        files += [(f"projects/{project}/minutes/2025-0{m}-{d:02d}.md", "text")
                  for m in (1, 2) for d in (6, 13, 20, 27)]  # fmt: skip
    files += [(f"docs/handbook/chapter-{n:02d}.md", "text") for n in range(1, 15)]
    files += [(f"hr/policies/{name}.txt", "text") for name in (
        "expenses", "holidays", "onboarding", "remote-work", "security", "travel"
    )]  # fmt: skip
    files += [(f"hr/templates/{name}.docx", "docx") for name in (
        "offer-letter", "reference", "timesheet", "warning-letter"
    )]  # fmt: skip
    for event in EVENTS:
        files += [(f"photos/{event}/IMG_{rng.randint(1000, 9999)}.jpg", "jpg") for _ in range(8)]
    files += [(f"scripts/{name}", "text") for name in (
        "backup-check.sh", "cleanup.py", "mount-share.sh", "report.py"
    )]  # fmt: skip
    return sorted(set(files))


def _content(rng: random.Random, path: str, kind: str) -> bytes:
    if kind == "pdf":
        return _binary(rng, b"%PDF-1.7\n", rng.randint(6_000, 40_000))
    if kind == "dwg":
        return _binary(rng, b"AC1032", rng.randint(20_000, 60_000))
    if kind == "docx":
        return _binary(rng, b"PK\x03\x04", rng.randint(8_000, 30_000))
    if kind == "jpg":
        return _binary(rng, b"\xff\xd8\xff\xe0\x00\x10JFIF", rng.randint(30_000, 120_000))
    if kind == "csv":
        rows = ["date,account,amount"] + [
            f"2025-01-{rng.randint(1, 28):02d},{rng.randint(4000, 4999)},"
            f"{rng.randint(-90000, 90000) / 100:.2f}"
            for _ in range(rng.randint(20, 200))
        ]
        return ("\n".join(rows) + "\n").encode("utf-8")
    return _text(rng, path.rsplit("/", 1)[-1], rng.randint(10, 120))


def _mtime(rng: random.Random, snapshot: str) -> int:
    first, last = (epoch(t) for t in WINDOWS[snapshot])
    return rng.randint(first // 2, last // 2) * 2  # even seconds: zip keeps no odd ones


def _file(name: str, mtime: int, data: bytes) -> dict[str, Any]:
    return {"name": name, "kind": "file", "mtime": mtime, "data": data}


def _dirs(paths: list[str], prefix: str) -> list[dict[str, Any]]:
    """Directory members holding ``paths`` (mtime: that of the newest file inside)."""
    folders: dict[str, int] = {}
    for path in paths:
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folders.setdefault("/".join(parts[:depth]), 0)
    return [{"name": f"{prefix}{f}/", "kind": "dir", "mtime": 0} for f in sorted(folders)]


def _anchor_member(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    member = {"name": record["name"], "kind": record["kind"], "mtime": epoch(record["mtime"])}
    if record["kind"] == "file":
        text = record.get("text")
        member["data"] = (
            text.encode("utf-8") if text is not None else _binary(rng, b"\x89PNG", record["binary"])
        )
    if record["kind"] in ("symlink", "hardlink"):
        member["target"] = record["target"]
    member["append"] = bool(record.get("append"))
    member["unix"] = record.get("unix", True)
    return member


def world(ctx: benchlib.SeedContext) -> dict[str, Any]:
    """The members of the three archives (in archive order) and the request."""
    rng = ctx.stream("share")
    records = [r for name in ctx.anchors for r in ctx.anchor(name)]  # declaration order
    anchored = {r["name"].removeprefix("./").rstrip("/") for r in records if "name" in r}
    anchored |= {r["request"] for r in records if "request" in r}
    cutoff = epoch(CUTOFF)

    members: dict[str, list[dict[str, Any]]] = {"full": [], "incr1": [], "incr2": []}
    versions: dict[str, int] = {}
    for path, kind in _catalog(rng):
        if path in anchored:
            continue
        data = _content(rng, path, kind)
        members["full"].append(_file("./" + path, _mtime(rng, "full"), data))
        versions[path] = 1
        for snapshot in ("incr1", "incr2"):
            if rng.random() >= 0.22:
                continue
            mtime = _mtime(rng, snapshot)
            if mtime > cutoff:  # the faulty sync client truncated it
                data = data[: rng.randint(0, len(data) // 3)]
            else:
                data = _content(rng, path, kind)
            members[snapshot].append(_file(path, mtime, data))
            versions[path] += 1
    for snapshot, days in (("incr1", range(3, 8)), ("incr2", range(10, 15))):
        # minutes of meetings held after the full backup: new files
        for project, day in rng.sample([(p, d) for p in PROJECTS for d in days], 14):
            path = f"projects/{project}/minutes/2025-03-{day:02d}.md"
            if path in anchored:
                continue
            mtime = epoch(f"2025-03-{day:02d}T15:00:00Z") + 2 * rng.randint(0, 5400)
            members[snapshot].append(_file(path, mtime, _content(rng, path, "text")))
            versions[path] = 1

    appended: dict[str, list[dict[str, Any]]] = {"full": [], "incr1": [], "incr2": []}
    for record in records:
        if "name" in record:
            member = _anchor_member(rng, record)
            (appended if member.pop("append") else members)[record["snapshot"]].append(member)

    archives = {}
    for snapshot, found in members.items():
        prefix = "./" if snapshot == "full" else ""
        files = [m["name"].removeprefix("./") for m in found if m["kind"] != "dir"]
        folders = [d for d in _dirs(files, prefix) if d["name"] not in {m["name"] for m in found}]
        if snapshot == "full":
            folders.insert(0, {"name": "./", "kind": "dir", "mtime": 0})
        ordered = sorted(found + folders, key=lambda m: m["name"].removeprefix("./"))
        start = epoch(WINDOWS[snapshot][0])
        for member in ordered:
            member["mtime"] = member["mtime"] or start
        archives[snapshot] = ordered + appended[snapshot]

    multi = sorted(p for p, n in versions.items() if n > 1)
    single = sorted(p for p, n in versions.items() if n == 1)
    paths = rng.sample(multi, 26) + rng.sample(single, 16)
    paths += [r["request"] for r in records if "request" in r]
    rng.shuffle(paths)
    request = {
        "ticket": "HD-2025-0312",
        "requested_by": "Ana Lima (office manager)",
        "reason": "sync client truncated files on the share from 2025-03-12 18:00 UTC",
        "cutoff": CUTOFF,
        "paths": paths,
    }
    return {"archives": archives, "request": request}


# ---------------------------------------------------------------------------------------------
# writers
# ---------------------------------------------------------------------------------------------


def write_tar(stream: Any, members: list[dict[str, Any]]) -> None:
    with tarfile.open(
        fileobj=stream, mode="w", format=tarfile.GNU_FORMAT, encoding="utf-8"
    ) as archive:
        for member in members:
            info = tarfile.TarInfo(member["name"])
            info.mtime = member["mtime"]
            info.uid, info.gid, info.uname, info.gname = 1000, 1000, "ana", "office"
            data = b""
            if member["kind"] == "file":
                data = member["data"]
                info.type, info.mode, info.size = tarfile.REGTYPE, 0o644, len(data)
            elif member["kind"] == "dir":
                info.type, info.mode = tarfile.DIRTYPE, 0o755
            else:
                kind = tarfile.SYMTYPE if member["kind"] == "symlink" else tarfile.LNKTYPE
                info.type, info.mode, info.linkname = kind, 0o777, member["target"]
            archive.addfile(info, io.BytesIO(data) if data else None)


ZIP_MODES = {"file": 0o100644, "dir": 0o040755, "symlink": 0o120777}


def zip_bytes(members: list[dict[str, Any]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for member in members:
            stamp = dt.datetime.fromtimestamp(member["mtime"], UTC)
            info = zipfile.ZipInfo(member["name"], stamp.timetuple()[:6])
            if member.get("unix", True):
                info.create_system = 3  # Unix, whatever the platform
                info.external_attr = ZIP_MODES[member["kind"]] << 16
            else:  # added from a Windows PC: MS-DOS attributes only, no Unix file type
                info.create_system = 0
                info.external_attr = 0x20  # MS-DOS archive flag
            data = member.get("data", b"")
            if member["kind"] == "dir":
                info.external_attr |= 0x10  # MS-DOS directory flag
            elif member["kind"] == "symlink":
                data = member["target"].encode("utf-8")
            archive.writestr(info, data)
    return buffer.getvalue()


def _write_archive(ctx: benchlib.SeedContext, path: str, members: list[dict[str, Any]]) -> None:
    if path.endswith(".zip"):
        ctx.write_bytes(path, zip_bytes(members))
    else:
        with ctx.open_binary(path) as stream:  # .gz: gzip with mtime 0 and no file name
            write_tar(stream, members)


README = """Weekly backups of the office share (\\\\files01\\share), made by the backup job.
Full backup on the 1st of the month (tar.gz), incremental backups on the following
Saturdays (zip until the job moved to the Linux box, plain tar since then).
Keep for 13 months. Contact: it@office.example.org
"""


def snapshots(ctx: benchlib.SeedContext) -> None:
    """inputs/snapshots/ (three archives and the backup job's README) and
    inputs/restore_request.json."""
    data = world(ctx)
    for snapshot, path in (("full", FULL), ("incr1", INCR1), ("incr2", INCR2)):
        _write_archive(ctx, path, data["archives"][snapshot])
    ctx.write_text("inputs/snapshots/README.txt", README)
    ctx.write_json(REQUEST, data["request"])


def edge_snapshots(ctx: benchlib.SeedContext) -> None:
    """The edge fixture: a tar whose only member for requested.txt climbs out of the restore
    root (``../requested.txt``), next to a safe member in the same tar and a zip."""
    week = epoch("2025-03-20T09:00:00Z")
    tar_members = [
        {"name": "notes/", "kind": "dir", "mtime": week},
        {"name": "notes/todo.txt", "kind": "file", "mtime": week + 600,
         "data": b"- renew the parking permit\n- call the printer service\n"},
        {"name": "../requested.txt", "kind": "file", "mtime": week + 1200,
         "data": b"planted by an old archiving tool: must never be written\n"},
    ]  # fmt: skip
    zip_members = [
        {"name": "notes/", "kind": "dir", "mtime": week + 86400},
        {"name": "notes/ideas.txt", "kind": "file", "mtime": week + 86400 + 300,
         "data": b"quarterly offsite in the hills\n"},
    ]  # fmt: skip
    _write_archive(ctx, "inputs/snapshots/2025-03-20-full.tar", tar_members)
    _write_archive(ctx, "inputs/snapshots/2025-03-21-incremental.zip", zip_members)
    request = {
        "ticket": "HD-2025-0330",
        "requested_by": "Ana Lima (office manager)",
        "reason": "restore two files from the March archive",
        "cutoff": "2025-03-25T00:00:00Z",
        "paths": ["requested.txt", "notes/todo.txt"],
    }
    ctx.write_json(REQUEST, request)
