"""The controls of the battery, registered by decorator in battery order.

Each control is a small function of a :class:`TaskSetup` that returns a
:class:`~benchsmith.checking.results.ControlResult`; missing an expectation is a result, never an
exception. Judge-based controls also require a valid verdict (schema and invariants) and an
unchanged workspace.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import posixpath
import shutil
import signal
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from benchsmith import patches
from benchsmith.checking import candidates, selfreport
from benchsmith.checking.isolation import isolation_problems
from benchsmith.checking.results import ControlResult
from benchsmith.checking.trees import first_difference
from benchsmith.diagnostics import display_path
from benchsmith.dsl.model import TaskSpec
from benchsmith.environments import PLAIN, VARIED, Environment
from benchsmith.generate.plan import judge_data
from benchsmith.judging import JudgeCall, Verdict, run_judge
from benchsmith.runtime import benchlib
from benchsmith.seeds import FIXTURES, Entries, SeedError, seed_entries

LOOP_WAIT = 2.0  # seconds each command of the never-ending candidate gets (hostile-loop)


@dataclass(frozen=True, slots=True)
class LevelBound:
    """The levels a control accepts: ``low`` to ``high`` inclusive."""

    low: int
    high: int

    def admits(self, level: int | None) -> bool:
        """Whether ``level`` lies within the bound."""
        return level is not None and self.low <= level <= self.high

    def __str__(self) -> str:
        return str(self.high) if self.low == self.high else f"≤ {self.high}"


@dataclass(frozen=True, slots=True)
class TaskSetup:
    """What every control of one task shares.

    Attributes:
        spec: The task.
        judge: How to run its judge.
        tmp: Scratch folder of this task's battery.
        base: The final workspace, as the runner creates it (copied, never judged).
        python: Interpreter for seed.py, judges and candidates.
        lock: The ``seed`` section of the task's benchsmith.lock.
        layout: The task's runtime layout.
        digests: File digests shared by every judge run's before/after listings.
    """

    spec: TaskSpec
    judge: JudgeCall
    tmp: Path
    base: Path
    python: str
    lock: dict[str, str]
    layout: benchlib.Layout
    digests: dict[tuple[int, ...], str] = field(default_factory=dict)

    @property
    def task_dir(self) -> Path:
        """The task folder."""
        return self.spec.task_dir

    def workspace(self, control: str, env: Environment = PLAIN) -> Path:
        """A fresh copy of the final workspace for ``control`` (folder named after ``env``).

        Read-only inputs are hard links to the base workspace's files (nothing writes them:
        candidates run in the judge's fixture copies), so large fixtures cost no copying;
        the editable paths are real copies.
        """
        dest = self.tmp / control / env.folder
        shutil.copytree(self.base, dest, symlinks=True, copy_function=self._link_or_copy)
        return dest

    def _link_or_copy(self, src: str, dest: str) -> None:
        rel = Path(src).relative_to(self.base).as_posix()
        if not self.layout.is_editable(rel):
            with contextlib.suppress(OSError):  # no hard links here: copy instead
                os.link(src, dest)
                return
        shutil.copy2(src, dest)

    @property
    def sealed(self) -> bool:
        """Whether judges seal the candidates (check was not told ``--unsealed``)."""
        return not self.judge.unsealed

    def run(self, workspace: Path, env: Environment = PLAIN) -> Verdict:
        """Judge ``workspace`` under ``env``; refuse the verdict if the judge changed it (one
        that ran its candidates unsealed although check seals them is refused by
        :func:`~benchsmith.judging.run_judge`).

        The digest cache (by inode and mtime) is shared by the before/after listings and
        across runs, so large read-only inputs are hashed once per task.
        """
        before = benchlib.tree_entries(workspace, self.digests)
        verdict = run_judge(self.judge, workspace, variables=env.variables(), umask=env.umask)
        changed = first_difference(before, benchlib.tree_entries(workspace, self.digests))
        if changed:
            return verdict.refused(f"the judge changed the workspace ({changed})")
        return verdict

    def layered(self, control: str, *layers: str, env: Environment = PLAIN) -> Path:
        """A workspace with the task folders ``layers`` overlaid in order (reference, ...)."""
        workspace = self.workspace(control, env)
        for layer in layers:
            merge_editable(self.task_dir / layer, workspace, self.spec.editable)
        return workspace


ControlFunction = Callable[[TaskSetup], ControlResult]


@dataclass(frozen=True, slots=True)
class Control:
    """A registered control.

    Attributes:
        name: Column name in reports.
        summary: What it demonstrates.
        function: The control itself.
        slow: Whether it waits for a timeout (scheduled first).
    """

    name: str
    summary: str
    function: ControlFunction
    slow: bool = False


CONTROLS: dict[str, Control] = {}


def control(
    name: str, summary: str, *, slow: bool = False
) -> Callable[[ControlFunction], ControlFunction]:
    """Register a control under ``name`` (battery order is registration order)."""

    def register(function: ControlFunction) -> ControlFunction:
        CONTROLS[name] = Control(name, summary, function, slow)
        return function

    return register


def merge_editable(src_root: Path, workspace: Path, editable: Sequence[str]) -> None:
    """Copy the editable paths present under ``src_root`` into ``workspace``, merging folders."""
    for rel in editable:
        src = src_root / rel.rstrip("/")
        if src.is_dir():
            benchlib.copy_tree(src, workspace / rel.rstrip("/"))
        elif src.is_file():
            benchlib.ensure_parent(workspace / rel)
            shutil.copy2(src, workspace / rel)


def judged(
    name: str, outcome: Verdict, bound: LevelBound, started: float, extra: Sequence[str] = ()
) -> ControlResult:
    """The result of a control that judged one workspace against ``bound``."""
    problems = list(outcome.problems) + list(extra)
    level = outcome.claimed_level
    if level is not None and not bound.admits(level):
        problems.insert(0, f"level {level}, expected {bound}")
    return ControlResult(
        control=name,
        expected=str(bound),
        observed="no verdict" if level is None else str(level),
        passed=not problems,
        level=level,
        reason="; ".join(problems),
        notes=outcome.claimed_notes,
        seconds=time.monotonic() - started,
    )


def failed(name: str, expected: str, reason: str, started: float) -> ControlResult:
    """A control that could not run its judge at all."""
    return ControlResult(
        name, expected, "not run", False, reason=reason, seconds=time.monotonic() - started
    )


def skipped(name: str, expected: str, why: str) -> ControlResult:
    """A control not run on purpose (it is recorded, and is no failure)."""
    return ControlResult(name, expected, "skipped", True, notes=(why,))


def _candidate_control(setup: TaskSetup, name: str, kind: str, bound: LevelBound) -> ControlResult:
    """Install the ``kind`` candidate in a fresh workspace and judge it."""
    started = time.monotonic()
    try:
        entries = candidates.entry_points(setup.spec)
    except candidates.CandidateError as exc:
        return failed(name, str(bound), f"cannot synthesize a candidate: {exc}", started)
    workspace = setup.workspace(name)
    candidates.install(workspace, entries, candidates.program(kind, setup.spec))
    if kind == "shadow":
        candidates.plant(workspace, entries)
    return judged(name, setup.run(workspace), bound, started)


def _has_binary_output(spec: TaskSpec) -> bool:
    return any(o.format == "binary" for o in spec.outputs)


def _ships_entry_points(setup: TaskSetup) -> bool:
    """Whether the untouched workspace already holds every command's code (repair tasks)."""
    try:
        entries = candidates.entry_points(setup.spec)
    except candidates.CandidateError:
        return False
    return all((setup.base / e.file).is_file() for e in entries)


