"""What the audit observes of a run: exact bytes, and meaning (form differences ignored)."""

from __future__ import annotations

import gzip
from pathlib import Path

from benchsmith.auditing.outputs import observe
from benchsmith.runtime import benchlib

TASK = {
    "commands": [{"run": "python -m x"}],
    "outputs": [
        {"path": "output/report.md", "format": "markdown"},
        {"path": "output/notes.txt", "format": "text"},
    ],
    "expect": [],
    "edge_expect": [],
}


def _run(root: Path, report: str, notes: str = "a\nb\n") -> benchlib.Run:
    (root / "output").mkdir(parents=True)
    (root / "output" / "report.md").write_bytes(report.encode())
    (root / "output" / "notes.txt").write_bytes(notes.encode())
    files = benchlib.Files(root)
    run = benchlib.Run("main", root, files, files)
    run.results.append(benchlib.CommandResult(["python"], 0, False, "", "", 0.1))
    return run


def test_line_endings_of_text_outputs_are_form_and_their_words_are_meaning(tmp_path: Path) -> None:
    lf = observe(_run(tmp_path / "lf", "## A\n\n- one\n"), TASK)
    crlf = observe(_run(tmp_path / "crlf", "## A\r\n\r\n- one\r\n", "a\r\nb\r\n"), TASK)
    other = observe(_run(tmp_path / "other", "## A\n\n- two\n"), TASK)
    assert crlf.exact != lf.exact and crlf.meaning == lf.meaning
    assert crlf.differences(lf) == ["output/report.md", "output/notes.txt"]
    assert other.meaning != lf.meaning
    lone_cr = observe(_run(tmp_path / "cr", "## A\r\r- one\r"), TASK)
    assert lone_cr.meaning != lf.meaning  # only CRLF pairs are line endings


def _request(seq: int, target: str, time: float, status: int = 200) -> benchlib.Request:
    return benchlib.Request(seq, time, "GET", target, status=status, origin="catalog")


def test_service_traffic_is_observed_but_not_its_timing(tmp_path: Path) -> None:
    """Equal outputs with other requests are not equivalent: a new page is other meaning, a
    page fetched twice other form (the judge decides); the same requests at other times are
    equivalent."""
    pages = ["/catalog?page=1", "/catalog?page=2"]
    runs = {}
    for name, targets, times in [
        ("reference", pages, (0.1, 1.5)),
        ("slower", pages, (0.2, 0.3)),
        ("twice", [*pages, pages[1]], (0.1, 1.5, 1.6)),
        ("more", [*pages, "/catalog?page=3"], (0.1, 1.5, 1.6)),
    ]:
        run = _run(tmp_path / name, "## A\n")
        log = [_request(n, t, s) for n, (t, s) in enumerate(zip(targets, times, strict=True), 1)]
        run.service_requests["catalog"] = log
        runs[name] = observe(run, TASK)
    assert runs["slower"] == runs["reference"]
    assert runs["twice"].differences(runs["reference"]) == ["requests to service catalog"]
    assert runs["twice"].meaning == runs["reference"].meaning
    assert runs["more"].meaning != runs["reference"].meaning


def test_a_gzip_output_is_observed_by_its_content_not_its_header(tmp_path: Path) -> None:
    """gzip's header (mtime, name) is no output; CSV quoting inside it is form."""
    task = {**TASK, "outputs": [{"path": "output/rows.csv.gz", "format": "csv"}]}
    seen = {}
    for name, text, mtime in [
        ("reference", "a,b\n1,2\n", 0),
        ("later", "a,b\n1,2\n", 1_700_000_000),
        ("quoted", '"a","b"\n"1","2"\n', 0),
        ("other", "a,b\n1,3\n", 0),
    ]:
        root = tmp_path / name
        (root / "output").mkdir(parents=True)
        (root / "output" / "rows.csv.gz").write_bytes(gzip.compress(text.encode(), mtime=mtime))
        files = benchlib.Files(root)
        run = benchlib.Run("main", root, files, files)
        run.results.append(benchlib.CommandResult(["python"], 0, False, "", "", 0.1))
        seen[name] = observe(run, task)
    assert seen["later"].exact == seen["reference"].exact
    assert seen["quoted"].exact != seen["reference"].exact
    assert seen["quoted"].meaning == seen["reference"].meaning
    assert seen["other"].meaning != seen["reference"].meaning
