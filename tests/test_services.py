"""Services as fixtures: the request log judges read, located service errors, the example.

The example ``examples/03-catalog-crawl`` is a loopback HTTP service whose judge checks the
request log (every page fetched once, in order, one request at a time, never through the
service's second origin).
"""

from __future__ import annotations

import http.client
import json
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

import benchsmith
from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib
from tests.conftest import EXAMPLES

EXAMPLE = EXAMPLES / "03-catalog-crawl"


def _judge(task: Path, workspace: Path) -> dict[str, object]:
    done = subprocess.run(
        [default_python(), str(task / "judge.py"), "--workspace", str(workspace)],
        cwd=task, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)
    assert isinstance(verdict, dict)
    return verdict


def _candidate(
    tmp_path: Path, edit: Callable[[str], str] = lambda s: s, task: Path = EXAMPLE
) -> Path:
    """The final workspace with the reference crawler, changed by ``edit``."""
    workspace = benchsmith.workspace(task, tmp_path / "ws", stage=None, corpus=task.parent)
    target = workspace / "solution" / "crawl.py"
    target.parent.mkdir(exist_ok=True)
    target.write_text(edit((EXAMPLE / "reference/solution/crawl.py").read_text("utf-8")))
    (workspace / "solution" / "__init__.py").write_text("", "utf-8")
    return workspace


def _checks(verdict: dict[str, object]) -> dict[str, bool]:
    checks = verdict["checks"]
    assert isinstance(checks, list)
    return {c["name"]: c["passed"] for c in checks}


def test_the_reference_crawl_passes_and_its_requests_are_judged(tmp_path: Path) -> None:
    verdict = _judge(EXAMPLE, _candidate(tmp_path))
    assert verdict["progress_level"] == 5, verdict


def _twice(source: str) -> str:
    """The reference crawler, fetching each page twice."""
    return source.replace(
        '        url = page["next"]\n',
        '        urllib.request.urlopen(url, timeout=30).close()\n        url = page["next"]\n',
    )


def test_a_crawler_fetching_a_page_twice_is_seen_in_the_log(tmp_path: Path) -> None:
    verdict = _judge(EXAMPLE, _candidate(tmp_path, _twice))
    checks = _checks(verdict)
    assert verdict["progress_level"] == 3, verdict
    assert checks["every_page_fetched_once_in_order"] is False
    assert checks["items_listed_from_the_service"] is True


def test_a_candidate_cannot_forge_the_request_log(tmp_path: Path) -> None:
    """Reading the catalog file instead of crawling: no request, whatever it writes."""

    def offline(source: str) -> str:
        return source.replace(
            '    url: str | None = base + "/catalog?page=1"\n',
            "    url: str | None = None\n"
            "    for name in ('requests.jsonl', 'log.jsonl'):\n"
            '        Path(name).write_text(\'{"seq": 1, "method": "GET"}\\n\')\n'
            "    for row in csv.DictReader(open('inputs/catalog.csv')):\n"
            "        items[row['sku']] = {k: row[k] for k in ('sku', 'name', 'price')}\n",
        )

    verdict = _judge(EXAMPLE, _candidate(tmp_path, offline))
    assert _checks(verdict)["items_listed_from_the_service"] is False
    assert verdict["progress_level"] == 2, verdict


def test_lint_and_build_report_a_service_script_no_fixture_provides(
    example_copy: Callable[[str], Path], cli: Callable[..., object]
) -> None:
    task = example_copy("03-catalog-crawl")
    (task / "visible" / "inputs" / "catalog_server.py").unlink()
    linted = cli("lint", task)
    assert linted.exit_code == 1  # type: ignore[attr-defined]
    output = linted.output  # type: ignore[attr-defined]
    line = next(n for n, t in enumerate((task / "task.toml").read_text().splitlines(), 1)
                if t.startswith('run = "python inputs/catalog_server.py"'))  # fmt: skip
    col = len('run = "python ') + 1  # at the script inside the string (issue 28)
    assert (
        f"task.toml:{line}:{col}: BS104 service 'catalog' runs inputs/catalog_server.py" in output
    )
    assert "stage-1 workspace fixture does not provide" in output
    built = cli("build", task)
    assert built.exit_code == 1, built.output  # type: ignore[attr-defined]
    assert "BS104 service 'catalog' runs inputs/catalog_server.py" in built.output  # type: ignore[attr-defined]
    assert "Traceback" not in built.output  # type: ignore[attr-defined]


