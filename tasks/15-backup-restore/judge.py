# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 15: Backup Restore Planner.

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
    "id": 15,
    "slug": "backup-restore",
    "stages": ["initial"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.restore_plan inputs --output output",
            "argv": ["python", "-m", "solution.restore_plan", "inputs", "--output", "output"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 30.0,
        }
    ],
    "outputs": [
        {
            "path": "output/restore_plan.csv",
            "format": "csv",
            "header": ["path", "snapshot", "member", "mtime", "size", "sha256"],
            "stage": "initial",
        },
        {
            "path": "output/warnings.csv",
            "format": "csv",
            "header": ["path", "reason"],
            "stage": "initial",
        },
        {"path": "output/restored/", "format": "directory", "header": [], "stage": "initial"},
    ],
    "expect": [
        {
            "name": "newest-before-cutoff#1",
            "file": "output/restore_plan.csv",
            "level": 3,
            "where": {"path": "projects/harbor-bridge/budget.md"},
            "equals": {"snapshot": "2025-03-15-incremental.tar", "mtime": "2025-03-11T09:30:00Z"},
        },
        {
            "name": "newest-before-cutoff#2",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "projects/harbor-bridge/budget.md"},
            "equals": {
                "member": "projects/harbor-bridge/budget.md",
                "size": "83",
                "sha256": "43cdb5662311661cc257ca8d548bc56f51f27297ac9768c0fc18296c6ebc960f",
            },
        },
        {
            "name": "after-cutoff-fallback#1",
            "file": "output/restore_plan.csv",
            "level": 3,
            "where": {"path": "finance/2025/reports/2025-03-forecast.csv"},
            "equals": {"snapshot": "2025-03-08-incremental.zip", "mtime": "2025-03-06T11:05:30Z"},
        },
        {
            "name": "after-cutoff-fallback#2",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "finance/2025/reports/2025-03-forecast.csv"},
            "equals": {
                "size": "47",
                "sha256": "6ca0807378c272e09288bef20c92eadadacc7e93bffe11db89e75248eb3c3d62",
            },
        },
        {
            "name": "cutoff-boundary#1",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "hr/policies/parking.txt"},
            "equals": {"snapshot": "2025-03-15-incremental.tar", "mtime": "2025-03-12T18:00:00Z"},
        },
        {
            "name": "cutoff-boundary#2",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "hr/policies/visitors.txt"},
            "equals": {"snapshot": "2025-03-01-full.tar.gz", "mtime": "2025-01-20T11:30:00Z"},
        },
        {
            "name": "newest-timestamp-not-latest-snapshot#1",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "docs/handbook/chapter-15.md"},
            "equals": {
                "snapshot": "2025-03-01-full.tar.gz",
                "member": "./docs/handbook/chapter-15.md",
                "mtime": "2025-02-27T16:00:00Z",
            },
        },
        {
            "name": "tie-later-snapshot#1",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "projects/mill-street/permit.md"},
            "equals": {
                "snapshot": "2025-03-15-incremental.tar",
                "sha256": "44c69838ec60e2e3c716d8b0be714f050b66e0b36bb6b4b75ffe772beb0e8618",
            },
        },
        {
            "name": "duplicate-member#1",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "projects/north-depot/minutes/2025-03-10.md"},
            "equals": {
                "size": "37",
                "sha256": "0b87b126279ce47ea2e885efa02a56ef323479bf2cae6d2b1a13ab63dd15c431",
            },
        },
        {
            "name": "dot-slash-member#1",
            "file": "output/restore_plan.csv",
            "level": 3,
            "where": {"path": "docs/handbook/glossary.md"},
            "equals": {"snapshot": "2025-03-01-full.tar.gz"},
        },
        {
            "name": "dot-slash-member#2",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "docs/handbook/glossary.md"},
            "equals": {"member": "./docs/handbook/glossary.md", "mtime": "2024-11-02T13:45:00Z"},
        },
        {
            "name": "links-are-not-versions#1",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "docs/handbook/current.md"},
            "equals": {"snapshot": "2025-03-08-incremental.zip", "mtime": "2025-03-04T12:00:00Z"},
        },
        {
            "name": "links-are-not-versions#2",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "scripts/deploy.sh"},
            "equals": {"snapshot": "2025-03-01-full.tar.gz", "mtime": "2025-02-03T09:12:00Z"},
        },
        {
            "name": "links-are-not-versions#3",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "finance/2025/q1-summary.xlsx"},
            "equals": {"snapshot": "2025-03-01-full.tar.gz", "size": "24000"},
        },
        {
            "name": "windows-zip-entries#1",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "finance/2025/bank-export.csv"},
            "equals": {"snapshot": "2025-03-08-incremental.zip", "mtime": "2025-03-06T08:24:16Z"},
        },
        {
            "name": "windows-zip-entries#2",
            "file": "output/warnings.csv",
            "level": 4,
            "where": {"path": "projects/solar-roof/site-photos", "reason": "missing"},
            "count": 1,
        },
        {
            "name": "missing#1",
            "file": "output/warnings.csv",
            "level": 4,
            "where": {"path": "shared/latest-report.csv", "reason": "missing"},
            "count": 1,
        },
        {
            "name": "missing#2",
            "file": "output/warnings.csv",
            "level": 4,
            "where": {"path": "hr/contracts/2019/old-contract.pdf", "reason": "missing"},
            "count": 1,
        },
        {
            "name": "missing#3",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "shared/latest-report.csv"},
            "absent": True,
        },
        {
            "name": "after-cutoff-only#1",
            "file": "output/warnings.csv",
            "level": 4,
            "where": {"path": "projects/solar-roof/offer-2025-03-13.md", "reason": "after_cutoff"},
            "count": 1,
        },
        {
            "name": "after-cutoff-only#2",
            "file": "output/restore_plan.csv",
            "level": 3,
            "where": {"path": "projects/solar-roof/offer-2025-03-13.md"},
            "absent": True,
        },
        {
            "name": "unicode-path#1",
            "file": "output/restore_plan.csv",
            "level": 3,
            "where": {"path": "docs/protokolle/Übergabe März.md"},
            "equals": {
                "snapshot": "2025-03-08-incremental.zip",
                "member": "docs/protokolle/Übergabe März.md",
            },
        },
        {
            "name": "large-binary#1",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "photos/2025-02-team-day/IMG_0412.jpg"},
            "equals": {"size": "150000", "mtime": "2025-02-21T17:03:44Z"},
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/warnings.csv",
            "level": 4,
            "where": {"path": "requested.txt", "reason": "unsafe"},
            "count": 1,
        },
        {
            "name": "edge#2",
            "file": "output/restore_plan.csv",
            "level": 4,
            "where": {"path": "requested.txt"},
            "absent": True,
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import datetime
import hashlib
import os
import stat
import tarfile
import zipfile
from typing import Any

PLAN, WARNINGS, RESTORED = "output/restore_plan.csv", "output/warnings.csv", "output/restored"
OUTPUT_FILES = {"output/restore_plan.csv", "output/warnings.csv"}


class Truth:
    """TASK.md's restore, recomputed from the pristine snapshots."""

    def __init__(self, source: benchlib.Files) -> None:
        request = source.json("inputs/restore_request.json")
        cutoff = datetime.datetime.fromisoformat(request["cutoff"]).timestamp()
        folder = source.path("inputs/snapshots")
        found: dict[str, list[tuple[Any, ...]]] = {}
        self.unsafe: list[tuple[str, bytes]] = []  # (path, bytes) of every unsafe version
        for snapshot in sorted(p.name for p in folder.iterdir()):
            if not snapshot.endswith((".tar", ".tar.gz", ".zip")):
                continue
            for order, (name, stamp, data) in enumerate(self.regular(folder / snapshot)):
                path = "/".join(x for x in name.split("/") if x not in {"", ".", ".."})
                safe = not (name.startswith("/") or ".." in name.split("/"))
                found.setdefault(path, []).append((stamp, snapshot, order, name, data, safe))
                if not safe:
                    self.unsafe.append((path, data))
        self.plan: list[dict[str, str]] = []
        self.warnings: list[dict[str, str]] = []
        self.files: dict[str, bytes] = {}
        for path in sorted(request["paths"]):
            versions = found.get(path, [])
            eligible = [v for v in versions if v[0] <= cutoff]
            usable = sorted(v for v in eligible if v[5])
            if not usable:
                reason = "unsafe" if eligible else "after_cutoff" if versions else "missing"
                self.warnings.append({"path": path, "reason": reason})
                continue
            stamp, snapshot, _order, name, data, _safe = usable[-1]
            when = datetime.datetime.fromtimestamp(stamp, datetime.UTC)
            self.plan.append({
                "path": path, "snapshot": snapshot, "member": name,
                "mtime": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "size": str(len(data)),
                "sha256": hashlib.sha256(data).hexdigest(),
            })  # fmt: skip
            self.files[path] = data

    @staticmethod
    def regular(archive: Path) -> list[tuple[str, float, bytes]]:
        """(stored name, UTC timestamp, bytes) of the regular-file members, in archive order."""
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as z:
                kinds = {0, stat.S_IFREG}
                return [
                    (i.filename, datetime.datetime(*i.date_time, tzinfo=datetime.UTC)
                     .timestamp(), z.read(i))
                    for i in z.infolist()
                    if not i.is_dir() and stat.S_IFMT(i.external_attr >> 16) in kinds
                ]  # fmt: skip
        with tarfile.open(archive) as t:
            return [
                (i.name, i.mtime, t.extractfile(i).read())  # type: ignore[union-attr]
                for i in t
                if i.type in (tarfile.REGTYPE, tarfile.AREGTYPE)
            ]


def truth(run: benchlib.Run) -> Truth:
    if "truth" not in run.memo:
        run.memo["truth"] = Truth(run.source)
    result: Truth = run.memo["truth"]
    return result


def tree(root: Path) -> dict[str, Path]:
    """Relative path -> path of every file (or link) under ``root``."""
    found = {}
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in dirs + sorted(names):
            path = Path(folder, name)
            if name in names or path.is_symlink():
                found[path.relative_to(root).as_posix()] = path
    return found


def restored(run: benchlib.Run) -> dict[str, Path]:
    return tree(run.root / RESTORED) if (run.root / RESTORED).is_dir() else {}


def read(path: Path) -> bytes | None:
    return None if path.is_symlink() or not path.is_file() else path.read_bytes()


@judge.check(level=3)
def versions_chosen(run: benchlib.Run) -> None:
    """At least 90% of the restorable paths have the right snapshot and timestamp, and at most
    a tenth as many rows are for paths without a restorable version (or repeated)."""
    want = {r["path"]: (r["snapshot"], r["mtime"]) for r in truth(run).plan}
    rows = run.csv(PLAN)
    right = {r["path"] for r in rows if want.get(r["path"]) == (r["snapshot"], r["mtime"])}
    extra = len(rows) - len(right)
    benchlib.expect(len(right) * 10 >= len(want) * 9, f"{len(right)} of {len(want)} choices right")
    benchlib.expect(extra * 10 <= len(want), f"{extra} plan rows for other or repeated paths")


@judge.check(level=3)
def restored_bytes(run: benchlib.Run) -> None:
    """At least 90% of the chosen versions are restored at their path with their exact bytes."""
    files, want = restored(run), truth(run).files
    right = [p for p, data in want.items() if p in files and read(files[p]) == data]
    benchlib.expect(len(right) * 10 >= len(want) * 9, f"{len(right)} of {len(want)} restored")


def plan_exact(run: benchlib.Run) -> None:
    got, want = run.csv(PLAN), truth(run).plan
    wrong = [w for g, w in zip(got, want, strict=False) if g != w][:1]
    benchlib.expect_equal(len(got), len(want), f"{PLAN} rows")
    benchlib.expect(not wrong, f"{PLAN}: first wrong row, expected {wrong}")


def warnings_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(run.csv(WARNINGS), truth(run).warnings, WARNINGS)


def restored_exact(run: benchlib.Run) -> None:
    files, want = restored(run), truth(run).files
    benchlib.expect_equal(sorted(files), sorted(want), f"files under {RESTORED}/")
    wrong = sorted(p for p in want if read(files[p]) != want[p])
    benchlib.expect(not wrong, f"wrong bytes: {wrong[:3]}")


def only_outputs_written(run: benchlib.Run) -> None:
    """No file appeared outside output/ (solution/ holds the candidate's code) and output/
    holds only the two CSV files and the restored tree."""
    before = set(tree(run.source.path(".")))
    stray = sorted(
        rel
        for rel in tree(run.root)
        if rel not in before
        and not rel.startswith(("solution/", RESTORED + "/"))
        and rel not in OUTPUT_FILES
    )
    benchlib.expect(not stray, f"files written outside the outputs: {stray[:5]}")


@judge.check(level=4)
def plan_rows_exact(run: benchlib.Run) -> None:
    """Every plan row, column and the row order (sorted by path)."""
    plan_exact(run)


@judge.check(level=4)
def warning_rows_exact(run: benchlib.Run) -> None:
    warnings_exact(run)


@judge.check(level=4)
def restored_tree_exact(run: benchlib.Run) -> None:
    restored_exact(run)


@judge.check(level=4)
def nothing_else_written(run: benchlib.Run) -> None:
    only_outputs_written(run)


@judge.edge
def safe_paths_restored(run: benchlib.Run) -> None:
    """The edge's safe request is planned and restored; the unsafe one only warned about."""
    plan_exact(run)
    warnings_exact(run)
    restored_exact(run)


@judge.edge
def nothing_written_for_unsafe(run: benchlib.Run) -> None:
    """No file anywhere (in or out of output/, solution/ included) holds an unsafe member's
    bytes or is named after it, not even beside the fixture; nothing else appeared."""
    unsafe = truth(run).unsafe
    benchlib.expect(bool(unsafe), "judge: the edge fixture has no unsafe member")
    names = {path.rsplit("/", 1)[-1] for path, _data in unsafe}
    blobs = {data for _path, data in unsafe}
    planted = sorted(
        rel
        for rel, path in tree(run.root).items()
        if rel.rsplit("/", 1)[-1] in names or read(path) in blobs
    )
    benchlib.expect(not planted, f"written for an unsafe member: {planted[:3]}")
    beside = sorted(n for n in names if os.path.lexists(run.root.parent / n))
    benchlib.expect(not beside, f"written beside the fixture: {beside}")
    only_outputs_written(run)


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
