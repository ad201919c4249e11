"""Concurrent builds and scaffolds: they take turns; none crashes; the result is valid."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import benchsmith.locking
from benchsmith.building import build
from benchsmith.errors import LockedError
from tests.robust.system import leftovers
from tests.robust.test_filesystem import corpus_at

CLI = [sys.executable, "-m", "benchsmith"]
WRITERS = 4


def run_together(argvs: list[list[str]], cwd: Path) -> list[subprocess.CompletedProcess[str]]:
    procs = [
        subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for argv in argvs
    ]
    done = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return done


def test_concurrent_builds_of_one_task_take_turns(tmp_path: Path) -> None:
    task = corpus_at(tmp_path)
    results = run_together([[*CLI, "build", str(task)]] * WRITERS, tmp_path)
    for result in results:
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
    changed = [r for r in results if "0 file(s) changed" not in r.stdout]
    assert len(changed) == 1  # the first writer built; the others found it up to date
    build([task], check=True)
    assert leftovers(task.parent) == []


def test_concurrent_scaffolds_in_one_corpus(tmp_path: Path) -> None:
    task = corpus_at(tmp_path, changed=False)
    corpus = task.parent
    argvs = [
        [*CLI, "new", f"task-{n}", "--id", str(10 + n), "--pressure", "N", "--dir", str(corpus)]
        for n in range(WRITERS)
    ]
    argvs.append([*CLI, "build", str(task)])
    for result in run_together(argvs, tmp_path):
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
    index = json.loads((corpus / "tasks.json").read_text(encoding="utf-8"))
    assert [t["id"] for t in index["tasks"]] == [1, 10, 11, 12, 13]
    build(sorted(p for p in corpus.iterdir() if (p / "task.toml").is_file()), check=True)
    assert leftovers(corpus) == []


def test_a_writer_that_waits_too_long_names_the_holder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    task = corpus_at(tmp_path)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time\n"
            "fd = os.open(sys.argv[1], os.O_RDONLY)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "print('held', flush=True)\n"
            "time.sleep(60)\n",
            str(task),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        monkeypatch.setattr(benchsmith.locking, "LOCK_TIMEOUT", 0.3)
        with pytest.raises(LockedError) as caught:
            build([task])
        assert f"locked by PID {holder.pid}" in caught.value.message
        [finding] = caught.value.diagnostics
        assert (finding.code, finding.line, finding.col) == ("BS002", 1, 1)
        assert caught.value.exit_code == 3
    finally:
        holder.kill()
        holder.wait()
    build([task])  # the lock went with its holder
