"""Running the audit: set each task up once, then classify its mutants in a process pool.

Per task, in the calling process: the fixtures are materialized into a cache, the
reference's editable files are laid out as a candidate workspace, the judge must score the
reference 5 (its runs are kept: they are what mutants' runs are compared with), and the
reference's outputs are observed again outside the judge under two environments (outputs
that change with the environment are a finding). Then every mutant and
every round of perturbed expectations is one job of the pool shared by all tasks. Tasks are
set up on as many threads as the pool has workers (a set-up mostly waits for seed.py and
the reference's commands), so a recorded audit, whose few jobs leave the pool idle, still
keeps every core busy. Progress is reported through a callback; the library never prints.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from benchsmith.auditing import expectations
from benchsmith.auditing.classify import AUDIT_ENV, FIXTURES, MutantContext, classify, run_fixture
from benchsmith.auditing.embedded import EmbeddedTaskError, read_task_data, with_task_data
from benchsmith.auditing.mutants import Mutant, task_mutants
from benchsmith.auditing.operators import OPERATORS
from benchsmith.auditing.outputs import Observation, observe
from benchsmith.auditing.results import (
    AuditReport,
    ExpectationResult,
    MutantResult,
    RecordUse,
    TaskAudit,
)
from benchsmith.auditing.sampling import Sample, sample_mutants
from benchsmith.auditrecord import (
    RECORD_FILE,
    Record,
    RecordedFate,
    diff_digest,
    fate_hashes,
    inputs_digest,
    new_record,
    record_state,
    verification_sample,
    write_record,
)
from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import load_task
from benchsmith.dsl.model import TaskSpec
from benchsmith.errors import BenchsmithError, UsageError
from benchsmith.judging import JudgeCall, judge_timeout, read_judge_command, run_judge
from benchsmith.runtime import benchlib
from benchsmith.workspaces import layout_for, require_built

VARIED_ENV = {"TZ": "Pacific/Kiritimati", "LC_ALL": "C.UTF-8", "PYTHONHASHSEED": "4242"}
BUDGET_FACTOR = 10.0  # a mutant's command may take this many times the reference's fixture
BUDGET_FLOOR = 5.0  # seconds, whatever the reference took
AUTHORED = "authored"
DEFAULT_SAMPLE = 60  # generated mutants per task unless --full (api.DEFAULT_AUDIT_SAMPLE)


class AuditSetupError(BenchsmithError):
    """Raised when a task cannot be audited at all (unbuilt, no judge.py, no TASK data)."""


@dataclass(frozen=True, slots=True)
class AuditOptions:
    """How to run the audit.

    Attributes:
        python: Interpreter for seed.py, commands and judges.
        jobs: Worker processes classifying mutants.
        strict: Unjustified equivalents, undecided expectations and findings fail too.
        operators: Only mutants of these operators (``authored`` for mutants/); empty: all.
        expectations: Whether to prove the expectations load-bearing.
        sample: At most this many generated mutants per task, stratified by operator and
            chosen by ``seed`` (see :mod:`benchsmith.auditing.sampling`); ``None``: every one.
        seed: The seed of the sample.
        record: Write each task's ``audit.lock`` (:mod:`benchsmith.auditrecord`); needs a
            full audit: every mutant of every operator, and the expectations.
        recorded: Take each mutant's fate from the task's current ``audit.lock`` instead of
            running it; ``sample`` is then how many recorded mutants run again to verify it
            (``None``: all). A task without a current record is sampled as usual, and the
            missing record is a finding.
    """

    python: str
    jobs: int = 1
    strict: bool = False
    operators: tuple[str, ...] = ()
    expectations: bool = True
    sample: int | None = DEFAULT_SAMPLE
    seed: int = 0
    record: bool = False
    recorded: bool = False


@dataclass(frozen=True, slots=True)
class AuditProgress:
    """One finished job, for progress bars.

    Attributes:
        task: The task folder, as shown.
        done: Jobs of this task finished so far.
        total: Jobs of this task.
        item: The mutant id, or ``expectations``.
        outcome: The mutant's fate, or how many values were load-bearing.
    """

    task: str
    done: int
    total: int
    item: str
    outcome: str


ProgressCallback = Callable[[AuditProgress], None]


def operator_names() -> list[str]:
    """Every operator name ``--operator`` accepts."""
    return [*OPERATORS, AUTHORED]


def audit_tasks(
    task_dirs: Sequence[Path], options: AuditOptions, progress: ProgressCallback | None = None
) -> AuditReport:
    """Audit the judges of ``task_dirs`` with mutants and perturbed expectations.

    Args:
        task_dirs: Task folders.
        options: Interpreter, parallelism, strictness and the operators to use.
        progress: Called once per finished job (from a helper thread).

    Returns:
        The report; ``report.ok`` says whether every task passed.

    Raises:
        UsageError: When an operator name is unknown.
        TaskSpecError: When a task.toml is invalid.
        AuditSetupError: When a task is unbuilt or its judge.py holds no task data.
    """
    unknown = sorted(set(options.operators) - set(operator_names()))
    if unknown:
        choices = ", ".join(operator_names())
        raise UsageError(f"unknown operator(s) {', '.join(unknown)}; choose from {choices}")
    _check_options(options)
    specs = [_prepare(p) for p in task_dirs]
    started = time.monotonic()
    jobs = max(1, options.jobs)
    with ProcessPoolExecutor(jobs, mp_context=_pool_context()) as pool:
        pool.submit(_warm_up).result()  # fork every worker before this process starts threads
        with ThreadPoolExecutor(jobs, thread_name_prefix="audit-setup") as setups:
            pending = list(setups.map(lambda spec: _start(spec, options, pool, progress), specs))
        audits = [item.finish() for item in pending]
    return AuditReport(
        tuple(audits), options.python, jobs, options.strict, time.monotonic() - started
    )


def _check_options(options: AuditOptions) -> None:
    least = 0 if options.recorded else 1
    if options.sample is not None and options.sample < least:
        raise UsageError(f"the sample size must be at least {least}, not {options.sample}")
    if options.record and options.recorded:
        raise UsageError("--record writes the record a full audit finds: not with --recorded")
    if options.record and (options.sample is not None or options.operators):
        raise UsageError("--record needs every mutant: add --full, and no --operator")
    if options.record and not options.expectations:
        raise UsageError("--record needs the expectations: drop --no-expectations")


def _prepare(task_dir: Path) -> TaskSpec:
    spec = load_task(task_dir)
    require_built(spec)
    shown = display_path(spec.task_dir)
    if not (spec.task_dir / "judge.py").is_file():
        raise AuditSetupError(f"{shown}: judge.py missing; run benchsmith build")
    if not (spec.task_dir / "reference").is_dir():
        raise AuditSetupError(f"{shown}: reference/ is missing; mutants are made from it")
    try:
        read_task_data(spec.task_dir / "judge.py")
        read_judge_command(spec.task_dir)
    except (EmbeddedTaskError, OSError, ValueError) as exc:
        raise AuditSetupError(f"{shown}: {exc}") from exc
    return spec


def _warm_up() -> None:
    """A no-op job: makes the pool create its workers at once."""


def _pool_context() -> multiprocessing.context.BaseContext:
    """``fork`` while this process has one thread (workers inherit the imports), else spawn."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


