# ---------------------------------------------------------------------------------------------
# actions
# ---------------------------------------------------------------------------------------------

IDLE_GRACE = 10.0
MAX_STREAM_BYTES: Final = 10 << 20
"""What is kept of each action's events file, stdout and stderr: the first 10 MiB. Beyond
that, events are not read and the streams are cut back as the adapter writes (so a flood
never fills the disk), each noted once as an ``event-cap`` or ``output-cap`` diagnostic."""
MAX_TRANSCRIPT_BYTES: Final = 64 << 20
"""What a run keeps of the files its adapter saved in ``$BENCHSMITH_TRANSCRIPT_DIR`` (all
files together; the rest is cut and recorded as a ``transcript-cap`` diagnostic)."""
TRANSCRIPTS: Final = "transcripts"
"""The folder of ``actions/`` that keeps the adapter's raw transcripts."""
MAX_PROBLEMS = 200
POLL_FIRST = 0.002
POLL_MAX = 0.025
COMMAND_PREFIX: Final = "command:"

Outcome = Literal["idle", "timeout", "crash"]


@dataclass(frozen=True)
class ActionEnv:
    """What one action tells the adapter.

    Attributes:
        action: ``message`` or ``compact``.
        stage: 1-based stage number the action belongs to.
        stage_id: That stage's id.
        stages: Number of stages of the task.
        workspace: The agent's workspace (absolute).
        events: File the adapter appends event lines to.
        state_dir: Private folder that persists across this run's actions.
        editable: Workspace paths the agent may write.
        timeout: Seconds left of the agent's time budget.
        message_file: File holding the user message (``message`` actions only).
        reference: The task's reference solution (passed to ``replay`` only).
        transcript_dir: Folder, kept across this run's actions, where the adapter may save
            its raw (vendor) transcript files; the run keeps them in
            ``actions/transcripts/``.
    """

    action: str
    stage: int
    stage_id: str
    stages: int
    workspace: Path
    events: Path
    state_dir: Path
    editable: tuple[str, ...]
    timeout: float
    message_file: Path | None = None
    reference: Path | None = None
    transcript_dir: Path | None = None


@dataclass(frozen=True)
class Adapter:
    """An agent adapter, ready to start.

    Attributes:
        spec: The ``--agent`` value as given (recorded with each run).
        kind: ``command`` (or a front end's built-in: ``replay``, ``nop``).
        argv: The program started for every action.
        binds: Host files the program needs, shown read-only to a sealed agent at the same
            paths (see :func:`command_adapter`).
    """

    spec: str
    kind: str
    argv: tuple[str, ...]
    binds: tuple[benchlib.Bind, ...] = ()

    def env(self, context: ActionEnv) -> dict[str, str]:
        """The ``BENCHSMITH_*`` variables of one action."""
        values = {
            ENV_PROTOCOL: PROTOCOL_VERSION,
            ENV_ACTION: context.action,
            ENV_STAGE: str(context.stage),
            ENV_STAGE_ID: context.stage_id,
            ENV_STAGES: str(context.stages),
            ENV_WORKSPACE: str(context.workspace),
            ENV_EVENTS: str(context.events),
            ENV_STATE_DIR: str(context.state_dir),
            ENV_EDITABLE: json.dumps(list(context.editable)),
            ENV_TIMEOUT: f"{max(context.timeout, 0.0):.1f}",
        }
        if context.message_file is not None:
            values[ENV_MESSAGE_FILE] = str(context.message_file)
        if context.transcript_dir is not None:
            values[ENV_TRANSCRIPT_DIR] = str(context.transcript_dir)
        if self.kind == "replay" and context.reference is not None:
            values[ENV_REFERENCE] = str(context.reference)
        return values


SHELL_SYNTAX: Final = frozenset("|&;<>()$`*?[]{}~\n")
"""Characters that make a ``command:`` line more than one program with its arguments."""

SCRIPT_INTERPRETERS: Final = frozenset(
    {"bash", "bun", "dash", "deno", "node", "perl", "ruby", "sh", "zsh"}
)
AGENT_DIRS: Final = ("/opt",)
"""Folders a sealed agent sees read-only besides the system folders (when they exist)."""