SLOW_SERVER = """\
import http.server, sys, threading
port = int(sys.argv[sys.argv.index("--port") + 1])
together = threading.Barrier(3, timeout=30)
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        together.wait()  # all three requests are in flight at once
        self.send_response(204)
        self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
print("LISTENING", server.server_address[1], flush=True)
server.serve_forever()
"""


def test_the_log_sees_requests_in_flight_together(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(SLOW_SERVER, "utf-8")
    python = default_python()
    with benchlib.start_service([python, "slow.py"], cwd=tmp_path, name="slow") as service:
        fetch = [
            threading.Thread(target=lambda n=n: urllib.request.urlopen(f"{service.url}/{n}"))
            for n in range(3)
        ]
        for thread in fetch:
            thread.start()
        for thread in fetch:
            thread.join()
    requests = service.requests()  # complete once the service stopped
    assert sorted(r.in_flight for r in requests) == [1, 2, 3]
    assert all(r.status == 204 and (r.end is None or r.end >= r.time) for r in requests)


DAWDLING_SERVER = """\
import http.server, sys, time
port = int(sys.argv[sys.argv.index("--port") + 1])
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")
        self.wfile.flush()
        time.sleep(0.5)  # the client has its answer; the handler has not returned yet
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
print("LISTENING", server.server_address[1], flush=True)
server.serve_forever()
"""


def test_a_client_waiting_for_each_answer_is_never_in_flight_twice(tmp_path: Path) -> None:
    """The next request of a sequential client may arrive before the previous handler has
    returned; it is answered (its response relayed whole), so it is not in flight (task 10
    kills concurrent crawlers)."""
    (tmp_path / "dawdle.py").write_text(DAWDLING_SERVER, "utf-8")
    with benchlib.start_service([default_python(), "dawdle.py"], cwd=tmp_path, name="d") as service:
        for n in range(3):
            with urllib.request.urlopen(f"{service.url}/{n}") as answer:
                assert answer.read() == b"ok"
        time.sleep(0.6)  # every handler returns (and logs its end) before the service stops
    requests = service.requests()  # complete once the service stopped
    assert [r.in_flight for r in requests] == [1, 1, 1]
    assert requests[0].end <= requests[1].time  # the first response ended before (the relay
    # saw its whole body), though its handler still ran when the second request arrived


def test_an_unknown_service_name_is_a_clear_error(tmp_path: Path) -> None:
    run = benchlib.Run("main", tmp_path, benchlib.Files(tmp_path), benchlib.Files(tmp_path))
    run.service_requests["catalog"] = []
    with pytest.raises(KeyError, match="no service 'catalgo' ran in this fixture"):
        run.requests("catalgo")
    assert run.requests("catalog") == []


def test_a_service_task_checks_clean(tmp_path: Path) -> None:
    copy = tmp_path / "examples"
    shutil.copytree(EXAMPLES, copy, ignore=shutil.ignore_patterns("0[12]-*", "adapters"))
    report = benchsmith.check(
        copy / "03-catalog-crawl",
        corpus=copy,
        controls=["reference", "witness-level3", "witness-level4", "spam", "forge"],
    )
    failures = [c for t in report.tasks for c in t.controls if not c.passed]
    assert report.ok, failures


def test_workspace_serve_runs_the_services_until_ctrl_c(tmp_path: Path) -> None:
    dest = tmp_path / "ws"
    argv = [sys.executable, "-m", "benchsmith", "workspace", str(EXAMPLE), str(dest)]
    process = subprocess.Popen(
        [*argv, "--corpus", str(EXAMPLES), "--serve"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines = []
        for line in process.stdout:
            lines.append(line)
            if line.startswith("serving"):
                break
        assert lines[-1:] == ["serving; press Ctrl-C to stop\n"], (lines, process.stderr)
        url = (dest / "inputs" / "base_url.txt").read_text("utf-8").strip()
        announced = f"service catalog: catalog {url}, mirror http://127.0.0.1:"
        assert any(line.startswith(announced) for line in lines), lines
        assert not (dest / "inputs" / "base_url.txt").stat().st_mode & 0o222
        with urllib.request.urlopen(url + "/catalog?page=1", timeout=10) as response:
            page = json.load(response)
        assert page["page"] == 1 and page["next"] == url + "/catalog?page=2"
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=30)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 0 and rest.strip().endswith("services stopped")
    with pytest.raises(OSError):
        urllib.request.urlopen(url + "/catalog?page=1", timeout=5)


def test_workspace_serve_names_a_broken_service(
    example_copy: Callable[[str], Path], cli: Callable[..., object], tmp_path: Path
) -> None:
    task = example_copy("03-catalog-crawl")
    server = task / "visible" / "inputs" / "catalog_server.py"
    server.write_text("import sys\nsys.exit('catalog.csv is broken')\n", "utf-8")
    result = cli("workspace", task, tmp_path / "ws", "--corpus", task.parent, "--serve")
    output = result.output  # type: ignore[attr-defined]
    assert result.exit_code == 1, output  # type: ignore[attr-defined]
    assert (
        "service 'catalog' (python inputs/catalog_server.py --port 0) exited with status 1 "
        "before printing 'LISTENING <port>'; the last lines of its stderr:\n"
        "    catalog.csv is broken"
    ) in output
    assert "Traceback" not in output


@pytest.mark.parametrize("python", [True, False], ids=["python", "not-python"])
def test_the_replay_agent_exercises_the_services_in_the_agent_phase(
    example_copy: Callable[[str], Path], cli: Callable[..., object], tmp_path: Path, python: bool
) -> None:
    task = EXAMPLE if python else _not_python(example_copy("03-catalog-crawl"), cli)
    runs = tmp_path / "runs"
    result = benchsmith.run(task, agent="replay", runs=runs, corpus=task.parent)
    (outcome,) = result.outcomes
    assert outcome.end_reason == "completed", outcome.end_detail
    events = [e.event for e in outcome.timeline]
    ran = [e for e in events if e["type"] == "tool_call" and e["name"] == "bash"]
    assert len(ran) == 1 and ran[0]["is_error"] is False, ran
    (stopped,) = [e for e in events if e["type"] == "services_stopped"]
    assert stopped["requests"] == {"catalog": 5}  # pages 1 to 5, fetched by the agent phase


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            ('origins = [{ name = "mirror" }]', 'origins = [{ name = "catalog" }]'),
            "BS102 origin 'catalog' is declared twice for service 'catalog'",
        ),
    ],
    ids=["origin-twice"],
)
def test_service_declarations_are_checked_where_they_are(
    example_copy: Callable[[str], Path],
    cli: Callable[..., object],
    edit: tuple[str, str],
    expected: str,
) -> None:
    task = example_copy("03-catalog-crawl")
    toml = task / "task.toml"
    toml.write_text(toml.read_text("utf-8").replace(*edit), "utf-8")
    result = cli("build", task)
    output = result.output  # type: ignore[attr-defined]
    assert result.exit_code == 1 and expected in output, output  # type: ignore[attr-defined]
    assert "task.toml:5" in output and "Traceback" not in output


