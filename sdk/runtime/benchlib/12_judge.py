class Judge:
    """A task's judge: generated data plus the authored checks registered on it.

    Args:
        task: The data build embeds in judge.py: id, stages, editable, commands, outputs,
            expect (main anchor expectations), edge_expect, edge_include_visible, services.
        task_dir: The task folder (defaults to the folder of the judge's ``__main__``).
    """

    def __init__(self, task: Mapping[str, Any], task_dir: Path | None = None) -> None:
        self.task = task
        main = sys.modules.get("__main__")
        default = Path(getattr(main, "__file__", ".")).resolve().parent
        self.task_dir = task_dir or default
        self.main_checks: list[Check] = [
            self._declared(e, e["level"]) for e in task.get("expect", [])
        ]
        self.edge_checks: list[Check] = [self._declared(e, 5) for e in task.get("edge_expect", [])]

    @property
    def stage_count(self) -> int:
        """How many stages the task has."""
        return len(self.task.get("stages") or [""])

    def stage_number(self, stage: int | str | None) -> int:
        """The 1-based number of ``stage``: a number, a stage id or its digits (``None``: 1).

        Raises:
            ValueError: When ``stage`` names no stage of the task.
        """
        stages = list(self.task.get("stages") or [""])
        if stage is None:
            return 1
        if isinstance(stage, str) and stage in stages:
            return stages.index(stage) + 1
        if isinstance(stage, str) and stage.isdigit():
            stage = int(stage)
        if isinstance(stage, int) and not isinstance(stage, bool) and 1 <= stage <= len(stages):
            return stage
        raise ValueError(f"unknown stage {stage!r}: use 1 to {len(stages)} or one of {stages}")

    def _declared(self, spec: Mapping[str, Any], level: int) -> Check:
        until = spec.get("until")
        return Check(
            spec["name"], level, _bind_expectation(spec), self.stage_number(spec.get("stage")),
            None if until is None else self.stage_number(until),
        )  # fmt: skip

    def check(
        self,
        level: int = 4,
        name: str | None = None,
        *,
        stage: int | str | None = None,
        until: int | str | None = None,
    ) -> Callable[[Callable[[Run], None]], Callable[[Run], None]]:
        """Register a main-fixture check gating ``level`` (3: core, 4: every stated rule).

        ``stage`` (a stage id or 1-based number; default: the first stage) is the stage that
        introduces the check, ``until`` the last one it applies to (default: every later one).
        """
        if level not in (3, 4):
            raise ValueError("main checks gate level 3 or 4")
        first = self.stage_number(stage)
        last = None if until is None else self.stage_number(until)
        if last is not None and last < first:
            raise ValueError(f"until {until!r} comes before stage {stage!r}")

        def register(function: Callable[[Run], None]) -> Callable[[Run], None]:
            check = Check(name or function.__name__, level, function, first, last)
            self.main_checks.append(check)
            return function

        return register

    @overload
    def edge(self, function: Callable[[Run], None]) -> Callable[[Run], None]: ...

    @overload
    def edge(
        self, *, stage: int | str | None = None, until: int | str | None = None
    ) -> Callable[[Callable[[Run], None]], Callable[[Run], None]]: ...

    def edge(
        self,
        function: Callable[[Run], None] | None = None,
        *,
        stage: int | str | None = None,
        until: int | str | None = None,
    ) -> Any:
        """Register a check of the edge fixture (all must pass for level 5).

        Used bare (``@judge.edge``) it applies at every stage; ``@judge.edge(stage=...,
        until=...)`` takes the keywords of :meth:`check`, for an edge fixture that holds a
        later stage's inputs (a solution stopped before that stage ignores them).
        """
        first = self.stage_number(stage)
        last = None if until is None else self.stage_number(until)
        if last is not None and last < first:
            raise ValueError(f"until {until!r} comes before stage {stage!r}")

        def register(check: Callable[[Run], None]) -> Callable[[Run], None]:
            self.edge_checks.append(Check(check.__name__, 5, check, first, last))
            return check

        return register if function is None else register(function)

    def main(self, argv: Sequence[str] | None = None) -> int:
        """Command line of judge.py: print exactly one JSON verdict; 0 when one was produced."""
        parser = argparse.ArgumentParser(description="Judge a candidate workspace.")
        parser.add_argument("--workspace", required=True, type=Path)
        parser.add_argument("--python", default=sys.executable, help="interpreter for commands")
        parser.add_argument("--fixture-cache", type=Path, help="reuse materialized fixtures")
        parser.add_argument(
            "--time-scale", type=_positive, default=1.0, help="multiply every command timeout"
        )
        parser.add_argument(
            "--unsealed", action="store_true",
            help="run the commands without the bubblewrap sandbox (unsafe; noted in the verdict)",
        )  # fmt: skip
        parser.add_argument(
            "--stage",
            help="judge the state after this stage (1-based number or stage id) with the "
            "checks that apply by then; default: the final, scored verdict",
        )
        parser.add_argument(
            "--no-ladder", action="store_true",
            help="the final verdict without the stage ladder (for validation tools that only "
            "tell 5 from below 5, which the ladder never changes)",
        )  # fmt: skip
        parser.add_argument(
            "--keep-runs", type=Path, metavar="DIR",
            help="keep what the commands left: each fixture's run folder moves to DIR/FIXTURE, "
            "its command results and service requests to DIR/FIXTURE.json",
        )  # fmt: skip
        parser.add_argument(
            "--replay-runs", type=Path, metavar="DIR",
            help="judge the runs an earlier --keep-runs judging of the same stage left in DIR "
            "instead of running the commands (validation tools; the verdict notes it)",
        )  # fmt: skip
        args = parser.parse_args(argv)
        if args.keep_runs is not None and args.replay_runs is not None:
            parser.error("--keep-runs and --replay-runs cannot be combined")
        stage: int | None = None
        if args.stage is not None:
            try:
                stage = self.stage_number(args.stage)
            except ValueError as exc:
                parser.error(f"--stage: {exc}")
        stdout = sys.stdout
        bound_memory(JUDGE_MEMORY_BYTES)
        try:
            sealed, why = (
                (False, "--unsealed was given")
                if args.unsealed
                else sandbox_status(args.fixture_cache)
            )
            # Anything an authored check prints goes to stderr: stdout carries one object.
            with contextlib.redirect_stdout(sys.stderr):
                verdict = self.evaluate(
                    args.workspace,
                    python=args.python,
                    cache=args.fixture_cache,
                    time_scale=args.time_scale,
                    sealed=sealed,
                    stage=stage,
                    keep=args.keep_runs,
                    replay=args.replay_runs,
                    ladder=not args.no_ladder,
                )
            if not sealed:
                verdict["notes"] = [_clip(f"unsealed: {why}"), *verdict["notes"]][:50]
            code = 0
        except (Exception, SystemExit) as exc:  # a verdict is printed whatever went wrong
            verdict = error_verdict(f"judge error: {type(exc).__name__}: {exc}")
            code = 1
        stdout.write(json.dumps(verdict, sort_keys=True) + "\n")
        stdout.flush()
        return code

    def evaluate(
        self,
        workspace: Path,
        *,
        python: str,
        cache: Path | None = None,
        time_scale: float = 1.0,
        sealed: bool = False,
        stage: int | None = None,
        keep: Path | None = None,
        replay: Path | None = None,
        ladder: bool = True,
    ) -> dict[str, Any]:
        """Judge ``workspace`` (read only) and return the verdict mapping.

        With ``stage`` (1-based), the workspace is judged as the state after that stage: the
        main fixture as of that stage, the commands, outputs and checks that apply by then,
        and the verdict says ``"stage": N``. Without it, the final (scored) verdict.

        ``time_scale`` multiplies every command timeout (validation tools shorten the wait
        for a candidate that never ends; the runner and the corpus use 1). With ``sealed``,
        the commands (and fixture services) of each fixture run in one sandbox
        (:func:`run_pod`) that sees nothing but the system, the interpreter and that
        fixture; this runtime is copied into the judge's private folder before any of them.
        With ``keep``, the runs are kept there afterwards (:meth:`_Trial.keep_runs`). With
        ``replay``, the runs an earlier ``keep`` of the same stage left there are judged
        instead of running the commands again (the mutation audit judges the reference once
        per round of perturbed expectations; what the reference wrote does not change).
        The final verdict of a staged task below 3 is laddered (:func:`ladder_verdict`)
        unless ``ladder`` is false or the runs are replayed.
        """
        if not workspace.is_dir():
            raise RuntimeError(f"workspace {workspace} is not a folder")
        number = self.stage_count if stage is None else self.stage_number(stage)
        self.validate(number)
        with temporary_folder("benchlib-judge-") as tmp:
            kit = PodKit.prepare(Path(tmp) / "lib", python, cache) if sealed else None
            trial = self.trial(workspace, Path(tmp), python=python, cache=cache, kit=kit)
            trial.time_scale, trial.stage, trial.replay = time_scale, number, replay
            verdict = trial.verdict()
            if stage is not None:
                verdict["stage"] = number
            elif (
                ladder
                and replay is None
                and self.stage_count > 1
                and verdict["progress_level"] < 3
                and not _stage1_command_failed(trial)
            ):
                first = self.trial(
                    workspace, Path(tmp) / "stage1", python=python, cache=cache, kit=kit
                )
                first.time_scale, first.stage = time_scale, 1
                verdict = ladder_verdict(verdict, trial, first)
            if keep is not None:
                trial.keep_runs(keep)
            return verdict

    def trial(
        self,
        workspace: Path,
        tmp: Path,
        *,
        python: str,
        cache: Path | None = None,
        kit: PodKit | None = None,
    ) -> _Trial:
        """A judging of ``workspace`` with scratch folder ``tmp`` (see :func:`produce`); its
        commands run sealed in pods when given a ``kit``."""
        layout = Layout.from_task(self.task_dir, self.task)
        return _Trial(self, layout, tmp, workspace.resolve(), python, cache, kit)

    def validate(self, stage: int | None = None) -> None:
        """Raise :class:`JudgeDefect` when the declared checks cannot decide every level (at
        the 1-based ``stage``; default: the final one)."""
        number = self.stage_count if stage is None else stage
        if not any(c.level == 3 and c.applies(number) for c in self.main_checks):
            at = "" if number == self.stage_count else f" at stage {number}"
            raise JudgeDefect(f"the judge declares no level-3 check{at}, so level 3 is undecidable")

    def main_checks_at(self, stage: int) -> list[Check]:
        """The main checks that apply at the 1-based ``stage``, in declaration order."""
        return [c for c in self.main_checks if c.applies(stage)]

    def edge_checks_at(self, stage: int) -> list[Check]:
        """The edge checks that apply at the 1-based ``stage``, in declaration order."""
        return [c for c in self.edge_checks if c.applies(stage)]