# --- one task ------------------------------------------------------------------------------


@dataclass
class _Pending:
    """A task whose jobs were submitted; :meth:`finish` collects them."""

    spec: TaskSpec
    shown: str
    tmp: Path
    started: float
    mutants: list[tuple[Mutant, Future[MutantResult]]] = field(default_factory=list)
    rounds: list[Future[list[ExpectationResult]]] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    duplicates: int = 0
    partial: bool = False
    error: str = ""
    sample: Sample | None = None
    record: bool = False
    strict: bool = False
    inputs: str = ""
    files: dict[str, str] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    replayed: list[MutantResult] = field(default_factory=list)
    replayed_expectations: list[ExpectationResult] = field(default_factory=list)
    verify: dict[str, RecordedFate] = field(default_factory=dict)
    use: RecordUse | None = None

    def finish(self) -> TaskAudit:
        """Wait for every job, apply the justifications, remove the scratch folder."""
        try:
            fresh = [_result(m, f) for m, f in self.mutants]
            measured = [e for f in self.rounds for e in _round_result(f)]
        finally:
            benchlib.remove_path(self.tmp)
        place = {ident: n for n, ident in enumerate(self.order)}
        results = sorted(fresh + self.replayed, key=lambda r: place.get(r.mutant.id, len(place)))
        measured = self.replayed_expectations + measured
        self.findings += _mismatches(self.shown, self.verify, fresh)
        judged = [_justified(self.spec, r) for r in results]
        findings = self.findings + _stale_justifications(self.spec, judged, self.partial)
        audit = TaskAudit(
            self.shown, self.spec.id, self.spec.slug, tuple(judged), tuple(measured),
            tuple(findings), self.duplicates, time.monotonic() - self.started, self.error,
            self.sample, self.use,
        )  # fmt: skip
        if self.record and not self.error:
            failed = audit.failed(self.strict)
            if failed:  # a record proves the task passed its audit: a failed one writes none
                note = f"{RECORD_FILE} not written: the audit failed ({failed[0]})"
                use = RecordUse(False, note)
                return replace(audit, findings=(*audit.findings, note), record=use)
            before = len(self.findings)
            self._write(results, measured)
            added = tuple(self.findings[before:])
            audit = replace(audit, findings=(*audit.findings, *added), record=self.use)
        return audit

    def _write(
        self, results: Sequence[MutantResult], measured: Sequence[ExpectationResult]
    ) -> None:
        """Record the fates in ``audit.lock``, unless the task changed while it was audited."""
        if inputs_digest(self.spec.task_dir) != self.inputs:
            note = "the task's files changed during the audit: audit.lock not written"
            self.findings.append(note)
            self.use = RecordUse(False, note)
            return
        record = new_record(
            self.inputs,
            [(r.mutant.id, r.mutant.diff, r.fate, r.level, r.form_only) for r in results],
            [
                (e.name, e.fixture, e.field, e.original, e.perturbed, e.load_bearing)
                for e in measured
            ],
            self.files,
        )
        try:
            write_record(self.spec.task_dir, record)
        except BenchsmithError as exc:
            self.findings.append(f"{RECORD_FILE} not written: {exc}")
            self.use = RecordUse(False, f"not written: {exc}")
            return
        self.use = RecordUse(True, written=True)


