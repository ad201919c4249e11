"""Rendering an :class:`~benchsmith.auditing.results.AuditReport`: a text table and one HTML page.

Both are pure functions returning text. The table has one line per task (mutants by fate,
expectations load-bearing); below it, one line per finding: every survivor, every
unjustified equivalent as ``file:line: rule not exercised by any fixture``, every expectation
that checks nothing, every error. The HTML page shows each mutant's diff and fate.
"""

from __future__ import annotations

from html import escape

from benchsmith.auditing.mutants import AUTHORED
from benchsmith.auditing.results import AuditReport, MutantResult, TaskAudit

HEADER = ("task", "mutants", "killed", "equivalent", "justified", "survived", "errors", "expect")


def table_text(report: AuditReport) -> str:
    """One row per task, then the findings, then a summary line."""
    rows = [HEADER, *(_row(task) for task in report.tasks)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    findings = [line for task in report.tasks for line in finding_lines(task, report.strict)]
    findings += [line for task in report.tasks for line in sample_lines(task)]
    findings += [line for task in report.tasks for line in record_lines(task)]
    lines += ["", *findings] if findings else []
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def _row(task: TaskAudit) -> tuple[str, ...]:
    if task.error:
        return (task.task, "-", "-", "-", "-", "-", "-", "ERROR")
    counts = task.counts()
    bearing = sum(e.load_bearing is True for e in task.expectations)
    return (
        task.task,
        str(counts["total"]),
        str(counts["killed"]),
        str(counts["equivalent"]),
        str(counts["justified"]),
        str(counts["survived"]),
        str(counts["error"]),
        f"{bearing}/{len(task.expectations)}",
    )


def _where(result: MutantResult) -> str:
    mutant = result.mutant
    return f"{mutant.file}:{mutant.line}"


def finding_lines(task: TaskAudit, strict: bool) -> list[str]:
    """Everything the author must act on, one line each (warnings marked when not strict)."""
    name = task.task
    lines = [f"{name}: {task.error}"] if task.error else []
    lines += [
        f"{name}: SURVIVED {r.mutant.id}: {r.mutant.description} (level 5; {r.reason})"
        for r in task.by_fate("survived")
    ]
    lines += [f"{name}: ERROR {r.mutant.id}: {r.reason}" for r in task.by_fate("error")]
    lines += [
        f"{name}: expectation {e.name} ({e.fixture}) is not load-bearing: with {e.field} "
        f"{e.original!r} -> {e.perturbed!r} the reference still passes"
        for e in task.idle_expectations
    ]
    mark = "" if strict else "warning: "
    lines += [
        f"{name}: {mark}{_where(r)}: rule not exercised by any fixture: {r.mutant.id}: "
        f"{r.mutant.description}" + (" (form only: the judge accepts it)" if r.form_only else "")
        for r in task.unjustified
    ]
    lines += [
        f"{name}: {mark}expectation {e.name} ({e.fixture}) {e.field}: undecided: {e.note}"
        for e in task.expectations
        if e.load_bearing is None
    ]
    lines += [f"{name}: {mark}{finding}" for finding in task.findings]
    return lines


def sample_lines(task: TaskAudit) -> list[str]:
    """What a sample left out: ``TASK: sampled 60 of 581 generated mutants (seed 0) ...``."""
    sample = task.sample
    if sample is None or not sample.sampled:
        return []
    ran = sum(run for op, run, _ in sample.operators if op != AUTHORED)
    skipped = ", ".join(f"{op} {total - run}" for op, run, total in sample.operators if run < total)
    return [
        f"{task.task}: sampled {ran} of {ran + len(sample.skipped)} generated mutants "
        f"(seed {sample.seed}; --full runs all); skipped {len(sample.skipped)}: {skipped}"
    ]


def record_lines(task: TaskAudit) -> list[str]:
    """How the task's ``audit.lock`` was used: replayed and verified, or written."""
    use = task.record
    if use is None or not use.current:
        return []  # a missing or stale record is a finding already
    if use.written:
        return [
            f"{task.task}: wrote audit.lock: {len(task.mutants)} mutant(s), "
            f"{len(task.expectations)} expectation(s)"
        ]
    unrecorded = f"; {use.unrecorded} not in it, run" if use.unrecorded else ""
    return [
        f"{task.task}: {use.replayed} of {len(task.mutants)} fates from audit.lock, "
        f"{len(use.verified)} run again to verify it{unrecorded}"
    ]


def summary_line(report: AuditReport) -> str:
    """``2 task(s), 74 mutant(s): 0 survived, 3 unjustified equivalent(s) (9.1 s, -j 2)``."""
    total = sum(len(t.mutants) for t in report.tasks)
    survived = sum(len(t.by_fate("survived")) for t in report.tasks)
    unjustified = sum(len(t.unjustified) for t in report.tasks)
    idle = sum(len(t.idle_expectations) for t in report.tasks)
    skipped = sum(len(t.sample.skipped) for t in report.tasks if t.sample is not None)
    replayed = sum(t.record.replayed for t in report.tasks if t.record is not None)
    verdict = "audit passed" if report.ok else "audit FAILED"
    notes = [f"{replayed} from audit.lock"] if replayed else []
    notes += [f"{skipped} more skipped by the sample"] if skipped else []
    left_out = f" ({'; '.join(notes)})" if notes else ""
    return (
        f"{len(report.tasks)} task(s), {total} mutant(s){left_out}: {survived} survived, "
        f"{unjustified} unjustified equivalent(s), {idle} idle expectation(s); {verdict} "
        f"({report.seconds:.1f} s, -j {report.jobs})"
    )


_STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1f2328; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
h3 { font-size: 1rem; margin-top: 1.2rem; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d0d7de; padding: .3rem .5rem; text-align: left; }
.summary.ok { color: #1a7f37; } .summary.fail { color: #cf222e; }
details { margin: .25rem 0; } summary { cursor: pointer; }
.survived > summary, .error > summary { color: #cf222e; font-weight: 600; }
.unjustified > summary { color: #9a6700; font-weight: 600; }
.killed > summary { color: #1a7f37; } .justified > summary { color: #57606a; }
pre { white-space: pre-wrap; background: #f6f8fa; padding: .5rem; margin: .25rem 0; }
ins { background: #dafbe1; text-decoration: none; } del { background: #ffd8d3; }
"""


def html_page(report: AuditReport) -> str:
    """One self-contained HTML page: a section per task, every mutant with its diff and fate."""
    state = "ok" if report.ok else "fail"
    body = [
        "<h1>benchsmith audit</h1>",
        f'<p class="summary {state}">{escape(summary_line(report))}</p>',
        f"<p>Python: <code>{escape(report.python)}</code></p>",
        *(_task_section(task, report.strict) for task in report.tasks),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>benchsmith audit</title>\n"
        f"<style>{_STYLE}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


def _task_section(task: TaskAudit, strict: bool) -> str:
    parts = [f"<h2>{escape(task.task)}</h2>"]
    row = _row(task)
    parts.append(
        "<table><tr>"
        + "".join(f"<th>{escape(h)}</th>" for h in HEADER[1:])
        + "</tr><tr>"
        + "".join(f"<td>{escape(c)}</td>" for c in row[1:])
        + "</tr></table>"
    )
    findings = finding_lines(task, strict) + sample_lines(task) + record_lines(task)
    if findings:
        parts.append("<ul>" + "".join(f"<li>{escape(f)}</li>" for f in findings) + "</ul>")
    groups = (
        ("Survived", "survived", task.by_fate("survived")),
        ("Errors", "error", task.by_fate("error")),
        ("Unjustified equivalents", "unjustified", task.unjustified),
        ("Justified equivalents", "justified", [r for r in task.mutants if r.justified]),
        ("Killed", "killed", task.by_fate("killed")),
    )
    for title, css, results in groups:
        if results:
            parts.append(f"<h3>{escape(title)} ({len(results)})</h3>")
            parts += [_mutant_item(r, css) for r in results]
    if task.expectations:
        parts.append(_expectations_table(task))
    return "\n".join(parts)


def _mutant_item(result: MutantResult, css: str) -> str:
    mutant = result.mutant
    level = "" if result.level is None else f", level {result.level}"
    title = f"{mutant.id} — {result.fate}{level}: {mutant.description}"
    details = [f"<p>{escape(result.reason)}</p>"] if result.reason else []
    if result.why:
        details.append(f"<p>Justified: {escape(result.why)}</p>")
    details.append(f"<pre>{_diff_html(mutant.diff)}</pre>")
    return f'<details class="{css}"><summary>{escape(title)}</summary>{"".join(details)}</details>'


def _diff_html(diff: str) -> str:
    lines = []
    for line in diff.splitlines():
        text = escape(line)
        if line.startswith("+") and not line.startswith("+++"):
            text = f"<ins>{text}</ins>"
        elif line.startswith("-") and not line.startswith("---"):
            text = f"<del>{text}</del>"
        lines.append(text)
    return "\n".join(lines)


def _expectations_table(task: TaskAudit) -> str:
    names = ("expectation", "fixture", "value", "perturbed", "verdict")
    head = "<tr>" + "".join(f"<th>{n}</th>" for n in names) + "</tr>"
    rows = []
    for e in task.expectations:
        verdict = {True: "load-bearing", False: "NOT load-bearing", None: "undecided"}
        rows.append(
            f"<tr><td>{escape(e.name)} {escape(e.field)}</td><td>{escape(e.fixture)}</td>"
            f"<td>{escape(repr(e.original))}</td><td>{escape(repr(e.perturbed))}</td>"
            f"<td>{verdict[e.load_bearing]}</td></tr>"
        )
    return "<h3>Expectations</h3><table>" + head + "".join(rows) + "</table>"
