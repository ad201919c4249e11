# ---------------------------------------------------------------------------------------------
# process -- corpus API: CommandResult (run.results); the rest is SDK-internal
# ---------------------------------------------------------------------------------------------

PYTHON_NAMES = ("python", "python3", "python3.12")


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for unsealed processes: inherited, minus Python overrides and the
    working directories (``PWD``, ``OLDPWD``), which would name the caller's folders."""
    dropped = ("PYTHONPATH", "PYTHONHOME", "PWD", "OLDPWD")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update({"PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"})
    env.update(extra or {})
    return env


def resolve_argv(argv: Sequence[str], python: str) -> list[str]:
    """Replace a leading ``python`` with the interpreter the judge was asked to use."""
    argv = list(argv)
    if argv and argv[0] in PYTHON_NAMES:
        argv[0] = python
    return argv


@dataclass
class CommandResult:
    """What one candidate command did.

    Attributes:
        argv: The command as run.
        returncode: Exit status (negative: killed by that signal; ``None``: did not start).
        timed_out: Whether the judge killed it at its timeout.
        stdout: The first 64 KiB of standard output (decoded with replacement).
        stderr: The first 64 KiB of standard error.
        stdout_path: File holding the complete standard output (deleted with the run).
        error: Why the command could not start, if it did not; for a step of a candidate
            server (``serve``, ``http``, ``stop``), why the step failed.
        detail: What a step reported: ``serve`` its ``port`` and ``url`` (or the
            ``problem``), ``http`` the response's ``status``, ``reason``, ``headers`` (name,
            value pairs) and ``truncated`` (its body is the step's standard output), ``stop``
            the server's ``exit`` status. Empty for a plain command.
    """

    argv: list[str]
    returncode: int | None
    timed_out: bool
    stdout: str
    stderr: str
    stdout_path: Path | None = None
    error: str = ""
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether it ran to completion with exit status 0 (a step: whether it succeeded)."""
        return self.returncode == 0 and not self.timed_out and not self.error

    def describe(self) -> str:
        """One line for notes: how the command ended."""
        if self.error:  # a step's error (no program, or a server's problem) says it all
            whole = self.error.startswith("not run") or not self.argv or "problem" in self.detail
            return self.error if whole else f"could not start: {self.error}"
        if self.timed_out:
            return "timed out"
        tail = self.stderr.strip().splitlines()[-1:] if self.returncode else []
        return f"exit status {self.returncode}" + (f": {tail[0]}" if tail else "")


def _head(path: Path, limit: int = CAPTURE_LIMIT) -> str:
    with open(path, "rb") as stream:
        return stream.read(limit).decode("utf-8", errors="replace")


def kill_group(process: subprocess.Popen[Any]) -> None:
    """Kill the process group of ``process`` (the command and every child it left)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


RUN_TOKEN_VARIABLE = "BENCHLIB_RUN_TOKEN"
_TOKENS = itertools.count(1)


def run_token() -> str:
    """A token unique to one candidate process tree (pid, counter and a monotonic clock)."""
    return f"{os.getpid()}-{next(_TOKENS)}-{time.monotonic_ns()}"


def sweep(token: str, group: int | None = None) -> list[int]:
    """Kill every live process of ``group`` or whose environment carries ``token``.

    A child that left its process group (``setsid``, a daemonizing double fork) escapes
    :func:`kill_group` but still inherits the environment the judge gave the command, so the
    token finds it (Linux ``/proc``; elsewhere only the group is killed). Returns once every
    process found is dead (or after two seconds), so nothing writes to a fixture after the
    judge starts reading it. Returns the pids killed.
    """
    needle = f"{RUN_TOKEN_VARIABLE}={token}".encode()
    killed: list[int] = []
    for _ in range(3):  # a process may fork while it is being swept
        found = [p for p in _proc_pids() if p not in killed and _swept(p, needle, group)]
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        killed.extend(found)
        if not found:
            break
        _await_death(found, time.monotonic() + 2.0)
    return killed


