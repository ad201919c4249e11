# ---------------------------------------------------------------------------------------------
# pod: candidate servers -- the serve, http and stop steps of a command sequence
# ---------------------------------------------------------------------------------------------
# A task whose candidate program is a server declares steps among its commands (task.toml
# ``[[commands]]`` with ``serve``, ``http`` or ``stop``): PID 1 starts the candidate's server
# in the background and awaits its one ``LISTENING <port>`` line (spec 10.4), sends it HTTP
# requests itself (trusted code, not the candidate's), stops it with SIGTERM and, after a
# bounded wait, SIGKILL, and stops every server still running when the pod ends. Unsealed
# judging runs the same steps in the judge's process (:class:`_LocalSteps`); both share the
# line contract (:class:`_ServerOutput`) and the client (:func:`http_exchange`). LIGHT too.

STEP_KINDS = ("serve", "http", "stop")
SERVER_CAPTURE_LIMIT = 1024 * 1024  # what a server prints after LISTENING, kept per step
SERVER_END_GRACE = 2.0  # seconds a server still running at the end has after SIGTERM
HTTP_RESPONSE_LIMIT = 1024 * 1024
HTTP_HEADER_LIMIT = 100
SERVER_VARIABLE_PREFIX = "BENCHSMITH_SERVER_"


def step_kind(command: Mapping[str, Any]) -> str:
    """``serve``, ``http`` or ``stop`` for a step of a command sequence, else ``run``."""
    return next((kind for kind in STEP_KINDS if command.get(kind) is not None), "run")


def server_variable(name: str) -> str:
    """The environment variable that gives later commands a running server's base URL."""
    return SERVER_VARIABLE_PREFIX + "".join(c if c.isalnum() else "_" for c in name.upper())


class _ServerOutput:
    """The standard output of a candidate server, line by line: first exactly one
    ``LISTENING <port>`` line, then log lines (kept, at most :data:`SERVER_CAPTURE_LIMIT`).

    ``problem`` says how the server broke the contract before it was listening, ``late`` how
    it did after (a second ``LISTENING`` line).
    """

    def __init__(self) -> None:
        self.buffer = b""
        self.port = 0
        self.problem = ""
        self.late = ""
        self.log = b""
        self.kept = 0
        self.closed = False

    @property
    def listening(self) -> bool:
        return self.port > 0

    def feed(self, chunk: bytes) -> bytes:
        """Take one chunk (``b""``: end of output); the log bytes to keep."""
        self.closed = self.closed or not chunk
        lines = (self.buffer + chunk).split(b"\n")
        self.buffer = lines.pop() if chunk else b""
        if not chunk and lines and not lines[-1]:
            lines.pop()
        kept = b""
        for line in lines:
            kept += self.line(line)
        return kept

    def line(self, line: bytes) -> bytes:
        port = _listening_port(line)
        if not self.listening and not self.problem:
            if port:
                self.port = port
            elif line.rstrip(b"\r").startswith(b"LISTENING"):
                shown = line.decode("utf-8", "replace").strip()[:200]
                self.problem = f"printed a malformed line {shown!r} (expected 'LISTENING <port>')"
            else:
                shown = line.decode("utf-8", "replace").strip()[:200]
                self.problem = f"printed {shown!r} on standard output before 'LISTENING <port>'"
            return b""
        if port or line.rstrip(b"\r").startswith(b"LISTENING "):
            self.late = self.late or "printed a second 'LISTENING <port>' line"
        room = SERVER_CAPTURE_LIMIT - self.kept
        kept = (line + b"\n")[: max(0, room)]
        self.kept += len(kept)
        return kept


def http_exchange(
    port: int,
    request: Mapping[str, Any],
    body: bytes | None,
    timeout: float,
) -> tuple[dict[str, Any], bytes]:
    """Send one HTTP/1.1 request to ``127.0.0.1:port``: ``request`` has ``method``,
    ``target`` and ``headers`` (name, value pairs) and optionally ``limit`` (response bytes
    kept). The whole exchange ends within ``timeout`` seconds (a watchdog closes the socket).

    Returns:
        ``({"status", "reason", "headers", "truncated"}, body)``.

    Raises:
        OSError: When no complete response arrived (the message says why).
    """
    import http.client  # only pods and judges that send requests need it (see LIGHT)
    import socket
    import threading

    limit = int(request.get("limit") or HTTP_RESPONSE_LIMIT)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        sock = connection.sock
        if sock is not None:
            try:  # noqa: SIM105  # see LIGHT
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    watchdog = threading.Timer(timeout, expire)
    watchdog.daemon = True
    watchdog.start()
    try:
        connection.putrequest(str(request["method"]), str(request["target"]), skip_host=False)
        for name, value in request.get("headers", []):
            connection.putheader(str(name), str(value))
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        data = response.read(limit + 1)
        head = {
            "status": response.status,
            "reason": response.reason,
            "headers": [[k, v[:8192]] for k, v in response.getheaders()[:HTTP_HEADER_LIMIT]],
            "truncated": len(data) > limit,
        }
        return head, data[:limit]
    except (OSError, http.client.HTTPException, ValueError) as exc:
        if expired.is_set() or isinstance(exc, TimeoutError):
            raise OSError(f"no complete response within {timeout:g} s") from None
        if isinstance(exc, ConnectionRefusedError):
            raise OSError(f"connection to 127.0.0.1:{port} refused") from None
        raise OSError(f"no valid HTTP response: {type(exc).__name__}: {exc}") from None
    finally:
        watchdog.cancel()
        connection.close()


