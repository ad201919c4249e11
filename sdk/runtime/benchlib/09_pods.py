@dataclass(frozen=True)
class PodService:
    """A fixture service a pod starts before its commands.

    Attributes:
        name: The service's name (log lines and errors carry it).
        argv: Its command line (``--port 0`` included), interpreter resolved.
        url_file: Path, relative to the fixture root, that receives its base URL.
        python: Whether ``argv`` runs a Python script or module (then it runs inside
            benchlib's non-dumpable service wrapper, so no command can forge its output; any
            other service runs as the wrapper's child). The wrapper opens the origins and
            records the requests relayed through them either way.
        cwd: Working directory, relative to the fixture root.
        display: The command as the task declares it (errors show it).
        origins: The service's further origins: name -> file (relative to the fixture root)
            that receives its URL, or "".
    """

    name: str
    argv: tuple[str, ...]
    url_file: str
    python: bool = True
    cwd: str = "."
    display: str = ""
    origins: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PodCommand:
    """A command a pod runs in the fixture root.

    Attributes:
        argv: The command line, interpreter resolved.
        cwd: Working directory, relative to the fixture root.
        stdin: File fed to standard input, relative to the fixture root.
        timeout: Seconds before its session is killed.
        memory_bytes: Address-space limit (RLIMIT_AS) of its processes; None: the pod's.
        kind: ``run`` (a command), or a step of a candidate server: ``serve`` (start
            ``argv`` in the background, await its ``LISTENING <port>`` line for ``timeout``
            seconds), ``http`` (PID 1 sends a request) or ``stop`` (SIGTERM, ``timeout``
            seconds, SIGKILL); see :class:`_PodSteps`.
        step: A step's settings: ``serve`` (its server's name), ``url_file`` (relative to
            the fixture root) and ``display``; ``http`` (``server``, ``method``, ``target``,
            ``headers``, ``body`` or ``body_file``, ``limit``); ``stop`` (the name). Left
            out of comparisons (a probe is a plain command).
    """

    argv: tuple[str, ...]
    cwd: str = "."
    stdin: str | None = None
    timeout: float = 60.0
    memory_bytes: int | None = None
    kind: str = "run"
    step: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass
class PodOutcome:
    """What a pod reported.

    Attributes:
        results: One result per command, in order.
        ports: Each started service's port.
        logs: Each service's output lines (at most 64 KiB per service).
        error: Why a service did not start (then no command ran) or broke its contract;
            empty otherwise.
        origins: Each started service's origins (name -> port).
        requests: Each service's request log (see :class:`Request`).
        stderr: The end of each service's standard error (16 KiB at most).
        not_run: The indexes of the commands the pod did not run (an earlier one timed out,
            a service did not start, or the pod ended first), in order.
    """

    results: list[CommandResult]
    ports: dict[str, int] = field(default_factory=dict)
    logs: dict[str, list[str]] = field(default_factory=dict)
    error: str = ""
    origins: dict[str, dict[str, int]] = field(default_factory=dict)
    requests: dict[str, list[Request]] = field(default_factory=dict)
    stderr: dict[str, str] = field(default_factory=dict)
    not_run: list[int] = field(default_factory=list)


_PREPARE = (
    "import json, os, py_compile, sys; "
    "py_compile.compile(sys.argv[1], cfile=sys.argv[2], dfile=sys.argv[3], doraise=True); "
    "print(json.dumps([os.path.realpath(sys.executable), sys.base_prefix]))"
)