def _mismatches(
    shown: str, verify: dict[str, RecordedFate], fresh: Sequence[MutantResult]
) -> list[str]:
    """A finding for each re-run mutant whose fate is not the one recorded."""
    found = []
    for result in fresh:
        then = verify.get(result.mutant.id)
        if then is not None and (then.fate, then.level) != (result.fate, result.level):
            found.append(
                f"[{RECORD_FILE}] {result.mutant.id}: recorded {_fate(then.fate, then.level)}, "
                f"now {_fate(result.fate, result.level)}: the task is judged differently than "
                f"when it was recorded (the shared runtime or benchsmith changed); run "
                f"`benchsmith audit {shown} --full --record`"
            )
    return found


def _fate(fate: str, level: int | None) -> str:
    return fate if level is None else f"{fate} (level {level})"


def _result(mutant: Mutant, future: Future[MutantResult]) -> MutantResult:
    try:
        return future.result()
    except Exception as exc:  # a worker that died or raised: the mutant's result says so
        return MutantResult(mutant, "error", reason=f"internal error: {type(exc).__name__}: {exc}")


def _round_result(future: Future[list[ExpectationResult]]) -> list[ExpectationResult]:
    try:
        return future.result()
    except Exception as exc:  # a worker that died or raised: say so in the results
        note = f"internal error: {type(exc).__name__}: {exc}"
        return [ExpectationResult("(round)", "-", "-", None, None, None, note)]


def _justified(spec: TaskSpec, result: MutantResult) -> MutantResult:
    justification = spec.audit.justification(result.mutant.id)
    if result.fate != "equivalent" or justification is None:
        return result
    return replace(result, why=justification.why)


