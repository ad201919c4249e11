# ---------------------------------------------------------------------------------------------
# contract -- SDK-internal: the one reading of a judge (its command line, process, verdict)
# ---------------------------------------------------------------------------------------------
#
# ``check``, ``audit``, ``benchsmith run``, the bundle's run.py and the Harbor verifier build a
# judge's command line, run it and hold its verdict with these functions only, so a judge is
# held to one rule everywhere (spec section 6). The structural check mirrors
# ``schemas/judge-result.schema.json`` (the SDK validates that schema on top, and a test proves
# this check is never more lenient than it); where the two could differ the stricter wins.

WORKSPACE_PLACEHOLDER = "{workspace}"
STAGE_OPTION = "--stage"
VERDICT_STDOUT_LIMIT = 16 << 20
VERDICT_STDERR_KEEP = 64 << 10
VERDICT_STDERR_TAIL = 400
VERDICT_ERROR_NOTE_LIMIT = 500
JUDGE_EXIT_GRACE = 1.0
_JUDGE_POLL = 0.1
_JUDGE_CHUNK = 64 << 10
_VERDICT_REQUIRED = (
    "status",
    "progress_level",
    "main_checks_passed",
    "main_checks_total",
    "edge_check_passed",
    "notes",
)
_VERDICT_OPTIONAL = ("stage", "checks")
_CHECK_REQUIRED = ("name", "level", "fixture", "passed", "note")
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` safe to write as UTF-8 anywhere (reports, SQLite, a terminal): a name that is
    not UTF-8 (a ``surrogateescape`` string, from an agent's files, as judges' notes and
    diagnostics quote them) shows its bytes escaped (``\\xff``)."""
    if not LONE_SURROGATE.search(text):
        return text
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name decodes to
        raw = text.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "backslashreplace")


def clip_text(text: str, limit: int = NOTE_LIMIT) -> str:
    """Collapse whitespace and shorten ``text`` to ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True, slots=True)
class Verdict:
    """A judge's result (spec section 6), with how it was obtained.

    A verdict with ``problems`` is an ``error`` verdict (level 0, the problems as notes): the
    judge broke the contract, whatever it printed.

    Attributes:
        status: ``pass``, ``fail`` or ``error``.
        progress_level: 0 to 5.
        main_checks_passed: Main checks passed.
        main_checks_total: Main checks declared.
        edge_check_passed: Whether the edge check passed.
        notes: The judge's notes (an error verdict's: its problems, clipped).
        raw: The object the judge printed when it was structurally valid (kept even when
            refused).
        exit_code: The judge's exit status (``None`` when it was killed or did not start).
        seconds: Wall time of the judge process.
        problems: Why the judging broke the contract (empty when the verdict is sound).
    """

    status: str
    progress_level: int
    main_checks_passed: int
    main_checks_total: int
    edge_check_passed: bool
    notes: tuple[str, ...]
    raw: dict[str, Any] | None
    exit_code: int | None
    seconds: float
    problems: tuple[str, ...] = ()

    @property
    def strict_pass(self) -> bool:
        """Level 5 with status pass: the only strict pass."""
        return self.status == "pass" and self.progress_level == 5

    @property
    def stage(self) -> int | None:
        """The stage the verdict judged (``judge.py --stage``; ``None``: the final verdict)."""
        return None if self.raw is None else self.raw.get("stage")

    @property
    def claimed_level(self) -> int | None:
        """The level the judge printed, even when refused (``None``: no valid object)."""
        return None if self.raw is None else int(self.raw["progress_level"])

    @property
    def claimed_notes(self) -> tuple[str, ...]:
        """The notes the judge printed, even when refused (empty: no valid object)."""
        return () if self.raw is None else tuple(printable(n) for n in self.raw["notes"])

    def refused(self, *problems: str) -> Verdict:
        """This judging as an error verdict, with ``problems`` added to its own."""
        return refused_verdict(
            *self.problems, *problems, raw=self.raw, exit_code=self.exit_code, seconds=self.seconds
        )

    def to_dict(self) -> dict[str, Any]:
        """The verdict as a judge prints it (an error verdict: its problems as notes)."""
        if self.raw is not None and not self.problems:
            return dict(self.raw)
        return {
            "status": self.status,
            "progress_level": self.progress_level,
            "main_checks_passed": self.main_checks_passed,
            "main_checks_total": self.main_checks_total,
            "edge_check_passed": self.edge_check_passed,
            "notes": list(self.notes),
            "checks": [],
        }


def refused_verdict(
    *problems: str,
    raw: dict[str, Any] | None = None,
    exit_code: int | None = None,
    seconds: float = 0.0,
) -> Verdict:
    """The verdict recorded when the judge could not judge, or broke the contract."""
    notes = tuple(clip_text(printable(p), VERDICT_ERROR_NOTE_LIMIT) for p in problems)
    return Verdict("error", 0, 0, 0, False, notes, raw, exit_code, seconds, problems)


class _NotJson(ValueError):
    """A constant Python's json module accepts but JSON does not (NaN, Infinity)."""


def _refuse_constant(name: str) -> Any:
    raise _NotJson(name)


def parse_verdict(stdout: bytes | str) -> tuple[dict[str, Any] | None, str]:
    """The one JSON object ``stdout`` holds, or ``None`` and why it holds no such thing.

    Standard output must be UTF-8 holding exactly one JSON object and nothing else (a debug
    line before it, a second object, ``NaN`` are all refused)."""
    if isinstance(stdout, bytes):
        try:
            stdout = stdout.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, f"the judge's stdout is not UTF-8 (byte {exc.start})"
    text = stdout.strip()
    if not text:
        return None, "the judge printed nothing on stdout"
    try:
        values, rest = _decode_all(text)
    except _NotJson as exc:
        return None, f"the judge printed {exc}, which is not JSON"
    if rest:
        return None, f"the judge's stdout holds text that is not JSON: {clip_text(rest, 80)!r}"
    if len(values) != 1:
        return None, f"the judge printed {len(values)} JSON values; exactly one object is required"
    if not isinstance(values[0], dict):
        return None, f"the judge printed a JSON {type(values[0]).__name__}, not an object"
    return values[0], ""


def _decode_all(text: str) -> tuple[list[Any], str]:
    """Decode consecutive JSON values; return them and the undecodable remainder."""
    decoder = json.JSONDecoder(parse_constant=_refuse_constant)
    values: list[Any] = []
    position = 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        try:
            value, position = decoder.raw_decode(text, position)
        except _NotJson:
            raise
        except (ValueError, RecursionError):
            return values, text[position:]
        values.append(value)
    return values, ""


def verdict_problems(verdict: Any) -> list[str]:
    """Every way a printed ``verdict`` breaks the judge contract (empty when it is sound):
    its structure, a reported error, the progress-level invariants, the per-check details."""
    problems = structure_problems(verdict)
    if problems:
        return problems
    if verdict["status"] == "error":
        notes = verdict["notes"]
        return [f"the judge reported an error: {notes[0] if notes else 'no note'}"]
    return level_problems(verdict) + detail_problems(verdict)


def _is_int(value: Any, low: int, high: int | None = None) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and low <= value
        and (high is None or value <= high)
    )


_FIELD_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "status": (lambda v: v in ("pass", "fail", "error"), "is not one of 'pass', 'fail', 'error'"),
    "progress_level": (lambda v: _is_int(v, 0, 5), "is not an integer from 0 to 5"),
    "main_checks_passed": (lambda v: _is_int(v, 0), "is not a non-negative integer"),
    "main_checks_total": (lambda v: _is_int(v, 0), "is not a non-negative integer"),
    "edge_check_passed": (lambda v: isinstance(v, bool), "is not a boolean"),
    "notes": (
        lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v),
        "is not a list of strings",
    ),
    "stage": (lambda v: _is_int(v, 1), "is not an integer of at least 1"),
}
_CHECK_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "name": (lambda v: isinstance(v, str), "is not a string"),
    "level": (lambda v: _is_int(v, 3, 5), "is not an integer from 3 to 5"),
    "fixture": (lambda v: v in ("main", "edge"), "is not 'main' or 'edge'"),
    "passed": (lambda v: isinstance(v, bool), "is not a boolean"),
    "note": (lambda v: isinstance(v, str), "is not a string"),
}


def structure_problems(verdict: Any) -> list[str]:
    """Where ``verdict`` breaks the structure of ``schemas/judge-result.schema.json``."""
    if not isinstance(verdict, dict):
        return ["schema: the verdict: is not a JSON object"]
    problems = _object_problems(
        verdict, "the verdict", _VERDICT_REQUIRED, _VERDICT_OPTIONAL, _FIELD_RULES
    )
    checks = verdict.get("checks", [])
    if not isinstance(checks, list):
        return [*problems, "schema: checks: is not a list"]
    for index, check in enumerate(checks):
        where = f"checks/{index}"
        if not isinstance(check, dict):
            problems.append(f"schema: {where}: is not a JSON object")
            continue
        problems += _object_problems(check, where, _CHECK_REQUIRED, (), _CHECK_RULES)
    return problems


def _object_problems(
    value: dict[str, Any],
    where: str,
    required: Sequence[str],
    optional: Sequence[str],
    rules: Mapping[str, tuple[Callable[[Any], bool], str]],
) -> list[str]:
    """Missing and unexpected properties of one object, then its fields that break a rule
    (``where`` names the object: ``the verdict``, ``checks/0``)."""
    prefix = "" if where == "the verdict" else f"{where}/"
    known = (*required, *optional)
    problems = [f"schema: {where}: {key!r} is required" for key in required if key not in value]
    problems += [
        f"schema: {where}: unexpected property {clip_text(repr(key), 60)}"
        for key in sorted(value)
        if key not in known
    ]
    problems += [
        f"schema: {prefix}{key}: {message}"
        for key, (ok, message) in rules.items()
        if key in value and not ok(value[key])
    ]
    return problems


def level_problems(verdict: Mapping[str, Any]) -> list[str]:
    """Where a structurally valid verdict breaks the progress-level invariants."""
    level, status = verdict["progress_level"], verdict["status"]
    passed, total = verdict["main_checks_passed"], verdict["main_checks_total"]
    edge = verdict["edge_check_passed"]
    counts = f"level {level}, {passed}/{total} main checks, edge {'passed' if edge else 'failed'}"
    all_main = total >= 1 and passed == total
    rules = [
        (total >= 1, "main_checks_total is 0: a judge needs at least one main check"),
        (passed <= total, f"main_checks_passed {passed} exceeds main_checks_total {total}"),
        ((status == "pass") == (level == 5), f"status {status!r} at level {level}"),
        ((level == 5) == (all_main and edge), f"level 5 iff all main and edge pass ({counts})"),
        (
            (level == 4) == (all_main and not edge),
            f"level 4 iff all main checks pass and the edge fails ({counts})",
        ),
        (level < 3 or passed >= 1, f"level {level} with no passed main check (nothing verified)"),
        (level >= 2 or passed == 0, f"{passed} main check(s) passed below level 2"),
    ]
    return [f"contract: {message}" for ok, message in rules if not ok]


def detail_problems(verdict: Mapping[str, Any]) -> list[str]:
    """Where the optional per-check details disagree with the verdict's counts."""
    checks = verdict.get("checks") or []
    main = [c for c in checks if c["fixture"] == "main"]
    edge = [c for c in checks if c["fixture"] == "edge"]
    problems = []
    if main and len(main) != verdict["main_checks_total"]:
        total = verdict["main_checks_total"]
        problems.append(f"{len(main)} main checks ran, main_checks_total says {total}")
    if main and sum(c["passed"] for c in main) != verdict["main_checks_passed"]:
        problems.append("the passed main checks disagree with main_checks_passed")
    if verdict["edge_check_passed"] and checks and not edge:
        problems.append("edge_check_passed although no edge check ran")
    if edge and all(c["passed"] for c in edge) != verdict["edge_check_passed"]:
        problems.append("the edge checks disagree with edge_check_passed")
    return [f"contract: {p}" for p in problems]


def unsealed_judging(notes: Sequence[str]) -> str:
    """Why a verdict cannot stand when sealing was required: its judge says it ran the
    candidates unsealed (a note ``unsealed: <cause>``, e.g. its sandbox probe failed); empty
    when it does not. Sealing is verified, never assumed."""
    said = next((n for n in notes if n.startswith("unsealed:")), "")
    if not said:
        return ""
    return f"the judge ran the candidates unsealed although sealing was required ({said})"


@dataclass(frozen=True, slots=True)
class Captured:
    """What one judge process left behind.

    Attributes:
        stdout: Standard output (at most :data:`VERDICT_STDOUT_LIMIT` bytes).
        stderr: The last :data:`VERDICT_STDERR_KEEP` bytes of standard error.
        returncode: Exit status; ``None`` when the judge was killed before it exited.
        timed_out: Whether it was killed at its timeout.
        overflow: Whether it printed more than the stdout limit and was killed.
    """

    stdout: bytes
    stderr: bytes
    returncode: int | None
    timed_out: bool = False
    overflow: bool = False


def hold_verdict(
    captured: Captured,
    *,
    timeout: float,
    seconds: float,
    stage: int | None = None,
    sealed: bool = True,
) -> Verdict:
    """Hold what a judge process left to the contract.

    Args:
        captured: The judge's output and how it ended.
        timeout: The timeout it ran under (for the message when it was killed).
        seconds: Its wall time.
        stage: The stage it was asked to judge (``None``: the final verdict); the verdict
            must say the same.
        sealed: Whether sealing was required: a verdict whose judge says it ran the
            candidates unsealed is then refused.
    """
    code = captured.returncode
    if captured.overflow:
        limit = f"{VERDICT_STDOUT_LIMIT >> 20} MiB"
        return refused_verdict(
            f"the judge printed more than {limit} on stdout and was killed", seconds=seconds
        )
    if captured.timed_out or code is None:
        return refused_verdict(
            f"the judge printed no verdict within {timeout:.0f} s and was killed", seconds=seconds
        )
    printed, problem = parse_verdict(captured.stdout)
    if printed is None:
        tail = _stderr_tail(captured.stderr)
        return refused_verdict(
            f"{problem} (exit status {code}){tail}", exit_code=code, seconds=seconds
        )
    problems = verdict_problems(printed)
    raw = None if any(p.startswith("schema:") for p in problems) else printed
    if code != 0 and not problems:
        problems.append(f"the judge exited with status {code} after a sound verdict")
    if raw is not None and raw.get("stage") != stage:
        asked = "the final verdict" if stage is None else f"stage {stage}"
        said = raw.get("stage")
        judged = "the final state" if said is None else f"stage {said}"
        problems.append(f"contract: the judge was asked for {asked} but judged {judged}")
    if not problems and sealed:
        problem = unsealed_judging(printed["notes"])
        problems += [problem] if problem else []
    if problems:
        return refused_verdict(*problems, raw=raw, exit_code=code, seconds=seconds)
    return Verdict(
        status=printed["status"],
        progress_level=printed["progress_level"],
        main_checks_passed=printed["main_checks_passed"],
        main_checks_total=printed["main_checks_total"],
        edge_check_passed=printed["edge_check_passed"],
        notes=tuple(printable(n) for n in printed["notes"]),
        raw=printed,
        exit_code=code,
        seconds=seconds,
    )


def _stderr_tail(stderr: bytes) -> str:
    text = stderr.decode("utf-8", errors="replace")
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return f"; stderr: {clip_text(lines[-1], VERDICT_STDERR_TAIL)}" if lines else ""


def judge_argv(
    command: Sequence[str], workspace: Path | str, python: str, options: Sequence[str] = ()
) -> list[str]:
    """A judge's command line: scenario.json's ``judge_command`` with ``{workspace}``
    replaced and a leading ``python`` made ``python``, then ``--python EXE`` and ``options``
    (``--fixture-cache DIR``, ``--stage N``, ...)."""
    argv = [a.replace(WORKSPACE_PLACEHOLDER, str(workspace)) for a in command]
    return [*resolve_argv(argv, python), "--python", python, *options]


def judge_accepts_stage(
    command: Sequence[str],
    task_dir: Path,
    python: str,
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = 60.0,
) -> bool:
    """Whether the judge lists ``--stage`` in its ``--help`` (it judges stage snapshots)."""
    argv = resolve_argv([a.replace(WORKSPACE_PLACEHOLDER, ".") for a in command], python)
    try:
        done = subprocess.run(
            [*argv, "--help"], cwd=task_dir, stdin=subprocess.DEVNULL, capture_output=True,
            text=True, timeout=timeout, env=dict(clean_env() if env is None else env),
            check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and STAGE_OPTION in done.stdout


def judge_once(
    argv: Sequence[str],
    *,
    cwd: Path,
    timeout: float,
    env: Mapping[str, str] | None = None,
    umask: int = -1,
    stage: int | None = None,
    sealed: bool = True,
    output: Path | None = None,
) -> Verdict:
    """Run one judge command (see :func:`judge_argv`) and hold its verdict to the contract.

    Args:
        argv: The judge's command line.
        cwd: Its working directory (the task folder).
        timeout: Seconds after which its process group is killed.
        env: Its environment (default: :func:`clean_env`); the run's sweep token is added.
        umask: The umask applied in its process (-1: inherited).
        stage: The stage it was asked for (``--stage N`` in ``argv``; ``None``: final).
        sealed: Whether sealing was required (see :func:`hold_verdict`).
        output: When given, the judge's stdout is written there and the tail of its
            stderr next to it (``.stderr``).

    Returns:
        The verdict, an ``error`` verdict (never an exception) when the judge could not
        start, was killed, or broke the contract.
    """
    started = time.monotonic()
    try:
        captured = capture_judge(
            list(argv), cwd=cwd, timeout=timeout, env=clean_env() if env is None else env,
            umask=umask,
        )  # fmt: skip
    except OSError as exc:
        return refused_verdict(
            f"the judge could not start: {exc}", seconds=time.monotonic() - started
        )
    seconds = time.monotonic() - started
    if output is not None:
        output.write_bytes(captured.stdout)
        output.with_suffix(".stderr").write_bytes(captured.stderr)
    return hold_verdict(captured, timeout=timeout, seconds=seconds, stage=stage, sealed=sealed)


def capture_judge(
    argv: list[str], *, cwd: Path, timeout: float, env: Mapping[str, str], umask: int = -1
) -> Captured:
    """Run a judge in its own session and collect its output; nothing of it outlives the call.

    The whole process group is killed when the judge ends (or at the timeout, or once it
    printed more than :data:`VERDICT_STDOUT_LIMIT` bytes), then every process carrying this
    run's environment token is swept (children that left the group). The pipes are closed
    and the judge reaped before returning: a batch judges hundreds of workspaces in one
    process.

    Raises:
        OSError: When the judge cannot be started.
    """
    token = run_token()
    variables = {**env, RUN_TOKEN_VARIABLE: token}
    deadline = time.monotonic() + timeout
    with subprocess.Popen(
        argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=variables, umask=umask, start_new_session=True,
    ) as process:  # fmt: skip
        try:
            stdout, stderr, overflow = _read_judge_pipes(process, deadline)
            exited = not overflow and _await_exit(process, deadline)
        finally:
            kill_group(process)  # the judge is not reaped yet: its group id is ours
            process.wait()
            sweep(token)
    code = process.returncode if exited else None
    return Captured(stdout, stderr, code, timed_out=not exited and not overflow, overflow=overflow)


def _read_judge_pipes(
    process: subprocess.Popen[bytes], deadline: float
) -> tuple[bytes, bytes, bool]:
    """Read stdout (capped) and stderr (its tail) until both close, the deadline, or overflow.

    A descendant that inherited the pipes may hold them open after the judge exited; reading
    then stops :data:`JUDGE_EXIT_GRACE` seconds after the exit. Returns stdout, the stderr
    tail and whether stdout exceeded :data:`VERDICT_STDOUT_LIMIT`.
    """
    assert process.stdout is not None and process.stderr is not None
    out, err = bytearray(), bytearray()
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, out)
        selector.register(process.stderr, selectors.EVENT_READ, err)
        while selector.get_map():
            now = time.monotonic()
            if now >= deadline:
                break
            ready = selector.select(min(deadline - now, _JUDGE_POLL))
            if not ready and _exited_unreaped(process):
                deadline = min(deadline, now + JUDGE_EXIT_GRACE)
            for key, _ in ready:
                chunk = os.read(key.fd, _JUDGE_CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                buffer: bytearray = key.data
                buffer += chunk
                if buffer is err:
                    del err[:-VERDICT_STDERR_KEEP]
                elif len(out) > VERDICT_STDOUT_LIMIT:
                    return bytes(out[:VERDICT_STDOUT_LIMIT]), bytes(err), True
    return bytes(out), bytes(err), False


def _await_exit(process: subprocess.Popen[bytes], deadline: float) -> bool:
    """Wait (without reaping) until the judge exits; False when the deadline comes first."""
    while not _exited_unreaped(process):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def _exited_unreaped(process: subprocess.Popen[bytes]) -> bool:
    """Whether the judge exited, leaving it unreaped so its group id cannot be reused yet."""
    if sys.platform != "linux":  # no waitid(WNOWAIT) everywhere: reap (Popen keeps the code)
        return process.poll() is not None
    try:
        found = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return found is not None