@dataclass(frozen=True)
class PodKit:
    """What every pod of one judging shares: the interpreter and a private runtime copy.

    Attributes:
        interpreter: The candidates' interpreter (PID 1 runs it too).
        lib: Private folder holding the copy of this runtime that PID 1 runs.
        entry: The file PID 1 runs: ``benchlib.pyc``, compiled ahead so that it starts in
            milliseconds (``benchlib.py`` when compiling failed).
    """

    interpreter: Interpreter
    lib: Path
    entry: str

    @classmethod
    def prepare(cls, folder: Path, python: str, cache: Path | None = None) -> PodKit:
        """Copy this runtime into the private ``folder`` -- before any candidate code runs,
        so that nothing a candidate does can change what later pods execute -- and compile it
        with ``python``, which is resolved at the same time. Both results are kept in the
        fixture ``cache`` (written only by judges) for the next judge of the same run.

        Raises:
            RuntimeError: When ``python`` cannot be run.
        """
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(DIR_MODE)
        source = Path(__file__).read_bytes()
        (folder / "benchlib.py").write_bytes(source)
        key = hashlib.sha256(source + python.encode()).hexdigest()[:20]
        kept = cache / ".pod" / key if cache is not None else None
        info = _kept_interpreter(kept, folder / "benchlib.pyc")
        if info is None:
            info = cls._compile(python, folder)
            if kept is not None and info is not None:
                _keep(folder / "benchlib.pyc", kept.with_suffix(".pyc"))
                _keep_text(json.dumps([info.executable, info.prefix]), kept.with_suffix(".json"))
        if info is None:  # compiling failed: PID 1 runs (and compiles) the source
            (folder / "benchlib.py").chmod(FILE_MODE)
            return cls(interpreter(python), folder, "benchlib.py")
        for name in ("benchlib.py", "benchlib.pyc"):
            (folder / name).chmod(FILE_MODE)
        return cls(info, folder, "benchlib.pyc")

    @staticmethod
    def _compile(python: str, folder: Path) -> Interpreter | None:
        """Compile ``folder/benchlib.py`` with ``python``; the interpreter, or None."""
        argv = [python, "-I", "-S", "-c", _PREPARE, str(folder / "benchlib.py")]
        argv += [str(folder / "benchlib.pyc"), f"{POD_LIB}/benchlib.py"]
        try:
            done = subprocess.run(
                argv, capture_output=True, text=True, timeout=120, check=True, env=clean_env()
            )
            executable, prefix = json.loads(done.stdout)
        except (OSError, ValueError, subprocess.SubprocessError):
            return None
        return Interpreter(executable, prefix)


def _kept_interpreter(kept: Path | None, compiled: Path) -> Interpreter | None:
    """The interpreter and compiled runtime a previous judge kept (copied to ``compiled``)."""
    if kept is None:
        return None
    try:
        executable, prefix = json.loads(kept.with_suffix(".json").read_text(encoding="utf-8"))
        shutil.copyfile(kept.with_suffix(".pyc"), compiled)
    except (OSError, ValueError):
        return None
    return Interpreter(executable, prefix)


def _keep_text(text: str, kept: Path) -> None:
    """Write ``text`` to ``kept`` atomically."""
    with contextlib.suppress(OSError):
        kept.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".benchlib-", dir=kept.parent)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        Path(name).replace(kept)


def _keep(path: Path, kept: Path) -> None:
    """Copy ``path`` to ``kept`` atomically (concurrent judges may race; either copy wins)."""
    with contextlib.suppress(OSError):
        kept.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".benchlib-", dir=kept.parent)
        os.close(handle)
        shutil.copyfile(path, name)
        Path(name).replace(kept)


def _inside(rel: str) -> str:
    """The path inside a pod of ``rel`` (relative to the fixture root)."""
    return posixpath.normpath(posixpath.join(POD_ROOT, rel))