def _swept(pid: int, needle: bytes, group: int | None) -> bool:
    fields = _stat_fields(pid)
    if not fields or fields[0] in (b"Z", b"X"):
        return False
    in_group = group is not None and len(fields) > 2 and fields[2] == str(group).encode()
    return in_group or needle in _environ_entries(pid)


def _stat_fields(pid: int) -> list[bytes]:
    """The fields of ``/proc/PID/stat`` after the command name (state, ppid, pgrp, ...)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            return stream.read().rsplit(b")", 1)[-1].split()
    except OSError:
        return []


def _await_death(pids: Sequence[int], deadline: float) -> None:
    """Wait until every pid is gone or a zombie (SIGKILL is delivered asynchronously)."""
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.01)


def _alive(pid: int) -> bool:
    state = _stat_fields(pid)[:1]
    return bool(state) and state not in ([b"Z"], [b"X"])


def _proc_pids() -> list[int]:
    try:
        names = [entry.name for entry in Path("/proc").iterdir()]
    except OSError:
        return []
    mine = os.getpid()
    return sorted(int(n) for n in names if n.isdigit() and int(n) != mine)


def _environ_entries(pid: int) -> list[bytes]:
    try:
        with open(f"/proc/{pid}/environ", "rb") as stream:
            return stream.read().split(b"\0")
    except OSError:
        return []


def _scratch_file(scratch: Path, prefix: str) -> Path:
    """A new empty file under ``scratch`` (its descriptor closed at once)."""
    handle, name = tempfile.mkstemp(prefix=prefix, dir=scratch)
    os.close(handle)
    return Path(name)


def run_command(
    argv: Sequence[str],
    *,
    cwd: Path,
    timeout: float,
    scratch: Path,
    stdin: Path | None = None,
    env: Mapping[str, str] | None = None,
    memory_bytes: int | None = None,
) -> CommandResult:
    """Run a candidate command in its own process group; never raises for its failures.

    Output goes to files under ``scratch`` (so a flood cannot exhaust memory); after the
    command ends or times out the whole group is killed, so no child outlives it.
    ``memory_bytes`` caps the address space (RLIMIT_AS) of the command and its children.
    """
    scratch.mkdir(parents=True, exist_ok=True)
    out_path, err_path = _scratch_file(scratch, "stdout-"), _scratch_file(scratch, "stderr-")
    token = run_token()
    variables = dict(env) if env is not None else clean_env()
    variables[RUN_TOKEN_VARIABLE] = token
    timed_out = False
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        try:
            source = open(stdin, "rb") if stdin else subprocess.DEVNULL  # noqa: SIM115
        except OSError as exc:
            return CommandResult(list(argv), None, False, "", "", out_path, f"stdin: {exc}")
        try:
            process = subprocess.Popen(
                list(argv), cwd=cwd, stdin=source, stdout=out, stderr=err,
                env=variables, start_new_session=True,
                preexec_fn=(lambda: _limit_memory(memory_bytes)) if memory_bytes else None,
            )  # fmt: skip
        except OSError as exc:
            return CommandResult(list(argv), None, False, "", "", out_path, str(exc))
        finally:
            if stdin:
                source.close()  # type: ignore[union-attr]
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        kill_group(process)
        process.wait()
        sweep(token, group=process.pid)
    code = None if timed_out else process.returncode
    return CommandResult(list(argv), code, timed_out, _head(out_path), _head(err_path), out_path)


@dataclass(frozen=True)
class Request:
    """One request a fixture service received, as its request log recorded it.

    The log is kept by benchlib, outside the fixture where the candidate cannot write: the
    relay of the service's origins reads each HTTP/1.x request and its response as they pass
    (keep-alive, pipelining, ``Content-Length`` and chunked bodies), whatever the service is
    written in, and passes on only what it recorded (what it cannot read is recorded as
    refused and its connection closed). A Python service also refuses and records a
    connection sent straight to its own port; one that is not Python does not, so such
    requests are missing from its log.

    Attributes:
        seq: Arrival order, from 1.
        time: Arrival, in seconds since the service started (monotonic clock).
        end: When its response had passed the relay whole, or its connection ended without
            one (seconds since the start); None when the log was read before.
        method: ``GET``, ``POST``, ...
        target: The request target as sent (path and query).
        host: The ``Host`` header ("" without one).
        headers: Every header as sent, in order: ``(name, value)`` pairs.
        body_bytes: The request body's size (its ``Content-Length``, or the chunks' total
            once a chunked body ended; 0 without a body).
        status: The final response status the service sent, or None (no response).
        in_flight: Requests not yet answered (no final status line back at the relay) when
            it arrived, itself included: 1 when none other. A client that waits for each
            response before sending the next request always sees 1.
        origin: The origin it came through (the service's name or a further origin); ""
            for a connection sent straight to a Python service's own port (refused).
        version: The HTTP version of the request line.
        refused: Why the relay refused it, "" for a request it relayed: what it could not
            read as an HTTP/1.x request (HTTP/0.9, a bad line, an ambiguous body length;
            ``target`` then holds its first line) or a connection that bypassed the origins.
            Its connection was closed unanswered, and its ``method`` is "", so that a check
            of the methods fails on it.
        private_link: Whether the service's response holds an absolute link to the port
            the service itself listens on (``127.0.0.1:PORT`` or ``localhost:PORT``), which
            refuses every connection its origins do not relay.
    """

    seq: int
    time: float
    method: str
    target: str
    host: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    body_bytes: int = 0
    status: int | None = None
    in_flight: int = 1
    origin: str = ""
    end: float | None = None
    version: str = ""
    refused: str = ""
    private_link: bool = False

    @property
    def path(self) -> str:
        """The target without its query."""
        return self.target.split("?", 1)[0]

    def header(self, name: str, default: str | None = None) -> str | None:
        """The first header ``name`` (case-insensitive), or ``default``."""
        wanted = name.lower()
        return next((v for k, v in self.headers if k.lower() == wanted), default)


def requests_of(lines: Iterable[Mapping[str, Any]]) -> list[Request]:
    """The requests of a service's raw request log lines, in arrival order."""
    merged: dict[int, dict[str, Any]] = {}
    for line in lines:
        with contextlib.suppress(TypeError, ValueError):
            merged.setdefault(int(line["seq"]), {}).update(line)
    found = []
    for seq, entry in sorted(merged.items()):
        if "method" not in entry:
            continue
        with contextlib.suppress(TypeError, ValueError, KeyError):
            found.append(
                Request(
                    seq=seq, time=float(entry["time"]), method=str(entry["method"]),
                    target=str(entry["target"]), host=str(entry.get("host", "")),
                    headers=tuple((str(k), str(v)) for k, v in entry.get("headers", [])),
                    body_bytes=int(entry.get("body_bytes", 0)),
                    status=None if entry.get("status") is None else int(entry["status"]),
                    in_flight=int(entry.get("in_flight", 1)), origin=str(entry.get("origin", "")),
                    end=None if entry.get("end") is None else float(entry["end"]),
                    version=str(entry.get("version", "")),
                    refused=str(entry.get("refused", "")),
                    private_link=entry.get("private_link") is True,
                )
            )  # fmt: skip
    return found


@dataclass
class ServiceHandle:
    """A running loopback service.

    Attributes:
        process: The server process (its own process group).
        port: The port it announced with ``LISTENING <port>``.
        log: The lines it printed after that (at most 64 KiB), while it runs.
        name: The service's name.
        origins: Its origins (name -> port): the relays in front of its own port.
        entries: Its raw request log lines, while it runs (see :meth:`requests`).
        stderr: The end of its standard error (16 KiB at most), while it runs.
        error: Set when it broke the ``LISTENING`` contract after starting.
    """

    process: subprocess.Popen[bytes]
    port: int
    log: list[str] = field(default_factory=list)
    name: str = "service"
    origins: dict[str, int] = field(default_factory=dict)
    entries: list[dict[str, Any]] = field(default_factory=list)
    stderr: bytearray = field(default_factory=bytearray)
    error: str = ""
    display: str = ""

    @property
    def url(self) -> str:
        """Base URL of the service (its first origin)."""
        return f"http://127.0.0.1:{self.origins.get(self.name, self.port)}"

    def origin_url(self, origin: str) -> str:
        """The URL of one of its origins."""
        return f"http://127.0.0.1:{self.origins[origin]}"

    def requests(self) -> list[Request]:
        """The requests it received so far, in arrival order."""
        return requests_of(list(self.entries))


def _await_listening(
    process: subprocess.Popen[bytes], deadline: float, timeout: float
) -> tuple[int, str, bytes]:
    """Read the service's stdout until its ``LISTENING <port>`` line: (port, problem, rest)."""
    assert process.stdout is not None
    buffer = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.05)
        if not ready:
            if process.poll() is not None:
                break
            continue
        chunk = os.read(process.stdout.fileno(), 4096)
        if not chunk:
            break
        buffer = (buffer + chunk)[-CAPTURE_LIMIT:]
        if b"\n" in buffer:
            line, rest = buffer.split(b"\n", 1)
            port = _listening_port(line)
            if port:
                return port, "", rest
            shown = line.decode("utf-8", "replace").strip()[:200]
            return 0, f"printed {shown!r} on standard output before 'LISTENING <port>'", b""
    with contextlib.suppress(subprocess.TimeoutExpired):  # EOF: it is most likely exiting
        process.wait(timeout=1.0)
    code = process.poll()
    if code is not None:
        return 0, f"exited with status {code} before printing 'LISTENING <port>'", b""
    if time.monotonic() < deadline:
        return 0, "closed its standard output before printing 'LISTENING <port>'", b""
    return 0, f"did not print 'LISTENING <port>' within {timeout:g} s (still running)", b""


