"""Sealed agents: the task, corpus, checkout and runs folder invisible; nothing escapes."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from benchsmith.runtime import benchlib
from tests.run.conftest import SINGLE, batch
from tests.run.test_runner import SERVER, SERVICE_TASK

HOSTILE = r"""
import json, os, subprocess, sys
task_dir, outside, checkout = sys.argv[1:4]
found = {}
try:
    open(os.path.join(task_dir, "judge.py")).read()
    found["read_task"] = True
except OSError:
    found["read_task"] = False
hits = []
for top in (checkout, task_dir, os.path.dirname(task_dir)):
    for folder, dirs, files in os.walk(top):
        hits += [os.path.join(folder, f) for f in files if f in ("judge.py", "task.toml")]
found["hits"] = hits
writes = {}
for target in (os.path.join(outside, "escaped.txt"), "new-root-file.txt", "TASK.md",
               os.path.join(task_dir, "poison.txt")):
    try:
        with open(target, "a") as stream:
            stream.write("x")
        writes[target] = True
    except OSError:
        writes[target] = False
found["writes"] = writes
subprocess.Popen(["/usr/bin/env", "-i", "/bin/sh", "-c", "sleep 1234.5"], start_new_session=True,
                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
with open(os.environ["BENCHSMITH_EVENTS"], "a") as events:
    events.write(json.dumps({"type": "assistant", "text": json.dumps(found)}) + "\n")
    events.write(json.dumps({"type": "idle"}) + "\n")
"""

pytestmark = pytest.mark.skipif(not benchlib.sandbox_status()[0], reason="bubblewrap cannot run")


def sleepers() -> list[int]:
    """Host processes running the hostile agent's daemon (``sleep 1234.5``)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "cmdline").read_bytes() == b"sleep\x001234.5\x00":
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_a_sealed_agent_reads_writes_and_leaves_nothing(tmp_path: Path) -> None:
    outside = Path(tempfile.mkdtemp(prefix="benchsmith-outside-", dir="/var/tmp"))
    script = outside / "hostile.py"  # /tmp is private to the sandbox: the script lives here
    script.write_text(HOSTILE, encoding="utf-8")
    outside.chmod(0o755)
    python = benchlib.interpreter(sys.executable).executable
    if python.startswith("/root/"):
        python = "/usr/bin/python3"
    agent = f"command:{python} {script} {SINGLE} {outside} {SINGLE.parents[1]}"
    before = (SINGLE / "TASK.md").read_bytes()
    try:
        result = batch(tmp_path / "runs", [SINGLE], agent, arm="hostile", unsealed=False)
        escaped = (outside / "escaped.txt").exists()
    finally:
        shutil.rmtree(outside, ignore_errors=True)
    (outcome,) = result.outcomes
    said = [e.event["text"] for e in outcome.timeline if e.event["type"] == "assistant"]
    assert said, outcome.end_detail
    found = json.loads(said[0])
    assert found["read_task"] is False
    assert found["hits"] == []
    assert not any(found["writes"].values()), found["writes"]
    assert not escaped and not (SINGLE / "poison.txt").exists()
    assert (SINGLE / "TASK.md").read_bytes() == before
    assert sleepers() == []
    record = json.loads((tmp_path / "runs" / outcome.run_id / "run.json").read_text("utf-8"))
    assert record["sealed"] is True


SEARCH = r"""
import json, os, sys
workspace = os.environ["BENCHSMITH_WORKSPACE"]
secret, bound = sys.argv[1:3]
names = {"judge.py", "benchlib.py", "task.toml", "run.json", "workspace.tar.gz", secret}
hits = []
for folder, dirs, files in os.walk("/"):
    if folder in ("/proc", "/sys", "/dev") or folder.startswith(workspace):
        dirs[:] = []
        continue
    hits += [os.path.join(folder, f) for f in files if f in names]
    hits += [os.path.join(folder, d) for d in dirs if d == "reference"
             and os.path.isdir(os.path.join(folder, d, "solution"))]
    hits += [os.path.join(folder, d) for d in dirs if d == "judge-cache"
             or (d == "edge" and os.path.isdir(os.path.join(folder, d, "inputs")))]
seen = sorted(os.listdir(bound)) if os.path.isdir(bound) else None
with open(os.environ["BENCHSMITH_EVENTS"], "a") as events:
    events.write(json.dumps({"type": "assistant", "text": json.dumps([hits, seen])}) + "\n")
    events.write(json.dumps({"type": "idle"}) + "\n")
"""


def test_a_sealed_agent_finds_no_corpus_and_no_run_anywhere_on_the_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: the agent's view is an allowlist. A second copy of the corpus and an earlier
    runs folder elsewhere on the host, and this checkout itself, are invisible to ``find /``;
    so is the judges' fixture cache (its edge fixture included) beside the workspace, with
    ``TMPDIR`` outside ``/tmp`` and a second repeat after the first was judged; the relative
    script path resolves from the caller's folder; ``--agent-bind`` shows one more folder
    read-only."""
    host = Path(tempfile.mkdtemp(prefix="benchsmith-host-", dir="/var/tmp"))
    scratch = host / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    try:
        secret = f"secret-{host.name}.txt"
        copy = host / "clone" / "tasks" / SINGLE.name
        shutil.copytree(SINGLE, copy)
        (copy / secret).write_text("x", encoding="utf-8")
        old_run = host / "runs" / "arm--01-grade-summary--r001"
        old_run.mkdir(parents=True)
        (old_run / "run.json").write_text("{}", encoding="utf-8")
        (old_run / "workspace.tar.gz").write_bytes(b"")
        shown = host / "shown"
        shown.mkdir()
        (shown / "notes.txt").write_text("bound", encoding="utf-8")
        (host / "agent.py").write_text(SEARCH, encoding="utf-8")
        host.chmod(0o755)
        monkeypatch.chdir(host)
        python = benchlib.interpreter(sys.executable).executable
        result = batch(
            tmp_path / "runs", [SINGLE], f"command:{python} agent.py {secret} {shown}",
            arm="finder", unsealed=False, agent_binds=(str(shown),), repeat=2,
        )  # fmt: skip
    finally:
        shutil.rmtree(host, ignore_errors=True)
    assert len(result.outcomes) == 2
    for outcome in result.outcomes:
        said = [e.event["text"] for e in outcome.timeline if e.event["type"] == "assistant"]
        assert said, outcome.end_detail
        hits, seen = json.loads(said[0])
        assert hits == []
        assert seen == ["notes.txt"]
        record = json.loads((tmp_path / "runs" / outcome.run_id / "run.json").read_text("utf-8"))
        assert record["agent_binds"] == [str(shown)]


PROBES = r"""
PROBES = __PROBES__
def writable(path):
    try:
        with open(path, "a"):
            return True
    except OSError:
        return False
seen = {
    "env": sorted(os.environ), "cwd": os.getcwd(), "uid": os.getuid(),
    "visible": {p: os.path.exists(p) for p in PROBES},
    "writes_cwd": writable("service-was-here.txt"),
}
"""
PROBING_SERVER = SERVER.replace("class Handler", PROBES.lstrip() + "class Handler").replace(
    'json.dumps({"pid": os.getpid()})', "json.dumps(seen)"
)
"""test_runner's price service, answering with what it saw of its sandbox instead of its pid."""


ASKING_AGENT = r"""
import json, os, urllib.request
url = open("inputs/base_url.txt").read().strip()
body = urllib.request.urlopen(url, timeout=10).read().decode()
with open(os.environ["BENCHSMITH_EVENTS"], "a") as events:
    events.write(json.dumps({"type": "assistant", "text": body}) + "\n")
    events.write(json.dumps({"type": "idle"}) + "\n")
"""


def test_a_fixture_service_beside_a_sealed_agent_is_sealed_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26 item 6: the service an agent talks to runs in the minimal view, with an
    environment of its own (no runner variable, no --pass-env credential) and a read-only
    workspace as its folder; the task folder, the corpus and the runs folder do not exist
    for it. The agent still reaches it on the loopback."""
    from benchsmith.building import build

    host = Path(tempfile.mkdtemp(prefix="benchsmith-host-", dir="/var/tmp"))
    try:
        task = host / "corpus" / "09-price-lookup"
        (task / "visible" / "inputs").mkdir(parents=True)
        (task / "task.toml").write_text(SERVICE_TASK, encoding="utf-8")
        runs = host / "runs"
        probes = [str(task), str(Path(__file__).resolve()), str(runs)]
        server = PROBING_SERVER.replace("__PROBES__", repr(probes))
        (task / "visible" / "inputs" / "server.py").write_text(server, encoding="utf-8")
        build([task])
        (host / "agent.py").write_text(ASKING_AGENT, encoding="utf-8")
        host.chmod(0o755)
        monkeypatch.setenv("BENCHSMITH_TEST_CREDENTIAL", "s3cret")
        monkeypatch.chdir(host)
        python = benchlib.interpreter(sys.executable).executable
        result = batch(
            runs, [task], f"command:{python} agent.py", arm="asker", unsealed=False,
            pass_env=("BENCHSMITH_TEST_CREDENTIAL",),
        )  # fmt: skip
    finally:
        shutil.rmtree(host, ignore_errors=True)
    (outcome,) = result.outcomes
    said = [e.event["text"] for e in outcome.timeline if e.event["type"] == "assistant"]
    assert said, outcome.end_detail
    seen = json.loads(said[0])
    assert seen["visible"] == dict.fromkeys(probes, False)
    assert "BENCHSMITH_TEST_CREDENTIAL" not in seen["env"]
    assert not any(name.startswith(("PYTEST", "VIRTUAL_ENV")) for name in seen["env"])
    assert seen["writes_cwd"] is False
    assert seen["cwd"].endswith("workspace") or "benchsmith-run-" in seen["cwd"]