SHELL_BUILTINS: Final = frozenset(
    {".", ":", "cd", "eval", "exec", "exit", "export", "set", "true", "false", "ulimit", "umask"}
)


def command_adapter(spec: str, cwd: Path | None = None) -> Adapter:
    """The adapter of ``command:<shell command>``, run with ``/bin/sh -c``.

    A simple command (one program and its arguments, no shell syntax) is resolved here, on
    the host, from ``cwd`` (default: the caller's working directory), because actions run in
    the workspace and a sealed agent sees only the system folders: the program becomes an
    absolute path (found on ``PATH``, or relative to ``cwd``; a pyenv shim becomes the real
    interpreter, a venv's interpreter brings its venv), an interpreter's script (its first
    argument not starting with ``-``, when that names a file) becomes absolute, and the
    adapter's :attr:`Adapter.binds` show those files (and the interpreter's installation)
    read-only.
    A compound command runs as written; what it needs outside the system folders must be
    bound with ``--agent-bind``.

    Raises:
        ValueError: When ``spec`` is not ``command:`` followed by a command, or its program
            cannot be found.
    """
    command = spec.removeprefix(COMMAND_PREFIX).strip() if spec.startswith(COMMAND_PREFIX) else ""
    if not command:
        raise ValueError(f"--agent {spec!r}: expected command:<shell command>")
    words = _simple_words(command)
    if words is None or words[0] in SHELL_BUILTINS:
        return Adapter(spec, "command", ("/bin/sh", "-c", command))
    base = (cwd or Path.cwd()).absolute()
    program, binds = _resolve_program(words[0], base)
    resolved = [program, *words[1:]]
    script = next((i for i, w in enumerate(words) if i and not w.startswith("-")), None)
    if script is not None and _is_interpreter(words[0]) and (base / words[script]).is_file():
        path = (base / words[script]).resolve()
        resolved[script] = str(path)
        binds.append(benchlib.Bind(path))
    visible = tuple(
        b for b in dict.fromkeys(binds) if not _visible_to_agents(str(b.source.resolve()))
    )
    return Adapter(spec, "command", ("/bin/sh", "-c", shlex.join(resolved)), visible)


def _simple_words(command: str) -> list[str] | None:
    """The words of ``command`` when it is one program with arguments, else ``None``."""
    if any(c in SHELL_SYNTAX for c in command):
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if not words or "=" in words[0]:
        return None
    return words


def _resolve_program(word: str, base: Path) -> tuple[str, list[benchlib.Bind]]:
    """The absolute program of ``word`` and the binds it needs.

    Raises:
        ValueError: When it cannot be found.
    """
    found = str(base / word) if "/" in word else shutil.which(word)
    if found is None or not os.access(found, os.X_OK) or Path(found).is_dir():
        where = f"relative to {base}" if "/" in word else "on PATH"
        raise ValueError(f"the adapter's program {word!r} is not an executable file {where}")
    program = Path(found).absolute()
    if not Path(word).name.startswith("python"):
        return str(program), [benchlib.Bind(program.resolve(), str(program))]
    try:
        real = benchlib.interpreter(str(program))
    except RuntimeError as exc:
        raise ValueError(f"the adapter's program {word!r}: {exc}") from None
    binds = list(real.binds())
    if _is_shim(program):
        return real.executable, binds
    venv = program.parent.parent
    if (venv / "pyvenv.cfg").is_file():
        return str(program), [*binds, benchlib.Bind(venv)]
    if str(program.resolve()) != real.executable:
        binds.append(benchlib.Bind(program.resolve(), str(program)))
    return str(program), binds


def _is_interpreter(word: str) -> bool:
    """Whether the program ``word`` takes a script file as its first plain argument."""
    name = Path(word).name
    return name.startswith("python") or name in SCRIPT_INTERPRETERS


def _is_shim(program: Path) -> bool:
    """Whether ``program`` is a script standing for an interpreter (a pyenv shim)."""
    try:
        with open(program, "rb") as stream:
            return stream.read(2) == b"#!"
    except OSError:
        return False