def run_pod(
    kit: PodKit,
    root: Path,
    *,
    commands: Sequence[PodCommand],
    services: Sequence[PodService] = (),
    scratch: Path,
    limits: Limits | None = None,
    service_timeout: float = 15.0,
    readonly: Sequence[str] = (),
    inputs: Path | None = None,
) -> PodOutcome:
    """Run ``services`` and then ``commands`` in one sandbox over the fixture ``root``.

    The pod is one minimal-view :class:`Seal`: ``root`` is its writable ``/workspace`` (but
    for the folders ``readonly``, relative to ``root``, bound read-only over it from the
    same place in ``inputs``, by default ``root`` itself), the
    interpreter and ``kit``'s runtime copy are read-only, and PID 1 is benchlib's supervisor
    (``--pod``). Services and commands share the pod's private loopback and nothing else.
    Standard output and error of each command go to files under ``scratch``. Never raises
    for what the commands do; a service that does not start is ``error``.
    """
    scratch.mkdir(parents=True, exist_ok=True)
    token = run_token()
    env = sandbox_env(
        {RUN_TOKEN_VARIABLE: token}, path=[str(Path(kit.interpreter.executable).parent)]
    )
    captures = [
        (_scratch_file(scratch, "stdout-"), _scratch_file(scratch, "stderr-")) for _ in commands
    ]
    handles = [os.open(p, os.O_WRONLY) for pair in captures for p in pair]
    plan = {
        "lib": f"{POD_LIB}/{kit.entry}",
        "env": env,
        "services": [_service_plan(s, service_timeout) for s in services],
        "commands": [
            _command_plan(c, handles[2 * n], handles[2 * n + 1]) for n, c in enumerate(commands)
        ],
    }
    plan_path = _scratch_file(scratch, "plan-")
    plan_path.write_text(json.dumps(plan), encoding="utf-8")
    source = root if inputs is None else inputs
    bound = tuple(Bind(source / rel, f"{POD_ROOT}/{rel}") for rel in readonly)
    seal = Seal(
        binds=(
            *kit.interpreter.binds(), Bind(kit.lib, POD_LIB), Bind(root, POD_ROOT, True), *bound
        ),
        env=env, cwd=POD_ROOT, pid1=True, limits=limits or Limits(),
    )  # fmt: skip
    argv = [kit.interpreter.executable, "-I", "-S", f"{POD_LIB}/{kit.entry}", POD_FLAG]
    budget = sum(c.timeout for c in commands) + service_timeout * len(services) + 30.0
    log_path = _scratch_file(scratch, "pod-")
    try:
        with open(plan_path, "rb") as plan_in, open(log_path, "wb") as log, sealed_popen(
            seal, argv, stdin=plan_in, stdout=subprocess.PIPE, stderr=log, pass_fds=handles,
            restore_owner=False,
        ) as process:  # fmt: skip
            for handle in handles:
                os.close(handle)
            handles = []
            assert process.stdout is not None
            events = _pod_events(process, time.monotonic() + budget)
    finally:
        for handle in handles:
            os.close(handle)
    return _pod_outcome(commands, captures, events, log_path)


def _reported_result(
    argv: list[str], event: Mapping[str, Any], out: Path, err: Path
) -> CommandResult:
    """The result of a command the pod reported on."""
    code = event.get("returncode")
    return CommandResult(
        argv=argv,
        returncode=None if code is None else int(code),
        timed_out=bool(event.get("timed_out")),
        stdout=_head(out),
        stderr=_head(err),
        stdout_path=out,
        error=str(event.get("error") or ""),
        detail=dict(event.get("detail") or {}),
    )


def _service_plan(service: PodService, timeout: float) -> dict[str, Any]:
    return {
        "name": service.name,
        "argv": list(service.argv),
        "cwd": _inside(service.cwd),
        "url_file": _inside(service.url_file) if service.url_file else "",
        "python": service.python,
        "timeout": timeout,
        "display": service.display,
        "origins": {n: _inside(f) if f else "" for n, f in service.origins.items()},
    }


def _command_plan(command: PodCommand, stdout: int, stderr: int) -> dict[str, Any]:
    plan: dict[str, Any] = {
        "argv": list(command.argv),
        "cwd": _inside(command.cwd),
        "stdin": _inside(command.stdin) if command.stdin else None,
        "timeout": command.timeout,
        "memory_bytes": command.memory_bytes,
        "stdout_fd": stdout,
        "stderr_fd": stderr,
        "kind": command.kind,
    }
    step = dict(command.step)
    if command.kind == "serve":
        plan["serve"], plan["display"] = step["serve"], step.get("display", "")
        plan["url_file"] = _inside(step["url_file"]) if step.get("url_file") else ""
    elif command.kind == "http":
        request = dict(step)
        request["body_file"] = _inside(step["body_file"]) if step.get("body_file") else ""
        plan["http"] = request
    elif command.kind == "stop":
        plan["stop"] = step["stop"]
    return plan