def _drain(stream: IO[bytes], handle: ServiceHandle, rest: bytes) -> None:
    """Read a service's output to its end, keeping the first 64 KiB of lines in its log; a
    second ``LISTENING`` line is its error."""
    kept = 0
    with contextlib.suppress(OSError, ValueError):
        lines = itertools.chain(rest.splitlines(keepends=True), stream)
        for line in lines:
            if _listening_port(line.rstrip(b"\n")) and not handle.error:
                problem = "printed a second 'LISTENING <port>' line"
                handle.error = service_failure(handle.name, handle.display, problem, b"")
            elif kept < CAPTURE_LIMIT and line.strip():
                kept += len(line)
                handle.log.append(line.decode("utf-8", "replace").rstrip("\r\n"))


def _drain_stderr(stream: IO[bytes], tail: bytearray) -> None:
    with contextlib.suppress(OSError, ValueError):
        while chunk := stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536):
            tail.extend(chunk)
            del tail[:-SERVICE_STDERR_LIMIT]


def _drain_requests(fd: int, handle: ServiceHandle) -> None:
    with contextlib.suppress(OSError, ValueError), open(fd, "rb") as stream:
        for line in stream:
            with contextlib.suppress(ValueError):
                entry = json.loads(line)
                if isinstance(entry, dict) and isinstance(entry.get("origins"), dict):
                    handle.origins.update({str(k): int(v) for k, v in entry["origins"].items()})
                elif isinstance(entry, dict) and len(handle.entries) < 3 * SERVICE_REQUEST_LIMIT:
                    handle.entries.append(entry)


