"""benchlib's process plumbing: timeouts, process groups, escaped children, floods, services."""

from __future__ import annotations

import socket
import time
import urllib.request
from pathlib import Path

import pytest

from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib


@pytest.fixture(scope="module")
def python() -> str:
    return default_python()


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text("utf-8")
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _wait_for(path: Path, seconds: float = 20.0) -> str:
    deadline = time.monotonic() + seconds
    while not path.exists() or not path.read_text("utf-8"):
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)
    return path.read_text("utf-8")


def _spawner(pid_file: Path, *, escape: bool, linger: bool) -> str:
    return (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'],"
        f" start_new_session={escape})\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        + ("time.sleep(120)\n" if linger else "")
    )


def test_a_timeout_kills_the_command_and_its_lingering_child(tmp_path: Path, python: str) -> None:
    pid_file = tmp_path / "child.pid"
    started = time.monotonic()
    result = benchlib.run_command(
        [python, "-c", _spawner(pid_file, escape=False, linger=True)],
        cwd=tmp_path, timeout=3.0, scratch=tmp_path / "scratch",
    )  # fmt: skip
    assert result.timed_out and result.returncode is None and not result.ok
    assert result.describe() == "timed out"
    assert time.monotonic() - started < 15
    assert not _alive(int(_wait_for(pid_file)))


def test_a_child_that_left_the_group_is_swept(tmp_path: Path, python: str) -> None:
    pid_file = tmp_path / "child.pid"
    result = benchlib.run_command(
        [python, "-c", _spawner(pid_file, escape=True, linger=False)],
        cwd=tmp_path, timeout=20.0, scratch=tmp_path / "scratch",
    )  # fmt: skip
    assert result.ok
    assert not _alive(int(_wait_for(pid_file)))


def test_a_flood_is_kept_on_disk_and_only_its_head_in_memory(tmp_path: Path, python: str) -> None:
    result = benchlib.run_command(
        [python, "-c", "import sys; sys.stdout.write('x' * 5_000_000); sys.exit(3)"],
        cwd=tmp_path, timeout=20.0, scratch=tmp_path / "scratch",
    )  # fmt: skip
    assert result.returncode == 3 and result.describe() == "exit status 3"
    assert len(result.stdout) == benchlib.CAPTURE_LIMIT
    assert result.stdout_path is not None and result.stdout_path.stat().st_size == 5_000_000


def test_a_missing_program_is_reported_not_raised(tmp_path: Path) -> None:
    result = benchlib.run_command(
        ["/no/such/program"], cwd=tmp_path, timeout=5.0, scratch=tmp_path / "scratch"
    )
    assert result.returncode is None and "could not start" in result.describe()


SERVER = """\
import http.server, sys
port = int(sys.argv[sys.argv.index("--port") + 1])
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"pong " + self.path.encode())
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", port), Handler)
print("LISTENING", server.server_address[1], flush=True)
server.serve_forever()
"""


def test_a_service_is_reachable_and_torn_down(tmp_path: Path, python: str) -> None:
    (tmp_path / "server.py").write_text(SERVER, "utf-8")
    with benchlib.start_service([python, "server.py"], cwd=tmp_path) as service:
        origin = service.origins["service"]
        assert service.url == f"http://127.0.0.1:{origin}" and origin != service.port
        with urllib.request.urlopen(service.url + "/ping", timeout=10) as response:
            assert response.read() == b"pong /ping"
        direct = f"http://127.0.0.1:{service.port}/direct"
        with pytest.raises(OSError):  # refused: the service's own port serves only the relays
            urllib.request.urlopen(direct, timeout=10)
        with urllib.request.urlopen(service.url + "/again", timeout=10) as response:
            assert response.read() == b"pong /again"
        process = service.process
    # The log is complete once the service stopped (judges read it then): a line may still be
    # in the pipe while the client already has its response. The relay records requests; a
    # connection straight to the service's own port (which no URL file names) is refused and
    # recorded too, with origin "" and method "".
    ping, direct_entry, again = service.requests()
    assert (direct_entry.origin, direct_entry.method, direct_entry.status) == ("", "", None)
    assert "not via an origin" in direct_entry.refused and not ping.refused
    assert (again.target, again.status, again.origin) == ("/again", 200, "service")
    assert process.poll() is not None
    assert (ping.seq, ping.method, ping.target, ping.status) == (1, "GET", "/ping", 200)
    assert ping.host == f"127.0.0.1:{origin}" and ping.origin == "service"
    assert ping.header("host") == ping.host and ping.in_flight == 1
    assert 0 <= ping.time <= (ping.end or 0.0)


KEEP_ALIVE = SERVER.replace(
    "    def do_GET(self):\n        self.send_response(200)\n        self.end_headers()\n",
    "    protocol_version = 'HTTP/1.1'\n"
    "    def do_GET(self):\n        self.send_response(200)\n"
    "        self.send_header('Content-Length', str(5 + len(self.path)))\n"
    "        self.end_headers()\n",
)