# --- floor controls ----------------------------------------------------------------------------


@control("empty", "an empty workspace scores 0")
def empty(setup: TaskSetup) -> ControlResult:
    """Judge an empty folder."""
    started = time.monotonic()
    workspace = setup.tmp / "empty" / "ws"
    workspace.mkdir(parents=True)
    return judged("empty", setup.run(workspace), LevelBound(0, 0), started)


@control("nop", "the untouched seeded workspace scores 0 (a repair task's shipped app: ≤ 2)")
def nop(setup: TaskSetup) -> ControlResult:
    """Judge the final workspace as the runner hands it out."""
    started = time.monotonic()
    bound = LevelBound(0, 2 if _ships_entry_points(setup) else 0)
    return judged("nop", setup.run(setup.workspace("nop")), bound, started)


@control("null", "every command exists, does nothing and exits 0: at most 1")
def null(setup: TaskSetup) -> ControlResult:
    """Judge do-nothing entry points."""
    return _candidate_control(setup, "null", "null", LevelBound(0, 1))


@control("facade", "every output created empty or header-only: at most 2")
def facade(setup: TaskSetup) -> ControlResult:
    """Judge a program that creates every output with no content."""
    return _candidate_control(setup, "facade", "facade", LevelBound(0, 2))


@control(
    "spam",
    "every input copied into every output (each output holds every input row): at most 2",
)
def spam(setup: TaskSetup) -> ControlResult:
    """Judge a program that dumps every input into every declared output."""
    return _candidate_control(setup, "spam", "spam", LevelBound(0, 2))