def _visible_to_agents(path: str) -> bool:
    """Whether ``path`` lies in the folders every sealed agent sees anyway."""
    return any(path == f or path.startswith(f + "/") for f in (*benchlib.SYSTEM_DIRS, *AGENT_DIRS))


@dataclass(frozen=True)
class Received:
    """One valid event line, stamped when the runner read it.

    Attributes:
        line: 1-based line number in the action's events file.
        t: Seconds since the run started.
        event: The event object.
    """

    line: int
    t: float
    event: dict[str, Any]


@dataclass(frozen=True)
class Problem:
    """A malformed events line or an adapter misbehaviour, recorded as a diagnostic.

    Attributes:
        line: 1-based line number (0 when not about a line).
        code: Short stable code (see :class:`LineProblem`, ``lingered``, ``event-file``).
        message: What is wrong.
        text: The offending text (clipped), if any.
    """

    line: int
    code: str
    message: str
    text: str = ""


@dataclass
class ActionResult:
    """What one action did.

    Attributes:
        action: ``message`` or ``compact``.
        stage: The stage it belongs to.
        outcome: ``idle`` (turn finished), ``timeout`` or ``crash``.
        detail: Human explanation of a non-idle outcome.
        exit_code: The adapter's exit status (``None`` when killed or never started).
        started: Seconds since the run started.
        seconds: Wall time of the action.
        events: Valid events in order.
        problems: Malformed lines and misbehaviours.
    """

    action: str
    stage: int
    outcome: Outcome
    detail: str
    exit_code: int | None
    started: float
    seconds: float
    events: list[Received] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def has(self, kind: str) -> bool:
        """Whether the adapter emitted an event of type ``kind``."""
        return any(r.event["type"] == kind for r in self.events)


class EventTail:
    """Reads an events file incrementally, validating complete lines."""

    def __init__(self, path: Path, origin: float) -> None:
        self.path, self.origin = path, origin
        self.offset, self.buffer, self.lines = 0, b"", 0
        self.not_regular = False
        self.capped = False
        self.idle = False
        self.events: list[Received] = []
        self.problems: list[Problem] = []

    def poll(self, *, final: bool = False) -> None:
        """Consume what was appended since the last call (and a last unterminated line)."""
        chunk = self.read_new()
        self.offset += len(chunk)
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        if final and self.buffer:
            if not self.capped:  # past the cap, the last line is cut, not malformed
                complete.append(self.buffer)
            self.buffer = b""
        for raw in complete:
            self.take(raw)

    def read_new(self) -> bytes:
        """Bytes appended since the last read, up to :data:`MAX_STREAM_BYTES` in all; never
        blocks, even if a FIFO replaced the file, and never follows a symbolic link."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                self.not_a_file("the events file is a symbolic link (not followed)")
            return b""
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                self.not_a_file("the events file is not a regular file")
                return b""
            left = MAX_STREAM_BYTES - self.offset
            os.lseek(fd, self.offset, os.SEEK_SET)
            chunks, size = [], 0
            while size < left and (chunk := os.read(fd, min(1 << 20, left - size))):
                chunks.append(chunk)
                size += len(chunk)
            if size == left:
                self.cap(fd)
            return b"".join(chunks)
        finally:
            os.close(fd)

    def not_a_file(self, message: str) -> None:
        """Note once that the events file cannot be read."""
        if not self.not_regular:
            self.not_regular = True
            self.problem(Problem(0, "event-file", message))

    def cap(self, fd: int) -> None:
        """Past the cap: note it once, and cut the file back so a flood stays on no disk."""
        if os.fstat(fd).st_size > MAX_STREAM_BYTES:
            if not self.capped:
                self.capped = True
                self.problem(
                    Problem(0, "event-cap", f"events beyond {MAX_STREAM_BYTES >> 20} MiB not read")
                )
            with contextlib.suppress(OSError):
                os.truncate(self.path, MAX_STREAM_BYTES)

    def take(self, raw: bytes) -> None:
        """Validate one line and keep it as an event or a problem."""
        self.lines += 1
        if not raw.strip():
            return
        parsed = parse_event(raw.strip())
        if isinstance(parsed, LineProblem):
            self.problem(Problem(self.lines, parsed.code, parsed.message, clip(raw)))
        else:
            self.events.append(Received(self.lines, time.monotonic() - self.origin, parsed))
            self.idle = self.idle or parsed["type"] == "idle"

    def problem(self, problem: Problem) -> None:
        """Record a problem, up to :data:`MAX_PROBLEMS` per action."""
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        elif len(self.problems) == MAX_PROBLEMS:
            self.problems.append(Problem(0, "too-many", "further problems were not recorded"))


def clip(raw: bytes, limit: int = 500) -> str:
    """The start of an offending line, decoded leniently."""
    return raw[:limit].decode("utf-8", errors="replace")


@dataclass(frozen=True)
class ActionFiles:
    """Where one action's message, events and output streams live."""

    message: Path | None
    events: Path
    stdout: Path
    stderr: Path


