# ---------------------------------------------------------------------------------------------
# judging: steps of candidate servers -- corpus API: HttpResponse (run.response)
# ---------------------------------------------------------------------------------------------
# The judge's side of the serve, http and stop steps (see the pod's :class:`_PodSteps`, which
# runs them sealed): the declared steps as pods run them, the same steps run unsealed in the
# judge's own process (:class:`_LocalSteps`), and what authored checks read of them.


@dataclass(frozen=True)
class HttpResponse:
    """The response an ``http`` step received (read it with :meth:`Run.response`).

    Attributes:
        status: The HTTP status code.
        reason: The reason phrase.
        headers: The header lines, (name, value) in order.
        body: The body (at most the step's ``max_bytes``; ``truncated`` says it was cut).
        truncated: Whether the body was longer than the step keeps.
    """

    status: int
    reason: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    truncated: bool = False

    @property
    def text(self) -> str:
        """The body decoded as UTF-8 (with replacement)."""
        return self.body.decode("utf-8", "replace")

    def header(self, name: str, default: str | None = None) -> str | None:
        """The first header ``name`` (case-insensitive), else ``default``."""
        wanted = name.lower()
        return next((v for k, v in self.headers if k.lower() == wanted), default)

    def json(self) -> Any:
        """The body parsed as JSON.

        Raises:
            CheckFailed: When the body is not JSON.
        """
        try:
            return json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise CheckFailed(f"response body is not JSON ({exc}): {_short(self.text)}") from None


def step_names(commands: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Each named step's index among ``commands`` (the judged stage's)."""
    return {str(c["name"]): n for n, c in enumerate(commands) if c.get("name")}


def response_of(result: CommandResult, what: str) -> HttpResponse:
    """The response of an http step's ``result``.

    Raises:
        CheckFailed: When the step received none (the note says why).
    """
    if not result.ok or "status" not in result.detail:
        raise CheckFailed(f"{what}: no response: {result.describe()}")
    body = result.stdout.encode("utf-8")
    if result.stdout_path is not None and result.stdout_path.is_file():
        body = result.stdout_path.read_bytes()[:HTTP_RESPONSE_LIMIT]
    detail = result.detail
    return HttpResponse(
        int(detail["status"]), str(detail.get("reason", "")),
        tuple((str(k), str(v)) for k, v in detail.get("headers", [])), body,
        bool(detail.get("truncated")),
    )  # fmt: skip


def step_plan(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A declared step's settings as :class:`PodCommand` ``step`` holds them."""
    kind = step_kind(spec)
    if kind == "serve":
        return {"serve": spec["serve"], "url_file": spec.get("url_file") or "",
                "display": spec["run"]}  # fmt: skip
    if kind == "http":
        request = spec["http"]
        return {
            "server": request["server"],
            "method": request.get("method", "GET"),
            "target": request.get("path", "/"),
            "headers": [list(pair) for pair in request.get("headers", [])],
            "body": request.get("body"),
            "body_file": request.get("body_file") or "",
            "limit": int(request.get("max_bytes") or HTTP_RESPONSE_LIMIT),
        }
    return {"stop": spec["stop"]} if kind == "stop" else {}


class _LocalServer:
    """A candidate server the judge started unsealed: its process, token and output."""

    def __init__(self, name: str, process: subprocess.Popen[bytes], token: str) -> None:
        self.name, self.process, self.token = name, process, token
        self.output = _ServerOutput()
        self.reader: threading.Thread | None = None
        self.lock = threading.Lock()
        self.result: CommandResult | None = None  # its serve step's, once it listens