@control(
    "self-report",
    "the reference's outputs with every detail row shifted (JSON summaries and column totals "
    "kept exactly true): at most 3",
)
def self_report(setup: TaskSetup) -> ControlResult:
    """Judge true summaries over corrupted records: values must be recomputed from records."""
    started = time.monotonic()
    bound = LevelBound(0, 3)
    if not (setup.task_dir / "reference").is_dir():
        return failed("self-report", str(bound), "reference/ is missing", started)
    try:
        entries = candidates.entry_points(setup.spec)
    except candidates.CandidateError as exc:
        return failed("self-report", str(bound), f"cannot synthesize a candidate: {exc}", started)
    lies = _reference_lies(setup)
    skipped = _lie_problem(lies)
    if skipped:
        return ControlResult(
            "self-report", str(bound), "not applicable", True, notes=(skipped,),
            seconds=time.monotonic() - started,
        )  # fmt: skip
    workspace = setup.workspace("self-report")
    candidates.install(workspace, entries, candidates.self_report_program(setup.spec, lies))
    extra = ("corrupted: " + ", ".join(lies[0].corrupted),)
    result = judged("self-report", setup.run(workspace), bound, started)
    return replace(result, notes=extra + result.notes)


def _reference_lies(setup: TaskSetup) -> list[selfreport.FixtureLie]:
    """The reference's outputs on the main and edge fixtures, detail rows corrupted."""
    judge = benchlib.Judge(judge_data(setup.spec), setup.task_dir)
    reference = setup.layered("self-report-reference", "reference")
    cache = setup.judge.cache or setup.tmp / "fixture-cache"
    lies = []
    for fixture in ("main", "edge"):
        scratch = setup.tmp / "self-report-runs" / fixture
        run = benchlib.produce(
            judge, reference, fixture, tmp=scratch, python=setup.python, cache=cache
        )
        lies.append(selfreport.capture(setup.spec, run.root, cache / fixture))
    return lies


def _lie_problem(lies: Sequence[selfreport.FixtureLie]) -> str:
    """Why the self-report candidate cannot be built (empty when it can)."""
    if not lies[0].corrupted:
        return "no detail rows to corrupt: no CSV, JSON Lines or JSON record array output"
    size = sum(lie.size for lie in lies)
    if size > selfreport.EMBED_LIMIT:
        return f"the reference's outputs ({size // 1024} KiB) are too large to embed"
    return ""


@control(
    "stale-outputs",
    "the reference's outputs left in the workspace, commands that do nothing: at most 1",
)
def stale_outputs(setup: TaskSetup) -> ControlResult:
    """Judge do-nothing commands next to finished outputs: outputs must be produced anew."""
    started = time.monotonic()
    bound = LevelBound(0, 1)
    if not (setup.task_dir / "reference").is_dir():
        return failed("stale-outputs", str(bound), "reference/ is missing", started)
    try:
        entries = candidates.entry_points(setup.spec)
    except candidates.CandidateError as exc:
        return failed("stale-outputs", str(bound), f"cannot synthesize a candidate: {exc}", started)
    finished = setup.layered("stale-outputs-reference", "reference")
    _run_commands(setup, finished)
    workspace = setup.workspace("stale-outputs")
    candidates.install(workspace, entries, candidates.program("null", setup.spec))
    for output in setup.spec.outputs:
        produced = finished / output.path.rstrip("/")
        if produced.exists():
            benchlib.copy_path(produced, workspace / output.path.rstrip("/"))
    return judged("stale-outputs", setup.run(workspace), bound, started)