@dataclass(frozen=True)
class AgentSeal:
    """How adapter actions run sealed under bubblewrap (benchlib's :class:`~benchlib.Seal`,
    ``minimal`` view): what an agent sees and may write. An allowlist: nothing of the host
    shows that is not named here, so no copy of a corpus, export or earlier run anywhere on
    the machine can be read.

    Read-only: the system folders (``/usr``, ``/bin``, ``/sbin``, ``/lib*``, ``/etc``) and
    ``/opt``; the task's interpreter (``python``; its folder first on ``PATH``); the adapter's
    program and script (:attr:`Adapter.binds`); and ``binds``. ``/tmp`` is a private tmpfs.
    At their own paths: the workspace read-only with each editable path writable (an
    editable *file*'s folder, so tools can replace it and SQLite keep a journal beside it;
    never the workspace root itself), the adapter's state folder writable, the action's
    events file writable and its message file read-only. ``HOME`` and
    ``XDG_{CONFIG,CACHE,DATA}_HOME`` are fresh folders in the state folder. Own PID
    namespace: when the action ends, everything it started dies with it, daemons included.

    Attributes:
        binds: Extra read-only binds: ``--agent-bind`` paths, a built-in adapter's
            interpreter and package.
        python: The interpreter the task uses (``--python``), shown to the agent; empty: none.
        network: Share the host network (model APIs); ``False``: only a private loopback.
        pass_env: Variables passed through from the runner's environment (credentials).
    """

    binds: tuple[benchlib.Bind, ...] = ()
    python: str = ""
    network: bool = True
    pass_env: tuple[str, ...] = ()


def agent_binds(paths: Sequence[str], cwd: Path | None = None) -> tuple[benchlib.Bind, ...]:
    """The read-only binds of ``--agent-bind`` paths (relative ones from ``cwd``).

    Raises:
        ValueError: When a path does not exist.
    """
    base = (cwd or Path.cwd()).absolute()
    binds = []
    for given in paths:
        path = base / given
        if not path.exists():
            raise ValueError(f"--agent-bind {given}: no such file or folder")
        binds.append(benchlib.Bind(path.resolve(), str(path.absolute())))
    return tuple(binds)


AGENT_LIMITS = benchlib.Limits(cpu_seconds=None, memory_bytes=None, processes=4096)
"""Agents (often Node.js) reserve large address spaces: only files and processes are capped;
the agent's time budget bounds the rest."""


def agent_home(state_dir: Path) -> dict[str, str]:
    """The fresh ``HOME`` and XDG folders of a sealed agent, created in its state folder."""
    home = state_dir / "home"
    folders = {
        "HOME": home,
        "XDG_CONFIG_HOME": home / ".config",
        "XDG_CACHE_HOME": home / ".cache",
        "XDG_DATA_HOME": home / ".local" / "share",
    }
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    return {name: str(folder) for name, folder in folders.items()}