def _exchange(port: int, data: bytes) -> bytes:
    """Send ``data`` on one connection, end it; all the answer (until the service closes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(data)
        connection.shutdown(socket.SHUT_WR)
        answer = b""
        try:
            while chunk := connection.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    return answer


UPGRADE = b"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
SMUGGLE = b"GET /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
AFTER, SECRET = b"GET /after HTTP/1.1\r\n\r\n", b"GET /secret HTTP/1.1\r\n\r\n"


@pytest.mark.parametrize(
    ("sent", "served", "logged"),
    [
        (b"GET /x\r\n\r\n", [], [("", "GET /x")]),  # HTTP/0.9, which http.server serves
        (UPGRADE + AFTER, [b"/ws", b"/after"], [("GET", "/ws"), ("GET", "/after")]),
        (SMUGGLE + SECRET, [], [("GET", "/x"), ("", SECRET.decode().strip())]),
    ],
    ids=["http-0.9", "upgrade-ignored", "chunked-smuggle"],
)
def test_the_relay_serves_only_what_it_recorded(
    tmp_path: Path, python: str, sent: bytes, served: list[bytes], logged: list[tuple[str, str]]
) -> None:
    (tmp_path / "server.py").write_text(KEEP_ALIVE, "utf-8")
    with benchlib.start_service([python, "server.py"], cwd=tmp_path) as service:
        answer = _exchange(service.origins["service"], sent)
    assert b"/secret" not in answer and all(b"pong " + path in answer for path in served)
    assert logged[0][0] or not answer, "HTTP/0.9 is refused unanswered"
    log = service.requests()
    assert [(r.method, r.target) for r in log] == logged
    assert all(bool(r.refused) == (r.method == "") for r in log)


def test_a_relay_connection_the_service_accepts_late_is_not_refused(
    tmp_path: Path, python: str
) -> None:
    """A relay connection closed (here: its request refused) before the busy service accepted
    it is still the relay's: it is not recorded a second time as a direct connection."""
    late = SERVER.replace("server.serve_forever()", "time.sleep(1)\nserver.serve_forever()")
    (tmp_path / "server.py").write_text("import time\n" + late, "utf-8")
    with benchlib.start_service([python, "server.py"], cwd=tmp_path) as service:
        assert _exchange(service.origins["service"], b"GET /x\r\n\r\n") == b""
        with urllib.request.urlopen(service.url + "/ping", timeout=10) as response:
            assert response.read() == b"pong /ping"
    log = [(r.method, r.target, r.origin) for r in service.requests()]
    assert log == [("", "GET /x", "service"), ("GET", "/ping", "service")]


@pytest.mark.parametrize("through", [[], ["env"]], ids=["python", "not-python"])
def test_a_listening_line_is_read_whole(tmp_path: Path, python: str, through: list[str]) -> None:
    script = (
        "import sys, time\n"
        "sys.stdout.write('LISTENING 1'); sys.stdout.flush(); time.sleep(0.5)\n"
        "sys.stdout.write('2345\\n'); sys.stdout.flush(); time.sleep(60)\n"
    )
    with benchlib.start_service([*through, python, "-c", script], cwd=tmp_path) as service:
        assert service.port == 12345


def test_a_service_that_dies_fails_fast(tmp_path: Path, python: str) -> None:
    started = time.monotonic()
    service = benchlib.start_service(
        [python, "-c", "raise SystemExit(1)"], cwd=tmp_path, timeout=30
    )
    message = r"exited with status 1 before printing 'LISTENING <port>'"
    with pytest.raises(RuntimeError, match=message), service:
        pass
    assert time.monotonic() - started < 20


def _failure(tmp_path: Path, python: str, script: str, **kwargs: object) -> str:
    (tmp_path / "svc.py").write_text(script, "utf-8")
    service = benchlib.start_service(
        [python, "svc.py"], cwd=tmp_path, name="catalog", display="python svc.py --port 0",
        **kwargs,  # type: ignore[arg-type]
    )  # fmt: skip
    with pytest.raises(RuntimeError) as caught, service:
        pass
    return str(caught.value)


def test_a_crashing_service_is_named_with_its_command_status_and_stderr(
    tmp_path: Path, python: str
) -> None:
    script = "import sys\nfor n in range(30): print('line', n, file=sys.stderr)\nsys.exit(2)\n"
    message = _failure(tmp_path, python, script)
    assert message.startswith(
        "service 'catalog' (python svc.py --port 0) exited with status 2 before printing "
        "'LISTENING <port>'; the last lines of its stderr:\n"
    ), message
    assert message.endswith("    line 29") and "line 19" not in message, message


def test_a_missing_service_script_is_named(tmp_path: Path, python: str) -> None:
    service = benchlib.start_service(
        [python, "inputs/nowhere.py"], cwd=tmp_path, name="catalog", display="python x"
    )
    with pytest.raises(RuntimeError) as caught, service:
        pass
    assert "service 'catalog' (python x) exited with status 2" in str(caught.value)
    assert "the service script inputs/nowhere.py does not exist" in str(caught.value)


def test_stdout_before_listening_breaks_the_contract(tmp_path: Path, python: str) -> None:
    script = "print('starting up', flush=True)\nprint('LISTENING 4000', flush=True)\n"
    script += "import time; time.sleep(30)\n"
    message = _failure(tmp_path, python, script)
    assert "service 'catalog' (python svc.py --port 0) printed 'starting up' on standard " in (
        message
    )


def test_no_listening_in_time_says_so(tmp_path: Path, python: str) -> None:
    script = "import sys, time\nprint('warming up', file=sys.stderr, flush=True)\ntime.sleep(30)\n"
    message = _failure(tmp_path, python, script, timeout=1.0)
    assert "did not print 'LISTENING <port>' within 1 s (still running)" in message
    assert message.endswith("stderr:\n    warming up"), message


def test_a_second_listening_line_is_the_services_error(tmp_path: Path, python: str) -> None:
    script = (
        "import time\nprint('LISTENING 4000', flush=True)\nprint('LISTENING 4001', flush=True)\n"
    )
    script += "time.sleep(30)\n"
    (tmp_path / "svc.py").write_text(script, "utf-8")
    with benchlib.start_service([python, "svc.py"], cwd=tmp_path, name="catalog") as service:
        deadline = time.monotonic() + 10
        while not service.error and time.monotonic() < deadline:
            time.sleep(0.01)
    assert service.error.startswith("service 'catalog' printed a second 'LISTENING <port>' line")
