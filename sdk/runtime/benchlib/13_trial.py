class _Trial:
    """One judging of one workspace: fixtures, gates, checks, level."""

    def __init__(
        self, judge: Judge, layout: Layout, tmp: Path, workspace: Path, python: str,
        cache: Path | None, kit: PodKit | None = None,
    ) -> None:  # fmt: skip
        self.judge, self.layout, self.tmp = judge, layout, tmp
        self.workspace, self.python, self.cache, self.kit = workspace, python, cache, kit
        self.time_scale = 1.0
        self.stage = len(layout.stages)
        self.env: Mapping[str, str] | None = None
        self.notes: list[str] = []
        self.outcomes: list[Outcome] = []
        self.runs: dict[str, Run] = {}  # the judged runs by fixture (not import probes)
        self.replay: Path | None = None  # judge the runs kept there (see Judge.evaluate)

    def _applies(self, item: Mapping[str, Any]) -> bool:
        """Whether a declared command or output applies at the judged stage."""
        return declared_at(item, self.layout.stages, self.stage)

    @property
    def commands(self) -> list[Mapping[str, Any]]:
        """The declared commands of the judged stage, in order."""
        return [c for c in self.judge.task["commands"] if self._applies(c)]

    @property
    def outputs(self) -> list[Mapping[str, Any]]:
        """The declared outputs of the judged stage."""
        return [o for o in self.judge.task["outputs"] if self._applies(o)]

    def pristine(self, fixture: str) -> Path:
        """A pristine materialized fixture, from the cache when one was given.

        The main fixture is the one of the judged stage (cached as ``main`` when that is the
        final stage, else as ``main-stageN``); the edge fixture has no stages.
        """
        stage = self.stage if fixture == "main" else None
        final = stage is None or stage == len(self.layout.stages)
        name = fixture if final else f"main-stage{stage}"
        if self.cache is None:
            return materialize(
                self.layout, self.tmp / f"pristine-{name}", fixture=fixture, stage=stage,
                python=self.python,
            )  # fmt: skip
        ready = self.cache / name
        if not ready.is_dir():
            self.cache.mkdir(parents=True, exist_ok=True)
            building = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=self.cache))
            try:
                materialize(self.layout, building, fixture=fixture, stage=stage, python=self.python)
                building.rename(ready)
            except OSError:
                if not ready.is_dir():  # not a lost race with a concurrent judge
                    raise
            finally:
                remove_path(building)
        return ready

    def prepare(self, fixture: str, name: str = "", *, bind_inputs: bool = False) -> Run:
        """Copy a pristine fixture into ``run-NAME`` (the fixture's name by default) and
        overlay the candidate's editable paths.

        Sealed, the input folders (:func:`input_folders`) are not copied: their files are
        hard-linked from the pristine fixture, and the pod binds those folders read-only (spec
        10.5), so no candidate can write, chmod, rename or delete them. Unsealed, everything
        is copied (a candidate could otherwise reach the shared pristine files). With
        ``bind_inputs`` (sealed only) the input folders are left empty instead: the pod must
        then bind them from the pristine fixture (``run_pod(inputs=run.source.root)``), and
        the run's own readers do not see them.
        """
        pristine = self.pristine(fixture)
        if self.replay is not None and not name:
            return self.replayed(fixture, pristine, self.replay)
        root = self.tmp / f"run-{name or fixture}"
        readonly: tuple[str, ...] = ()
        if self.kit is not None:
            readonly = tuple(input_folders(self.layout, pristine, self.written_paths()))
        link_fixture(pristine, root, readonly, readonly if bind_inputs else ())
        skipped: list[str] = []
        outputs = [o["path"] for o in self.outputs]
        overlay(self.workspace, root, candidate_paths(self.layout.editable, outputs), skipped)
        reset_outputs(root, pristine, outputs)
        if fixture == "main" and not name:
            self.notes.extend(_clip(f"workspace: left out {s}") for s in skipped[:5])
        run = Run(fixture, root, Files(root), Files(pristine), readonly=readonly)
        run.steps = step_names(self.commands)
        if self.cache is not None and self.kit is not None:  # sealed: no candidate reaches it
            run.derived_cache = self.cache / DERIVED_FOLDER / pristine.name
        if not name:
            self.runs[fixture] = run
        return run

    def replayed(self, fixture: str, pristine: Path, folder: Path) -> Run:
        """The run of ``fixture`` that ``judge.py --keep-runs folder`` kept, to judge again.

        Raises:
            RuntimeError: When ``folder`` holds no run of ``fixture`` at the judged stage.
        """
        record = _kept_record(folder, fixture)
        if record is None or record.get("stage") != self.stage:
            raise RuntimeError(f"{folder} holds no kept {fixture} run of stage {self.stage}")
        inputs = tuple(str(rel) for rel in record.get("fixture_inputs", []))
        root = self.tmp / f"replay-{fixture}"  # the kept run, its left-out inputs linked back
        shutil.copytree(folder / fixture, root, symlinks=True)
        for rel in inputs:
            link_fixture(pristine / rel, root / rel, ["."])
        run = _kept_run(root, fixture, record, Files(pristine), readonly=inputs, replayed=True)
        run.steps = step_names(self.commands)
        if self.cache is not None and self.kit is not None:
            run.derived_cache = self.cache / DERIVED_FOLDER / pristine.name
        self.runs[fixture] = run
        self.notes.append(_clip(f"{fixture}: replayed the runs kept in {folder}"))
        return run

    def written_paths(self) -> list[str]:
        """Every path the commands or services may write besides the editable ones: the
        declared outputs (of every stage) and each service's URL files."""
        written = [o["path"] for o in self.judge.task["outputs"]]
        written += [c.get("url_file") or "" for c in self.judge.task["commands"]]
        for service in self.judge.task.get("services", []):
            written += [service["url_file"], *service.get("origins", {}).values()]
        return [w for w in written if w]

    def keep_runs(self, folder: Path) -> None:
        """Move each judged run's folder to ``folder/FIXTURE`` and write ``FIXTURE.json``
        (its command results, service requests, lines and standard error;
        :func:`load_kept_run` reads them back). A fixture that never ran (the main gates
        failed before the edge) is absent.

        A sealed run's read-only input folders (:attr:`Run.readonly`) are left out: their
        files are hard links to the shared pristine fixture, which an edit of a kept file
        would change for every later judging; they are unchanged by construction, and
        ``FIXTURE.json`` lists them (``fixture_inputs``).
        """
        folder.mkdir(parents=True, exist_ok=True)
        for fixture, run in sorted(self.runs.items()):
            for rel in run.readonly:
                remove_path(run.root / rel)
            shutil.move(run.root, folder / fixture)
            record = {
                "stage": self.stage,
                "fixture_inputs": list(run.readonly),
                "results": [_result_record(r) for r in run.results],
                "service_requests": {
                    name: [_request_record(q) for q in log]
                    for name, log in sorted(run.service_requests.items())
                },
                "service_logs": dict(sorted(run.service_logs.items())),
                "service_stderr": dict(sorted(run.service_stderr.items())),
            }
            (folder / f"{fixture}.json").write_text(json.dumps(record), encoding="utf-8")

    def execute(self, run: Run) -> None:
        """Run every declared command in order (services up around them); a note for each
        service that refused connections bypassing its origins (:func:`bypass_notes`)."""
        if run.replayed:
            return
        if self.kit is not None:
            self.execute_sealed(run, self.kit)
        else:
            self.execute_unsealed(run)
        self.notes.extend(bypass_notes(run))

    def execute_unsealed(self, run: Run) -> None:
        """:meth:`execute` without a sandbox: services and commands as the judge's children."""
        handles: list[ServiceHandle] = []
        with contextlib.ExitStack() as stack:
            for service in self.judge.task.get("services", []):
                handle = stack.enter_context(self.start(service, run.root))
                handles.append(handle)
                run.service_logs[service["name"]] = handle.log
                write_url_files(run.root, service, handle)
            steps = stack.enter_context(_LocalSteps(run.root, self.tmp / "scratch", self.env))
            for command in self.commands:
                if run.results and run.results[-1].timed_out:  # the fixture is lost already
                    run.results.append(_not_run(command, "an earlier command timed out"))
                elif step_kind(command) != "run":
                    argv = resolve_argv(command["argv"], self.python)
                    timeout = float(command["timeout"]) * self.time_scale
                    run.results.append(steps.run(command, argv, timeout))
                else:
                    run.results.append(self.run_one(command, run.root, steps.env))
        for handle in handles:
            run.service_requests[handle.name] = handle.requests()
            run.service_stderr[handle.name] = bytes(handle.stderr).decode("utf-8", "replace")
            if handle.error:
                raise RuntimeError(handle.error)

    def execute_sealed(self, run: Run, kit: PodKit) -> None:
        """Run the services and commands in one sandbox over the fixture (see :func:`run_pod`).

        Raises:
            RuntimeError: When a service did not start (as :func:`start_service` does).
        """
        python = kit.interpreter.executable
        services = [_pod_service(s, python) for s in self.judge.task.get("services", [])]
        scale = self.time_scale
        commands = [_pod_command(c, python, scale) for c in self.commands]
        outcome = run_pod(
            kit, run.root, commands=commands, services=services, scratch=self.tmp / "scratch",
            readonly=run.readonly,
        )  # fmt: skip
        if outcome.error:
            raise RuntimeError(outcome.error)
        run.results.extend(outcome.results)
        run.service_logs.update(outcome.logs)
        run.service_requests.update(outcome.requests)
        run.service_stderr.update(outcome.stderr)

    def start(
        self, service: Mapping[str, Any], root: Path
    ) -> contextlib.AbstractContextManager[ServiceHandle]:
        """Start a declared fixture service in ``root``."""
        return start_declared_service(service, root, self.python)

    def run_one(
        self, command: Mapping[str, Any], root: Path, servers: Mapping[str, str] | None = None
    ) -> CommandResult:
        """Run one declared command in the fixture ``root`` (``servers``: the variables that
        name the running candidate servers' URLs)."""
        stdin = root / command["stdin"] if command.get("stdin") else None
        extra = {**(self.env or {}), **(servers or {})}
        return run_command(
            resolve_argv(command["argv"], self.python),
            cwd=root / command.get("cwd", "."),
            timeout=float(command["timeout"]) * self.time_scale,
            scratch=self.tmp / "scratch",
            stdin=stdin,
            env=clean_env(extra) if self.env is not None or extra else None,
            memory_bytes=memory_of(command),
        )

    def gate_scripts(self, run: Run) -> bool:
        """Level 1, before anything runs: every command's module or script exists and
        compiles."""
        ok = True
        for command in self.commands:
            if step_kind(command) in ("http", "stop"):  # PID 1 runs them, no program
                continue
            problem = entry_point_problem(command["argv"], run.root / command.get("cwd", "."))
            if problem:
                self.notes.append(_clip(f"level 1: {command['run']}: {problem}"))
                ok = False
        return ok

    def gate_imports(self, run: Run) -> bool:
        """Level 1, once the commands ran: the module of every ``python -m`` command that
        failed imports (spec section 6).

        A command that exited 0 imported its module, so only failed ones are probed; the
        probe (:meth:`import_problems`) runs in a fresh copy of the fixture with the
        candidate's files, so neither the commands' writes nor the probe's own reach
        ``run``; sealed, its pod binds the input folders from the pristine fixture (read-only,
        as for ``run``) instead of linking them again.
        """
        failed = [c for c, r in zip(self.commands, run.results, strict=True) if not r.ok]
        if not failed:
            return True
        probe = self.prepare("main", "import-probe", bind_inputs=True)
        try:
            found = self.import_problems(failed, probe.root, probe.readonly, probe.source.root)
        finally:
            remove_path(probe.root)
        problems = list(zip(failed, found, strict=True))
        for command, problem in problems:
            if problem:
                self.notes.append(_clip(f"level 1: {command['run']}: {problem}"))
        return not any(problem for _, problem in problems)

    def import_problem(
        self,
        command: Mapping[str, Any],
        root: Path,
        readonly: Sequence[str] = (),
        inputs: Path | None = None,
    ) -> str:
        """Why a ``python -m`` command's module does not import in the fixture ``root`` (""
        when it does, or for other commands), by a time-limited probe, sealed when the
        judging is (``readonly``: the fixture's input folders, as :attr:`Run.readonly`,
        bound from ``inputs`` as :func:`run_pod` does)."""
        return self.import_problems([command], root, readonly, inputs)[0]

    def import_problems(
        self,
        commands: Sequence[Mapping[str, Any]],
        root: Path,
        readonly: Sequence[str] = (),
        inputs: Path | None = None,
    ) -> list[str]:
        """:meth:`import_problem` of each of ``commands``, in order, probing each distinct
        probe (command line, folder and time limit) once: identical probes of one fixture
        answer alike. Sealed, the probes share one pod; one that the pod did not run (after
        a probe that timed out) is run in a fresh pod."""
        probes = [self._import_probe(c) for c in commands]
        distinct = list(dict.fromkeys(p for p in probes if p is not None))
        if self.kit is not None:
            results = self._sealed_probes(self.kit, distinct, root, readonly, inputs)
        else:
            env = None if self.env is None else clean_env(self.env)
            results = [
                run_command(list(p.argv), cwd=root / p.cwd, timeout=p.timeout,
                            scratch=self.tmp / "scratch", env=env)
                for p in distinct
            ]  # fmt: skip
        found = {p: _import_problem_of(r) for p, r in zip(distinct, results, strict=True)}
        return ["" if p is None else found[p] for p in probes]

    def _import_probe(self, command: Mapping[str, Any]) -> PodCommand | None:
        """The import probe of a ``python -m`` command (``None`` for other commands).

        Sealed, it names the interpreter the pod runs the commands with: ``--python`` may be
        a pyenv shim, which does not exist inside the sandbox, so a probe naming it failed
        to start and passed every module."""
        python = self.python if self.kit is None else self.kit.interpreter.executable
        argv = import_probe_argv(command["argv"], python)
        if argv is None:
            return None
        timeout = min(float(command["timeout"]), IMPORT_PROBE_SECONDS) * self.time_scale
        return PodCommand(tuple(argv), command.get("cwd", "."), None, timeout)

    def _sealed_probes(
        self,
        kit: PodKit,
        probes: Sequence[PodCommand],
        root: Path,
        readonly: Sequence[str],
        inputs: Path | None,
    ) -> list[CommandResult]:
        """Run ``probes`` in as few pods as their timeouts allow (a pod runs nothing after a
        command that timed out); their results, in order."""
        results: list[CommandResult] = []
        while len(results) < len(probes):
            pending = probes[len(results) :]
            outcome = run_pod(
                kit, root, commands=pending, scratch=self.tmp / "scratch", readonly=readonly,
                inputs=inputs,
            )  # fmt: skip
            if outcome.error:
                raise RuntimeError(outcome.error)
            # the first probe of a pod counts whatever happened (as when each had its own pod)
            ran = min((n for n in outcome.not_run if n > 0), default=len(pending))
            results.extend(outcome.results[:ran])
        return results

    def gate_outputs(self, run: Run) -> bool:
        """Level 2: every command completed and every output exists and parses."""
        ok = True
        for command, result in zip(self.commands, run.results, strict=True):
            if not result.ok:
                self.notes.append(_clip(f"level 2: {command['run']}: {result.describe()}"))
                ok = False
        for output in self.outputs:
            problem = self.output_problem(run, output)
            if problem:
                self.notes.append(_clip(f"level 2: {problem}"))
                ok = False
        return ok

    def output_problem(self, run: Run, output: Mapping[str, Any]) -> str:
        """Why a declared output is missing or unparsable (empty string when fine)."""
        if output["format"] == "stdout":
            return ""
        try:
            if output["format"] == "csv":  # one parse, the header read from it
                header = run.files.csv_rows(output["path"])[0]
            else:
                _PARSERS[output["format"]](run.files, output["path"])
                header = run.files.header(output["path"]) if output.get("header") else []
            if output.get("header"):
                expect_equal(header, list(output["header"]), f"{output['path']} header")
        except CheckFailed as exc:
            return str(exc)
        return ""

    def run_checks(self, checks: list[Check], run: Run) -> list[Outcome]:
        """Run checks in declaration order and remember their outcomes."""
        run.pending = [
            c.function.spec
            for c in checks
            if isinstance(c.function, _Expectation) and _is_csv_selection(c.function.spec)
        ]
        try:
            outcomes = [run_check(c, run) for c in checks]
        finally:
            run.pending, run.selections = [], {}
        self.outcomes.extend(outcomes)
        for outcome in outcomes:
            if not outcome.passed:
                self.notes.append(_clip(f"{run.fixture}: {outcome.name}: {outcome.note}"))
        return outcomes

    def verdict(self) -> dict[str, Any]:
        """Judge the main fixture, then the edge, and compute the level."""
        main_checks = self.judge.main_checks_at(self.stage)
        main = self.prepare("main")
        started = self.gate_scripts(main)
        completed = False
        outcomes: list[Outcome] = []
        if started:
            self.execute(main)
            started = self.gate_imports(main)
            completed = started and self.gate_outputs(main)
        if completed:
            outcomes = self.run_checks(main_checks, main)
        edge_passed = completed and self.edge_passes()
        return make_verdict(
            started=started,
            completed=completed,
            main=[(o.level, o.passed) for o in outcomes],
            main_total=len(main_checks),
            edge_passed=edge_passed,
            notes=self.notes,
            checks=[o.to_dict() for o in self.outcomes],
        )

    def edge_passes(self) -> bool:
        """Run the candidate on the edge fixture and evaluate the edge checks."""
        checks = self.judge.edge_checks_at(self.stage)
        if not checks:
            at = "" if self.stage == self.judge.stage_count else f" at stage {self.stage}"
            self.notes.append(f"edge: no edge check applies{at}")
            return False
        edge = self.prepare("edge")
        self.execute(edge)
        failed = _edge_failures(self.commands, edge.results, _declares_exit(checks))
        if failed:
            command, result = failed[0]
            self.notes.append(_clip(f"edge: {command['run']}: {result.describe()}"))
            return False
        return all(o.passed for o in self.run_checks(checks, edge))