@contextlib.contextmanager
def start_service(
    argv: Sequence[str],
    *,
    cwd: Path,
    timeout: float = 15.0,
    env: Mapping[str, str] | None = None,
    name: str = "service",
    display: str = "",
    origins: Sequence[str] = (),
    python: bool | None = None,
    seal: Seal | None = None,
) -> Iterator[ServiceHandle]:
    """Start a server with ``--port 0``, wait for its ``LISTENING <port>`` line, yield it.

    Every service runs through benchlib's service wrapper, which opens its origins (its own
    ``name`` and ``origins``), relays them to the service's port and records the HTTP
    requests it relays (:meth:`ServiceHandle.requests`). A Python service (``python``, by
    default when ``argv`` runs a script or a module with a Python interpreter) runs inside
    the wrapper; any other runs as the wrapper's child. The service's process group is
    always killed on exit, whatever happened.

    With ``seal`` the service runs under bubblewrap as ``seal`` says (its environment is
    ``seal.env``, never the caller's, plus the wrapper's plan), with this runtime's file
    bound read-only so that the wrapper can run; ``cwd`` must be visible in it.

    Raises:
        RuntimeError: When the service does not start, naming it, its command, what went
            wrong and the last lines of its standard error.
    """
    token = run_token()
    if seal is not None:
        variables = dict(seal.env)
    else:
        variables = dict(env) if env is not None else clean_env()
    variables[RUN_TOKEN_VARIABLE] = token
    if python is None:
        python = len(argv) > 1 and _is_python(argv[0])
    wrapper = [str(Path(__file__).resolve()), SERVICE_FLAG]
    if python:
        command = [argv[0], *wrapper, *argv[1:], "--port", "0"]
    else:
        command = [sys.executable, "-I", "-S", *wrapper, "--exec", *argv, "--port", "0"]
    readable, writable = os.pipe()
    plan = {"log_fd": writable, "origins": [name, *origins]}
    variables[SERVICE_PLAN_VARIABLE] = json.dumps(plan)
    stack = contextlib.ExitStack()
    try:
        process = stack.enter_context(_service_process(command, cwd, variables, writable, seal))
    except (OSError, ValueError) as exc:
        os.close(readable)
        os.close(writable)
        why = f"could not be started: {exc}"
        raise RuntimeError(service_failure(name, display, why, b"")) from None
    os.close(writable)
    handle = ServiceHandle(process, 0, name=name, display=display)
    assert process.stdout is not None and process.stderr is not None
    threads = [
        threading.Thread(target=_drain_requests, args=(readable, handle)),
        threading.Thread(target=_drain_stderr, args=(process.stderr, handle.stderr)),
    ]
    try:
        for thread in threads:
            thread.daemon = True
            thread.start()
        deadline = time.monotonic() + timeout
        port, problem, rest = _await_listening(process, deadline, timeout)
        while not problem and name not in handle.origins:
            if time.monotonic() >= deadline or process.poll() is not None:
                problem = "did not report its origins"
            time.sleep(0.005)
        if problem:
            kill_group(process)
            process.wait()
            threads[-1].join(timeout=1.0)
            raise RuntimeError(service_failure(name, display, problem, bytes(handle.stderr)))
        handle.port = port
        drain = threading.Thread(target=_drain, args=(process.stdout, handle, rest), daemon=True)
        drain.start()
        yield handle
    finally:
        kill_group(process)
        process.wait()
        stack.close()
        sweep(token, group=process.pid)
        for thread in threads:
            thread.join(timeout=1.0)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


@contextlib.contextmanager
def _service_process(
    command: Sequence[str], cwd: Path, env: Mapping[str, str], log_fd: int, seal: Seal | None
) -> Iterator[subprocess.Popen[bytes]]:
    """A service's process, in its own session (unsealed) or sandbox (``seal``).

    Raises:
        OSError: When it cannot be started.
    """
    streams: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    if seal is None:
        yield subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.DEVNULL, env=env, start_new_session=True,
            pass_fds=(log_fd,), **streams,
        )  # fmt: skip
        return
    binds = [*seal.binds, Bind(Path(__file__).resolve())]
    if command[0] == sys.executable:  # the wrapper of a non-Python service: this interpreter
        own = interpreter(sys.executable)
        command = [own.executable, *command[1:]]
        binds += own.binds()
    sealed = replace(seal, binds=tuple(binds), env=env, cwd=str(cwd))
    with sealed_popen(sealed, command, pass_fds=(log_fd,), **streams) as process:
        yield process


def _is_python(program: str) -> bool:
    """Whether ``program`` is a Python interpreter."""
    name = Path(program).name
    return bool(re.fullmatch(r"python[0-9.]*", name)) or program == sys.executable
