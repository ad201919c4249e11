"""Adapter output is bounded: stdout, stderr and events keep their first 10 MiB, noted once.

The events file is never read through a symbolic link.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from benchsmith.runtime.run import MAX_STREAM_BYTES, StreamCap
from tests.run.conftest import SINGLE, batch, write_adapter

FLOOD = """\
import os, sys
chunk = b"y" * (1 << 20)
for _ in range(25):
    sys.stdout.buffer.write(chunk)
for _ in range(12):
    sys.stderr.buffer.write(chunk)
line = b'{"type": "assistant", "text": "' + b"z" * 1000 + b'"}\\n'
with open(os.environ["BENCHSMITH_EVENTS"], "ab") as events:
    events.write(b'{"type": "tool_call", "name": "bash", "result_bytes": 3}\\n')
    for _ in range(11 * 1024):
        events.write(line)
    events.write(b'{"type": "idle"}\\n')
"""

LINK = """\
import os
events = os.environ["BENCHSMITH_EVENTS"]
os.unlink(events)
os.symlink("/etc/passwd", events)
"""


def codes(runs: Path) -> list[str]:
    with sqlite3.connect(runs / "runs.db") as conn:
        return [r[0] for r in conn.execute("SELECT code FROM diagnostics ORDER BY number")]


def test_a_flooding_adapter_is_capped_and_the_record_says_so(tmp_path: Path) -> None:
    agent = write_adapter(tmp_path, "flood.py", FLOOD)
    runs = tmp_path / "runs"
    (outcome,) = batch(runs, [SINGLE], agent, arm="flood", archive="none").outcomes
    assert outcome.end_reason == "adapter_crash"  # its idle came after the cap
    assert "without an idle event" in outcome.end_detail
    assert sorted(codes(runs)) == ["event-cap", "output-cap", "output-cap"]
    record = json.loads((outcome.plan.run_dir / "run.json").read_text(encoding="utf-8"))
    notes = [d["message"] for d in record["diagnostics"] if d["code"] == "output-cap"]
    assert any(n.startswith("stdout:") and str(25 << 20) in n for n in notes), notes
    assert any(n.startswith("stderr:") and str(12 << 20) in n for n in notes), notes
    actions = outcome.plan.run_dir / "actions"
    sizes = {p.suffix: p.stat().st_size for p in actions.iterdir()}
    assert sizes[".stdout"] == sizes[".stderr"] == MAX_STREAM_BYTES
    assert sizes[".jsonl"] <= MAX_STREAM_BYTES
    total = sum(p.stat().st_size for p in outcome.plan.run_dir.rglob("*") if p.is_file())
    assert total < 6 * MAX_STREAM_BYTES  # actions, events.jsonl and transcript: 10 MiB each
    assert record["tools"] == {"calls": 1, "result_bytes": 3}  # events before the cap count


def test_the_events_file_is_not_read_through_a_link(tmp_path: Path) -> None:
    agent = write_adapter(tmp_path, "link.py", LINK)
    runs = tmp_path / "runs"
    (outcome,) = batch(runs, [SINGLE], agent, arm="link", archive="none").outcomes
    assert outcome.end_reason == "adapter_crash"
    assert codes(runs) == ["event-file"]  # no line of /etc/passwd became a diagnostic
    with sqlite3.connect(runs / "runs.db") as conn:
        assert conn.execute("SELECT message FROM diagnostics").fetchone()[0] == (
            "the events file is a symbolic link (not followed)"
        )


def test_what_was_written_after_the_last_stat_still_counts(tmp_path: Path) -> None:
    """A poll that stats, then truncates, misses what the adapter wrote in between; the offset
    the adapter shares with the runner's descriptor still tells the whole amount."""
    path = tmp_path / "a.stdout"
    cap = StreamCap([path])
    with path.open("wb") as shared:
        os.write(shared.fileno(), b"y" * (MAX_STREAM_BYTES + 1))
        cap.trim()
        os.write(shared.fileno(), b"y" * (2 << 20))  # lands past the cut, in a hole
        os.truncate(path, MAX_STREAM_BYTES)  # the racing poll's truncate
        cap.trim()
        assert cap.written[path] == MAX_STREAM_BYTES + 1
        cap.settle([shared])
    assert cap.written[path] == MAX_STREAM_BYTES + 1 + (2 << 20)
    assert path.stat().st_size == MAX_STREAM_BYTES