class _CandidateServer:
    """A candidate server PID 1 started: its serve step, pid (also its session), its
    standard output (a pipe PID 1 reads) and the step's capture file for its log."""

    def __init__(self, name: str, index: int, pid: int, stdout: int, capture: int) -> None:
        self.name, self.index, self.pid = name, index, pid
        self.stdout, self.capture = stdout, capture
        self.output = _ServerOutput()
        self.reported = False  # a late problem was reported

    def fds(self) -> list[int]:
        return [self.stdout] if self.stdout >= 0 else []


class _PodSteps:
    """The serve, http and stop steps of one pod (see :class:`_Pod`): the candidate servers
    that run, by name, and the base URLs later commands see."""

    def __init__(self, pod: _Pod) -> None:
        self.pod = pod
        self.running: dict[str, _CandidateServer] = {}
        self.ended: dict[str, str] = {}  # name -> why it no longer runs
        self.env: dict[str, str] = {}
        self.exits: dict[int, int] = {}  # statuses reaped by a sweep

    def servers(self) -> list[_CandidateServer]:
        return list(self.running.values())

    def run(self, kind: str, index: int, command: dict[str, Any]) -> dict[str, Any]:
        """Run one step; the fields of its ``command`` report."""
        fds = (int(command["stdout_fd"]), int(command["stderr_fd"]))
        if kind == "serve":
            return self.serve(index, command, fds)
        for fd in fds[1:] if kind == "http" else fds:
            os.close(fd)
        if kind == "http":
            return self.http(command, fds[0])
        return self.stop(command)

    def serve(self, index: int, command: dict[str, Any], fds: tuple[int, int]) -> dict[str, Any]:
        name, timeout = str(command["serve"]), float(command["timeout"])
        if name in self.running:
            for fd in fds:
                os.close(fd)
            problem = "is already running"
            return {**_failed(f"server {name!r} {problem}"), "detail": {"problem": problem}}
        readable, writable = os.pipe()
        env = {**self.pod.env, **self.env}
        memory = command.get("memory_bytes")
        spawn_fds = (self.pod.null, writable, fds[1])
        pid, why = _spawn(list(command["argv"]), command["cwd"], env, spawn_fds, memory)
        os.close(writable)
        os.close(fds[1])
        if pid < 0:
            os.close(readable)
            os.close(fds[0])
            return _failed(why)
        server = _CandidateServer(name, index, pid, readable, fds[0])
        problem = self.handshake(server, time.monotonic() + timeout, timeout)
        if problem:
            code = self.exit_of(server)
            deadline = time.monotonic() + (0.5 if server.output.closed else 0.0)
            while code is None and time.monotonic() < deadline:  # closed its output: exiting
                time.sleep(0.005)
                code = self.exit_of(server)
            self.finish(server, 0.0, signal.SIGKILL)
            if code is not None and not problem.startswith("printed"):
                problem = f"exited with status {code} before printing 'LISTENING <port>'"
            elif not problem.startswith("printed"):
                problem += " (it was still running, and was killed)"
            self.ended[name] = "it did not start"
            message = f"server {name!r} ({command.get('display', '')}) {problem}"
            return {"returncode": code, "error": message, "detail": {"problem": problem}}
        self.running[name] = server
        url = f"http://127.0.0.1:{server.output.port}"
        self.env[server_variable(name)] = url
        if command.get("url_file"):
            self.pod.write_url(command["url_file"], url + "\n")
        return {"returncode": 0, "detail": {"port": server.output.port, "url": url}}

    def handshake(self, server: _CandidateServer, deadline: float, timeout: float) -> str:
        """Read the server's output until ``LISTENING <port>`` (and what came with it)."""
        output = server.output
        while not output.listening:
            if output.problem:
                return output.problem
            if output.closed:
                return "closed its standard output before printing 'LISTENING <port>'"
            if time.monotonic() >= deadline or not self.pod.pump([server], deadline):
                return f"did not print 'LISTENING <port>' within {timeout:g} s"
        self.pod.pump([server], time.monotonic())  # a second line printed at once
        if output.late:
            server.reported = True
            return output.late
        return ""

    def read(self, server: _CandidateServer) -> None:
        """Read one chunk of a server's standard output; keep its log, note a late problem."""
        chunk = os.read(server.stdout, 65536)
        kept = server.output.feed(chunk)
        if kept:
            _write_all(server.capture, kept)
        if not chunk:
            os.close(server.stdout)
            server.stdout = -1
        if server.output.late and not server.reported and server.name in self.running:
            server.reported = True
            problem = server.output.late + " after it was listening"
            self.pod.report("server", index=server.index, error=f"server {server.name!r} {problem}")

    def http(self, command: dict[str, Any], capture: int) -> dict[str, Any]:
        request = command["http"]
        name = str(request["server"])
        try:
            server, problem = self.live(name, "before this request")
            if server is None:
                return _failed(problem)
            body = _request_body(request)
            head, data = self.exchange(server.output.port, request, body, float(command["timeout"]))
            _write_all(capture, data)
            return {"returncode": 0, "detail": head}
        except OSError as exc:
            return _failed(f"{request['method']} {request['target']} to server {name!r}: {exc}")
        finally:
            os.close(capture)

    def exchange(
        self, port: int, request: Mapping[str, Any], body: bytes | None, timeout: float
    ) -> tuple[dict[str, Any], bytes]:
        """:func:`http_exchange` in a thread, while this one keeps reading what the services
        and servers print (a server blocked on a full pipe would never answer)."""
        import threading

        box: dict[str, Any] = {}

        def send() -> None:
            try:
                box["response"] = http_exchange(port, request, body, timeout)
            except OSError as exc:
                box["error"] = exc

        thread = threading.Thread(target=send, daemon=True)
        thread.start()
        while thread.is_alive():
            self.pod.pump([*self.pod.services, *self.servers()], time.monotonic() + 0.01)
            thread.join(0.0)
        if "error" in box:
            raise box["error"]
        response: tuple[dict[str, Any], bytes] = box["response"]
        return response

    def stop(self, command: dict[str, Any]) -> dict[str, Any]:
        name, timeout = str(command["stop"]), float(command["timeout"])
        server, problem = self.live(name, "before the stop")
        if server is None:
            return _failed(problem)
        code = self.finish(server, timeout, signal.SIGTERM)
        self.drop(server, "it was stopped")
        if code is None:
            return _failed(f"server {name!r} did not exit within {timeout:g} s of SIGTERM; killed")
        return {"returncode": 0, "detail": {"exit": code}}

    def live(self, name: str, when: str) -> tuple[_CandidateServer | None, str]:
        """The running server ``name``, or None and why the step (``when``) cannot use it."""
        server = self.running.get(name)
        if server is None:
            why = self.ended.get(name, "it was never started")
            return None, f"not run: server {name!r} is not running ({why})"
        exited = self.exit_of(server)
        if exited is not None:
            self.drop(server, f"it exited with status {exited}")
            return None, f"server {name!r} exited with status {exited} {when}"
        return server, ""

    def drop(self, server: _CandidateServer, why: str) -> None:
        """Forget a server that no longer runs (its group killed, its pipes closed)."""
        self.finish(server, 0.0, signal.SIGKILL)
        self.running.pop(server.name, None)
        self.env.pop(server_variable(server.name), None)
        self.ended[server.name] = why

    def exit_of(self, server: _CandidateServer) -> int | None:
        """The exit status of a server that exited already (None while it runs)."""
        if server.pid in self.exits:
            return self.exits[server.pid]
        try:
            done, status = os.waitpid(server.pid, os.WNOHANG)
        except ChildProcessError:
            return self.exits.get(server.pid, -1)
        if done:
            self.exits[server.pid] = os.waitstatus_to_exitcode(status)
            return self.exits[server.pid]
        return None

    def finish(self, server: _CandidateServer, grace: float, signum: int) -> int | None:
        """Send ``signum`` to the server's group, wait ``grace`` seconds for it (reading its
        output), then SIGKILL the group; its exit status (None: killed at the deadline)."""
        deadline = time.monotonic() + grace
        code = self.exit_of(server)
        if code is None:
            try:  # noqa: SIM105  # see LIGHT
                os.killpg(server.pid, signum)
            except (ProcessLookupError, PermissionError):
                pass
        while code is None and time.monotonic() < deadline:
            if not (
                server.fds() and self.pod.pump([server], min(deadline, time.monotonic() + 0.05))
            ):
                time.sleep(0.005)
            code = self.exit_of(server)
        _kill(server.pid, group=True)
        if code is None:
            try:  # noqa: SIM105  # see LIGHT
                os.waitpid(server.pid, 0)
            except ChildProcessError:
                pass
        for _ in range(64):  # what it left in its pipe
            if not (server.fds() and self.pod.pump([server], time.monotonic())):
                break
        if server.stdout >= 0:
            os.close(server.stdout)
            server.stdout = -1
        if server.capture >= 0:
            os.close(server.capture)
            server.capture = -1
        return code

    def end(self) -> None:
        """Stop every server still running (the pod ends)."""
        for server in self.servers():
            self.finish(server, SERVER_END_GRACE, signal.SIGTERM)
            self.running.pop(server.name, None)


def _failed(error: str) -> dict[str, Any]:
    return {"returncode": None, "error": error}


def _request_body(request: Mapping[str, Any]) -> bytes | None:
    """The body of an http step: its inline text or the bytes of its file."""
    if request.get("body_file"):
        with open(request["body_file"], "rb") as stream:
            return stream.read(HTTP_RESPONSE_LIMIT * 16)
    body = request.get("body")
    return None if body is None else str(body).encode("utf-8")