def agent_seal(
    seal: AgentSeal,
    env: ActionEnv,
    files: ActionFiles,
    variables: Mapping[str, str],
    adapter: Adapter | None = None,
) -> benchlib.Seal:
    """The :class:`benchlib.Seal` of one action of ``adapter``."""
    binds = [benchlib.Bind(Path(d)) for d in AGENT_DIRS if Path(d).is_dir()]
    search = os.environ.get("PATH", ":".join(benchlib.SANDBOX_PATH)).split(":")
    if seal.python:
        python = benchlib.interpreter(seal.python)
        binds += python.binds()
        search.insert(0, str(Path(python.executable).parent))
    binds += [*(adapter.binds if adapter else ()), *seal.binds, benchlib.Bind(env.workspace)]
    for rel in env.editable:
        path = env.workspace / rel.rstrip("/")
        if not rel.endswith("/") and not path.is_dir() and path.parent != env.workspace:
            path = path.parent
        if path.exists() and path != env.workspace:
            binds.append(benchlib.Bind(path, writable=True))
    binds.append(benchlib.Bind(env.state_dir, writable=True))
    if env.transcript_dir is not None:
        binds.append(benchlib.Bind(env.transcript_dir, writable=True))
    binds.append(benchlib.Bind(files.events, writable=True))
    if files.message is not None:
        binds.append(benchlib.Bind(files.message))
    passed = {n: os.environ[n] for n in seal.pass_env if n in os.environ}
    environment = benchlib.sandbox_env(
        {**passed, **variables, **agent_home(env.state_dir), "PATH": ":".join(search)}
    )
    return benchlib.Seal(
        binds=tuple(binds), view="minimal", network=seal.network, limits=AGENT_LIMITS,
        env=environment, cwd=str(env.workspace),
    )  # fmt: skip


def run_action(
    adapter: Adapter,
    env: ActionEnv,
    files: ActionFiles,
    *,
    origin: float,
    seal: AgentSeal | None = None,
) -> ActionResult:
    """Run one action to its end; never raises for the adapter's misbehaviour.

    The adapter runs with the workspace as its working directory, sealed by ``seal``
    (:class:`AgentSeal`) or, unsealed, in its own process group. The turn is finished when it
    exits 0 after emitting ``idle``; one still running :data:`IDLE_GRACE` seconds after
    ``idle`` is stopped (and that recorded). A nonzero exit, or an exit without ``idle``, is
    a crash; running past ``env.timeout`` a timeout. Everything the action started is killed
    when it ends: the sandbox's PID namespace, or unsealed the process group and any process
    that left it but carries the action's token in its environment.

    Args:
        adapter: The adapter to start.
        env: What the action tells the adapter (its ``timeout`` is the budget left).
        files: The action's files (the events file is created empty).
        origin: ``time.monotonic()`` at the start of the run, for event stamps.
        seal: How to seal the adapter; ``None`` runs it unsealed.
    """
    files.events.write_bytes(b"")
    started = time.monotonic()
    tail = EventTail(files.events, origin)
    base = ActionResult(env.action, env.stage, "crash", "", None, started - origin, 0.0)
    token = benchlib.run_token()
    variables = {**adapter.env(env), benchlib.RUN_TOKEN_VARIABLE: token}
    streams = StreamCap((files.stdout, files.stderr))
    with open(files.stdout, "wb") as out, open(files.stderr, "wb") as err:
        try:
            with _started(adapter, env, files, variables, seal, (out, err)) as process:
                how, detail = _follow(process, tail, started + env.timeout, streams.trim)
        except OSError as exc:
            base.detail = f"adapter could not start: {exc}"
            return base
        finally:
            benchlib.sweep(token)  # children that left the group (setsid, double fork)
        streams.settle((out, err))
    tail.poll(final=True)
    streams.trim()
    tail.problems.extend(streams.problems())
    base.outcome, base.detail = _settle(how, detail, process.returncode, tail)
    base.exit_code = None if how == "timeout" or detail == "lingered" else process.returncode
    if detail == "lingered":
        tail.problems.append(
            Problem(0, "lingered", f"adapter still running {IDLE_GRACE:g} s after idle; stopped")
        )
    base.seconds = time.monotonic() - started
    base.events, base.problems = tail.events, tail.problems
    return base