def _stale_justifications(
    spec: TaskSpec, results: Sequence[MutantResult], partial: bool
) -> list[str]:
    """A finding for each justification that covers no equivalent mutant.

    When only some mutants ran (``partial``: some operators, or a sample), a justification
    is judged only if it covers a mutant that ran.
    """
    equivalent = [r.mutant.id for r in results if r.fate == "equivalent"]
    ran = [r.mutant.id for r in results]
    return [
        f"[audit] equivalent: {j.mutant!r} matches no equivalent mutant (remove it, or fix "
        "the id: line numbers move when the reference changes)"
        for j in spec.audit.equivalent
        if results
        and not any(j.matches(ident) for ident in equivalent)
        and (not partial or any(j.matches(ident) for ident in ran))
    ]


def _start(
    spec: TaskSpec,
    options: AuditOptions,
    pool: ProcessPoolExecutor,
    progress: ProgressCallback | None,
) -> _Pending:
    """Set one task up and submit its jobs; set-up failures become the task's error."""
    shown = display_path(spec.task_dir)
    tmp = Path(tempfile.mkdtemp(prefix="benchsmith-audit-"))
    pending = _Pending(
        spec, shown, tmp, time.monotonic(), record=options.record, strict=options.strict
    )
    try:
        _submit(pending, options, pool, progress)
    except (OSError, RuntimeError, ValueError, BenchsmithError) as exc:
        pending.error = f"set-up failed: {type(exc).__name__}: {exc}"
    return pending


def _submit(
    pending: _Pending,
    options: AuditOptions,
    pool: ProcessPoolExecutor,
    progress: ProgressCallback | None,
) -> None:
    spec, tmp = pending.spec, pending.tmp
    task = read_task_data(spec.task_dir / "judge.py")
    pending.inputs = inputs_digest(spec.task_dir)
    pending.files = fate_hashes(spec.task_dir)
    made = task_mutants(spec.task_dir, layout_for(spec))
    pending.findings += list(made.problems)
    pending.duplicates = made.duplicates
    selected = [m for m in made.mutants if not options.operators or m.operator in options.operators]
    pending.order = [m.id for m in selected]
    chosen, measure = _plan(pending, options, selected)
    rounds = expectations.rounds(task) if measure else []
    if not chosen and not rounds:
        return  # every fate and expectation comes from the record: nothing to set up
    context = _context(spec, task, options.python, tmp)
    kept = tmp / "reference-runs"
    call = replace(context.judge, keep_runs=kept)
    baseline = run_judge(call, context.tree, variables=benchlib.clean_env(AUDIT_ENV))
    if baseline.progress_level != 5 or baseline.problems:
        notes = "; ".join([*baseline.problems, *baseline.notes][:3])
        pending.error = (
            f"the reference scores {baseline.progress_level}, not 5 (run benchsmith check): {notes}"
        )
        return
    context, findings = _observe_reference(context, kept)
    pending.findings += findings
    counter = _Counter(pending.shown, len(chosen) + len(rounds), progress)
    for mutant in chosen:
        future = pool.submit(classify, context, mutant)
        future.add_done_callback(counter.mutant_done(mutant.id))
        pending.mutants.append((mutant, future))
    for number, perturbations in enumerate(rounds, start=1):
        call = _shadow_call(spec, task, perturbations, tmp / f"shadow-{number}", context)
        if call.stage is None:  # the reference's final-stage runs are kept: judge them again
            call = replace(call, replay_runs=kept)
        future2 = pool.submit(judge_round, call, context.tree, perturbations)
        future2.add_done_callback(counter.round_done())
        pending.rounds.append(future2)


def _plan(
    pending: _Pending, options: AuditOptions, selected: Sequence[Mutant]
) -> tuple[list[Mutant], bool]:
    """The mutants to run, and whether to run the expectation rounds."""
    if options.recorded:
        record, why = record_state(pending.spec.task_dir, pending.inputs)
        if record is not None:
            return _replay(pending, options, selected, record), False
        pending.findings.append(f"{why}; run `benchsmith audit {pending.shown} --full --record`")
        pending.use = RecordUse(False, why)
    size = options.sample if options.sample is None else max(1, options.sample)
    pending.sample = sample_mutants(selected, size, options.seed)
    pending.partial = bool(options.operators) or pending.sample.sampled
    return list(pending.sample.chosen), options.expectations


