"""Rendering a :class:`~benchsmith.checking.results.CheckReport`: a text table and one HTML page.

Both are pure functions returning text; the CLI decides where it goes. The HTML page is
self-contained (inline CSS, no script): a colour-coded matrix of tasks by controls and, below
it, every control's expectation, observation, reason and notes.
"""

from __future__ import annotations

from benchsmith.checking.results import CheckReport, ControlResult, TaskReport
from benchsmith.tables import (
    PASSED,
    TASK,
    Cell,
    escape,
    html_document,
    html_table,
    passed_word,
    text_table,
)

HEADERS = [TASK, "control", "observed", "expected", PASSED]


def table_text(report: CheckReport) -> str:
    """One line per task and control (observed, expected, passed), then the failures' reasons."""
    rows = []
    for task in report.tasks:
        if task.error:
            rows.append([task.task, "(set-up)", "-", "-", passed_word(False)])
        rows += [[task.task, c.control, c.observed, c.expected, _passed(c)] for c in task.controls]
    lines = [text_table(HEADERS, rows, numeric=False), *_failure_lines(report)]
    lines += [] if report.sealed else [unsealed_line(report)]
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def _passed(result: ControlResult) -> str:
    """The passed column: a control skipped (unsealed) says so rather than "yes"."""
    return "skipped" if result.observed == "skipped" else passed_word(result.passed)


def unsealed_line(report: CheckReport) -> str:
    """The warning every unsealed report carries."""
    return f"UNSEALED: candidates ran without the sandbox ({report.unsealed_reason})"


FAILURE_NOTES = 3
"""The judge's notes shown under each failed control (its first ones: the failing checks)."""


def _failure_lines(report: CheckReport) -> list[str]:
    """Each failure's reason, then the first notes of its verdict, indented: which of the
    judge's checks failed and why, without ``--json``."""
    lines = []
    for task in report.tasks:
        if task.error:
            lines.append(f"{task.task}: {task.error}")
        for control in task.failures:
            lines.append(f"{task.task}: {control.control}: {control.reason}")
            lines += [f"    {_clipped(n)}" for n in control.notes[:FAILURE_NOTES]]
    return ["", *lines] if lines else []


def _clipped(note: str, limit: int = 200) -> str:
    return note if len(note) <= limit else note[: limit - 3] + "..."


def summary_line(report: CheckReport) -> str:
    """``2 task(s), 34 control(s): all expectations met (12.3 s, -j 2)`` or the failure count."""
    controls = sum(len(t.controls) for t in report.tasks)
    failed = sum(len(t.failures) + bool(t.error) for t in report.tasks)
    verdict = "all expectations met" if report.ok else f"{failed} failed"
    timing = f"{report.seconds:.1f} s, -j {report.jobs}"
    return f"{len(report.tasks)} task(s), {controls} control(s): {verdict} ({timing})"


def html_page(report: CheckReport) -> str:
    """One self-contained HTML page of the report."""
    state = "ok" if report.ok else "fail"
    return html_document(
        "benchsmith check",
        [
            f'<p class="summary {state}">{escape(summary_line(report))}</p>',
            "" if report.sealed else f'<p class="summary fail">{escape(unsealed_line(report))}</p>',
            f"<p>Python: <code>{escape(report.python)}</code></p>",
            _matrix(report),
            *(_task_section(task) for task in report.tasks),
        ],
    )


def _matrix(report: CheckReport) -> str:
    headers: list[str | Cell] = [Cell(TASK, cls="task"), *report.controls]
    rows = [
        [Cell(markup=_task_link(task), cls="task", head=True), *_cells(task, report.controls)]
        for task in report.tasks
    ]
    return html_table(headers, rows, cls="matrix")


def _task_link(task: TaskReport) -> str:
    mark = "" if task.ok else " ✗"
    return f'<a href="#{_anchor(task.task)}">{escape(task.task)}</a>{mark}'


def _anchor(name: str) -> str:
    return "task-" + "".join(ch if ch.isalnum() else "-" for ch in name)


def _cells(task: TaskReport, controls: list[str]) -> list[Cell]:
    cells = []
    for name in controls:
        result = task.result(name)
        if result is None:
            cells.append(Cell("-", cls="none", title=task.error or "not run"))
            continue
        cells.append(
            Cell(
                result.observed,
                markup=f"<small>expected {escape(result.expected)}</small>",
                cls="ok" if result.passed else "fail",
                title=result.reason or "; ".join(result.notes[:3]) or result.expected,
            )
        )
    return cells


def _task_section(task: TaskReport) -> str:
    state = "all expectations met" if task.ok else f"{len(task.failures)} control(s) failed"
    parts = [
        f'<h2 id="{_anchor(task.task)}">{escape(task.task)}</h2>',
        f"<p>{escape(state)} in {task.seconds:.1f} s</p>",
    ]
    if task.error:
        parts.append(f"<pre>{escape(task.error)}</pre>")
    parts.append("<ul>" + "".join(_control_item(c) for c in task.controls) + "</ul>")
    return "\n".join(parts)


def _control_item(result: ControlResult) -> str:
    state = "ok" if result.passed else "fail"
    title = (
        f"{escape(result.control)}: {escape(result.observed)} "
        f"(expected {escape(result.expected)}) — {PASSED}: {passed_word(result.passed)}"
    )
    details = [f"<pre>{escape(result.reason)}</pre>"] if result.reason else []
    if result.notes:
        details.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for n in result.notes) + "</ul>")
    inner = "".join(details) or "<p>no notes</p>"
    return f'<li class="{state}"><details><summary>{title}</summary>{inner}</details></li>'