def bypass_notes(run: Run) -> list[str]:
    """Why requests failed when a service sent its clients straight to its own port.

    A Python service listens on a private port behind its origins, which relay and record
    every request; a connection sent to the private port itself is refused. That happens
    when a service renders absolute links from the port it listens on: each link its client
    follows is refused, with nothing else to say why. The note says so, so that an author
    whose reference fails that way (and a candidate's notes) learn the cause.
    """
    notes = []
    advice = (
        "a service renders links from the Host header of each request (or from "
        "BENCHSMITH_ORIGIN), never from its own port"
    )
    for name, requests in sorted(run.service_requests.items()):
        linked = sum(r.private_link for r in requests)
        if linked:
            notes.append(
                _clip(
                    f"{run.fixture}: service {name!r}: {linked} response(s) link to the port "
                    f"it listens on, which refuses every connection not relayed by its "
                    f"origins: {advice}"
                )
            )
        bypassed = sum(r.refused == BYPASS_REFUSAL for r in requests)
        if bypassed:
            notes.append(
                _clip(
                    f"{run.fixture}: service {name!r}: {bypassed} connection(s) went straight "
                    f"to the port it listens on, bypassing its origins, and were refused: "
                    f"{advice}"
                )
            )
    return notes


def _declares_exit(checks: Sequence[Check]) -> bool:
    """Whether an edge expectation states the last command's exit status (``exit_code``)."""
    return any(
        isinstance(c.function, _Expectation) and "exit_code" in c.function.spec for c in checks
    )