def _replay(
    pending: _Pending, options: AuditOptions, selected: Sequence[Mutant], record: Record
) -> list[Mutant]:
    """Take the recorded fates; return the mutants to run (unrecorded, and the re-runs)."""
    known = {
        m.id: record.mutants[m.id]
        for m in selected
        if m.id in record.mutants and record.mutants[m.id].diff == diff_digest(m.diff)
    }
    size = len(known) if options.sample is None else options.sample
    again = set(verification_sample(((i, f.fate) for i, f in known.items()), size, options.seed))
    pending.verify = {ident: known[ident] for ident in again}
    note = f"recorded in {RECORD_FILE}"
    pending.replayed = [
        MutantResult(m, f.fate, f.level, note, f.form_only, recorded=True)
        for m in selected
        if (f := known.get(m.id)) is not None and m.id not in again
    ]
    if options.expectations:
        pending.replayed_expectations = [
            ExpectationResult(name, fixture, field_, original, perturbed, bearing, note)
            for name, fixture, field_, original, perturbed, bearing in record.expectations
        ]
    pending.sample = sample_mutants(selected, None, options.seed)  # every mutant has a fate
    pending.partial = bool(options.operators)
    verified = tuple(m.id for m in selected if m.id in again)
    unrecorded = len(selected) - len(known)
    pending.use = RecordUse(
        True, replayed=len(pending.replayed), verified=verified, unrecorded=unrecorded
    )
    return [m for m in selected if m.id not in known or m.id in again]


def _context(spec: TaskSpec, task: dict[str, Any], python: str, tmp: Path) -> MutantContext:
    """Fixtures materialized, the reference laid out; reference observations still empty."""
    layout = layout_for(spec)
    cache = tmp / "fixtures"
    for fixture in FIXTURES:
        benchlib.materialize(layout, cache / fixture, fixture=fixture, python=python)
    tree = tmp / "reference-tree"
    tree.mkdir()
    for rel in spec.editable:
        name = rel.rstrip("/")
        if (cache / "main" / name).exists():
            benchlib.copy_path(cache / "main" / name, tree / name)
        source = spec.task_dir / "reference" / name
        if source.is_dir():
            benchlib.copy_tree(source, tree / name)
        elif source.is_file():
            benchlib.copy_path(source, tree / name)
    command = read_judge_command(spec.task_dir)
    # The audit tells 5 from below 5; the stage ladder never changes that, so it is off:
    # no extra stage-1 judging per killed mutant, and the recorded levels stay valid.
    call = JudgeCall(
        spec.task_dir.resolve(), command, python, judge_timeout(spec), cache, ladder=False
    )
    scratch = tmp / "mutants"
    scratch.mkdir()
    return MutantContext(spec.task_dir.resolve(), task, python, cache, tree, scratch, call, 1.0, {})


def _observe_reference(context: MutantContext, kept: Path) -> tuple[MutantContext, list[str]]:
    """Observe the reference on both fixtures: as its judging ran it (``kept``: mutants are
    observed the same way), and outside the judge under two environments (outputs that
    change with the environment are a finding); set the time scale."""
    observed: dict[str, Observation] = {}
    findings, slowest = [], 0.0
    for fixture in FIXTURES:
        run = benchlib.load_kept_run(kept, fixture)
        if run is None:
            raise RuntimeError(f"the reference's judging kept no {fixture} run")
        observed[fixture] = observe(run, context.task)
        plain, seconds = run_fixture(context, context.tree, fixture, context.scratch / "ref")
        varied, _ = run_fixture(context, context.tree, fixture, context.scratch / "ref", VARIED_ENV)
        slowest = max(slowest, seconds)
        if varied.exact != plain.exact:
            differing = ", ".join(varied.differences(plain))
            findings.append(
                f"the reference's {fixture} outputs change with the environment ({differing}: "
                f"{_describe(AUDIT_ENV)} versus {_describe(VARIED_ENV)}); outputs must be "
                "deterministic"
            )
    scale = _time_scale(context.task, slowest)
    judge = replace(context.judge, time_scale=scale)
    return replace(context, reference=observed, time_scale=scale, judge=judge), findings