def _run_commands(setup: TaskSetup, workspace: Path) -> None:
    """Run the task's commands in ``workspace`` (no services: outputs are best effort)."""
    for command in setup.spec.commands:
        if command.kind != "run":  # a server would only run into its timeout here
            continue
        benchlib.run_command(
            benchlib.resolve_argv(command.argv, setup.python),
            cwd=workspace / command.cwd,
            timeout=command.timeout,
            scratch=setup.tmp / "stale-outputs-scratch",
            stdin=workspace / command.stdin if command.stdin else None,
        )


# --- achievability ----------------------------------------------------------------------------


@control("reference", "the reference scores 5 three times under varied environments, same verdict")
def reference(setup: TaskSetup) -> ControlResult:
    """Judge reference/ under each environment of :data:`VARIED`."""
    started = time.monotonic()
    expected = "5 in 3 runs, same verdict"
    if not (setup.task_dir / "reference").is_dir():
        return failed("reference", expected, "reference/ is missing", started)
    runs = [
        (env, setup.run(setup.layered("reference", "reference", env=env), env)) for env in VARIED
    ]
    problems = _grouped_problems(runs) + _verdict_drift(runs)
    levels = [o.claimed_level for _, o in runs]
    return ControlResult(
        control="reference",
        expected=expected,
        observed=" ".join("-" if lv is None else str(lv) for lv in levels),
        passed=not problems,
        level=levels[0],
        reason="; ".join(problems),
        notes=tuple(dict.fromkeys(note for _, o in runs for note in o.claimed_notes))[:20],
        seconds=time.monotonic() - started,
    )


def _run_problems(outcome: Verdict) -> list[str]:
    problems = list(outcome.problems)
    level = outcome.claimed_level
    if level is not None and level != 5:
        problems.insert(0, f"level {level}, expected 5")
    return problems


def _grouped_problems(runs: Sequence[tuple[Environment, Verdict]]) -> list[str]:
    """Each run's problems, said once with the runs sharing it (environments when not all)."""
    seen: dict[str, list[int]] = {}
    for number, (_, outcome) in enumerate(runs, start=1):
        for problem in _run_problems(outcome):
            seen.setdefault(problem, []).append(number)
    grouped = []
    for problem, numbers in seen.items():
        if len(numbers) == len(runs):
            grouped.append(f"all {len(runs)} runs: {problem}")
        else:
            where = "; ".join(f"run {n} ({runs[n - 1][0].describe()})" for n in numbers)
            grouped.append(f"{where}: {problem}")
    return grouped


def _verdict_drift(runs: Sequence[tuple[Environment, Verdict]]) -> list[str]:
    """A problem for every run whose printed verdict differs from the first run's."""
    first = runs[0][1].raw
    problems = []
    for number, (env, outcome) in enumerate(runs[1:], start=2):
        printed = outcome.raw
        if first is not None and printed is not None and printed != first:
            key = next(
                k for k in sorted(first.keys() | printed.keys()) if first.get(k) != printed.get(k)
            )
            problems.append(
                f"run {number} ({env.describe()}) gave a different verdict than run 1 at "
                f"{key!r}: {json.dumps(printed.get(key))[:120]} versus "
                f"{json.dumps(first.get(key))[:120]}"
            )
    return problems


@control("witness-level3", "witnesses/level3 (one business rule broken) scores exactly 3")
def witness_level3(setup: TaskSetup) -> ControlResult:
    """Judge the reference with the level-3 witness overlaid."""
    return _witness(setup, 3)


