"""The HTML report (issue 34) of a recorded two-arm run, through ``benchsmith report``.

Arm ``ref`` is the built-in replay adapter; arm ``cand`` plays the same references with its
own (smaller) usage, reports compaction tokens, and breaks example 02 with its level-4
witness, so the report has a strict-pass pair to chart and a failed run to drill into.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from tests.run.conftest import MULTI, SINGLE, batch, invoke, write_adapter

CANDIDATE = """
import json, os, shutil
from pathlib import Path
env = os.environ
events, ws = Path(env["BENCHSMITH_EVENTS"]), Path(env["BENCHSMITH_WORKSPACE"])
def emit(**event):
    with open(events, "a") as out:
        out.write(json.dumps(event) + "\\n")
TASKS = TASK_DIRS
task = next(Path(t) for t in TASKS if (Path(t) / "TASK.md").read_bytes()
            == (ws / "TASK.md").read_bytes())
if env["BENCHSMITH_ACTION"] == "compact":
    emit(type="usage", model="small", kind="compaction", input_tokens=5, output_tokens=5)
    emit(type="compaction", status="completed", tokens_before=900, tokens_after=200)
else:
    shutil.copytree(task / "reference" / "solution", ws / "solution", dirs_exist_ok=True)
    if task.name == "02-pantry-ledger":  # the level-4 witness, applied line by line
        patch = (task / "witnesses" / "level4.patch").read_text().splitlines()
        old = [l[1:] for l in patch if l.startswith("-") and not l.startswith("---")]
        new = [l[1:] for l in patch if l.startswith("+") and not l.startswith("+++")]
        target = ws / "solution" / "stock.py"
        text = target.read_text()
        for a, b in zip(old, new):
            text = text.replace(a, b)
        target.write_text(text)
    emit(type="assistant", text="working")
    emit(type="tool_call", name="read_file", result_bytes=300)
    emit(type="tool_call", name="write_files", result_bytes=20)
    emit(type="usage", model="m", kind="main", input_tokens=100, uncached_input_tokens=40,
         cache_read_tokens=60, output_tokens=80, cost_usd=0.002)
    emit(type="assistant", text="done", tokens=3)
emit(type="idle")
"""


@pytest.fixture(scope="module")
def two_arms(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Examples 01 and 02 by ``ref`` (replay) and ``cand`` (cheaper, 02 broken)."""
    folder = tmp_path_factory.mktemp("report-html")
    runs = folder / "runs"
    batch(runs, [SINGLE, MULTI], "replay", arm="ref")
    body = CANDIDATE.replace("TASK_DIRS", repr([str(SINGLE), str(MULTI)]))
    batch(runs, [SINGLE, MULTI], write_adapter(folder, "cand.py", body), arm="cand")
    return runs


