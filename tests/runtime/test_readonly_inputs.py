"""Read-only inputs (spec 10.5): sealed judgings bind the input folders instead of copying them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib
from tests.check.conftest import copy_example
from tests.runtime.test_judge import _reference_workspace

# Prepended to the reference's module: every way of altering an input, each attempt's outcome
# on stderr, then the reference's normal work.
SABOTAGE = """
import os as _os
import sys as _sys

for _what, _act in [
    ("write", lambda: open("inputs/scores.csv", "a").write("S99,Biology,99\\n")),
    ("chmod", lambda: _os.chmod("inputs/scores.csv", 0o666)),
    ("utime", lambda: _os.utime("inputs/scores.csv", (0, 0))),
    ("unlink", lambda: _os.unlink("inputs/scores.csv")),
    ("create", lambda: open("inputs/new.csv", "w").write("x")),
    ("rename", lambda: _os.rename("inputs", "moved")),
]:
    try:
        _act()
        print(f"{_what}: done", file=_sys.stderr)
    except OSError as _exc:
        print(f"{_what}: refused errno {_exc.errno}", file=_sys.stderr)
with open("/proc/self/mountinfo", encoding="utf-8") as _mounts:
    for _line in _mounts:
        _fields = _line.split()
        if _fields[4] == "/workspace/inputs":
            print(f"mount: {_fields[5].split(',')[0]}", file=_sys.stderr)