@contextlib.contextmanager
def _started(
    adapter: Adapter,
    env: ActionEnv,
    files: ActionFiles,
    variables: Mapping[str, str],
    seal: AgentSeal | None,
    streams: tuple[Any, Any],
) -> Iterator[subprocess.Popen[bytes]]:
    """The adapter's process, killed (with all it started) when the block ends.

    Raises:
        OSError: When it cannot be started.
    """
    out, err = streams
    if seal is not None:
        sealed = agent_seal(seal, env, files, variables, adapter)
        with benchlib.sealed_popen(sealed, list(adapter.argv), stdout=out, stderr=err) as process:
            yield process
        return
    process = subprocess.Popen(
        list(adapter.argv), cwd=env.workspace, stdin=subprocess.DEVNULL, stdout=out,
        stderr=err, env=benchlib.clean_env(variables), start_new_session=True,
    )  # fmt: skip
    try:
        yield process
    finally:
        benchlib.kill_group(process)
        process.wait()


class StreamCap:
    """Keeps an action's stdout and stderr files to their first :data:`MAX_STREAM_BYTES`.

    The adapter writes through a descriptor it shares with the runner, so its offset runs on
    past a truncation: what it writes later lands beyond the cut, in a hole that takes no
    space, and is cut again at the next poll. The largest size seen is what was written.
    """

    def __init__(self, paths: Sequence[Path]) -> None:
        self.written = dict.fromkeys(paths, 0)

    def trim(self) -> None:
        """Cut each file back to the cap (called at every poll and once at the end)."""
        for path in self.written:
            with contextlib.suppress(OSError):
                size = path.stat().st_size
                if size > MAX_STREAM_BYTES:
                    self.written[path] = max(self.written[path], size)
                    os.truncate(path, MAX_STREAM_BYTES)

    def settle(self, streams: Sequence[Any]) -> None:
        """Once the adapter is gone, count what it wrote by the offset it shares with our
        ``streams`` (one per path, in order): a size seen at a poll misses what it wrote
        between that poll's stat and truncate."""
        for path, stream in zip(self.written, streams, strict=True):
            with contextlib.suppress(OSError):
                offset = os.lseek(stream.fileno(), 0, os.SEEK_CUR)
                if offset > MAX_STREAM_BYTES:
                    self.written[path] = max(self.written[path], offset)

    def problems(self) -> list[Problem]:
        """One ``output-cap`` note per stream that was cut."""
        return [
            Problem(
                0,
                "output-cap",
                f"{path.suffix[1:]}: kept the first {MAX_STREAM_BYTES >> 20} MiB of at least "
                f"{size} bytes written",
            )
            for path, size in self.written.items()
            if size
        ]


def _follow(
    process: subprocess.Popen[bytes], tail: EventTail, deadline: float, trim: Callable[[], None]
) -> tuple[str, str]:
    """Wait for the adapter to exit, time out, or linger after idle; read events and keep
    its output streams to their cap meanwhile."""
    delay, idle_since = POLL_FIRST, 0.0
    while True:
        if process.poll() is not None:
            return "exited", ""
        tail.poll()
        trim()
        now = time.monotonic()
        if now >= deadline:
            return "timeout", ""
        if tail.idle and not idle_since:
            idle_since = now
        if idle_since and now - idle_since >= IDLE_GRACE:
            return "exited", "lingered"
        time.sleep(min(delay, max(deadline - now, 0.0)))
        delay = min(delay * 2, POLL_MAX)


def _settle(how: str, detail: str, returncode: int | None, tail: EventTail) -> tuple[Outcome, str]:
    """Classify the end of an action."""
    if how == "timeout":
        return "timeout", "the agent's time budget ran out"
    if detail == "lingered":
        return "idle", ""
    if returncode != 0:
        return "crash", f"adapter exited with status {returncode}{_error_hint(tail)}"
    if not tail.idle:
        return "crash", "adapter exited without an idle event"
    return "idle", ""


def _error_hint(tail: EventTail) -> str:
    errors = [r.event["message"] for r in tail.events if r.event["type"] == "error"]
    return f": {errors[-1][:200]}" if errors else ""


def remaining(budget: float, spent: float) -> float:
    """Seconds of the agent budget left (never negative)."""
    return max(budget - spent, 0.0)
