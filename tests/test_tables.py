"""The tables every report shares: alignment, escaping, one page skeleton, one vocabulary."""

from __future__ import annotations

import re

from benchsmith import tables
from benchsmith.checking.present import html_page, table_text
from benchsmith.checking.results import CheckReport, ControlResult, TaskReport
from benchsmith.running.present import render_text
from benchsmith.running.report import Report, RunMetrics, build_report
from benchsmith.running.report_html import render_html
from benchsmith.tables import Cell, html_document, html_table, text_table


def test_text_table_pads_columns_and_aligns_figures_right() -> None:
    table = text_table(["task", "runs"], [["01-a", "3"], ["02-long", "12"]])
    assert table.splitlines() == [
        "task     runs",
        "-------  ----",
        "01-a        3",
        "02-long    12",
    ]
    words = text_table(["task", "passed"], [["01-a", "yes"], ["02-b", "NO"]], numeric=False)
    assert words.splitlines()[3] == "02-b  NO"  # left-aligned, trailing blanks stripped


def test_html_table_escapes_text_but_keeps_trusted_markup() -> None:
    table = html_table(
        ["<b>", Cell("task", cls="task")],
        [["a&b", Cell("x<y", markup="<small>ok</small>", cls="ok", title='"t"', head=True)]],
        cls="matrix",
    )
    assert '<table class="matrix">' in table
    assert "<th>&lt;b&gt;</th>" in table and '<th class="task">task</th>' in table
    assert "<td>a&amp;b</td>" in table
    assert '<th class="ok" title="&quot;t&quot;">x&lt;y<small>ok</small></th>' in table


def test_html_document_is_self_contained() -> None:
    page = html_document("a <title>", ["<p>body</p>"])
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</html>\n")
    assert "<h1>a &lt;title&gt;</h1>" in page and "<p>body</p>" in page
    assert "<script" not in page and "http" not in page


def check_report() -> CheckReport:
    failed = ControlResult("empty", "0", "3", passed=False, level=3, reason="scored 3 > 0")
    task = TaskReport("examples/01-a", 1, "a", (ControlResult("nop", "0", "0", True), failed), 1.0)
    return CheckReport((task,), "python3", 1, 1.0)


def run_report() -> Report:
    def run(kind: str) -> RunMetrics:
        return RunMetrics(f"A--01-a--{kind[0]}001", "A", "01-a", "N", 1, kind, "finished",
                          "completed", "pass", 5, "d", 600.0)  # fmt: skip

    return build_report([run("primary"), run("diagnostic")])


def test_check_and_run_reports_share_one_stylesheet_and_one_vocabulary() -> None:
    check, run = check_report(), run_report()
    for page in (html_page(check), render_html(run)):
        assert re.findall(r"<style>(.*?)</style>", page, re.S) == [tables.CSS]
    check_header = table_text(check).splitlines()[0].split()
    assert check_header[0] == tables.TASK and check_header[-1] == tables.PASSED
    assert table_text(check).splitlines()[3].split()[-1] == tables.passed_word(False) == "NO"
    assert f"{tables.PASSED}: {tables.passed_word(False)}" in html_page(check)
    lines = render_text(run).splitlines()
    by_task = re.split(
        r"\s{2,}", lines[lines.index("== arm A: by task (means per scored run)") + 2]
    )
    assert by_task[0] == tables.TASK and tables.LEVELS in by_task
    assert lines[-3].split() == [tables.RUN, "end", tables.VERDICT, tables.LEVEL]