def _not_python(task: Path, cli: Callable[..., object]) -> Path:
    """The example with its catalog server run through ``env``: not a Python service to
    benchsmith, so it runs as the wrapper's child; its origins and request log come from the
    relay alone."""
    toml = task / "task.toml"
    python_run = 'run = "python inputs/catalog_server.py"'
    other_run = 'run = "env python3 inputs/catalog_server.py"'
    toml.write_text(toml.read_text("utf-8").replace(python_run, other_run), "utf-8")
    built = cli("build", task)
    assert built.exit_code == 0, built.output  # type: ignore[attr-defined]
    return task


@pytest.mark.parametrize("twice", [False, True], ids=["reference", "fetching-twice"])
def test_a_service_that_is_not_python_gets_origins_and_a_request_log(
    example_copy: Callable[[str], Path], cli: Callable[..., object], tmp_path: Path, twice: bool
) -> None:
    task = _not_python(example_copy("03-catalog-crawl"), cli)
    verdict = _judge(task, _candidate(tmp_path, _twice if twice else lambda s: s, task))
    checks = _checks(verdict)
    assert checks["items_listed_from_the_service"] is True, verdict
    assert checks["stays_on_its_origin"] is True, verdict
    assert checks["every_page_fetched_once_in_order"] is not twice, verdict
    assert verdict["progress_level"] == (3 if twice else 5), verdict