def _pod_events(process: subprocess.Popen[bytes], deadline: float) -> list[dict[str, Any]]:
    """Read the pod's result lines until it closes its channel (killing it at ``deadline``)."""
    assert process.stdout is not None
    channel, buffer, events = process.stdout.fileno(), b"", []
    while True:
        remaining = deadline - time.monotonic()
        ready = select.select([channel], [], [], max(0.0, remaining))[0] if remaining > 0 else []
        if not ready:
            process.kill()
            events.append({"event": "deadline"})
            break
        chunk = os.read(channel, 65536)
        if not chunk:
            break
        lines = (buffer + chunk).split(b"\n")
        buffer = lines.pop()
        for line in lines:
            with contextlib.suppress(ValueError):
                event = json.loads(line)
                if isinstance(event, dict):
                    events.append(event)
    process.wait()
    return events


def _pod_outcome(
    commands: Sequence[PodCommand],
    captures: Sequence[tuple[Path, Path]],
    events: Sequence[Mapping[str, Any]],
    log_path: Path,
) -> PodOutcome:
    """Turn the pod's result lines into command results, ports, logs and an error."""
    outcome = PodOutcome([])
    reported: dict[int, Mapping[str, Any]] = {}
    broken: dict[int, str] = {}  # serve steps whose server broke the contract later
    entries: dict[str, list[Mapping[str, Any]]] = {}
    for event in events:
        kind, name = event.get("event"), str(event.get("name", ""))
        if kind == "service" and "port" in event:
            outcome.ports[name] = int(event["port"])
            outcome.origins[name] = {str(k): int(v) for k, v in event.get("origins", {}).items()}
            entries.setdefault(name, [])
        elif kind == "service":
            outcome.error = outcome.error or str(event.get("error", "service failed"))
        elif kind == "request" and isinstance(event.get("entry"), dict):
            entries.setdefault(name, []).append(event["entry"])
        elif kind == "stderr":
            outcome.stderr[name] = str(event.get("text", ""))
        elif kind == "log":
            outcome.logs.setdefault(name, []).append(str(event.get("line", "")))
        elif kind == "command":
            reported[int(event.get("index", -1))] = event
        elif kind == "server":  # a candidate server broke the contract after its serve step
            broken[int(event.get("index", -1))] = str(event.get("error", ""))
    outcome.requests = {name: requests_of(lines) for name, lines in entries.items()}
    late = any(e.get("event") == "deadline" for e in events)
    done = any(e.get("event") == "done" for e in events)
    last = _head(log_path, CAPTURE_LIMIT).strip().splitlines()[-1:]
    crash = "the sandbox ended unexpectedly" + (f": {last[0]}" if last else "")
    for number, (command, (out, err)) in enumerate(zip(commands, captures, strict=True)):
        report = reported.get(number)
        argv = list(command.argv)
        if report is None:
            why = "" if late else "not run: " + (outcome.error or ("" if done else crash))
            outcome.results.append(CommandResult(argv, None, late, "", "", out, why.strip()))
            outcome.not_run.append(number)
            continue
        result = _reported_result(argv, report, out, err)
        if command.kind == "serve":
            result.error = server_note(result.error or broken.get(number, ""), result.stderr)
        outcome.results.append(result)
        if str(report.get("error") or "").startswith("not run"):
            outcome.not_run.append(number)
    return outcome


def server_note(error: str, stderr: str) -> str:
    """A serve step's error with the last lines of the server's standard error ("" stays)."""
    if not error:
        return ""
    lines = stderr.rstrip().splitlines()[-3:]
    return error + ("; its stderr ends: " + " | ".join(t.strip() for t in lines) if lines else "")