@control("witness-level4", "witnesses/level4 (only the edge rule broken) scores exactly 4")
def witness_level4(setup: TaskSetup) -> ControlResult:
    """Judge the reference with the level-4 witness overlaid."""
    return _witness(setup, 4)


def _witness(setup: TaskSetup, level: int) -> ControlResult:
    """Judge the reference with witnesses/levelN/ overlaid, or witnesses/levelN.patch applied."""
    started = time.monotonic()
    name = f"witness-level{level}"
    workspace = _witness_workspace(setup, name, f"witnesses/level{level}")
    if isinstance(workspace, str):
        return failed(name, str(level), workspace, started)
    return judged(name, setup.run(workspace), LevelBound(level, level), started)


def _witness_workspace(setup: TaskSetup, name: str, folder: str) -> Path | str:
    """The reference with ``folder``/ overlaid or ``folder``.patch applied, or why not."""
    patch = setup.task_dir / f"{folder}.patch"
    if not (setup.task_dir / "reference").is_dir():
        return "reference/ is missing"
    if not patch.is_file() and not (setup.task_dir / folder).is_dir():
        return f"{folder}/ (or {folder}.patch) is missing"
    if not patch.is_file():
        return setup.layered(name, "reference", folder)
    workspace = setup.layered(name, "reference")
    try:
        patches.apply_patch(workspace, patch)
    except patches.PatchError as exc:
        return exc.message
    return workspace


MAX_STAGES = 5  # spec section 4: at most five stages (class H)


def stage_expected(stage: int) -> str:
    """What the stage-``stage`` witness must score: 5 at its stage, exactly 3 finally."""
    return f"5 at stage {stage}, 3 final"


def _stage_witness(stage: int) -> ControlFunction:
    def witness_stage(setup: TaskSetup) -> ControlResult:
        return _judge_stage_witness(setup, stage)

    witness_stage.__doc__ = f"Judge witnesses/stage{stage} at stage {stage} and finally."
    return witness_stage


for _stage in range(1, MAX_STAGES):
    control(
        f"witness-stage{_stage}",
        f"witnesses/stage{_stage} (the reference stopped after stage {_stage}) scores 5 at "
        f"stage {_stage} and exactly 3 on the final verdict (stage ladder)",
    )(_stage_witness(_stage))


def _judge_stage_witness(setup: TaskSetup, stage: int) -> ControlResult:
    """Judge the stop-after-stage-``stage`` witness with ``judge.py --stage N`` and finally.

    The stage ladder (spec section 6, CONTRIBUTING "Reference and witnesses"): a solution
    that completed stages 1 to N and stopped is a complete stage-N solution (5 at
    ``--stage N``) and, finally, a level-3 solution: its core transformation is right, a
    follow-up requirement is missing. A stage that is the task's last (or beyond it) has
    no witness: not applicable.
    """
    started = time.monotonic()
    name, expected = f"witness-stage{stage}", stage_expected(stage)
    if stage >= len(setup.spec.stages):
        why = "a single-stage task" if len(setup.spec.stages) < 2 else f"stage {stage} is the last"
        return ControlResult(
            name, expected, "not applicable", True, notes=(why,),
            seconds=time.monotonic() - started,
        )  # fmt: skip
    workspace = _witness_workspace(setup, name, f"witnesses/stage{stage}")
    if isinstance(workspace, str):
        fix = (
            f"; write it as a unified diff against reference/ that leaves out what stages "
            f"{stage + 1}+ add (CONTRIBUTING, Reference and witnesses)"
        )
        return failed(name, expected, workspace + fix, started)
    at_stage = replace(setup, judge=replace(setup.judge, stage=stage)).run(workspace)
    final = setup.run(workspace)
    levels = [at_stage.claimed_level, final.claimed_level]
    problems = [f"stage {stage}: {p}" for p in at_stage.problems]
    problems += [f"final: {p}" for p in final.problems]
    if levels[0] is not None and levels[0] != 5:
        problems.insert(0, f"level {levels[0]} at stage {stage}, expected 5")
    if levels[1] is not None and levels[1] != 3:
        problems.insert(0, f"level {levels[1]} on the final verdict, expected 3")
    shown = ["-" if level is None else str(level) for level in levels]
    return ControlResult(
        control=name,
        expected=expected,
        observed=f"{shown[0]} at stage {stage}, {shown[1]} final",
        passed=not problems,
        level=levels[0],
        reason="; ".join(problems),
        notes=tuple(f"stage {stage}: {n}" for n in at_stage.claimed_notes)
        + tuple(f"final: {n}" for n in final.claimed_notes),
        seconds=time.monotonic() - started,
    )


