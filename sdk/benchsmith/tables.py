"""Text and HTML tables for every report: ``benchsmith check``, ``run`` and ``report``.

One vocabulary: the words below name the same things in every report and format. One look:
every HTML page is :func:`html_document` with the same stylesheet, no script and nothing to
fetch, and every table is :func:`text_table` or :func:`html_table`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

# -- vocabulary -----------------------------------------------------------------------------

TASK = "task"
"""A task, by its folder."""
RUN = "run"
"""One run of one task, by its run id."""
LEVEL = "level"
"""A judge's progress level, 0-5."""
LEVELS = "levels 0-5"
"""How many scored runs reached each progress level."""
VERDICT = "verdict"
"""A judge's status: pass, fail or error."""
PASSED = "passed"
"""Whether an expectation was met (:func:`passed_word`)."""


def passed_word(passed: bool) -> str:
    """The cell under :data:`PASSED`: ``yes``, or ``NO`` to stand out."""
    return "yes" if passed else "NO"


# -- text -----------------------------------------------------------------------------------


def text_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], *, numeric: bool = True
) -> str:
    """Columns padded to their widest cell, under a rule of dashes.

    Args:
        headers: Column headers.
        rows: Cells, as many per row as headers.
        numeric: Right-align every column but the first (figures); else align all left.
    """
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        pad = str.rjust if numeric else str.ljust
        rest = [pad(c, w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest]).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *map(line, rows)])


# -- HTML -----------------------------------------------------------------------------------

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1f2328}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-variant-numeric:tabular-nums}
th,td{padding:.2rem .5rem;border-bottom:1px solid #d0d7de;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}thead th{background:#f6f8fa}
table.matrix th,table.matrix td{border:1px solid #d0d7de;padding:.3rem .5rem;
text-align:center;white-space:normal}
table.matrix th.task{text-align:left}
table.matrix thead th{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:600}
td.ok{background:#dafbe1}td.fail{background:#ffd8d3;font-weight:600}
td.none{background:#f6f8fa;color:#8c959f}
td small{display:block;color:#57606a;font-weight:normal}
.summary.ok{color:#1a7f37}.summary.fail{color:#cf222e}.warn{color:#b45309}
details{margin:.25rem 0}summary{cursor:pointer}
li.fail>details>summary{color:#cf222e;font-weight:600}
pre{white-space:pre-wrap;background:#f6f8fa;padding:.5rem;margin:.25rem 0}
.chart{display:grid;grid-template-columns:max-content max-content 24rem max-content;
gap:.25rem .75rem;align-items:center}
.bar{display:flex;height:1rem;background:#f6f8fa}.bar span{display:block}
.legend span{display:inline-block;padding:0 .4rem;margin-right:.3rem;color:#fff}
/* the run report (running/report_html.py) */
body{max-width:80rem}
.meta{color:#57606a}
th small,td small{display:block;color:#57606a;font-weight:normal;font-size:.78rem}
table.grid th,table.grid td{border:1px solid #d0d7de;vertical-align:top}
table.grid tr.total th,table.grid tr.total td{background:#f6f8fa;font-weight:600}
table.grid tr.corpus th,table.grid tr.corpus td{border-top:2px solid #57606a}
td.runs{text-align:left;white-space:normal;min-width:8rem}
.chip{display:inline-block;min-width:1.7em;margin:0 .15rem .15rem 0;padding:0 .2rem;
border-radius:3px;color:#fff;text-align:center;font-weight:600;text-decoration:none;
font-size:.85rem;line-height:1.35rem;border:2px solid transparent}
.chip.strict{border-color:#0b3d1a}.chip.err{background:#8c959f}
.chip.l0{background:#b91c1c}.chip.l1{background:#ea580c}.chip.l2{background:#d97706}
.chip.l3{background:#ca8a04}.chip.l4{background:#65a30d}.chip.l5{background:#15803d}
.better{color:#1a7f37}.worse{color:#cf222e}.same{color:#57606a}
td.delta{min-width:7rem}td.delta svg{display:block;margin-left:auto}
.minibar{display:flex;width:6rem;height:.7rem;background:#f6f8fa;margin-left:auto}
.minibar span{display:block}
.verdict{font-size:1.1rem;font-weight:600}.verdict.pass{color:#1a7f37}
.verdict.fail,.verdict.error{color:#cf222e}
tr.fail td,tr.fail th{background:#fff1ef}
th.l,td.l{text-align:left}
table.matrix2 th{text-align:left}
ul.files{list-style:none;padding:0}ul.files li{display:inline-block;margin-right:1rem}
"""


def escape(text: str) -> str:
    """``text`` safe inside HTML elements and quoted attributes."""
    return html.escape(text, quote=True)


@dataclass(frozen=True, slots=True)
class Cell:
    """A table cell with more than text.

    Attributes:
        text: Its text (escaped here).
        markup: Trusted HTML after the text (the caller escaped what it holds).
        cls: CSS class.
        title: Tooltip.
        head: A row header (``th``).
    """

    text: str = ""
    markup: str = ""
    cls: str = ""
    title: str = ""
    head: bool = False


def html_table(
    headers: Sequence[str | Cell], rows: Sequence[Sequence[str | Cell]], *, cls: str = ""
) -> str:
    """A table (horizontally scrollable when wide); plain strings are escaped."""
    klass = f' class="{escape(cls)}"' if cls else ""
    head = "".join(_cell(h, "th") for h in headers)
    body = "".join(f"<tr>{''.join(_cell(c, 'td') for c in row)}</tr>\n" for row in rows)
    return (
        f'<div class="scroll"><table{klass}>\n<thead><tr>{head}</tr></thead>\n'
        f"<tbody>\n{body}</tbody>\n</table></div>"
    )


def _cell(cell: str | Cell, tag: str) -> str:
    if isinstance(cell, str):
        cell = Cell(cell)
    tag = "th" if cell.head else tag
    attrs = f' class="{escape(cell.cls)}"' if cell.cls else ""
    attrs += f' title="{escape(cell.title)}"' if cell.title else ""
    return f"<{tag}{attrs}>{escape(cell.text)}{cell.markup}</{tag}>"


def html_document(title: str, body: Sequence[str]) -> str:
    """One self-contained page: ``title`` as its heading, then ``body`` (trusted HTML)."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"<h1>{escape(title)}</h1>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )
