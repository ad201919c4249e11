# ---------------------------------------------------------------------------------------------
# lean runner
# ---------------------------------------------------------------------------------------------

LEAN_RECORD_SCHEMA: Final = "benchlib.run-record/v1"
LEAN_ARM: Final = "lean"


def usage_figures(events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The section 7 figures of one run from its adapter events.

    The rules are those of benchsmith's reports: ``calls`` counts 1 when absent; ``main``
    calls are main-model calls, other kinds auxiliary calls by kind; uncached input is known
    only when every usage event reports it; cost is unknown when none was reported; peak
    context is the largest; the final response tokens are those of the last assistant event
    that reports them.
    """
    usage = [e for e in events if e.get("type") == "usage"]
    figures: dict[str, Any] = {"main_calls": 0, "aux_calls": {}}
    for event in usage:
        calls = int(event.get("calls", 1))
        if event["kind"] == "main":
            figures["main_calls"] += calls
        else:
            figures["aux_calls"][event["kind"]] = figures["aux_calls"].get(event["kind"], 0) + calls
    for key in ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"):
        figures[key] = sum(int(e.get(key, 0)) for e in usage)
    uncached = [e.get("uncached_input_tokens") for e in usage]
    figures["uncached_input_tokens"] = None if None in uncached else sum(uncached)
    costs = [e["cost_usd"] for e in usage if "cost_usd" in e]
    figures["cost_usd"] = sum(costs) if costs else None
    contexts = [e["context_tokens"] for e in usage if "context_tokens" in e]
    figures["peak_context_tokens"] = max(contexts) if contexts else None
    tools = [e for e in events if e.get("type") == "tool_call"]
    figures["tool_calls"] = len(tools)
    figures["tool_result_bytes"] = sum(int(e["result_bytes"]) for e in tools)
    final = [e["tokens"] for e in events if e.get("type") == "assistant" and "tokens" in e]
    figures["final_response_tokens"] = final[-1] if final else None
    figures["prompt_cache_reuse"] = cache_reuse(figures)
    return figures


def cache_reuse(figures: Mapping[str, Any]) -> float | None:
    """``cache_read / (uncached_input + cache_read + cache_write)``, only when uncached input
    is reported separately (spec section 7); ``None`` otherwise."""
    if figures.get("uncached_input_tokens") is None:
        return None
    total = figures["uncached_input_tokens"] + figures["cache_read_tokens"]
    total += figures["cache_write_tokens"]
    return figures["cache_read_tokens"] / total if total else None


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def stage_json(stage: StageRecord) -> dict[str, Any]:
    """One stage of a run record."""
    result = stage.result
    return {
        "number": stage.number,
        "id": stage.stage_id,
        "compact_after": stage.compact_after,
        "inject_seconds": round(stage.inject_seconds, 6),
        "outcome": result.outcome if result else "not_reached",
        "detail": result.detail if result else "",
        "exit_code": result.exit_code if result else None,
        "started": _rounded(result.started) if result else None,
        "seconds": _rounded(result.seconds) if result else None,
        "done_seen": result.has("done") if result else False,
    }


def compaction_json(compaction: CompactionRecord) -> dict[str, Any]:
    """One compaction of a run record."""
    return {
        "number": compaction.number,
        "after_stage": compaction.after_stage,
        "trigger": compaction.trigger,
        "status": compaction.status,
        "seconds": _rounded(compaction.seconds),
        "detail": compaction.detail,
        **_reported_tokens(compaction),
    }


def _reported_tokens(compaction: CompactionRecord) -> dict[str, int]:
    """The token counts a compaction record carries: only those the adapter reported."""
    counts = {"tokens_before": compaction.tokens_before, "tokens_after": compaction.tokens_after}
    return {key: value for key, value in counts.items() if value is not None}


def diagnostic_json(entry: DiagnosticEntry) -> dict[str, Any]:
    """One diagnostic of a run record."""
    return {
        "stage": entry.stage,
        "action": entry.action,
        "action_no": entry.action_no,
        "line": entry.line,
        "code": entry.code,
        "message": entry.message,
        "text": entry.text,
    }


def times_json(times: Times) -> dict[str, float]:
    """The wall times of a run record."""
    return {
        "setup_seconds": round(times.setup, 6),
        "agent_seconds": round(times.agent, 6),
        "inject_seconds": round(times.inject, 6),
        "lifecycle_seconds": round(times.lifecycle, 6),
        "judge_seconds": round(times.judge, 6),
        "stage_judge_seconds": round(times.stage_judge, 6),
        "record_seconds": round(times.record, 6),
    }


def verdict_json(verdict: Any) -> dict[str, Any] | None:
    """A verdict in a run record (the judge's own ``checks`` kept, when it gave them)."""
    if verdict is None:
        return None
    return {
        "status": verdict.status,
        "progress_level": verdict.progress_level,
        "main_checks_passed": verdict.main_checks_passed,
        "main_checks_total": verdict.main_checks_total,
        "edge_check_passed": verdict.edge_check_passed,
        "notes": list(verdict.notes),
        "exit_code": verdict.exit_code,
        "seconds": round(verdict.seconds, 6),
        "checks": verdict_checks(verdict.raw),
    }


def verdict_checks(raw: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The per-check results of a printed verdict (``name``, ``fixture``, ``level``,
    ``passed``); empty when the judge gave none or printed no sound object."""
    checks = raw.get("checks") if isinstance(raw, Mapping) else None
    kept = []
    for check in checks if isinstance(checks, list) else []:
        if isinstance(check, Mapping) and isinstance(check.get("name"), str):
            kept.append(
                {
                    "name": check["name"],
                    "fixture": str(check.get("fixture", "main")),
                    "level": check.get("level"),
                    "passed": bool(check.get("passed")),
                }
            )
    return kept


def stage_verdict_json(taken: StageVerdict) -> dict[str, Any]:
    """One per-stage verdict of a run record."""
    verdict = verdict_json(taken.verdict)
    return {
        "stage": taken.stage,
        "id": taken.stage_id,
        "snapshot_seconds": round(taken.snapshot_seconds, 6),
        "problem": taken.problem,
        "verdict": verdict,
    }


def _passed(checks: Sequence[Mapping[str, Any]]) -> set[tuple[str, str]]:
    return {(c["fixture"], c["name"]) for c in checks if c["passed"]}


def retention(
    compactions: Sequence[Mapping[str, Any]],
    stage_verdicts: Sequence[Mapping[str, Any]],
    final: Mapping[str, Any] | None,
) -> list[dict[str, Any]]:
    """For each compaction, whether every check that passed before it still passes at the end.

    "Before it" is the per-stage verdict of the last stage answered before the compaction:
    stage ``after_stage`` for a requested compaction, the stage before for a natural one
    (which happened during stage ``after_stage``). A check that no longer applies at the end
    (``until`` an earlier stage) is not compared; when the final verdict ran no main check
    (its commands did not complete), every check that passed before is lost. ``retained`` is
    ``None`` when it cannot be told: no stage verdict before the compaction, a judge error on
    either side, no per-check results, or no check passed before it.

    Args:
        compactions: ``compaction_json`` records.
        stage_verdicts: ``stage_verdict_json`` records.
        final: ``verdict_json`` of the final verdict.
    """
    by_stage = {s["stage"]: s["verdict"] for s in stage_verdicts}
    results = []
    for compaction in compactions:
        natural = compaction["trigger"] == "natural"
        before_stage = compaction["after_stage"] - (1 if natural else 0)
        entry: dict[str, Any] = {
            "compaction": compaction["number"],
            "trigger": compaction["trigger"],
            "status": compaction["status"],
            "after_stage": compaction["after_stage"],
            "judged_stage": before_stage if before_stage in by_stage else None,
            "passed_before": 0,
            "lost": [],
            "retained": None,
            "reason": "",
        }
        entry.update(_retained(by_stage.get(before_stage), final))
        results.append(entry)
    return results


def _retained(before: Mapping[str, Any] | None, final: Mapping[str, Any] | None) -> dict[str, Any]:
    """The retention fields of one compaction (see :func:`retention`)."""
    if before is None:
        return {"reason": "no per-stage verdict before it"}
    if before["status"] == "error" or final is None or final["status"] == "error":
        return {"reason": "a judge error on either side"}
    if not before["checks"]:
        return {"reason": "the judge gave no per-check results"}
    kept = _passed(before["checks"])
    if any(c["fixture"] == "main" for c in final["checks"]):  # else no check ran: all lost
        kept &= {(c["fixture"], c["name"]) for c in final["checks"]}
    if not kept:
        return {"reason": "no check passed before it"}
    lost = sorted(kept - _passed(final["checks"]))
    return {
        "passed_before": len(kept),
        "lost": [name if fixture == "main" else f"{fixture}:{name}" for fixture, name in lost],
        "retained": not lost,
    }


def entry_json(entry: Entry) -> dict[str, Any]:
    """One events.jsonl line."""
    return {
        "seq": entry.seq,
        "t": round(entry.t, 6),
        "stage": entry.stage,
        "action": entry.action,
        "action_no": entry.action_no,
        "source": entry.source,
        "event": entry.event,
    }


def stage_records(state: RunState, judging: StageJudging) -> dict[str, Any]:
    """The per-stage part of a run record: ``stage_judging``, ``stage_verdicts`` and
    ``retention``."""
    stages = [stage_verdict_json(s) for s in state.stage_verdicts]
    compactions = [compaction_json(c) for c in state.compactions]
    return {
        "stage_judging": judging,
        "stage_verdicts": stages,
        "retention": retention(compactions, stages, verdict_json(state.verdict)),
    }


LONE_SURROGATE: Final = benchlib.LONE_SURROGATE
printable = benchlib.printable


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **options)`` that UTF-8 can always encode: a file
    name that is not UTF-8 (a ``surrogateescape`` string, from an agent's files) stays
    escaped (``\\udcff``) and reads back as the same string."""
    text = json.dumps(value, ensure_ascii=False, **options)
    return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def write_json(path: Path, value: Any) -> None:
    """Write ``value`` as indented JSON (:func:`json_text`), atomically (a reader never sees
    half a record)."""
    text = json_text(value, indent=2, sort_keys=True) + "\n"
    handle, name = tempfile.mkstemp(prefix=".run-", dir=path.parent)
    try:
        os.fchmod(handle, 0o644)  # what a plain write gives, not mkstemp's 0600
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        Path(name).replace(path)
    except BaseException:  # a full disk or a signal: no half record, no temporary file
        Path(name).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class LeanRun:
    """One run of the lean runner: its id, folder and configuration."""

    run_id: str
    scenario: Scenario
    adapter: Adapter
    python: str
    timeout_seconds: float
    timeout_overridden: bool
    run_dir: Path
    sealed: bool
    stage_judging: StageJudging = "unsupported"

    def record(self, state: RunState, status: str) -> dict[str, Any]:
        """The run's ``run.json``."""
        events = [e.event for e in state.timeline if e.source == "adapter"]
        scenario = self.scenario
        return {
            "schema": LEAN_RECORD_SCHEMA,
            "run_id": self.run_id,
            "status": status,
            "task": {
                "dir": scenario.dirname,
                "id": scenario.id,
                "slug": scenario.slug,
                "pressure": scenario.pressure,
                "stages": len(scenario.stages),
                "version": task_version(scenario.task_dir),
            },
            "adapter": self.adapter.spec,
            "python": self.python,
            "started_at": state.started_at,
            "timeout_seconds": self.timeout_seconds,
            "timeout_overridden": self.timeout_overridden,
            "sealed": self.sealed,
            "end_reason": state.end_reason,
            "end_detail": state.end_detail,
            "times": times_json(state.times),
            "stages": [stage_json(s) for s in state.stages],
            "compactions": [compaction_json(c) for c in state.compactions],
            "figures": usage_figures(events),
            "settings": agent_settings(events),
            "diagnostics": [diagnostic_json(d) for d in state.diagnostics],
            "verdict": verdict_json(state.verdict),
            **stage_records(state, self.stage_judging),
            "artifacts": {"workspace": WORKSPACE_ARCHIVE}
            if (self.run_dir / WORKSPACE_ARCHIVE).is_file()
            else {},
        }

    def write(self, lifecycle: Lifecycle) -> None:
        """The record step: the final workspace (spec section 5, step 8) and events.jsonl
        (the timeline); run.json follows."""
        if lifecycle.workspace.is_dir():
            kept = archive_workspace(lifecycle.workspace, self.run_dir)
            lifecycle.state.diagnostics += kept
        lines = (json_text(entry_json(e)) + "\n" for e in lifecycle.state.timeline)
        (self.run_dir / "events.jsonl").write_text("".join(lines), encoding="utf-8")


def find_tasks(root: Path) -> list[Path]:
    """The task folders of the corpus at ``root``, as its tasks.json lists them."""
    index = root / "tasks.json"
    try:
        entries = json.loads(index.read_text(encoding="utf-8"))["tasks"]
        return [root / str(e["path"]) for e in entries]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ScenarioError(f"{index}: cannot be read: {exc}") from None


def task_names(task: Path) -> set[str]:
    """The names ``--task`` knows a task folder ``NN-slug`` by: itself, the slug, the id."""
    number, _, slug = task.name.partition("-")
    return {task.name, slug, number, *([str(int(number))] if number.isdigit() else [])}


def select_tasks(root: Path, wanted: Sequence[str], every: bool) -> list[Path]:
    """The tasks named by ``--task`` (folder name, slug or id), or every task with ``--all``."""
    tasks = find_tasks(root)
    if every:
        return tasks
    chosen = []
    for name in wanted:
        matches = [t for t in tasks if name in task_names(t)]
        if not matches:
            raise ScenarioError(f"--task {name}: no such task in {root / 'tasks.json'}")
        chosen += [m for m in matches if m not in chosen]
    return chosen


def runs_folder_problem(runs: Path) -> tuple[int, str] | None:
    """Why run records cannot be written under ``runs``, with the exit status to stop with
    (2: not a folder, a usage error; 3: it cannot be created or written), or ``None``.

    The folder is created when missing (as the first run would), and probed with a file
    created and removed at once, so a read-only mount or a file in the path is reported
    before any agent runs, not as a traceback after the first one.
    """
    if runs.exists() and not runs.is_dir():
        return 2, f"--runs {runs}: not a folder"
    try:
        runs.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=".run-py-probe-", dir=runs)
        os.close(handle)
        Path(probe).unlink()
    except OSError as exc:
        why = exc.strerror or str(exc)
        return 3, f"--runs {runs}: cannot write there: {why} (check the folder and its permissions)"
    return None


def reserve_run(runs: Path, dirname: str) -> tuple[str, Path]:
    """A new run folder ``ARM--NN-slug--rNNN`` under ``runs`` (created, so never shared)."""
    runs.mkdir(parents=True, exist_ok=True)
    for repeat in range(1, 1_000_000):
        run_id = f"{LEAN_ARM}--{dirname}--r{repeat:03d}"
        with contextlib.suppress(FileExistsError):
            (runs / run_id).mkdir()
            return run_id, runs / run_id
    raise ScenarioError(f"{runs}: no free run number for {dirname}")


def reap_pending(runs: Path) -> list[str]:
    """Mark the ``pending`` runs of invocations that died (``kill -9``) ``interrupted``."""
    reaped = []
    for record_file in sorted(runs.glob("*/run.json")) if runs.is_dir() else []:
        try:
            record = json.loads(record_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        owner = record.get("owner")
        if record.get("status") == "pending" and not (owner and owner_alive(Path(owner))):
            record.update(status="interrupted", end_reason="interrupted")
            record["end_detail"] = "the runner was killed before the run ended"
            write_json(record_file, record)
            reaped.append(str(record.get("run_id")))
    return reaped


def lean_run(
    scenario: Scenario, options: argparse.Namespace, temp: Path, records: list[dict[str, Any]]
) -> None:
    """Run one task through the adapter and record it (appending its run.json to ``records``)."""
    run_id, run_dir = reserve_run(options.runs, scenario.dirname)
    timeout = options.timeout or scenario.timeout_seconds
    adapter = command_adapter(options.agent)
    lean = LeanRun(
        run_id, scenario, adapter, options.python, timeout, bool(options.timeout),
        run_dir.absolute(), not options.unsealed, stage_judging(scenario, options.python),
    )  # fmt: skip
    state = RunState(started_at=utc_now())
    extra = {"owner": str(temp), "network": options.network, "agent_binds": options.agent_bind}
    write_json(run_dir / "run.json", {**lean.record(state, "pending"), **extra})
    cache = temp / "judge-cache" / scenario.dirname
    judge = CommandJudge(scenario, options.python, options.judge_timeout, cache, options.unsealed)
    seal = None
    if not options.unsealed:
        seal = AgentSeal(
            agent_binds(options.agent_bind), options.python, network=options.network == "host",
            pass_env=tuple(options.pass_env),
        )  # fmt: skip
    config = RunConfig(
        scenario=scenario, adapter=adapter, python=options.python, timeout_seconds=timeout,
        run_dir=lean.run_dir, judge=judge,
        workspaces=WorkspaceSource(scenario.layout, options.python), record=lean.write, seal=seal,
        stage_judging=lean.stage_judging,
    )  # fmt: skip
    try:
        Lifecycle.execute(config, state)
    except Interrupted:
        state.end_reason, state.end_detail = "interrupted", "the runner was stopped by a signal"
        write_json(run_dir / "run.json", {**lean.record(state, "interrupted"), **extra})
        records.append(lean.record(state, "interrupted"))
        raise
    record = {**lean.record(state, "finished"), **extra}
    write_json(run_dir / "run.json", record)
    records.append(record)


SUMMARY_HEADERS = (
    "run",
    "end",
    "verdict",
    "level",
    "agent s",
    "judge s",
    "calls",
    "aux",
    "tools",
    "tool KiB",
    "compact r/ok/f/n",
    "retained",
    "input",
    "output",
    "cache rd",
    "cache wr",
    "cost $",
    "cache reuse",
    "final",
    "peak ctx",
)


def _cell(value: Any, digits: int = 0) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def summary_row(record: Mapping[str, Any]) -> list[str]:
    """One run's line of the summary."""
    figures, verdict = record["figures"], record["verdict"] or {}
    compactions = record["compactions"]
    requested = [c for c in compactions if c["trigger"] == "requested"]
    counts = (
        len(requested),
        sum(c["status"] == "completed" for c in requested),
        sum(c["status"] == "failed" for c in requested),
        len(compactions) - len(requested),
    )
    reuse = figures["prompt_cache_reuse"]
    return [
        record["run_id"], record["end_reason"], verdict.get("status", "-"),
        _cell(verdict.get("progress_level")), _cell(record["times"]["agent_seconds"], 1),
        _cell(record["times"]["judge_seconds"], 1), _cell(figures["main_calls"]),
        _cell(sum(figures["aux_calls"].values())), _cell(figures["tool_calls"]),
        _cell(figures["tool_result_bytes"] / 1024, 1), "/".join(map(str, counts)),
        retained_cell(record.get("retention", [])),
        _cell(figures["input_tokens"]), _cell(figures["output_tokens"]),
        _cell(figures["cache_read_tokens"]), _cell(figures["cache_write_tokens"]),
        _cell(figures["cost_usd"], 4), "n/a" if reuse is None else f"{100 * reuse:.0f}%",
        _cell(figures["final_response_tokens"]), _cell(figures["peak_context_tokens"]),
    ]  # fmt: skip


def retained_cell(entries: Sequence[Mapping[str, Any]]) -> str:
    """``kept/told`` of a run's compactions (``-``: none could be told)."""
    told = [e["retained"] for e in entries if e["retained"] is not None]
    return f"{sum(told)}/{len(told)}" if told else "-"


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table with aligned columns."""
    widths = [max(len(str(c)) for c in column) for column in zip(headers, *rows, strict=False)]
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=False)).rstrip()
        for row in (headers, *rows)
    ]
    return "\n".join(lines)


def summary(records: Sequence[Mapping[str, Any]]) -> str:
    """The plain-text summary: one line per run, then strict passes by class and corpus."""
    parts = [text_table(SUMMARY_HEADERS, [summary_row(r) for r in records]), ""]
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        groups.setdefault(record["task"]["pressure"], []).append(record)
    for key in [*(p for p in "NLMH" if p in groups), "corpus"]:
        mine = list(records) if key == "corpus" else groups[key]
        scored = [r for r in mine if (r["verdict"] or {}).get("status") in ("pass", "fail")]
        passes = sum(r["verdict"]["progress_level"] == 5 for r in scored)
        rate = f"{100 * passes / len(scored):.0f}%" if scored else "n/a"
        errored = len(mine) - len(scored)
        parts.append(f"{key}: {passes}/{len(scored)} strict passes ({rate}), {errored} errored")
    return "\n".join(parts) + "\n"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="run.py",
        description="Run corpus tasks through an agent adapter (spec section 5) and judge them.",
    )
    parser.add_argument("--agent", required=True, help="command:<shell command> (the adapter)")
    parser.add_argument("--task", action="append", default=[], help="NN-slug, slug or id")
    parser.add_argument("--all", action="store_true", help="every task of tasks.json")
    parser.add_argument("--runs", type=Path, default=Path("runs"), help="records folder")
    parser.add_argument("--timeout", type=float, help="override every timeout_seconds")
    parser.add_argument("--python", default=sys.executable, help="interpreter of seeds and judges")
    parser.add_argument("--judge-timeout", type=float, default=1800.0, help="seconds per judge")
    parser.add_argument(
        "--unsealed", action="store_true", help="run agents and candidates without bubblewrap"
    )
    parser.add_argument(
        "--network", choices=("host", "none"), default="host",
        help="sealed agents share the host network (model APIs) or get none",
    )  # fmt: skip
    parser.add_argument(
        "--agent-bind", action="append", default=[], metavar="PATH",
        help="show this host file or folder read-only to sealed agents; repeatable",
    )  # fmt: skip
    parser.add_argument(
        "--pass-env", action="append", default=[], metavar="NAME",
        help="pass this variable (a credential) into the sealed agent's environment",
    )  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python run.py``: run the chosen tasks, write a record per run, print the summary.

    Exit status: 0 when every run was recorded and judged, 1 when a run hit a setup, runner
    or judge error, 2 on usage errors (an unknown task or adapter program, a ``--runs`` that
    is a file, ...), 3 when the runs folder cannot be created or written; 128 + N after
    signal N.
    """
    parser = _parser()
    options = parser.parse_args(argv)
    root = Path(__file__).resolve().parent
    try:
        command_adapter(options.agent)
        agent_binds(options.agent_bind)
        if not options.all and not options.task:
            raise ScenarioError("name tasks with --task or pass --all")
        if options.timeout is not None and not 0 < options.timeout < math.inf:
            raise ScenarioError("--timeout must be a positive number of seconds")
        scenarios = [load_scenario(t) for t in select_tasks(root, options.task, options.all)]
    except (ScenarioError, ValueError) as exc:
        parser.error(str(exc))
    if not options.unsealed:
        ok, why = benchlib.sandbox_status()
        if not ok:
            parser.error(
                f"cannot seal agents and candidates: {why}. Pass --unsealed to run them "
                "without the sandbox (they can then read the tasks and write anywhere you can)"
            )
    records: list[dict[str, Any]] = []
    options.runs = options.runs.absolute()
    problem = runs_folder_problem(options.runs)
    if problem is not None:
        code, message = problem
        if code == 2:
            parser.error(message)
        sys.stderr.write(f"{parser.prog}: error: {message}\n")
        return code
    try:
        with interruptible(), private_temp() as temp:
            reap_pending(options.runs)
            for scenario in scenarios:
                lean_run(scenario, options, temp, records)
    except Interrupted as stop:
        sys.stdout.write(summary(records))
        sys.stderr.write(f"interrupted by signal {stop.signum}\n")
        return 128 + stop.signum
    sys.stdout.write(summary(records))
    failed = [
        r
        for r in records
        if r["end_reason"] in ("setup_error", "runner_error")
        or (r["verdict"] or {}).get("status") == "error"
    ]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
