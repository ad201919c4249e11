"""Plan and perform a point-in-time restore from tar and zip snapshots (reference solution).

python -m solution.restore_plan INPUTS --output OUTPUT
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import hashlib
import json
import stat
import sys
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SUFFIXES = (".tar", ".tar.gz", ".zip")


@dataclass
class Version:
    path: str
    snapshot: str
    rank: int  # snapshot position, oldest first
    order: int  # member position inside its archive
    member: str
    timestamp: int
    safe: bool
    read: Callable[[], bytes]


def member_path(name: str) -> str:
    return "/".join(p for p in name.split("/") if p not in ("", ".", ".."))


def is_safe(name: str) -> bool:
    return not name.startswith("/") and ".." not in name.split("/")


def tar_versions(archive: tarfile.TarFile) -> list[tuple[str, int, Callable[[], bytes]]]:
    found = []
    for info in archive.getmembers():
        if info.isreg():
            found.append((info.name, int(info.mtime), reader_of_tar(archive, info)))
    return found


def reader_of_tar(archive: tarfile.TarFile, info: tarfile.TarInfo) -> Callable[[], bytes]:
    def read() -> bytes:
        stream = archive.extractfile(info)
        assert stream is not None
        return stream.read()

    return read


def zip_versions(archive: zipfile.ZipFile) -> list[tuple[str, int, Callable[[], bytes]]]:
    found = []
    for info in archive.infolist():
        mode = info.external_attr >> 16
        if info.filename.endswith("/") or (mode and not stat.S_ISREG(mode)):
            continue
        stamp = dt.datetime(*info.date_time, tzinfo=dt.UTC)
        found.append((info.filename, int(stamp.timestamp()), reader_of_zip(archive, info)))
    return found


def reader_of_zip(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Callable[[], bytes]:
    return lambda: archive.read(info)


def parse_cutoff(text: str) -> int:
    stamp = dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC)
    return int(stamp.timestamp())


def iso(timestamp: int) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def collect(folder: Path, keep: list[object]) -> dict[str, list[Version]]:
    """Every version of every path, by path."""
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(SUFFIXES))
    versions: dict[str, list[Version]] = {}
    for rank, name in enumerate(names):
        if name.endswith(".zip"):
            archive: object = zipfile.ZipFile(folder / name)
            members = zip_versions(archive)  # type: ignore[arg-type]
        else:
            archive = tarfile.open(folder / name)  # noqa: SIM115
            members = tar_versions(archive)  # type: ignore[arg-type]
        keep.append(archive)  # members are read later
        for order, (member, timestamp, read) in enumerate(members):
            path = member_path(member)
            version = Version(path, name, rank, order, member, timestamp, is_safe(member), read)
            versions.setdefault(path, []).append(version)
    return versions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()

    request = json.loads((args.inputs / "restore_request.json").read_text(encoding="utf-8"))
    cutoff = parse_cutoff(request["cutoff"])
    archives: list[object] = []
    versions = collect(args.inputs / "snapshots", archives)

    plan, warnings = [], []
    for path in sorted(request["paths"]):
        known = versions.get(path, [])
        eligible = [v for v in known if v.timestamp <= cutoff]
        safe = [v for v in eligible if v.safe]
        if safe:
            plan.append(max(safe, key=lambda v: (v.timestamp, v.rank, v.order)))
        elif eligible:
            warnings.append((path, "unsafe"))
        elif known:
            warnings.append((path, "after_cutoff"))
        else:
            warnings.append((path, "missing"))

    restored = args.output / "restored"
    restored.mkdir(parents=True, exist_ok=True)
    with open(args.output / "restore_plan.csv", "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(["path", "snapshot", "member", "mtime", "size", "sha256"])
        for version in plan:
            data = version.read()
            target = restored / version.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            digest = hashlib.sha256(data).hexdigest()
            writer.writerow(
                [version.path, version.snapshot, version.member, iso(version.timestamp),
                 len(data), digest]
            )  # fmt: skip
    with open(args.output / "warnings.csv", "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(["path", "reason"])
        writer.writerows(warnings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