def _describe(env: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in env.items())


def _time_scale(task: dict[str, Any], slowest: float) -> float:
    """Scale giving each mutant command the larger of a floor and 10x the reference's time."""
    longest = max((float(c["timeout"]) for c in task["commands"]), default=0.0)
    budget = max(BUDGET_FLOOR, BUDGET_FACTOR * slowest)
    return min(1.0, budget / longest) if longest else 1.0


def _shadow_call(
    spec: TaskSpec,
    task: dict[str, Any],
    perturbations: Sequence[expectations.Perturbation],
    folder: Path,
    context: MutantContext,
) -> JudgeCall:
    """A judge call on a copy of the task whose judge.py holds the perturbed values.

    The copy is a folder of symlinks to the task's files, beside a symlink to the corpus's
    benchlib.py, with only judge.py rewritten.
    """
    task_dir = spec.task_dir.resolve()
    shadow = folder / task_dir.name
    shadow.mkdir(parents=True)
    for entry in sorted(task_dir.iterdir()):
        if entry.name != "judge.py":
            (shadow / entry.name).symlink_to(entry)
    runtime = task_dir.parent / "benchlib.py"
    if runtime.is_file():
        (folder / "benchlib.py").symlink_to(runtime)
    text = (task_dir / "judge.py").read_text(encoding="utf-8")
    data = expectations.perturbed_task(task, perturbations)
    (shadow / "judge.py").write_text(with_task_data(text, data), encoding="utf-8")
    stage = perturbations[0].stage if perturbations else None  # a round shares one stage
    command = read_judge_command(task_dir)
    return replace(context.judge, task_dir=shadow, command=command, stage=stage)


def judge_round(
    call: JudgeCall, workspace: Path, perturbations: Sequence[expectations.Perturbation]
) -> list[ExpectationResult]:
    """Judge the reference with one round of perturbed values; one result per value."""
    verdict = run_judge(call, workspace)
    checks = (verdict.raw or {}).get("checks", []) if not verdict.problems else []
    found = {(c.get("name"), c.get("fixture")): c for c in checks if isinstance(c, dict)}
    results = []
    for p in perturbations:
        check = found.get((p.name, p.fixture))
        if check is None:
            level = verdict.progress_level
            why = "; ".join(verdict.problems) or f"the check did not run (level {level})"
            results.append(_expectation(p, None, why))
        else:
            results.append(_expectation(p, not check.get("passed"), str(check.get("note", ""))))
    return results


def _expectation(
    p: expectations.Perturbation, bearing: bool | None, note: str
) -> ExpectationResult:
    return ExpectationResult(p.name, p.fixture, p.field, p.original, p.perturbed, bearing, note)


class _Counter:
    """Counts a task's finished jobs and reports each (called from the pool's thread)."""

    def __init__(self, task: str, total: int, progress: ProgressCallback | None) -> None:
        self.task, self.total, self.progress = task, total, progress
        self.done = 0
        self.lock = threading.Lock()

    def _report(self, item: str, outcome: str) -> None:
        with self.lock:
            self.done += 1
            done = self.done
        if self.progress is not None:
            self.progress(AuditProgress(self.task, done, self.total, item, outcome))

    def mutant_done(self, ident: str) -> Callable[[Future[MutantResult]], None]:
        """A done-callback for the mutant ``ident``."""

        def done(future: Future[MutantResult]) -> None:
            fate = "error" if future.exception() else future.result().fate
            self._report(ident, fate)

        return done

    def round_done(self) -> Callable[[Future[list[ExpectationResult]]], None]:
        """A done-callback for one round of perturbed expectations."""

        def done(future: Future[list[ExpectationResult]]) -> None:
            results = [] if future.exception() else future.result()
            bearing = sum(e.load_bearing is True for e in results)
            self._report("expectations", f"{bearing}/{len(results)} load-bearing")

        return done


def default_jobs() -> int:
    """One worker per CPU."""
    return max(1, os.cpu_count() or 1)