class JudgeDefect(Exception):
    """Raised when a judge's own declarations make a sound verdict impossible."""


def _positive(text: str) -> float:
    """argparse type of ``--time-scale``: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be above 0: {text!r}")
    return value


def produce(
    judge: Judge,
    workspace: Path,
    fixture: str,
    *,
    tmp: Path,
    python: str = sys.executable,
    cache: Path | None = None,
    time_scale: float = 1.0,
    env: Mapping[str, str] | None = None,
) -> Run:
    """Run a workspace's commands on a clean ``fixture`` exactly as judging does; no checks.

    Validation tools use it to see what a candidate writes (mutation analysis compares a
    mutant's outputs with the reference's). The fixture copy lives under ``tmp``.

    Args:
        judge: The task's judge (its embedded task data says the commands and outputs).
        workspace: The candidate workspace (only its editable paths are used).
        fixture: ``"main"`` or ``"edge"``.
        tmp: Scratch folder (created); the run's root is inside it.
        python: Interpreter for the commands.
        cache: Fixture cache, as ``--fixture-cache``.
        time_scale: Multiplies every command timeout.
        env: Variables added to the commands' environment (:func:`clean_env`).

    Returns:
        The run: its root holds the outputs, ``results`` each command's outcome.
    """
    tmp.mkdir(parents=True, exist_ok=True)
    trial = judge.trial(workspace, tmp, python=python, cache=cache)
    trial.time_scale, trial.env = time_scale, env
    run = trial.prepare(fixture)
    trial.execute(run)
    return run


def _result_record(result: CommandResult) -> dict[str, Any]:
    """A command result as JSON (``stdout_path`` dropped: it is deleted with the run)."""
    return {f.name: getattr(result, f.name) for f in fields(result) if f.name != "stdout_path"}


def _request_record(request: Request) -> dict[str, Any]:
    record = {f.name: getattr(request, f.name) for f in fields(request)}
    record["headers"] = [list(pair) for pair in request.headers]
    return record


def load_kept_run(folder: Path, fixture: str) -> Run | None:
    """The run ``judge.py --keep-runs folder`` kept for ``fixture`` (None if it never ran):
    its folder, command results, service requests, lines and standard error (``source``
    reads the same folder; a sealed run's read-only input folders are not kept, see
    :meth:`_Trial.keep_runs`)."""
    record = _kept_record(folder, fixture)
    return None if record is None else _kept_run(folder / fixture, fixture, record)


def _kept_record(folder: Path, fixture: str) -> dict[str, Any] | None:
    """``FIXTURE.json`` of a kept run (see :meth:`_Trial.keep_runs`), or None."""
    try:
        record: dict[str, Any] = json.loads(
            (folder / f"{fixture}.json").read_text(encoding="utf-8")
        )
    except FileNotFoundError:
        return None
    return record


def _kept_run(
    root: Path, fixture: str, record: Mapping[str, Any], source: Files | None = None,
    **extra: Any,
) -> Run:  # fmt: skip
    """The run in ``root`` with what its kept ``record`` says (``source``: its folder)."""
    results = [CommandResult(**r) for r in record["results"]]
    requests = {
        name: [Request(**{**q, "headers": tuple(tuple(h) for h in q["headers"])}) for q in log]
        for name, log in record["service_requests"].items()
    }
    files = Files(root)
    return Run(
        fixture, root, files, source or files, results=results, service_requests=requests,
        service_logs=record.get("service_logs", {}),
        service_stderr=record.get("service_stderr", {}), **extra,
    )  # fmt: skip


def _pod_service(spec: Mapping[str, Any], python: str) -> PodService:
    """A declared service as a pod starts it (``--port 0`` appended)."""
    argv = shlex.split(spec["run"])
    resolved = (*resolve_argv(argv, python), "--port", "0")
    return PodService(
        spec["name"], resolved, spec["url_file"], argv[:1] != [] and argv[0] in PYTHON_NAMES,
        display=f"{spec['run']} --port 0", origins=dict(spec.get("origins", {})),
    )  # fmt: skip


JUDGE_MEMORY_BYTES = 8 << 30
"""The judge's own address space (the soft RLIMIT_AS judge.py sets for itself): what it reads
of a candidate's files is held under it, so a hostile output ends in a failed check (a
``MemoryError``), never in a judge that grows until the machine swaps."""


def bound_memory(limit: int) -> None:
    """Lower this process's soft address-space limit to ``limit`` (never raise it; the hard
    limit stays, so sandboxes started later set their own)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft > limit:
        top = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (top, hard))


