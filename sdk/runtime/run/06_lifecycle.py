# ---------------------------------------------------------------------------------------------
# lifecycle
# ---------------------------------------------------------------------------------------------

EndReason = Literal[
    "completed", "timeout", "adapter_crash", "setup_error", "runner_error", "interrupted"
]
JUDGED_REASONS: Final = ("completed", "timeout", "adapter_crash")


class VerdictLike(Protocol):
    """What the lifecycle reads of a verdict (``benchsmith.judging.Verdict``, :class:`Verdict`)."""

    @property
    def status(self) -> str: ...
    @property
    def progress_level(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def raw(self) -> dict[str, Any] | None: ...


class Judging(Protocol):
    """A front end's judge call: (workspace, file receiving the judge's stdout, stage) ->
    verdict. ``stage`` (1-based) asks for ``judge.py --stage N``; ``None`` the final verdict."""

    def __call__(self, workspace: Path, output: Path, stage: int | None = None) -> VerdictLike: ...


StageJudging = Literal["on", "single_stage", "unsupported"]
"""Whether a run judges each stage: ``on``; ``single_stage`` (nothing before the final
verdict to judge); ``unsupported`` (the task's judge does not accept ``--stage``)."""


@dataclass(frozen=True)
class Entry:
    """One line of a run's timeline: an adapter event or a runner lifecycle event.

    Attributes:
        seq: 1-based position in the run.
        t: Seconds since the run started.
        stage: The stage it belongs to (0 before the first stage).
        action: ``message``, ``compact`` or ``runner``.
        action_no: 1-based number of the adapter action (0 for runner events).
        source: ``adapter`` or ``runner``.
        event: The event object (``type`` plus fields).
    """

    seq: int
    t: float
    stage: int
    action: str
    action_no: int
    source: str
    event: dict[str, Any]


@dataclass(frozen=True)
class DiagnosticEntry:
    """A malformed event line or a recorded misbehaviour of the adapter or the run."""

    stage: int
    action: str
    action_no: int
    line: int
    code: str
    message: str
    text: str = ""


@dataclass(frozen=True)
class StageRecord:
    """What happened at one stage.

    Attributes:
        number: 1-based stage number.
        stage_id: Stage id.
        compact_after: Whether a compaction was scheduled after it.
        inject_seconds: Time spent injecting its files (0 for stage 1).
        result: Its ``message`` action, or ``None`` when the run ended before it.
    """

    number: int
    stage_id: str
    compact_after: bool
    inject_seconds: float
    result: ActionResult | None


@dataclass(frozen=True)
class CompactionRecord:
    """One compaction: requested by the runner, or reported by the agent on its own.

    Attributes:
        number: 1-based number within the run.
        after_stage: The stage answered before it.
        trigger: ``requested`` or ``natural``.
        status: ``completed`` or ``failed``.
        started: Seconds since the run started (requested compactions).
        seconds: Duration of the compact action (requested compactions).
        detail: Why it failed, or what the adapter said.
        tokens_before: Context tokens before it, when the adapter reported them.
        tokens_after: Context tokens after it, when the adapter reported them.
    """

    number: int
    after_stage: int
    trigger: str
    status: str
    started: float | None
    seconds: float | None
    detail: str
    tokens_before: int | None = None
    tokens_after: int | None = None


@dataclass(frozen=True)
class StageVerdict:
    """The verdict on the state after one stage (``judge.py --stage N``), judged on a
    snapshot of the workspace taken when the stage was answered, after the agent stopped.

    Attributes:
        stage: 1-based stage number.
        stage_id: Stage id.
        verdict: The judge's verdict (``None`` until judged, or when the snapshot failed).
        snapshot_seconds: Time taken to copy the snapshot (inside the lifecycle).
        problem: Why there is no verdict (the snapshot could not be taken).
    """

    stage: int
    stage_id: str
    verdict: Any
    snapshot_seconds: float
    problem: str = ""


@dataclass
class Times:
    """Wall times of a run, in seconds.

    Attributes:
        setup: Workspace materialization and service start.
        agent: Sum of the adapter actions (message and compact): the measured agent time.
        inject: Stage injections between actions.
        lifecycle: From the start of the run to the agent's stop and teardown.
        judge: The judge, run after the agent stopped (never part of agent time).
        stage_judge: The per-stage judgings, run after the final judge (never part of agent
            or lifecycle time; the snapshots they judge are taken inside the lifecycle).
        record: Archiving and writing the run's artifacts.
    """

    setup: float = 0.0
    agent: float = 0.0
    inject: float = 0.0
    lifecycle: float = 0.0
    judge: float = 0.0
    stage_judge: float = 0.0
    record: float = 0.0


@dataclass
class RunState:
    """Everything one run recorded, filled in by :class:`Lifecycle` as the run goes."""

    started_at: str
    end_reason: EndReason = "completed"
    end_detail: str = ""
    times: Times = field(default_factory=Times)
    stages: list[StageRecord] = field(default_factory=list)
    compactions: list[CompactionRecord] = field(default_factory=list)
    timeline: list[Entry] = field(default_factory=list)
    diagnostics: list[DiagnosticEntry] = field(default_factory=list)
    verdict: Any = None
    stage_verdicts: list[StageVerdict] = field(default_factory=list)
    artifacts: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RunConfig:
    """One run to execute, as the lifecycle needs it.

    Attributes:
        scenario: The task.
        adapter: The agent adapter.
        python: Interpreter for seed.py and services.
        timeout_seconds: The agent's time budget over all its actions.
        run_dir: Folder receiving the run's artifacts (``actions/`` and the front end's).
        judge: The front end's judge call.
        workspaces: Where the workspace and stage files come from.
        record: The front end's recording step, called with the lifecycle once the run is
            over (the workspace still exists then; archive it there).
        seal: How adapter actions are sealed (``None``: unsealed, ``--unsealed``).
        stage_judging: Whether to judge the state after each stage but the last (``on``: the
            judge accepts ``--stage``; see :func:`stage_judging`).
    """

    scenario: Scenario
    adapter: Adapter
    python: str
    timeout_seconds: float
    run_dir: Path
    judge: Judging
    workspaces: WorkspaceSource
    record: Callable[[Lifecycle], None] = lambda lifecycle: None
    seal: AgentSeal | None = None
    stage_judging: StageJudging = "unsupported"


class SetupFailed(Exception):
    """Raised inside a run when the workspace or a service cannot be prepared."""


def utc_now() -> str:
    """The current UTC time, ISO 8601 to the second (run metadata, never fixture data)."""
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class Lifecycle:
    """One run (spec section 5) of one task through one adapter.

    1. materialize a fresh workspace in a private temporary folder (seed.py, the ``inject``
       folder of stage 1, TASK.md; inputs read-only, editable paths writable; nothing
       private), start the task's loopback services and write their URL files;
    2. send each stage's message through the adapter and wait for the turn to finish (an
       early ``done`` is recorded and ignored while stages remain); after a stage with
       ``compact_after`` request one compaction; inject the next stage's files;
    3. enforce the agent time budget over the sum of the adapter actions (runner overhead
       such as injections never eats into it); a timeout or crash ends the run;
    4. stop the agent (each action's process group is killed when the action ends), tear
       the services down, then judge outside the measured agent time: the final workspace
       (the scored verdict), then, when ``stage_judging`` is on, the snapshot of the editable
       paths taken as each earlier stage was answered, with ``judge.py --stage N``;
    5. record: the action files into ``run_dir/actions``, then the front end's ``record``.

    It never raises for anything an adapter, a judge or a task does: failures are recorded
    as the run's ``end_reason`` and diagnostics. Only an interrupt propagates.
    """

    def __init__(self, config: RunConfig, state: RunState, session: Path) -> None:
        self.config, self.scenario, self.state = config, config.scenario, state
        self.origin = time.monotonic()
        self.workspace = session / "workspace"
        self.io, self.agent_state = session / "io", session / "state"
        self.transcripts = session / TRANSCRIPTS
        self.snapshots = session / "snapshots"
        self.services: list[benchlib.ServiceHandle] = []
        self.action_no = 0

    @classmethod
    def execute(cls, config: RunConfig, state: RunState | None = None) -> RunState:
        """Execute one run in a private temporary folder (removed afterwards)."""
        state = state or RunState(started_at=utc_now())
        with benchlib.temporary_folder("benchsmith-") as tmp:
            cls(config, state, tmp).run()
        return state

    # -- timeline ---------------------------------------------------------------------------

    def now(self) -> float:
        """Seconds since the run started."""
        return time.monotonic() - self.origin

    def note(self, kind: str, stage: int, **fields: Any) -> None:
        """Append a runner lifecycle event to the timeline."""
        event = {"type": kind, **fields}
        seq = len(self.state.timeline) + 1
        self.state.timeline.append(Entry(seq, self.now(), stage, "runner", 0, "runner", event))

    def end(self, reason: EndReason, detail: str) -> None:
        """Record why the run ended early (the first reason wins)."""
        if self.state.end_reason == "completed":
            self.state.end_reason, self.state.end_detail = reason, detail

    # -- the run ----------------------------------------------------------------------------

    def run(self) -> None:
        """Run every step, recording instead of raising."""
        self.config.run_dir.mkdir(parents=True, exist_ok=True)
        try:
            with contextlib.ExitStack() as services:
                if self.setup(services):
                    self.converse()
                    self.stop_agent()
            if self.scenario.services:
                served = {h.name: len(h.requests()) for h in self.services}
                self.note("services_stopped", len(self.scenario.stages), requests=served)
            self.state.times.lifecycle = self.now()
            if self.state.end_reason in JUDGED_REASONS:
                self.judge()
                self.judge_stages()
        except Exception as exc:  # a bug in the runner: record it, keep the batch going
            self.end("runner_error", describe(exc))
            self.state.times.lifecycle = self.state.times.lifecycle or self.now()
        self.record()

    def setup(self, services: contextlib.ExitStack) -> bool:
        """Materialize the workspace and start the services; False (recorded) on failure."""
        for folder in (self.io, self.agent_state, self.transcripts):
            folder.mkdir()
        try:
            self.config.workspaces.make(self.workspace)
            self.guard_private()
            self.start_services(services)
        except Exception as exc:  # seed.py, copies and services fail in many ways; record any
            self.end("setup_error", f"setup failed: {describe(exc)}")
            return False
        finally:
            self.state.times.setup = self.now()
        self.note("workspace_ready", 1, seconds=round(self.state.times.setup, 6))
        return True

    def guard_private(self) -> None:
        """Refuse a workspace holding a private file of the task at its root."""
        leaked = [n for n in benchlib.PRIVATE_NAMES if (self.workspace / n).exists()]
        if leaked:
            raise SetupFailed(f"private files in the workspace: {', '.join(leaked)}")

    def start_services(self, services: contextlib.ExitStack) -> None:
        """Start each fixture service and write its URL file (read-only) into the workspace;
        sealed (:func:`service_seal`) when the agent is."""
        sealed = self.config.seal is not None
        for service in self.scenario.services:
            handle = services.enter_context(
                serve(service.declared(), self.workspace, self.config.python, sealed=sealed)
            )
            self.services.append(handle)
            self.note("service_started", 1, name=service.name, url=handle.url)
        if self.scenario.services:
            benchlib.protect_inputs(self.scenario.layout, self.workspace)

    def converse(self) -> None:
        """Drive the stages in order until the last one is answered or the run ends."""
        stages = self.scenario.stages
        for number, stage in enumerate(stages, 1):
            inject_seconds = 0.0
            if number > 1:
                if stages[number - 2].compact_after and not self.compact(number - 1):
                    break
                try:
                    inject_seconds = self.inject(number)
                except SetupFailed as exc:
                    self.end("setup_error", str(exc))
                    break
            self.note("user_message", number, stage_id=stage.id, text=stage.message)
            result = self.act("message", number, stage.message)
            self.state.stages.append(
                StageRecord(number, stage.id, stage.compact_after, inject_seconds, result)
            )
            if not self.finished(result):
                break
            if number < len(stages) and self.config.stage_judging == "on":
                self.snapshot(number)
        reached = len(self.state.stages)
        for number, stage in enumerate(stages[reached:], reached + 1):
            self.state.stages.append(StageRecord(number, stage.id, stage.compact_after, 0, None))

    def finished(self, result: ActionResult) -> bool:
        """Whether the turn finished; otherwise end the run with the reason."""
        if result.outcome == "timeout":
            self.end("timeout", f"timed out during {result.action} at stage {result.stage}")
        elif result.outcome == "crash":
            self.end("adapter_crash", f"stage {result.stage} {result.action}: {result.detail}")
        return result.outcome == "idle"

    def inject(self, number: int) -> float:
        """Add stage ``number``'s files to the workspace; return the seconds it took."""
        started = time.monotonic()
        try:
            self.config.workspaces.inject(self.workspace, number)
        except Exception as exc:  # the same open set of failures as setup
            raise SetupFailed(f"stage {number} injection failed: {describe(exc)}") from exc
        seconds = time.monotonic() - started
        self.state.times.inject += seconds
        self.note("stage_injected", number, seconds=round(seconds, 6))
        return seconds

    def compact(self, after: int) -> bool:
        """Request one compaction after stage ``after``; False when the run must end."""
        self.note("compaction_requested", after)
        result = self.act("compact", after, None)
        reported = [r.event for r in result.events if r.event["type"] == "compaction"]
        status, detail = _compaction_status(result, reported)
        number = len(self.state.compactions) + 1
        tokens = _compaction_tokens(reported[-1] if reported else {})
        self.state.compactions.append(
            CompactionRecord(
                number, after, "requested", status, result.started, result.seconds, detail,
                *tokens,
            )
        )  # fmt: skip
        self.note("compaction_" + status, after, detail=detail)
        return self.finished(result)

    def act(self, action: str, stage: int, message: str | None) -> ActionResult:
        """Run one adapter action and absorb its events into the timeline."""
        self.action_no += 1
        files = self.action_files(action, stage)
        if message is not None and files.message is not None:
            files.message.write_text(message, encoding="utf-8")
        budget = remaining(self.config.timeout_seconds, self.state.times.agent)
        env = self.action_env(action, stage, files, budget)
        result = run_action(
            self.config.adapter, env, files, origin=self.origin, seal=self.config.seal
        )
        self.state.times.agent += result.seconds
        self.absorb(result)
        return result

    def action_files(self, action: str, stage: int) -> ActionFiles:
        """The files of the next action, in the private io folder."""
        stem = self.io / f"{self.action_no:02d}-{action}-s{stage}"
        message = Path(f"{stem}.message.txt") if action == "message" else None
        return ActionFiles(
            message, Path(f"{stem}.jsonl"), Path(f"{stem}.stdout"), Path(f"{stem}.stderr")
        )

    def action_env(self, action: str, stage: int, files: ActionFiles, budget: float) -> ActionEnv:
        """What the adapter is told about the action."""
        reference = self.scenario.task_dir / "reference"
        return ActionEnv(
            action=action,
            stage=stage,
            stage_id=self.scenario.stages[stage - 1].id,
            stages=len(self.scenario.stages),
            workspace=self.workspace,
            events=files.events,
            state_dir=self.agent_state,
            editable=self.scenario.editable,
            timeout=budget,
            message_file=files.message,
            reference=reference if self.config.adapter.kind == "replay" else None,
            transcript_dir=self.transcripts,
        )

    def absorb(self, result: ActionResult) -> None:
        """Add an action's events and problems to the run."""
        timeline = self.state.timeline
        for received in result.events:
            timeline.append(
                Entry(
                    len(timeline) + 1, received.t, result.stage, result.action,
                    self.action_no, "adapter", received.event,
                )
            )  # fmt: skip
            if received.event["type"] == "compaction" and result.action == "message":
                self.natural_compaction(result.stage, received.event)
        self.state.diagnostics.extend(
            DiagnosticEntry(
                result.stage, result.action, self.action_no, p.line, p.code, p.message, p.text
            )
            for p in result.problems
        )

    def natural_compaction(self, stage: int, event: dict[str, Any]) -> None:
        """Record a compaction the agent performed on its own during a stage."""
        number = len(self.state.compactions) + 1
        detail = str(event.get("detail", ""))
        tokens = _compaction_tokens(event)
        self.state.compactions.append(
            CompactionRecord(number, stage, "natural", event["status"], None, None, detail, *tokens)
        )

    def stop_agent(self) -> None:
        """Mark the agent stopped: every action's process group was killed when it ended."""
        reached = [s.number for s in self.state.stages if s.result is not None]
        self.note("agent_stopped", reached[-1] if reached else 1)

    def snapshot(self, number: int) -> None:
        """Copy the editable paths (all a judge reads of a workspace) as stage ``number`` left
        them, to be judged with ``--stage N`` once the agent stopped."""
        started = time.monotonic()
        stage_id = self.scenario.stages[number - 1].id
        dest = self.snapshots / f"stage-{number}"
        try:
            dest.mkdir(parents=True)
            benchlib.overlay(self.workspace, dest, self.scenario.editable, [])
            problem = ""
        except Exception as exc:  # an unreadable file the agent left: recorded, run goes on
            problem = f"the stage {number} snapshot failed: {describe(exc)}"
        seconds = time.monotonic() - started
        self.state.stage_verdicts.append(StageVerdict(number, stage_id, None, seconds, problem))
        self.note("stage_snapshot", number, seconds=round(seconds, 6))

    def judge_stages(self) -> None:
        """Judge each stage snapshot with ``--stage N`` (after the final verdict)."""
        started = time.monotonic()
        for index, taken in enumerate(self.state.stage_verdicts):
            if taken.problem:
                continue
            output = self.config.run_dir / f"judge-stage{taken.stage}.stdout"
            verdict = self.config.judge(
                self.snapshots / f"stage-{taken.stage}", output, taken.stage
            )
            self.state.stage_verdicts[index] = replace(taken, verdict=verdict)
            self.note(
                "stage_judged", taken.stage, status=verdict.status, level=verdict.progress_level
            )
        self.state.times.stage_judge = time.monotonic() - started

    def judge(self) -> None:
        """Judge the final workspace (after the agent stopped and services went down)."""
        last = len(self.scenario.stages)
        self.note("judge_started", last)
        verdict = self.config.judge(self.workspace, self.config.run_dir / "judge.stdout")
        self.state.verdict = verdict
        self.state.times.judge = verdict.seconds
        self.note("judge_finished", last, status=verdict.status, level=verdict.progress_level)

    def record(self) -> None:
        """Keep the action files, then let the front end record the run."""
        started = time.monotonic()
        self.config.run_dir.mkdir(parents=True, exist_ok=True)
        if self.io.is_dir():
            _copy_regular_files(self.io, self.config.run_dir / "actions")
        if self.transcripts.is_dir():
            self.keep_transcripts(self.config.run_dir / "actions" / TRANSCRIPTS)
        self.config.record(self)
        self.state.times.record = time.monotonic() - started

    def keep_transcripts(self, dest: Path) -> None:
        """Copy the regular files the adapter saved in its transcript folder (subfolders
        too, symbolic links and FIFOs never) into ``dest``, :data:`MAX_TRANSCRIPT_BYTES` in
        all; a file cut or left out is a ``transcript-cap`` diagnostic."""
        left = MAX_TRANSCRIPT_BYTES
        for folder, dirs, names in benchlib.walk(self.transcripts):
            dirs[:] = sorted(d for d in dirs if not (Path(folder) / d).is_symlink())
            for name in sorted(names):
                path = Path(folder) / name
                rel = path.relative_to(self.transcripts)
                info = path.lstat()
                if not stat.S_ISREG(info.st_mode):
                    continue
                size = info.st_size
                if size > left:
                    kept = f"its first {left} bytes kept" if left else "left out"
                    self.state.diagnostics.append(DiagnosticEntry(
                        0, "runner", 0, 0, "transcript-cap",
                        f"transcript {rel.as_posix()} ({size} bytes) exceeds the "
                        f"{MAX_TRANSCRIPT_BYTES}-byte cap: {kept}",
                    ))  # fmt: skip
                if not left:
                    continue
                target = dest / rel
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    with open(path, "rb") as source, open(target, "wb") as copy:
                        left -= copy.write(source.read(left))
                except OSError as exc:  # an unreadable file the adapter left: recorded
                    self.state.diagnostics.append(DiagnosticEntry(
                        0, "runner", 0, 0, "transcript-cap",
                        f"transcript {rel.as_posix()} not kept: {describe(exc)}",
                    ))  # fmt: skip


def _copy_regular_files(src: Path, dest: Path) -> None:
    """Copy the regular files directly in ``src`` (an adapter could leave a FIFO there), each
    to at most :data:`MAX_STREAM_BYTES` (the cap the action kept them to)."""
    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted(src.iterdir()):
        if stat.S_ISREG(path.lstat().st_mode):
            with open(path, "rb") as source, open(dest / path.name, "wb") as target:
                target.write(source.read(MAX_STREAM_BYTES))


def _compaction_status(result: ActionResult, reported: list[dict[str, Any]]) -> tuple[str, str]:
    """Completed only when the adapter reported a completed compaction and went idle."""
    if result.outcome != "idle":
        return "failed", result.detail
    if not reported:
        return "failed", "the adapter reported no compaction event"
    last = reported[-1]
    return last["status"], str(last.get("detail", ""))


def _compaction_tokens(event: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """``tokens_before`` and ``tokens_after`` of a compaction event (validated integers), or
    ``None`` for each one the adapter did not report."""
    before, after = event.get("tokens_before"), event.get("tokens_after")
    return (
        before if _is_int(before) else None,
        after if _is_int(after) else None,
    )


def describe(exc: BaseException) -> str:
    """A failure for a record: the exception in one line, or the end of its traceback."""
    if isinstance(exc, SetupFailed | RuntimeError | OSError | ScenarioError):
        return f"{type(exc).__name__}: {exc}"[:2000]
    tail = "".join(traceback.format_exception(exc)[-3:])
    return tail[-2000:]


# ---------------------------------------------------------------------------------------------
# judging
# ---------------------------------------------------------------------------------------------

# One contract for every reader of a verdict: benchlib's (the judge's command line, process
# and verdict, shared with ``check``, ``audit``, ``benchsmith run`` and the Harbor verifier).
Verdict = benchlib.Verdict
STAGE_OPTION: Final = benchlib.STAGE_OPTION
unsealed_judging = benchlib.unsealed_judging


@dataclass(frozen=True)
class CommandJudge:
    """The lean runner's judge call: scenario.json's ``judge_command`` from the task folder.

    The command line is :func:`benchlib.judge_argv`'s with ``--fixture-cache DIR`` (and
    ``--unsealed``) appended; the judge runs and its verdict is held by
    :func:`benchlib.judge_once`, as every other reader of a verdict does.
    """

    scenario: Scenario
    python: str
    timeout: float
    cache: Path | None = None
    unsealed: bool = False
    extra: tuple[str, ...] = ()

    def argv(self, workspace: Path, stage: int | None = None) -> list[str]:
        """The judge's command line for ``workspace`` (``--stage N`` when ``stage`` is given)."""
        options = list(self.extra)
        if self.cache is not None:
            options += ["--fixture-cache", str(self.cache)]
        if self.unsealed:
            options.append("--unsealed")
        if stage is not None:
            options += [STAGE_OPTION, str(stage)]
        return benchlib.judge_argv(self.scenario.judge_command, workspace, self.python, options)

    def __call__(self, workspace: Path, output: Path, stage: int | None = None) -> Verdict:
        """Judge ``workspace`` (as of ``stage``, when given); write the judge's stdout to
        ``output`` and stderr beside it."""
        return benchlib.judge_once(
            self.argv(workspace, stage), cwd=self.scenario.task_dir, timeout=self.timeout,
            stage=stage, sealed=not self.unsealed, output=output,
        )  # fmt: skip


def stage_judging(scenario: Scenario, python: str, timeout: float = 60.0) -> StageJudging:
    """Whether runs of ``scenario`` judge each stage: a task of several stages whose judge
    lists ``--stage`` in its ``--help`` (as the Harbor verifier asks it) does."""
    if len(scenario.stages) < 2:
        return "single_stage"
    accepts = benchlib.judge_accepts_stage(
        scenario.judge_command, scenario.task_dir, python, timeout=timeout
    )
    return "on" if accepts else "unsupported"