RAW_SERVER = """\
#!/usr/bin/env python3
# An HTTP/1.1 server on raw sockets (no http.server): keep-alive, pipelining, chunked.
import os, socket, sys, threading

def serve(conn):
    buffer = b""
    with conn:
        while True:
            while b"\\r\\n\\r\\n" not in buffer:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                buffer += chunk
            head, buffer = buffer.split(b"\\r\\n\\r\\n", 1)
            lines = head.decode().split("\\r\\n")
            method, target, _ = lines[0].split(" ")
            headers = {k.lower(): v for k, v in (h.split(": ", 1) for h in lines[1:])}
            length = int(headers.get("content-length", "0"))
            while len(buffer) < length:
                buffer += conn.recv(65536)
            buffer = buffer[length:]
            if target == "/chunked":
                reply = b"Transfer-Encoding: chunked\\r\\n\\r\\n3\\r\\nabc\\r\\n0\\r\\n\\r\\n"
                conn.sendall(b"HTTP/1.1 200 OK\\r\\n" + reply)
            elif target == "/missing":
                conn.sendall(b"HTTP/1.1 404 Not Found\\r\\nContent-Length: 0\\r\\n\\r\\n")
            else:
                body = os.environ["BENCHSMITH_ORIGIN_MIRROR"].encode()
                head = b"HTTP/1.1 200 OK\\r\\nContent-Length: %d\\r\\n\\r\\n" % len(body)
                conn.sendall(head + body)

server = socket.create_server(("127.0.0.1", int(sys.argv[sys.argv.index("--port") + 1])))
print("LISTENING", server.getsockname()[1], flush=True)
while True:
    threading.Thread(target=serve, args=(server.accept()[0],), daemon=True).start()
"""


def test_the_relay_logs_keep_alive_pipelined_requests_of_any_server(tmp_path: Path) -> None:
    server = tmp_path / "serve"
    server.write_text(RAW_SERVER, "utf-8")
    server.chmod(0o755)
    with benchlib.start_service(["./serve"], cwd=tmp_path, name="raw", origins=["mirror"]) as raw:
        connection = http.client.HTTPConnection("127.0.0.1", raw.origins["raw"], timeout=10)
        connection.request("GET", "/page?n=1")
        assert connection.getresponse().read() == raw.origin_url("mirror").encode()
        connection.request("GET", "/chunked")
        assert connection.getresponse().read() == b"abc"
        connection.request("POST", "/missing", body=b"12345")
        missing = connection.getresponse()
        assert (missing.status, missing.read()) == (404, b"")
        connection.request("PUT", "/up", body=iter([b"ab", b"cde"]), encode_chunked=True)
        assert connection.getresponse().read()
        connection.close()
        with socket.create_connection(("127.0.0.1", raw.origins["mirror"])) as pipelined:
            pipelined.sendall(
                b"GET /x HTTP/1.1\r\nHost: h\r\n\r\nGET /y HTTP/1.1\r\nHost: h\r\n\r\n"
            )
            received = b""
            while received.count(b"HTTP/1.1 200") < 2:
                received += pipelined.recv(65536)
    requests = raw.requests()  # complete once the service stopped
    assert [(r.method, r.target, r.status, r.origin) for r in requests] == [
        ("GET", "/page?n=1", 200, "raw"),
        ("GET", "/chunked", 200, "raw"),
        ("POST", "/missing", 404, "raw"),
        ("PUT", "/up", 200, "raw"),
        ("GET", "/x", 200, "mirror"),
        ("GET", "/y", 200, "mirror"),
    ]
    assert [r.body_bytes for r in requests] == [0, 0, 5, 5, 0, 0]
    assert [r.in_flight for r in requests] == [1, 1, 1, 1, 1, 2]  # /y sent before /x's answer
    assert requests[0].host == f"127.0.0.1:{raw.origins['raw']}" and requests[4].host == "h"
    assert requests[2].header("content-length") == "5" and requests[0].version == "HTTP/1.1"
    assert all(r.end is not None and r.end >= r.time for r in requests)