# --- determinism and isolation ------------------------------------------------------------------


@control("determinism", "seed.py under a varied environment: the tree hash the lock records")
def determinism(setup: TaskSetup) -> ControlResult:
    """Run seed.py for each fixture under a varied environment and compare with the lock."""
    started = time.monotonic()
    problems: list[str] = []
    observed: list[str] = []
    for fixture in FIXTURES:
        try:
            digest, problem = _fixture_hash(setup, fixture)
        except SeedError as exc:
            problems.append(exc.message)
            continue
        observed.append(f"{fixture} {digest[:12]}")
        problems += [problem] if problem else []
        problems += _lock_problem(setup, fixture, digest)
    return ControlResult(
        control="determinism",
        expected="stable, equal to benchsmith.lock",
        observed=", ".join(observed) or "no hash",
        passed=not problems,
        reason="; ".join(problems),
        seconds=time.monotonic() - started,
    )


def _fixture_hash(setup: TaskSetup, fixture: str) -> tuple[str, str]:
    """seed.py's tree hash for ``fixture`` and a problem when two environments disagree.

    benchsmith.lock records the hash of a run under :data:`PLAIN`, so one run under the
    first varied environment that hashes to it proves both: the fixture is the locked one,
    and these two environments give it alike. Only when it differs does seed.py run under
    PLAIN too, to tell a generator that depends on its environment (the first differing
    file is named) from a fixture that drifted since it was locked (task 13's main fixture
    takes 20 s to seed).
    """
    varied = _seed(setup, fixture, VARIED[1])
    digest = benchlib.entries_hash(varied)
    if digest == setup.lock.get(fixture):
        return digest, ""
    plain = _seed(setup, fixture, VARIED[0])
    difference = first_difference(plain, varied)
    problem = ""
    if difference:
        problem = (
            f"seed.py --fixture {fixture} is not deterministic: {difference} "
            f"({VARIED[0].describe()} versus {VARIED[1].describe()})"
        )
    return benchlib.entries_hash(plain), problem


def _seed(setup: TaskSetup, fixture: str, env: Environment) -> Entries:
    dest = setup.tmp / "determinism" / f"{env.name} {env.folder}" / fixture
    return seed_entries(setup.task_dir, dest, fixture=fixture, python=setup.python, env=env)


def _lock_problem(setup: TaskSetup, fixture: str, digest: str) -> list[str]:
    recorded = setup.lock.get(fixture)
    hint = f"run benchsmith lock {display_path(setup.task_dir)}"
    if recorded is None:
        return [f"benchsmith.lock records no {fixture} seed hash; {hint}"]
    if recorded != digest:
        return [
            f"seed.py's {fixture} fixture hashes to {digest[:12]}, benchsmith.lock records "
            f"{recorded[:12]}: the fixture drifted since it was locked (if intended, {hint})"
        ]
    return []


@control(
    "isolation",
    "no judge, reference, witness, mutant or edge file; no private value in shipped text",
)
def isolation(setup: TaskSetup) -> ControlResult:
    """Search the final workspace for private names, contents and values."""
    started = time.monotonic()
    problems = isolation_problems(setup.spec, setup.base)
    return ControlResult(
        control="isolation",
        expected="nothing private",
        observed=f"{len(problems)} leak(s)" if problems else "clean",
        passed=not problems,
        reason="; ".join(problems[:10]),
        notes=tuple(problems),
        seconds=time.monotonic() - started,
    )


# --- hostile candidates -------------------------------------------------------------------------