"""


def _sabotaging_workspace(task: Path, tmp_path: Path) -> Path:
    workspace = _reference_workspace(task, tmp_path)
    module = workspace / "solution" / "grades.py"
    text = module.read_text("utf-8")
    head, _, rest = text.partition("\nimport argparse\n")
    module.write_text(head + "\n" + SABOTAGE + "\nimport argparse\n" + rest, "utf-8")
    return workspace


def _judge_keeping(
    task: Path, workspace: Path, cache: Path, kept: Path, *extra: str
) -> dict[str, object]:
    argv = [default_python(), "judge.py", "--workspace", str(workspace)]
    argv += ["--fixture-cache", str(cache), "--keep-runs", str(kept), *extra]
    done = subprocess.run(argv, cwd=task, capture_output=True, text=True, timeout=120, check=False)
    verdict: dict[str, object] = json.loads(done.stdout)
    return verdict


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under ``folder``: content, mode and modification time."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            info = path.stat()
            found[path.relative_to(folder).as_posix()] = (
                path.read_bytes(),
                info.st_mode,
                info.st_mtime_ns,
            )
    return found


def _attempts(kept: Path) -> list[str]:
    record = json.loads((kept / "main.json").read_text("utf-8"))
    lines = record["results"][0]["stderr"].splitlines()
    return [line for line in lines if ": " in line and line.split(":")[0].isalpha()]


def test_a_sealed_candidate_cannot_alter_its_inputs_nor_the_cached_fixture(
    tmp_path: Path,
) -> None:
    if not benchlib.sandbox_status()[0]:
        pytest.skip("bubblewrap is not available")
    task = copy_example(tmp_path / "corpus", "01-grade-summary")
    workspace, cache = _sabotaging_workspace(task, tmp_path), tmp_path / "cache"
    verdict = _judge_keeping(task, workspace, cache, tmp_path / "warm")  # builds the cache
    before = _snapshot(cache / "main")
    assert before and verdict["progress_level"] == 5, verdict
    kept = tmp_path / "kept"
    verdict = _judge_keeping(task, workspace, cache, kept)
    assert verdict["progress_level"] == 5, verdict  # its inputs were intact throughout
    attempts = _attempts(kept)
    # a fresh sandbox uid (judging as root) is refused the write before the mount is asked
    assert attempts[0] in ("write: refused errno 30", "write: refused errno 13")
    assert attempts[1:] == [
        "chmod: refused errno 30",  # EROFS: the folder is a read-only mount
        "utime: refused errno 30",
        "unlink: refused errno 30",
        "create: refused errno 30",
        "rename: refused errno 16",  # EBUSY: a mount point
        "mount: ro",
    ]
    assert _snapshot(cache / "main") == before
    # the kept run leaves out the hard-linked inputs (an edit there would change the cache) ...
    assert not (kept / "main" / "inputs").exists()
    assert json.loads((kept / "main.json").read_text("utf-8"))["fixture_inputs"] == ["inputs"]
    # ... and a replay of it links them back from the fixture
    argv = [default_python(), "judge.py", "--workspace", str(workspace)]
    argv += ["--fixture-cache", str(cache), "--replay-runs", str(kept)]
    done = subprocess.run(argv, cwd=task, capture_output=True, text=True, timeout=120, check=False)
    assert json.loads(done.stdout)["progress_level"] == 5, done.stdout
    assert _snapshot(cache / "main") == before


def test_an_unsealed_candidate_alters_its_own_copy_only(tmp_path: Path) -> None:
    task = copy_example(tmp_path / "corpus", "01-grade-summary")
    workspace, cache = _sabotaging_workspace(task, tmp_path), tmp_path / "cache"
    _judge_keeping(task, workspace, cache, tmp_path / "warm", "--unsealed")
    before = _snapshot(cache / "main")
    kept = tmp_path / "kept"
    verdict = _judge_keeping(task, workspace, cache, kept, "--unsealed")
    assert verdict["progress_level"] < 2  # the module deleted and moved its inputs
    assert "write: done" in _attempts(kept)
    assert _snapshot(cache / "main") == before


def test_input_folders_are_the_topmost_folders_nothing_writes(tmp_path: Path) -> None:
    for rel in [
        "inputs/notes/a/1.md", "inputs/url.txt", "data/big/x.csv", "data/small.csv",
        "app/src/main.py", "app/docs/readme.md", "output/keep.txt", "top.txt",
    ]:  # fmt: skip
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x", "utf-8")
    (tmp_path / "linked").symlink_to("data")
    layout = benchlib.Layout(tmp_path, ("initial",), ("app/src/", "output/"))
    written = ["output/result.csv", "inputs/url.txt"]
    assert benchlib.input_folders(layout, tmp_path, written) == ["app/docs", "data", "inputs/notes"]


def test_link_fixture_links_only_the_input_folders(tmp_path: Path) -> None:
    pristine, root = tmp_path / "pristine", tmp_path / "root"
    for rel in ["inputs/a.csv", "inputs/deep/b.csv", "config.toml"]:
        (pristine / rel).parent.mkdir(parents=True, exist_ok=True)
        (pristine / rel).write_text(rel, "utf-8")
    (pristine / "inputs" / "alias.csv").symlink_to("a.csv")
    benchlib.link_fixture(pristine, root, ["inputs"])
    same = {
        rel: (root / rel).stat().st_ino == (pristine / rel).stat().st_ino
        for rel in ["inputs/a.csv", "inputs/deep/b.csv", "config.toml"]
    }
    assert same == {"inputs/a.csv": True, "inputs/deep/b.csv": True, "config.toml": False}
    assert (root / "inputs" / "alias.csv").readlink() == Path("a.csv")


def test_make_writable_opens_the_tree_but_never_follows_links(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "a" / "b").mkdir(parents=True)
    outside.mkdir()
    for path in [root / "top.txt", root / "a" / "b" / "deep.txt", outside / "private.txt"]:
        path.write_text("x", "utf-8")
        path.chmod(0o444)
    (root / "a" / "file-link").symlink_to(outside / "private.txt")
    (root / "a" / "folder-link").symlink_to(outside)
    (root / "a" / "dangling").symlink_to(tmp_path / "missing")
    for folder in [root / "a" / "b", root / "a", outside]:
        folder.chmod(0o555)
    benchlib.make_writable(root)
    rels = ["root/top.txt", "root/a", "root/a/b", "root/a/b/deep.txt", "outside"]
    modes = {
        rel: (tmp_path / rel).lstat().st_mode & 0o777 for rel in [*rels, "outside/private.txt"]
    }
    assert modes == {
        "root/top.txt": 0o644,
        "root/a": 0o755,
        "root/a/b": 0o755,
        "root/a/b/deep.txt": 0o644,
        "outside": 0o555,
        "outside/private.txt": 0o444,
    }
    (root / "a").chmod(0o555)
    benchlib.remove_path(root)
    assert not root.exists() and (outside / "private.txt").read_text("utf-8") == "x"
    outside.chmod(0o755)


def test_removing_a_linked_run_leaves_the_pristine_modes_alone(tmp_path: Path) -> None:
    pristine, root = tmp_path / "pristine", tmp_path / "root"
    (pristine / "inputs").mkdir(parents=True)
    (pristine / "inputs" / "a.csv").write_text("a\n", "utf-8")
    (pristine / "inputs" / "a.csv").chmod(0o444)
    (pristine / "inputs").chmod(0o555)
    benchlib.link_fixture(pristine, root, ["inputs"])
    (root / "own.txt").write_text("x", "utf-8")
    (root / "own.txt").chmod(0o444)
    benchlib.make_writable(root)  # as every clean-up does before deleting
    assert (root / "own.txt").stat().st_mode & 0o777 == 0o644  # the run's own file: writable
    benchlib.remove_path(root)
    assert not root.exists()
    assert (pristine / "inputs" / "a.csv").stat().st_mode & 0o777 == 0o444
