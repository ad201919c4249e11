"""Rendering a :class:`~benchsmith.check.results.CheckReport`: a text table and one HTML page.

Both are pure functions returning text; the CLI decides where it goes. The HTML page is
self-contained (inline CSS, no script): a colour-coded matrix of tasks by controls and, below
it, every control's expectation, observation, reason and notes.
"""

from __future__ import annotations

from html import escape

from benchsmith.check.results import CheckReport, ControlResult, TaskReport


def table_text(report: CheckReport) -> str:
    """One line per task and control (level, expected, verdict), then the failures' reasons."""
    rows = [("task", "control", "observed", "expected", "verdict")]
    for task in report.tasks:
        if task.error:
            rows.append((task.task, "(set-up)", "-", "-", "ERROR"))
        rows += [(task.task, c.control, c.observed, c.expected, _verdict(c)) for c in task.controls]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines += _failure_lines(report)
    lines += [] if report.sealed else [unsealed_line(report)]
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def unsealed_line(report: CheckReport) -> str:
    """The warning every unsealed report carries."""
    return f"UNSEALED: candidates ran without the sandbox ({report.unsealed_reason})"


def _verdict(result: ControlResult) -> str:
    if result.observed == "skipped":
        return "skipped"
    return "ok" if result.passed else "FAIL"


def _failure_lines(report: CheckReport) -> list[str]:
    lines = []
    for task in report.tasks:
        if task.error:
            lines.append(f"{task.task}: {task.error}")
        lines += [f"{task.task}: {c.control}: {c.reason}" for c in task.failures]
    return ["", *lines] if lines else []


def summary_line(report: CheckReport) -> str:
    """``2 task(s), 34 control(s): all expectations met (12.3 s, -j 2)`` or the failure count."""
    controls = sum(len(t.controls) for t in report.tasks)
    failed = sum(len(t.failures) + bool(t.error) for t in report.tasks)
    verdict = "all expectations met" if report.ok else f"{failed} failed"
    timing = f"{report.seconds:.1f} s, -j {report.jobs}"
    return f"{len(report.tasks)} task(s), {controls} control(s): {verdict} ({timing})"


_STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1f2328; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
table.matrix { border-collapse: collapse; }
.matrix th, .matrix td { border: 1px solid #d0d7de; padding: .3rem .5rem; text-align: center; }
.matrix th.task { text-align: left; }
.matrix thead th { writing-mode: vertical-rl; transform: rotate(180deg); font-weight: 600; }
td.ok { background: #dafbe1; } td.fail { background: #ffd8d3; font-weight: 600; }
td.none { background: #f6f8fa; color: #8c959f; }
td small { display: block; color: #57606a; font-weight: normal; }
.summary.ok { color: #1a7f37; } .summary.fail { color: #cf222e; }
details { margin: .25rem 0; } summary { cursor: pointer; }
li.fail > details > summary { color: #cf222e; font-weight: 600; }
pre { white-space: pre-wrap; background: #f6f8fa; padding: .5rem; margin: .25rem 0; }
"""


def html_page(report: CheckReport) -> str:
    """One self-contained HTML page of the report."""
    state = "ok" if report.ok else "fail"
    body = [
        "<h1>benchsmith check</h1>",
        f'<p class="summary {state}">{escape(summary_line(report))}</p>',
        "" if report.sealed else f'<p class="summary fail">{escape(unsealed_line(report))}</p>',
        f"<p>Python: <code>{escape(report.python)}</code></p>",
        _matrix(report),
        *(_task_section(task) for task in report.tasks),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>benchsmith check</title>\n"
        f"<style>{_STYLE}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


def _matrix(report: CheckReport) -> str:
    controls = report.controls
    head = "".join(f"<th>{escape(name)}</th>" for name in controls)
    rows = [
        f'<tr><th class="task">{_task_link(task)}</th>{_cells(task, controls)}</tr>'
        for task in report.tasks
    ]
    return (
        '<table class="matrix">\n<thead><tr><th class="task">task</th>'
        f"{head}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>"
    )


def _task_link(task: TaskReport) -> str:
    mark = "" if task.ok else " ✗"
    return f'<a href="#{_anchor(task.task)}">{escape(task.task)}</a>{mark}'


def _anchor(name: str) -> str:
    return "task-" + "".join(ch if ch.isalnum() else "-" for ch in name)


def _cells(task: TaskReport, controls: list[str]) -> str:
    cells = []
    for name in controls:
        result = task.result(name)
        if result is None:
            text = escape(task.error) if task.error else "not run"
            cells.append(f'<td class="none" title="{text}">-</td>')
            continue
        state = "ok" if result.passed else "fail"
        tip = escape(result.reason or "; ".join(result.notes[:3]) or result.expected, quote=True)
        cells.append(
            f'<td class="{state}" title="{tip}">{escape(result.observed)}'
            f"<small>expected {escape(result.expected)}</small></td>"
        )
    return "".join(cells)


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
        f"(expected {escape(result.expected)}) — {'ok' if result.passed else 'FAIL'}"
    )
    details = [f"<pre>{escape(result.reason)}</pre>"] if result.reason else []
    if result.notes:
        details.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for n in result.notes) + "</ul>")
    inner = "".join(details) or "<p>no notes</p>"
    return f'<li class="{state}"><details><summary>{title}</summary>{inner}</details></li>'