@control(
    "hostile-loop",
    f"a command that never ends: killed at its timeout (scaled to {LOOP_WAIT:g} s), at most 1",
    slow=True,
)
def hostile_loop(setup: TaskSetup) -> ControlResult:
    """Judge an infinite loop (it sleeps, so it does not starve the other controls).

    The judge runs with ``--time-scale`` so each command's timeout becomes
    :data:`LOOP_WAIT` seconds: the control proves the kill without waiting out a long task
    timeout. Only this control scales; the reference and witnesses run with the real ones.
    """
    scaled = replace(setup, judge=replace(setup.judge, time_scale=loop_scale(setup.spec)))
    return _candidate_control(scaled, "hostile-loop", "loop", LevelBound(0, 1))


def loop_scale(spec: TaskSpec) -> float:
    """The ``--time-scale`` that gives the task's longest command :data:`LOOP_WAIT` seconds."""
    longest = max((c.timeout for c in spec.commands), default=LOOP_WAIT)
    return min(1.0, LOOP_WAIT / longest)


@control("hostile-crash", "a command that crashes at once: at most 1")
def hostile_crash(setup: TaskSetup) -> ControlResult:
    """Judge an immediate crash."""
    return _candidate_control(setup, "hostile-crash", "crash", LevelBound(0, 1))


@control("hostile-flood", "60 MB on stdout, then empty outputs: at most 2")
def hostile_flood(setup: TaskSetup) -> ControlResult:
    """Judge a program that floods standard output."""
    return _candidate_control(setup, "hostile-flood", "flood", LevelBound(0, 2))


@control("hostile-orphan", "children left running (one in a new session) are killed: at most 1")
def hostile_orphan(setup: TaskSetup) -> ControlResult:
    """Judge a program that leaves sleeping children behind; none may outlive the judge."""
    started = time.monotonic()
    bound = LevelBound(0, 1)
    try:
        entries = candidates.entry_points(setup.spec)
    except candidates.CandidateError as exc:
        return failed(
            "hostile-orphan", str(bound), f"cannot synthesize a candidate: {exc}", started
        )
    marker = f"benchsmith-orphan-{uuid.uuid4().hex}"
    workspace = setup.workspace("hostile-orphan")
    candidates.install(workspace, entries, candidates.program("orphan", setup.spec, marker))
    outcome = setup.run(workspace)
    survivors = _survivors(marker.encode())
    extra = [f"process {pid} left by the candidate outlived the judge" for pid in survivors]
    return judged("hostile-orphan", outcome, bound, started, extra)


def _survivors(marker: bytes) -> list[int]:
    """Running processes whose command line carries ``marker``; killed before returning.

    The orphan candidate's children carry the marker, so they are found in the process
    table whether they ran sealed (in a PID namespace of their own) or not.
    """
    deadline = time.monotonic() + 2.0  # a SIGKILL sent by the judge may still be in flight
    while (alive := _marked(marker)) and time.monotonic() < deadline:
        time.sleep(0.02)
    for pid in alive:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    return alive


def _marked(marker: bytes) -> list[int]:
    """Live processes whose command line carries ``marker``."""
    found = []
    for entry in sorted(Path("/proc").iterdir()):
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
    return [pid for pid in found if pid != os.getpid() and _running(pid)]


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live (not zombie) process."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[:1] != ["Z"]


@control("hostile-deleted", "outputs created then deleted, inputs removed: at most 1")
def hostile_deleted(setup: TaskSetup) -> ControlResult:
    """Judge a program that deletes its outputs and everything else it can."""
    return _candidate_control(setup, "hostile-deleted", "deleted", LevelBound(0, 1))


@control("hostile-binary", "binary junk in every output: at most 1 (2 with a binary output)")
def hostile_binary(setup: TaskSetup) -> ControlResult:
    """Judge a program that writes binary junk to every output."""
    bound = LevelBound(0, 2 if _has_binary_output(setup.spec) else 1)
    return _candidate_control(setup, "hostile-binary", "binary", bound)


@control("hostile-directory", "a folder where each output file is expected: at most 1")
def hostile_directory(setup: TaskSetup) -> ControlResult:
    """Judge a program that makes folders where files are expected."""
    return _candidate_control(setup, "hostile-directory", "directory", LevelBound(0, 1))