class _LocalSteps:
    """The serve, http and stop steps of one unsealed fixture run, in the judge's process
    (what :class:`_PodSteps` does in a pod); a context manager that stops every server it
    started on exit, whatever happened."""

    def __init__(self, root: Path, scratch: Path, env: Mapping[str, str] | None) -> None:
        """``env``: variables added to the servers' environment (as :func:`produce`'s)."""
        self.root, self.scratch, self.base = root, scratch, env
        self.running: dict[str, _LocalServer] = {}
        self.ended: dict[str, str] = {}
        self.env: dict[str, str] = {}

    def __enter__(self) -> _LocalSteps:
        return self

    def __exit__(self, *exc: object) -> None:
        for server in list(self.running.values()):
            self.halt(server, SERVER_END_GRACE)
        self.running.clear()

    def run(self, command: Mapping[str, Any], argv: list[str], timeout: float) -> CommandResult:
        """Run one step (``argv``: a serve step's command line, interpreter resolved)."""
        self.scratch.mkdir(parents=True, exist_ok=True)
        out = _scratch_file(self.scratch, "stdout-")
        err = _scratch_file(self.scratch, "stderr-")
        kind = step_kind(command)
        if kind == "serve":
            code, error, detail = self.serve(command, argv, timeout, out, err)
        elif kind == "http":
            code, error, detail = self.http(command, timeout, out)
        else:
            code, error, detail = self.stop(str(command["stop"]), timeout)
        result = CommandResult(argv, code, False, "", _head(err), out, error, detail)
        result.stdout = _head(out)
        if kind == "serve":
            result.error = server_note(error, result.stderr)
            if not error:
                server = self.running[str(command["serve"])]
                with server.lock:
                    server.result = result
                    _note_late(server)
        return result

    def serve(
        self, command: Mapping[str, Any], argv: list[str], timeout: float, out: Path, err: Path
    ) -> tuple[int | None, str, dict[str, Any]]:
        name = str(command["serve"])
        if name in self.running:
            return None, f"server {name!r} is already running", {"problem": "is already running"}
        token = run_token()
        env = clean_env({**(self.base or {}), **self.env, RUN_TOKEN_VARIABLE: token})
        memory = memory_of(command)
        with open(err, "wb") as stderr:
            try:
                process = subprocess.Popen(
                    argv, cwd=self.root / command.get("cwd", "."), stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE, stderr=stderr, env=env, start_new_session=True,
                    preexec_fn=(lambda: _limit_memory(memory)) if memory else None,
                )  # fmt: skip
            except OSError as exc:
                return None, str(exc), {}
        server = _LocalServer(name, process, token)
        problem = self.handshake(server, timeout)
        if problem:
            try:  # it closed its output: it is exiting
                code = server.process.wait(timeout=0.5 if server.output.closed else 0.0)
            except subprocess.TimeoutExpired:
                code = None
            self.halt(server, 0.0, signal.SIGKILL)
            if code is not None and not problem.startswith("printed"):
                problem = f"exited with status {code} before printing 'LISTENING <port>'"
            elif not problem.startswith("printed"):
                problem += " (it was still running, and was killed)"
            self.ended[name] = "it did not start"
            return code, f"server {name!r} ({command['run']}) {problem}", {"problem": problem}
        server.reader = threading.Thread(target=self.follow, args=(server, out), daemon=True)
        server.reader.start()
        self.running[name] = server
        url = f"http://127.0.0.1:{server.output.port}"
        self.env[server_variable(name)] = url
        if command.get("url_file"):
            target = self.root / command["url_file"]
            ensure_parent(target)
            target.write_text(url + "\n", encoding="utf-8")
        return 0, "", {"port": server.output.port, "url": url}

    def handshake(self, server: _LocalServer, timeout: float) -> str:
        """Read the server's output until ``LISTENING <port>``; "" then, else the problem."""
        assert server.process.stdout is not None
        fd, output = server.process.stdout.fileno(), server.output
        deadline = time.monotonic() + timeout
        while not output.listening:
            if output.problem:
                return output.problem
            if output.closed:
                return "closed its standard output before printing 'LISTENING <port>'"
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                return f"did not print 'LISTENING <port>' within {timeout:g} s"
            output.log += output.feed(os.read(fd, 65536))
        if select.select([fd], [], [], 0)[0]:  # a second line printed at once
            output.log += output.feed(os.read(fd, 65536))
        return output.late

    def follow(self, server: _LocalServer, out: Path) -> None:
        """Keep the server's log lines (a thread, until its output closes)."""
        assert server.process.stdout is not None
        fd = server.process.stdout.fileno()
        with open(out, "ab") as stream:
            stream.write(server.output.log)
            while True:
                chunk = os.read(fd, 65536)
                with server.lock:
                    stream.write(server.output.feed(chunk))
                    stream.flush()
                    _note_late(server)
                if not chunk:
                    return

    def http(
        self, command: Mapping[str, Any], timeout: float, out: Path
    ) -> tuple[int | None, str, dict[str, Any]]:
        request = step_plan(command)
        name = str(request["server"])
        server, problem = self.live(name, "before this request")
        if server is None:
            return None, problem, {}
        if request["body_file"]:
            request["body_file"] = str(self.root / request["body_file"])
        try:
            head, data = http_exchange(server.output.port, request, _request_body(request), timeout)
        except OSError as exc:
            return None, f"{request['method']} {request['target']} to server {name!r}: {exc}", {}
        out.write_bytes(data)
        return 0, "", head

    def stop(self, name: str, timeout: float) -> tuple[int | None, str, dict[str, Any]]:
        server, problem = self.live(name, "before the stop")
        if server is None:
            return None, problem, {}
        code = self.halt(server, timeout)
        self.drop(server, "it was stopped")
        if code is None:
            return None, f"server {name!r} did not exit within {timeout:g} s of SIGTERM; killed", {}
        return 0, "", {"exit": code}

    def live(self, name: str, when: str) -> tuple[_LocalServer | None, str]:
        """The running server ``name``, or None and why the step (``when``) cannot use it."""
        server = self.running.get(name)
        if server is None:
            why = self.ended.get(name, "it was never started")
            return None, f"not run: server {name!r} is not running ({why})"
        code = server.process.poll()
        if code is not None:
            self.drop(server, f"it exited with status {code}")
            return None, f"server {name!r} exited with status {code} {when}"
        return server, ""

    def drop(self, server: _LocalServer, why: str) -> None:
        self.halt(server, 0.0, signal.SIGKILL)
        self.running.pop(server.name, None)
        self.env.pop(server_variable(server.name), None)
        self.ended[server.name] = why

    def halt(self, server: _LocalServer, grace: float, signum: int = signal.SIGTERM) -> int | None:
        """Signal the server's group, wait ``grace`` seconds, then kill the group and every
        process carrying its token; its exit status (None: killed at the deadline)."""
        process = server.process
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signum)
        try:
            code: int | None = process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            code = None
        kill_group(process)
        process.wait()
        sweep(server.token, group=process.pid)
        if server.reader is not None:
            server.reader.join(timeout=2.0)
        if process.stdout is not None and (server.reader is None or not server.reader.is_alive()):
            process.stdout.close()
        return code


def _note_late(server: _LocalServer) -> None:
    """Fail the serve step of a server that broke the contract once it listened."""
    result = server.result
    if server.output.late and result is not None and not result.error:
        result.error = f"server {server.name!r} {server.output.late} after it was listening"