def _edge_failures(
    commands: Sequence[Mapping[str, Any]], results: Sequence[CommandResult], declared: bool
) -> list[tuple[Mapping[str, Any], CommandResult]]:
    """The edge run's commands that did not complete, as on main: each must exit 0.

    A command that timed out or could not start always fails. When an edge expectation
    declares the exit status (``exit_code``), the last command's status is that
    expectation's to judge instead.
    """
    failed = []
    for index, (command, result) in enumerate(zip(commands, results, strict=True)):
        exempt = declared and index == len(results) - 1 and not (result.timed_out or result.error)
        if not result.ok and not exempt:
            failed.append((command, result))
    return failed


def make_verdict(
    *,
    started: bool,
    completed: bool,
    main: Sequence[tuple[int, bool]],
    main_total: int,
    edge_passed: bool,
    notes: Sequence[str],
    checks: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """Compute the progress level monotonically and build the verdict.

    Level 1 needs the commands to start, 2 the workflow to complete with parseable outputs,
    3 every level-3 check (at least one), 4 every main check, 5 the edge as well. Checks run
    only once the workflow completed, so ``main`` is empty below level 2 and otherwise holds
    one ``(level, passed)`` pair per declared main check.

    Raises:
        ValueError: When the inputs break those rules (the verdict would break the
            contract: a level reached with no executed check, or counts that disagree).
    """
    _require_consistent(started, completed, main, main_total)
    passed = sum(ok for _, ok in main)
    core = [ok for level, ok in main if level == 3]
    level = 0
    for reached, gate in (
        (1, started),
        (2, completed),
        (3, bool(core) and all(core)),
        (4, passed == main_total),
        (5, edge_passed),
    ):
        if not gate:
            break
        level = reached
    return {
        "status": "pass" if level == 5 else "fail",
        "progress_level": level,
        "main_checks_passed": passed,
        "main_checks_total": main_total,
        "edge_check_passed": bool(edge_passed),
        "notes": list(notes)[:50],
        "checks": list(checks),
    }


LADDER_NOTE = (
    "stage ladder: the workspace scores 5 at stage 1 but below 3 finally, so level 3 "
    "(a later stage's requirements are missing; checks noted 'after stage 1' passed there)"
)
NOT_REACHED = "not reached: the final workflow did not complete"


def ladder_verdict(final: dict[str, Any], trial: _Trial, first: _Trial) -> dict[str, Any]:
    """The final verdict of a staged task whose own level is below 3: level 3 when the
    candidate completes stage 1 exactly (spec section 6: the core transformation is right,
    a follow-up requirement is missing), else ``final`` unchanged.

    ``trial`` is the final judging; ``first`` judges the same workspace at stage 1 (as
    ``judge.py --stage 1`` does), which must reach 5. Each main check of the final stage
    then reports its final outcome; when the final workflow did not complete (so no check
    ran finally), a check that applies at stage 1 reports its pass there (noted 'after
    stage 1') and the others fail as not reached. When no main check passes that way, or
    every one does, the final verdict stands, with a note. The edge is the final judging's.
    """
    first.tmp.mkdir()
    try:
        early = first.verdict()
    except JudgeDefect:  # no level-3 check at stage 1
        return final
    if early["progress_level"] < 5:
        return final
    finally_ = {o.name: o for o in trial.outcomes if o.fixture == "main"}
    checks = [
        _laddered(check, finally_.get(check.name))
        for check in trial.judge.main_checks_at(trial.stage)
    ]
    passed = sum(c["passed"] for c in checks)
    if not 0 < passed < len(checks):
        why = "no main check passes finally" if not passed else "every main check passes"
        level = final["progress_level"]
        note = _clip(f"stage ladder: stage 1 is complete, but {why}; level {level} stands")
        return {**final, "notes": [note, *final["notes"]][:50]}
    return {
        "status": "fail",
        "progress_level": 3,
        "main_checks_passed": passed,
        "main_checks_total": len(checks),
        "edge_check_passed": final["edge_check_passed"],
        "notes": [LADDER_NOTE, *final["notes"]][:50],
        "checks": checks + [o.to_dict() for o in trial.outcomes if o.fixture == "edge"],
    }


def _stage1_command_failed(trial: _Trial) -> bool:
    """Whether a command of stage 1 ran in the final judging and did not complete (an exit
    status other than 0, a timeout, not started): a solution that keeps stage 1 keeps its
    commands working on the final data (every later stage message asks to retain it), so
    the stage ladder (:func:`ladder_verdict`) does not judge it again at stage 1, where a
    hanging or crashing candidate would cost its timeouts a second time. When the final
    commands did not run at all (a later stage's module is missing), nothing is known and
    the ladder judges stage 1."""
    run = trial.runs.get("main")
    results = run.results if run is not None else []
    return any(
        declared_at(command, trial.layout.stages, 1) and not result.ok
        for command, result in zip(trial.commands, results, strict=False)
    )


def _laddered(check: Check, outcome: Outcome | None) -> dict[str, Any]:
    """One main check of a laddered verdict (see :func:`ladder_verdict`): its final
    ``outcome``, or (``None``: the final workflow did not complete) its pass at stage 1."""
    if outcome is not None:
        return outcome.to_dict()
    note = "after stage 1" if check.applies(1) else NOT_REACHED
    return Outcome(check.name, check.level, "main", check.applies(1), note).to_dict()


def _require_consistent(
    started: bool, completed: bool, main: Sequence[tuple[int, bool]], main_total: int
) -> None:
    """Reject inputs from which no contract-abiding verdict can be built."""
    if main_total < 1:
        raise ValueError("a judge needs at least one main check")
    if completed and not started:
        raise ValueError("the workflow cannot complete without starting")
    if main and not completed:
        raise ValueError("main checks ran although the workflow did not complete")
    if completed and len(main) != main_total:
        raise ValueError(f"{len(main)} main outcomes for {main_total} declared checks")
    if main and not any(level == 3 for level, _ in main):
        raise ValueError("no level-3 check among the main checks")