@control("hostile-shadow", "planted sitecustomize.py, json.py and a fake verdict: at most 1")
def hostile_shadow(setup: TaskSetup) -> ControlResult:
    """Judge a program that prints a fake verdict beside planted shadowing modules."""
    return _candidate_control(setup, "hostile-shadow", "shadow", LevelBound(0, 1))


@control(
    "hostile-odd-tree",
    "the null program beside a folder 1,200 deep, a FIFO, names that are not UTF-8 and "
    "sparse files of 2.3 GiB: ≤ 1",
)
def hostile_odd_tree(setup: TaskSetup) -> ControlResult:
    """Judge do-nothing entry points whose folder holds a tree the judge must treat as data."""
    name, bound, started = "hostile-odd-tree", LevelBound(0, 1), time.monotonic()
    try:
        entries = candidates.entry_points(setup.spec)
    except candidates.CandidateError as exc:
        return failed(name, str(bound), f"cannot synthesize a candidate: {exc}", started)
    workspace = setup.workspace(name)
    candidates.install(workspace, entries, candidates.program("null", setup.spec))
    candidates.plant_odd_tree(workspace / posixpath.dirname(entries[0].file))
    return judged(name, setup.run(workspace), bound, started)


# --- the sandbox ----------------------------------------------------------------------------------

UNSEALED_SKIP = "not run unsealed: this candidate attacks the host"


@control("escape", "looks for the task folder through /proc, PWD, .. and the filesystem: ≤ 1")
def escape(setup: TaskSetup) -> ControlResult:
    """Judge a program that runs the task's reference solution if it can find the task folder."""
    if not setup.sealed:
        return skipped("escape", "≤ 1", UNSEALED_SKIP)
    return _candidate_control(setup, "escape", "escape", LevelBound(0, 1))


@control("forge", "writes a level-5 verdict into every descriptor and path it reaches: ≤ 1")
def forge(setup: TaskSetup) -> ControlResult:
    """Judge a program that writes fake verdicts everywhere, /proc/*/fd/* included."""
    if not setup.sealed:
        return skipped("forge", "≤ 1", UNSEALED_SKIP)
    return _candidate_control(setup, "forge", "forge", LevelBound(0, 1))


@control(
    "poison",
    "appends a fake verdict to every benchlib.py, judge.py and seed.py it reaches: ≤ 1, the "
    "task folder and corpus unchanged, then an empty workspace still 0",
)
def poison(setup: TaskSetup) -> ControlResult:
    """Judge a program that poisons the runtime and judges, then prove nothing changed."""
    expected = "≤ 1, corpus unchanged, then 0"
    if not setup.sealed:
        return skipped("poison", expected, UNSEALED_SKIP)
    corpus = setup.task_dir.resolve().parent
    kept = _sources(corpus)
    before = benchlib.tree_entries(corpus)
    result = _candidate_control(setup, "poison", "poison", LevelBound(0, 1))
    problems = [result.reason] if result.reason else []
    changed = first_difference(before, benchlib.tree_entries(corpus))
    if changed:
        problems.append(f"the corpus changed ({changed}); its Python files were restored")
        _restore(corpus, kept)
    workspace = setup.tmp / "poison-after" / "ws"
    workspace.mkdir(parents=True)
    after = setup.run(workspace)
    problems += [f"then an empty workspace: {p}" for p in after.problems]
    if after.progress_level != 0:
        problems.append(f"then an empty workspace scored {after.progress_level}, expected 0")
    return dataclasses.replace(
        result,
        expected=expected,
        observed=f"{result.observed}, then {after.progress_level}",
        passed=not problems,
        reason="; ".join(problems),
        seconds=result.seconds + after.seconds,
    )


def _sources(corpus: Path) -> dict[Path, bytes]:
    """The Python files of ``corpus`` (restored should a poisoning get through)."""
    return {path: path.read_bytes() for path in sorted(corpus.rglob("*.py")) if path.is_file()}


def _restore(corpus: Path, kept: dict[Path, bytes]) -> None:
    for path, data in kept.items():
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