CRAWLER = Path(__file__).resolve().parent.parent / "tasks" / "10-catalog-crawler"

# Appended to task 10's reference crawler: once the crawl is done, it asks every other port
# listening on the loopback (found in /proc/net/tcp, as a candidate inside the pod can) for
# the first page, skipping the origins it saw in links: the only one left that answers HTTP
# is the catalog service's own (private) port.
PRIVATE_PORT = """
LINKS: set[str] = set()


def _private_fetch(base: str) -> None:
    import socket

    known = {urllib.parse.urlsplit(u).port for u in [base, *LINKS]}
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                listening.add(int(fields[1].rsplit(":", 1)[1], 16))
    for port in sorted(listening - known):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as connection:
                connection.sendall(b"GET /catalog?page=1 HTTP/1.0\\r\\n\\r\\n")
                connection.recv(65536)
        except OSError:
            pass
"""


def test_task_10_judge_fails_a_crawler_that_uses_the_private_port(tmp_path: Path) -> None:
    workspace = benchsmith.workspace(CRAWLER, tmp_path / "ws", stage=None, corpus=CRAWLER.parent)
    shutil.copytree(CRAWLER / "reference" / "solution", workspace / "solution", dirs_exist_ok=True)
    crawler = workspace / "solution" / "catalog_sync.py"
    source = crawler.read_text("utf-8")
    done = "    return [best[sku] for sku in sorted(best)]\n"
    assert done in source
    link = "            target = urllib.parse.urldefrag(urllib.parse.urljoin(url, href)).url\n"
    assert link in source
    source = source.replace(link, link + "            LINKS.add(target)\n")
    source = source.replace(done, "    _private_fetch(base)\n" + done)
    crawler.write_text(source.replace("\ndef main()", PRIVATE_PORT + "\n\ndef main()"), "utf-8")
    verdict = _judge(CRAWLER, workspace)
    checks = _checks(verdict)
    assert checks["every_page_fetched_once"] is False, verdict
    assert checks["catalog_mostly_right"] is True and verdict["progress_level"] == 3, verdict


def test_a_service_linking_to_its_own_port_is_named_in_the_notes(tmp_path: Path) -> None:
    """Issue 28: a service that renders absolute links from the port it listens on sends
    its clients past the origins, where they are refused; the reference then failed with
    no word of why. The verdict now says which service did it and what to do instead."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy2(EXAMPLES / "benchlib.py", corpus / "benchlib.py")
    task = Path(shutil.copytree(EXAMPLE, corpus / EXAMPLE.name))
    server = task / "visible" / "inputs" / "catalog_server.py"
    own = 'origin = f"http://127.0.0.1:{self.server.server_address[1]}"'
    text = server.read_text("utf-8")
    assert 'origin = MIRROR if MOVED.get(number) == "mirror" else ORIGIN' in text
    server.write_text(
        text.replace('origin = MIRROR if MOVED.get(number) == "mirror" else ORIGIN', own), "utf-8"
    )
    verdict = _judge(task, _candidate(tmp_path, task=task))
    assert verdict["progress_level"] < 5
    notes = [n for n in verdict["notes"] if "its origins" in n]  # type: ignore[union-attr]
    assert notes and notes[0].startswith("main: service 'catalog': "), verdict["notes"]
    assert "link to the port it listens on" in notes[0] and "never from its own port" in notes[0]
