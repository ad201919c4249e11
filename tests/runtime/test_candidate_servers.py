"""Candidate servers: a task's serve, http and stop steps, judged sealed and unsealed.

The task (tests/server_task.py) starts the candidate's SQLite-backed item service, posts two
items, stops and restarts it, counts the items over HTTP and through a command that reads
the server's URL from the environment and posts the count to a fixture sink (whose request
log the judge checks), and posts a body that is not JSON. A broken server
(silent, talkative, dying, hanging) is reported in the step's note within the bounded
wait, and nothing any server started is left running.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest

import benchsmith
from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib
from tests.server_task import SERVER, WITNESSES, build_server_task

MODES = [pytest.param([], id="sealed"), pytest.param(["--unsealed"], id="unsealed")]


@pytest.fixture(scope="module")
def task(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_server_task(tmp_path_factory.mktemp("servers") / "corpus")


def _workspace(task: Path, folder: Path, server: str | None = SERVER) -> Path:
    """A final workspace holding the reference with ``server`` as solution/server.py (None:
    the empty workspace)."""
    workspace = benchsmith.workspace(task, folder, stage=None, corpus=task.parent)
    if server is not None:
        shutil.copytree(task / "reference" / "solution", workspace / "solution", dirs_exist_ok=True)
        (workspace / "solution" / "server.py").write_text(server, encoding="utf-8")
    return workspace


def _judge(task: Path, workspace: Path, *options: str) -> dict[str, object]:
    done = subprocess.run(
        [default_python(), str(task / "judge.py"), "--workspace", str(workspace), *options],
        cwd=task, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)
    assert isinstance(verdict, dict)
    return verdict


def _marked_processes(marker: str) -> list[int]:
    """The live processes whose command line holds ``marker`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_bytes().rsplit(b")", 1)[-1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state not in (b"Z", b"X"):
            found.append(int(entry.name))
    return found


def _leaving_a_child(server: str, marker: str) -> str:
    """``server`` that first starts a detached child (its own session) carrying ``marker``."""
    spawn = (
        "import subprocess as _s, sys as _y\n"
        "_s.Popen([_y.executable, '-c', 'import time; time.sleep(300)', "
        f"{marker!r}], start_new_session=True)\n"
    )
    return spawn + server


@pytest.mark.parametrize("options", MODES)
def test_the_reference_server_scores_5(task: Path, tmp_path: Path, options: list[str]) -> None:
    verdict = _judge(task, _workspace(task, tmp_path / "ws"), *options)
    assert verdict["progress_level"] == 5, verdict["notes"]
    assert all(c["passed"] for c in verdict["checks"])  # type: ignore[attr-defined]


def test_an_empty_candidate_scores_0_with_a_note(task: Path, tmp_path: Path) -> None:
    verdict = _judge(task, _workspace(task, tmp_path / "ws", None))
    assert verdict["progress_level"] == 0
    assert any("module solution.server not found" in n for n in verdict["notes"])  # type: ignore[attr-defined]


def test_restart_keeps_sqlite_state_and_commands_see_the_url(task: Path, tmp_path: Path) -> None:
    judge = _load_judge(task)
    run = benchlib.produce(judge, _workspace(task, tmp_path / "ws"), "main", tmp=tmp_path / "t")
    first, again = run.server("start").detail["port"], run.server("restart").detail["port"]
    assert first > 0 and again > 0
    assert run.response("add").status == 202
    assert run.response("add").header("content-type") == "application/json"
    assert run.response("add-file").json() == {"id": 2}
    assert run.step("restart").ok
    assert run.response("count").json() == {"count": 2}  # after the restart
    assert json.loads((run.root / "output/report.json").read_text()) == {"count": 2}
    assert (run.root / "output/url.txt").read_text().strip() == f"http://127.0.0.1:{first}"
    assert run.response("bad").status == 400
    with pytest.raises(KeyError, match="no step 'nope'"):
        run.step("nope")


def _load_judge(task: Path) -> benchlib.Judge:
    """A judge of the task's embedded data (no authored checks: ``produce`` runs none)."""
    tree = ast.parse((task / "judge.py").read_text("utf-8"))
    node = next(
        n for n in tree.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "TASK"
    )
    return benchlib.Judge(ast.literal_eval(node.value), task)


SILENT = "import time\ntime.sleep(300)\n"
TWICE = SERVER.replace(
    'print(f"LISTENING {server.server_port}", flush=True)',
    'print(f"LISTENING {server.server_port}\\nLISTENING {server.server_port}", flush=True)',
)
MALFORMED = SERVER.replace('print(f"LISTENING {server.server_port}"', 'print("LISTENING soon"')
DYING = "import sys\nsys.stderr.write('cannot open the database\\n')\nsys.exit(3)\n"
MUTE = SERVER.replace(
    "def do_GET(self):", "def do_GET(self):\n            time.sleep(300)"
).replace("import json\n", "import json\nimport time\n")


@pytest.mark.parametrize("options", MODES)
@pytest.mark.parametrize(
    ("server", "note", "level"),
    [
        pytest.param(SILENT, "did not print 'LISTENING <port>' within 2 s", 1, id="silent"),
        pytest.param(TWICE, "printed a second 'LISTENING <port>' line", 1, id="twice"),
        pytest.param(MALFORMED, "printed a malformed line 'LISTENING soon'", 1, id="malformed"),
        pytest.param(DYING, "exited with status 3 before printing 'LISTENING", 1, id="dies"),
        pytest.param(MUTE, "GET /items to server 'api': no complete response within 1 s", 1,
                     id="hangs"),
    ],
)  # fmt: skip
def test_a_broken_server_is_reported_within_the_bounded_wait_and_stopped(
    task: Path, tmp_path: Path, options: list[str], server: str, note: str, level: int
) -> None:
    marker = f"benchsmith-test-{uuid.uuid4().hex}"
    workspace = _workspace(task, tmp_path / "ws", _leaving_a_child(server, marker))
    started = time.monotonic()
    verdict = _judge(task, workspace, "--time-scale", "0.2", *options)
    elapsed = time.monotonic() - started
    notes = verdict["notes"]
    assert verdict["progress_level"] == level, notes
    assert any(note in n for n in notes), notes  # type: ignore[attr-defined]
    assert elapsed < 60, f"judging took {elapsed:.1f} s"
    assert not _marked_processes(marker), "a candidate process outlived the judge"


def test_later_steps_that_need_a_server_that_did_not_start_are_not_run(
    task: Path, tmp_path: Path
) -> None:
    verdict = _judge(task, _workspace(task, tmp_path / "ws", DYING), "--time-scale", "0.2")
    notes = verdict["notes"]
    reason = "not run: server 'api' is not running (it did not start)"
    assert any(n.startswith("level 2: POST /items (server api): " + reason) for n in notes), notes  # type: ignore[attr-defined]
    assert any("stop server api: " + reason in n for n in notes), notes  # type: ignore[attr-defined]
    # the report command still ran: it found no server URL in its environment
    assert any("KeyError: 'BENCHSMITH_SERVER_API'" in n for n in notes), notes  # type: ignore[attr-defined]


def test_a_server_that_ignores_sigterm_is_killed_and_its_stop_fails(tmp_path: Path) -> None:
    """Directly in a pod: SIGTERM ignored, the stop step's bounded wait, then SIGKILL."""
    kit = benchlib.PodKit.prepare(tmp_path / "lib", default_python())
    root = tmp_path / "root"
    root.mkdir()
    stubborn = (
        "import signal, socket, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "s = socket.create_server(('127.0.0.1', 0))\n"
        "print('LISTENING', s.getsockname()[1], flush=True)\n"
        "time.sleep(300)\n"
    )
    python = kit.interpreter.executable
    serve = benchlib.PodCommand(
        (python, "-c", stubborn), timeout=5, kind="serve", step={"serve": "s", "display": "x"}
    )
    stop = benchlib.PodCommand((), timeout=0.5, kind="stop", step={"stop": "s"})
    started = time.monotonic()
    outcome = benchlib.run_pod(kit, root, commands=[serve, stop, stop], scratch=tmp_path / "s")
    assert time.monotonic() - started < 20
    served, stopped, again = outcome.results
    assert served.ok and served.detail["port"] > 0
    assert not stopped.ok
    assert "did not exit within 0.5 s of SIGTERM; killed" in stopped.error
    assert again.error == "not run: server 's' is not running (it was stopped)"


def test_a_late_second_listening_line_fails_the_serve_step(tmp_path: Path) -> None:
    kit = benchlib.PodKit.prepare(tmp_path / "lib", default_python())
    root = tmp_path / "root"
    root.mkdir()
    late = (
        "import socket, time\n"
        "s = socket.create_server(('127.0.0.1', 0))\n"
        "print('LISTENING', s.getsockname()[1], flush=True)\n"
        "time.sleep(0.2)\n"
        "print('LISTENING', s.getsockname()[1], flush=True)\n"
        "time.sleep(300)\n"
    )
    python = kit.interpreter.executable
    serve = benchlib.PodCommand(
        (python, "-c", late), timeout=5, kind="serve", step={"serve": "s", "display": "x"}
    )
    wait = benchlib.PodCommand((python, "-c", "import time; time.sleep(1)"), timeout=5)
    outcome = benchlib.run_pod(kit, root, commands=[serve, wait], scratch=tmp_path / "s")
    assert not outcome.results[0].ok
    assert "printed a second 'LISTENING <port>' line after it was listening" in (
        outcome.results[0].error
    )
    assert outcome.results[1].ok


def test_a_response_longer_than_max_bytes_is_cut_and_marked(tmp_path: Path) -> None:
    kit = benchlib.PodKit.prepare(tmp_path / "lib", default_python())
    root = tmp_path / "root"
    root.mkdir()
    big = (
        "import http.server\n"
        "class H(http.server.BaseHTTPRequestHandler):\n"
        "    def do_GET(self):\n"
        "        self.send_response(200); self.send_header('Content-Length', '5000')\n"
        "        self.end_headers(); self.wfile.write(b'x' * 5000)\n"
        "s = http.server.HTTPServer(('127.0.0.1', 0), H)\n"
        "print('LISTENING', s.server_port, flush=True)\n"
        "s.serve_forever()\n"
    )
    python = kit.interpreter.executable
    serve = benchlib.PodCommand(
        (python, "-c", big), timeout=5, kind="serve", step={"serve": "s", "display": "x"}
    )
    request = {"server": "s", "method": "GET", "target": "/", "headers": [], "limit": 100}
    get = benchlib.PodCommand((), timeout=5, kind="http", step=request)
    outcome = benchlib.run_pod(kit, root, commands=[serve, get], scratch=tmp_path / "s")
    response = benchlib.response_of(outcome.results[1], "get")
    assert response.status == 200
    assert response.body == b"x" * 100
    assert response.truncated


def test_the_process_probe_finds_a_marked_process() -> None:
    """The probe the tests above rely on sees a live process that carries the marker."""
    marker = f"benchsmith-test-{uuid.uuid4().hex}"
    process = subprocess.Popen([default_python(), "-c", "import time; time.sleep(60)", marker])
    try:
        assert _marked_processes(marker) == [process.pid]
    finally:
        process.kill()
        process.wait()
    assert not _marked_processes(marker)


def test_a_declared_response_expectation_fails_with_its_note(task: Path, tmp_path: Path) -> None:
    old, new = WITNESSES[4]  # a body that is not JSON is stored: 202 instead of 400
    verdict = _judge(task, _workspace(task, tmp_path / "ws", SERVER.replace(old, new)))
    assert verdict["progress_level"] == 4
    notes = verdict["notes"]
    assert any(
        n.startswith("edge: non-JSON refused: status of the response of 'bad'") and "202" in n
        for n in notes  # type: ignore[attr-defined]
    ), notes


def test_a_server_that_logs_more_than_a_pipe_holds_during_a_request_still_answers(
    tmp_path: Path,
) -> None:
    """PID 1 keeps reading the servers' output while it waits for a response."""
    kit = benchlib.PodKit.prepare(tmp_path / "lib", default_python())
    root = tmp_path / "root"
    root.mkdir()
    chatty = (
        "import http.server, sys\n"
        "class H(http.server.BaseHTTPRequestHandler):\n"
        "    def do_GET(self):\n"
        "        sys.stdout.write('x' * 300000 + '\\n'); sys.stdout.flush()\n"
        "        self.send_response(200); self.send_header('Content-Length', '2')\n"
        "        self.end_headers(); self.wfile.write(b'ok')\n"
        "s = http.server.HTTPServer(('127.0.0.1', 0), H)\n"
        "print('LISTENING', s.server_port, flush=True)\n"
        "s.serve_forever()\n"
    )
    python = kit.interpreter.executable
    serve = benchlib.PodCommand(
        (python, "-c", chatty), timeout=5, kind="serve", step={"serve": "s", "display": "x"}
    )
    request = {"server": "s", "method": "GET", "target": "/", "headers": []}
    get = benchlib.PodCommand((), timeout=3, kind="http", step=request)
    outcome = benchlib.run_pod(kit, root, commands=[serve, get, get], scratch=tmp_path / "s")
    assert [r.detail.get("status") for r in outcome.results[1:]] == [200, 200]
    assert outcome.results[0].stdout.startswith("x" * 1000)  # its log: the serve step's stdout