def start_declared_service(
    service: Mapping[str, Any],
    root: Path,
    python: str,
    env: Mapping[str, str] | None = None,
    seal: Seal | None = None,
) -> contextlib.AbstractContextManager[ServiceHandle]:
    """Start a service as task.toml declares it (judge data ``TASK["services"]``) in ``root``
    (sealed by ``seal``, see :func:`start_service`)."""
    argv = shlex.split(service["run"])
    return start_service(
        resolve_argv(argv, python), cwd=root, env=env, name=service["name"],
        display=f"{service['run']} --port 0", origins=list(service.get("origins", {})),
        python=argv[:1] != [] and argv[0] in PYTHON_NAMES, seal=seal,
    )  # fmt: skip


def write_url_files(root: Path, service: Mapping[str, Any], handle: ServiceHandle) -> list[Path]:
    """Write the URL files of a declared service's origins under ``root``; the files."""
    files = {service["name"]: service["url_file"], **service.get("origins", {})}
    written = []
    for origin, rel in files.items():
        if rel and origin in handle.origins:
            target = root / rel
            ensure_parent(target)
            target.write_text(handle.origin_url(origin) + "\n", encoding="utf-8")
            written.append(target)
    return written


def _pod_command(spec: Mapping[str, Any], python: str, time_scale: float) -> PodCommand:
    """A declared command as a pod runs it (its timeout times ``time_scale``)."""
    argv = tuple(resolve_argv(spec["argv"], python))
    timeout = float(spec["timeout"]) * time_scale
    return PodCommand(
        argv, spec.get("cwd", "."), spec.get("stdin"), timeout, memory_of(spec),
        step_kind(spec), step_plan(spec),
    )  # fmt: skip


def memory_of(spec: Mapping[str, Any]) -> int | None:
    """The address-space cap in bytes of a declared command (``memory_mb``), or None."""
    megabytes = spec.get("memory_mb")
    return int(megabytes) << 20 if megabytes else None


def _not_run(command: Mapping[str, Any], why: str) -> CommandResult:
    return CommandResult(list(command["argv"]), None, False, "", "", None, f"not run: {why}")


class _Expectation:
    """A declared expectation as a check's function (:func:`check_expectation`)."""

    __slots__ = ("spec",)

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.spec = spec

    def __call__(self, run: Run) -> None:
        check_expectation(run, self.spec)


def _bind_expectation(spec: Mapping[str, Any]) -> Callable[[Run], None]:
    return _Expectation(spec)


def error_verdict(note: str) -> dict[str, Any]:
    """The verdict printed when the judge itself could not judge."""
    return {
        "status": "error",
        "progress_level": 0,
        "main_checks_passed": 0,
        "main_checks_total": 0,
        "edge_check_passed": False,
        "notes": [_clip(note)],
        "checks": [],
    }