@pytest.fixture(scope="module")
def written(two_arms: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of ``two_arms`` written with ``--html``; returns the main page."""
    page = tmp_path_factory.mktemp("pages") / "report.html"
    done = invoke("report", "--runs", two_arms, "--arms", "ref", "cand", "--html", page)
    assert done.exit_code == 0, done.output
    assert f"wrote {page} (run pages in {page.parent / 'report-runs'}/)" in done.output
    return page


class Tables(HTMLParser):
    """Tables of a page: per table its rows of (tag, attrs, text, inner markup) cells, and
    whether it sits inside a ``<details>``; links; SVG count."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, Any]] = []
        self.links: list[str] = []
        self.svgs = 0
        self._details = 0
        self._stack: list[dict[str, Any]] = []
        self._cell: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "details":
            self._details += 1
        elif tag == "table":
            self._stack.append({"cls": a.get("class") or "", "rows": [], "hidden": self._details})
        elif tag == "tr" and self._stack:
            self._stack[-1]["rows"].append({"cls": a.get("class") or "", "cells": []})
        elif tag in ("td", "th") and self._stack:
            self._cell = {"tag": tag, "cls": a.get("class") or "", "text": "", "links": []}
            self._stack[-1]["rows"][-1]["cells"].append(self._cell)
        elif tag == "a" and a.get("href"):
            self.links.append(str(a["href"]))
            if self._cell is not None:
                self._cell["links"].append((a.get("class") or "", str(a["href"])))
        elif tag == "svg":
            self.svgs += 1
            if self._cell is not None:
                self._cell["svg"] = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "details":
            self._details -= 1
        elif tag == "table" and self._stack:
            self.tables.append(self._stack.pop())
        elif tag in ("td", "th"):
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell["text"] += data


def parse(path: Path) -> Tables:
    parser = Tables()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def matrix_of(tables: Tables) -> dict[str, Any]:
    return next(t for t in tables.tables if "matrix2" in t["cls"])


def test_matrix_shows_each_arms_runs_side_by_side(written: Path) -> None:
    """One row per task (class and corpus totals after), one column per arm, chips linked."""
    matrix = matrix_of(parse(written))
    assert not matrix["hidden"]
    header = [c["text"] for c in matrix["rows"][0]["cells"]]
    assert header[:4] == ["task", "class", "refA, reference", "candB, candidate"]
    rows = {r["cells"][0]["text"]: r for r in matrix["rows"][1:]}
    assert list(rows) == ["01-grade-summary", "class N", "02-pantry-ledger", "class M", "corpus"]
    single, multi = rows["01-grade-summary"]["cells"], rows["02-pantry-ledger"]["cells"]
    assert [link for c in single[2:4] for link in c["links"]] == [
        ("chip l5 strict", "report-runs/ref--01-grade-summary--r001.html"),
        ("chip l5 strict", "report-runs/cand--01-grade-summary--r001.html"),
    ]
    (chip,) = multi[3]["links"]
    assert chip[0] == "chip l4" and "5\u2713" not in multi[3]["text"]
    assert multi[4]["cls"] == "worse" and multi[4]["text"].startswith("\u22121")  # a lost pass
    assert rows["corpus"]["cells"][3]["text"].startswith("1/2 strict (50%)")
    assert multi[2]["text"].endswith("1/1 strict · retained 1/1 (100%)")  # replay kept all
    assert rows["class M"]["cls"] == "total"
    for href in (link for r in matrix["rows"] for c in r["cells"] for _, link in c["links"]):
        assert (written.parent / href).is_file(), href


def test_matched_pair_deltas_are_charted(written: Path, two_arms: Path) -> None:
    """The strict pair (01) against its figures in --json: ratios, values and a bar each."""
    args = ("report", "--runs", two_arms, "--arms", "ref", "cand", "--json")
    data = json.loads(invoke(*args).output)
    assert data["comparison"]["corpus"]["pairs"] == [
        ["ref--01-grade-summary--r001", "cand--01-grade-summary--r001"]
    ]
    figures = {r["run_id"]: r["figures"] for r in data["runs"]}
    a, b = figures["ref--01-grade-summary--r001"], figures["cand--01-grade-summary--r001"]
    tables = parse(written)
    deltas = next(
        t for t in tables.tables
        if t["rows"][0]["cells"][0]["text"] == "pairs" and not t["hidden"]
    )  # fmt: skip
    rows = {r["cells"][0]["text"]: r["cells"] for r in deltas["rows"][1:]}
    assert list(rows) == ["corpus1 pair(s)", "class N1 pair(s)", "01-grade-summary r001A · B"]
    pair = rows["01-grade-summary r001A · B"]
    assert [c.get("svg", False) for c in pair[1:]] == [True] * 6
    calls = pair[2]["text"]
    assert calls.startswith(f"x{b['main_calls'] / a['main_calls']:.2f}")
    assert f"{a['main_calls']:,} \u2192 {b['main_calls']:,}" in calls
    assert pair[6]["text"].startswith(f"x{b['cost_usd'] / a['cost_usd']:.2f}")
    assert pair[6]["cls"] == "delta better"  # cand costs less
    reuse = b["prompt_cache_reuse"] - a["prompt_cache_reuse"]
    sign = "+" if reuse >= 0 else "\u2212"
    assert pair[5]["text"].startswith(f"{sign}{abs(100 * reuse):.0f} pp")


def test_wide_tables_are_few_columns_until_toggled(written: Path) -> None:
    """Shown tables stay narrow; every metric column is still on the page, behind details."""
    tables = parse(written)
    shown = [t for t in tables.tables if not t["hidden"]]
    assert shown and all(len(t["rows"][0]["cells"]) <= 10 for t in shown)
    from benchsmith.running.metrics import specs

    hidden = {c["text"] for t in tables.tables if t["hidden"] for c in t["rows"][0]["cells"]}
    visible = {c["text"] for t in shown for c in t["rows"][0]["cells"]}
    for spec in specs():
        assert any(h.startswith(spec.metric.header) for h in hidden | visible), spec.name
    arm = next(t for t in shown if t["rows"][0]["cells"][0]["text"] == "scope")
    headers = [c["text"] for c in arm["rows"][0]["cells"]]
    assert headers[1:3] == ["runsfinished", "scoredpass or fail"]  # header, then its unit
    assert "agent ss, mean/run" in headers


def run_page(written: Path, run_id: str) -> Path:
    return written.parent / "report-runs" / f"{run_id}.html"


def test_failed_run_page_shows_failing_checks_first_and_links_files(written: Path) -> None:
    page = run_page(written, "cand--02-pantry-ledger--r001")
    text = page.read_text(encoding="utf-8")
    tables = parse(page)
    checks = next(t for t in tables.tables if t["rows"][0]["cells"][0]["text"] == "check")
    passed = [r["cells"][1]["text"] for r in checks["rows"][1:]]
    assert "NO" in passed and "yes" in passed
    assert passed == sorted(passed)  # "NO" sorts before "yes": failing first
    assert checks["rows"][1]["cls"] == "fail"
    assert '<p class="verdict fail">FAIL · level 4' in text
    assert text.index("The judge&#x27;s checks") < text.index("<h2>Stages</h2>")
    stages = next(t for t in tables.tables if t["rows"][0]["cells"][0]["text"] == "stage")
    assert [r["cells"][1]["text"] for r in stages["rows"][1:]] == ["initial", "returns", "reorder"]
    assert [r["cells"][7]["text"] for r in stages["rows"][1:]][-1] == "failfinal"
    assert text.count("<details><summary>message of stage") == 3
    compaction = next(t for t in tables.tables if t["rows"][0]["cells"][0]["text"] == "#")
    cells = [c["text"] for c in compaction["rows"][1]["cells"]]
    assert cells[2:4] == ["requested", "completed"] and cells[5:7] == ["900", "200"]
    assert "6 calls, 0.9 KiB of results." in text  # two per stage, 320 bytes per stage
    targets = {Path(unquote(h)).name: page.parent / unquote(h) for h in tables.links}
    for name in ("transcript.md", "events.jsonl", "run.json", "workspace.tar.gz"):
        assert targets[name].is_file(), name
    assert targets["report.html"].resolve() == written.resolve()


def test_a_rewritten_report_leaves_no_page_of_a_run_it_no_longer_shows(
    two_arms: Path, tmp_path: Path
) -> None:
    """Issue 34: pages of runs gone from the records (or of another runs folder written to
    the same page) were left beside the new ones, linked from nowhere."""
    page = tmp_path / "report.html"
    assert invoke("report", "--runs", two_arms, "--html", page).exit_code == 0
    folder = page.parent / "report-runs"
    kept = sorted(p.name for p in folder.iterdir())
    (folder / "gone--01-grade-summary--r009.html").write_text("<html></html>", "utf-8")
    (folder / "notes.txt").write_text("mine", "utf-8")
    assert invoke("report", "--runs", two_arms, "--html", page).exit_code == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted([*kept, "notes.txt"])


def test_same_records_same_bytes(two_arms: Path, written: Path) -> None:
    """Writing the report again gives the same bytes: nothing depends on the clock."""
    pages = sorted(written.parent.rglob("*.html"))
    assert len(pages) == 5  # the main page and one per run
    before = [p.read_bytes() for p in pages]
    args = ("report", "--runs", two_arms, "--arms", "ref", "cand", "--html", written)
    assert invoke(*args).exit_code == 0
    assert [p.read_bytes() for p in sorted(written.parent.rglob("*.html"))] == before
    assert all(b"<script" not in page and b"http" not in page for page in before)


CHROMIUM = (
    shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
)
PROBE = """<!DOCTYPE html><html><body><pre id="out">pending</pre>
<iframe id="f" src="PAGE" width="1280" height="900"></iframe>
<script>
document.getElementById("f").addEventListener("load", () => {
  const d = document.getElementById("f").contentDocument;
  const svg = d.querySelector("td.delta svg").getBoundingClientRect();
  const cell = d.querySelector("table.grid tbody td:not(.runs):not(.l)");
  document.getElementById("out").textContent = JSON.stringify({
    scroll: d.scrollingElement.scrollWidth, width: d.scrollingElement.clientWidth,
    chips: d.querySelectorAll("table.matrix2 a.chip").length,
    svg: [svg.width, svg.height],
    align: cell ? getComputedStyle(cell).textAlign : null,
  });
});
</script></body></html>"""


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")
def test_report_renders_in_a_headless_browser(written: Path, tmp_path: Path) -> None:
    """Headless Chromium lays the page out: no sideways scroll at 1280 px, the matrix's
    chips, a chart drawn; the run page renders too; no console errors on either."""
    probe = tmp_path / "probe.html"
    probe.write_text(PROBE.replace("PAGE", written.as_uri()), encoding="utf-8")
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
         "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom",
         probe.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    found = re.search(r'<pre id="out">(.*?)</pre>', done.stdout, re.DOTALL)
    assert found and found.group(1) != "pending", done.stdout[-2000:] + done.stderr[-2000:]
    laid = json.loads(found.group(1))
    assert laid["scroll"] <= laid["width"], laid  # nothing to scroll sideways
    assert laid["chips"] == 4 and laid["svg"][0] > 50 and laid["svg"][1] > 5
    assert laid["align"] == "right"
    run = run_page(written, "cand--02-pantry-ledger--r001")
    shot = tmp_path / "run.png"
    page = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
         "--v=0", f"--screenshot={shot}", "--window-size=1280,1600", run.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert shot.is_file() and shot.stat().st_size > 10_000
    for log in (done.stderr, page.stderr):
        assert ":CONSOLE" not in log and "Not allowed to load" not in log, log


def test_checks_that_failed_show_each_arms_share(written: Path, two_arms: Path) -> None:
    """cand's broken 02 fails the edge check that ref passes: one row, both arms' shares."""
    args = ("report", "--runs", two_arms, "--arms", "ref", "cand", "--json")
    data = json.loads(invoke(*args).output)
    assert [
        (c["check"], c["arm"], c["failing"], c["judged"], c["share"]) for c in data["checks"]
    ] == [
        ("edge:edge#1", "ref", [], 1, 0.0),
        ("edge:edge#1", "cand", ["cand--02-pantry-ledger--r001"], 1, 1.0),
    ]
    table = next(
        t for t in parse(written).tables if t["rows"][0]["cells"][1]["text"] == "check"
    )  # fmt: skip
    (row,) = table["rows"][1:]
    assert [c["text"] for c in row["cells"]] == [
        "02-pantry-ledger", "edge:edge#1", "0/1 (0%)-", "1/1 (100%)r001"
    ]  # fmt: skip
    assert row["cls"] == ""  # ref passes it: not every run fails it
    assert row["cells"][3]["links"] == [("", "report-runs/cand--02-pantry-ledger--r001.html")]


def test_a_check_every_run_fails_is_shaded() -> None:
    from benchsmith.running.report import RunMetrics, build_report
    from benchsmith.running.report_html import render_html

    def run(arm: str, repeat: int, checks: tuple[tuple[str, bool], ...]) -> RunMetrics:
        return RunMetrics(
            f"{arm}--01-a--r{repeat:03d}", arm, "01-a", "N", repeat, "primary", "finished",
            "completed", "fail", 4, "d", 600.0, checks=checks,
        )  # fmt: skip

    runs = [
        run("A", 1, (("total", False), ("rows", True))),
        run("A", 2, (("total", False), ("rows", False))),
        run("B", 1, (("total", False), ("rows", True))),
    ]
    report = build_report(runs, ["A", "B"])
    assert [(c.check, c.arm, len(c.failing), c.judged) for c in report.checks] == [
        ("total", "A", 2, 2), ("total", "B", 1, 1), ("rows", "A", 1, 2), ("rows", "B", 0, 1),
    ]  # fmt: skip
    page = render_html(report)
    assert page.count('<tr class="fail"><th scope="row">01-a</th><td class="l">total') == 1
    assert '<tr><th scope="row">01-a</th><td class="l">rows' in page
