"""The judge-strength command: ``audit``.

It calls the library function of the same name and prints its result.
"""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import benchsmith
from benchsmith.api import DEFAULT_AUDIT_SAMPLE, DEFAULT_VERIFY_SAMPLE
from benchsmith.cli._common import (
    AllOpt,
    Command,
    CorpusOpt,
    JsonOpt,
    PythonOpt,
    TasksArg,
    emit_json,
)

if TYPE_CHECKING:
    from benchsmith.auditing.runner import AuditProgress

JobsOpt = Annotated[
    int | None,
    typer.Option(
        "-j", "--jobs", min=1, help="Worker processes classifying mutants (default: CPUs)."
    ),
]
HtmlOpt = Annotated[
    Path | None,
    typer.Option("--html", help="Also write a self-contained HTML page (every mutant's diff)."),
]
StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict", help="Unjustified equivalents, undecided expectations and findings fail too."
    ),
]
OperatorOpt = Annotated[
    list[str] | None,
    typer.Option("--operator", help="Only mutants of this operator (repeatable; 'authored')."),
]
SampleOpt = Annotated[
    int | None,
    typer.Option(
        "--sample",
        min=0,
        help=f"At most N generated mutants per task, every operator represented (default "
        f"{DEFAULT_AUDIT_SAMPLE}); with --recorded, the recorded mutants run again to verify "
        f"the record (default {DEFAULT_VERIFY_SAMPLE}).",
    ),
]
RecordOpt = Annotated[
    bool,
    typer.Option(
        "--record",
        help="Write each task's fates to its audit.lock (with --full: every mutant).",
    ),
]
RecordedOpt = Annotated[
    bool,
    typer.Option(
        "--recorded",
        help="Take fates from each task's current audit.lock; rerun --sample of them to "
        "verify it, and every mutant it does not know. A missing or stale record is a finding.",
    ),
]
FullOpt = Annotated[
    bool, typer.Option("--full", help="Run every mutant: no sample (slow on large tasks).")
]
SeedOpt = Annotated[
    int, typer.Option("--seed", help="Seed of the sample: the same seed runs the same mutants.")
]
ExpectOpt = Annotated[
    bool,
    typer.Option(
        "--expectations/--no-expectations",
        help="Prove every expected value load-bearing (default: yes).",
    ),
]


def audit(
    tasks: TasksArg = None,
    all_tasks: AllOpt = False,
    corpus: CorpusOpt = Path("tasks"),
    jobs: JobsOpt = None,
    as_json: JsonOpt = False,
    html: HtmlOpt = None,
    strict: StrictOpt = False,
    operator: OperatorOpt = None,
    expectations: ExpectOpt = True,
    python: PythonOpt = None,
    sample: SampleOpt = None,
    full: FullOpt = False,
    seed: SeedOpt = 0,
    record: RecordOpt = False,
    recorded: RecordedOpt = False,
) -> None:
    """Mutation-test each task's judge: mutants of the reference must not score 5.

    Exit 1 when a mutant survives, an expected value is not load-bearing or a task cannot be
    audited; with --strict also for unjustified equivalent mutants and other findings.
    Large tasks are sampled: --sample N runs at most N generated mutants per task, chosen
    by --seed and stratified by operator; --full runs them all. --full --record writes the
    fates to each task's audit.lock; --recorded (CI) takes them from a current record,
    re-running a few to verify it.
    """
    from benchsmith.auditing.present import html_page, table_text

    report = benchsmith.audit(
        tasks or (), all_tasks=all_tasks, corpus=corpus, jobs=jobs, strict=strict,
        operators=operator or (), expectations=expectations, python=python,
        on_progress=_progress, sample=_sample(sample, full, recorded), seed=seed,
        record=record, recorded=recorded,
    )  # fmt: skip
    if html is not None:
        html.parent.mkdir(parents=True, exist_ok=True)
        html.write_text(html_page(report), encoding="utf-8")
        typer.echo(f"wrote {html}", err=True)
    if as_json:
        emit_json(report.to_dict())
    else:
        typer.echo(table_text(report), nl=False)
    raise typer.Exit(0 if report.ok else 1)


def _sample(sample: int | None, full: bool, recorded: bool) -> int | None:
    """``--sample`` as given, else its default; ``None`` (every mutant) with ``--full``."""
    if full:
        return None
    if sample is not None:
        return sample
    return DEFAULT_VERIFY_SAMPLE if recorded else DEFAULT_AUDIT_SAMPLE


def _progress(event: "AuditProgress") -> None:
    """Progress on stderr: every finished job on a terminal, each tenth of a task otherwise."""
    line = f"audit {event.task}: {event.done}/{event.total} {event.item} {event.outcome}"
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + line[:150] + ("\n" if event.done == event.total else ""))
        sys.stderr.flush()
    elif event.done == event.total:
        typer.echo(f"audited {event.task}: {event.total} job(s)", err=True)
    elif event.done * 10 // event.total != (event.done - 1) * 10 // event.total:
        typer.echo(f"audit {event.task}: {event.done}/{event.total} job(s) done", err=True)


COMMANDS: tuple[Command, ...] = (audit,)
