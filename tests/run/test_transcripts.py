"""Raw transcripts: an adapter may save files in $BENCHSMITH_TRANSCRIPT_DIR, and the run
keeps them in its ``actions/transcripts/`` folder (issue 13 item 5)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from benchsmith.runtime import benchlib
from benchsmith.runtime import run as core
from tests.run.conftest import MULTI, SINGLE, batch, write_adapter

SAVER = r"""
import json, os, pathlib
env = os.environ
folder = pathlib.Path(env["BENCHSMITH_TRANSCRIPT_DIR"])
name = f"raw-{env['BENCHSMITH_ACTION']}-s{env['BENCHSMITH_STAGE']}.jsonl"
(folder / name).write_text(json.dumps({"stage": env["BENCHSMITH_STAGE"]}) + "\n")
(folder / "deep" / "er").mkdir(parents=True, exist_ok=True)
(folder / "deep" / "er" / "log.txt").write_text("nested " + env["BENCHSMITH_STAGE"])
if not (folder / "link").is_symlink():
    (folder / "link").symlink_to("/etc/hostname")
    os.mkfifo(folder / "fifo")
ws = pathlib.Path(env["BENCHSMITH_WORKSPACE"]).resolve()
assert ws not in folder.resolve().parents, "the transcript folder is not in the workspace"
with open(env["BENCHSMITH_EVENTS"], "a") as events:
    events.write(json.dumps({"type": "idle"}) + "\n")
"""

SILENT = r"""
import json, os
with open(os.environ["BENCHSMITH_EVENTS"], "a") as events:
    events.write(json.dumps({"type": "idle"}) + "\n")
"""


def _files(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): p.read_text("utf-8")
        for p in sorted(folder.rglob("*"))
        if p.is_file() or p.is_symlink()
    }


def test_benchsmith_run_keeps_what_a_command_adapter_saved(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    runs = tmp_path / "runs"
    agent = write_adapter(tmp_path, "saver.py", SAVER)
    result = cli("run", MULTI, "--agent", agent, "--arm", "saver", "--runs", runs, "--unsealed")
    assert result.exit_code == 0, result.output
    (run_dir,) = [p for p in runs.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text("utf-8"))
    assert record["end_reason"] == "completed", record["end_detail"]
    assert record["artifacts"]["transcripts"] == "actions/transcripts"
    assert _files(run_dir / "actions" / "transcripts") == {
        "deep/er/log.txt": "nested 3",
        "raw-compact-s1.jsonl": '{"stage": "1"}\n',
        "raw-message-s1.jsonl": '{"stage": "1"}\n',
        "raw-message-s2.jsonl": '{"stage": "2"}\n',
        "raw-message-s3.jsonl": '{"stage": "3"}\n',
    }  # no symbolic link, no FIFO
    assert record["diagnostics"] == []


def test_an_adapter_that_saves_nothing_leaves_no_transcripts(tmp_path: Path) -> None:
    agent = write_adapter(tmp_path, "silent.py", SILENT)
    (outcome,) = batch(tmp_path / "runs", [SINGLE], agent, arm="silent").outcomes
    assert outcome.end_reason == "completed", outcome.end_detail
    assert "transcripts" not in outcome.artifacts
    assert not (tmp_path / "runs" / outcome.run_id / "actions" / "transcripts").exists()


def test_transcripts_are_capped_with_a_diagnostic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(core, "MAX_TRANSCRIPT_BYTES", 20)
    agent = write_adapter(tmp_path, "saver.py", SAVER)
    (outcome,) = batch(tmp_path / "runs", [SINGLE], agent, arm="saver").outcomes
    kept = tmp_path / "runs" / outcome.run_id / "actions" / "transcripts"
    assert _files(kept) == {"raw-message-s1.jsonl": '{"stage": "1"}\n', "deep/er/log.txt": "neste"}
    (cap,) = [d for d in outcome.diagnostics if d.code == "transcript-cap"]
    assert "deep/er/log.txt (8 bytes)" in cap.message and "first 5 bytes" in cap.message


@pytest.mark.skipif(not benchlib.sandbox_status()[0], reason="bubblewrap cannot run")
def test_a_sealed_adapter_can_save_its_transcript(tmp_path: Path) -> None:
    outside = Path(tempfile.mkdtemp(prefix="benchsmith-transcript-", dir="/var/tmp"))
    script = outside / "saver.py"  # /tmp is private to the sandbox: the script lives here
    script.write_text(SAVER, encoding="utf-8")
    outside.chmod(0o755)
    python = benchlib.interpreter(sys.executable).executable
    if python.startswith("/root/"):
        python = "/usr/bin/python3"
    try:
        result = batch(
            tmp_path / "runs", [SINGLE], f"command:{python} {script}", arm="sealed", unsealed=False
        )
    finally:
        shutil.rmtree(outside, ignore_errors=True)
    (outcome,) = result.outcomes
    assert outcome.end_reason == "completed", outcome.end_detail
    kept = tmp_path / "runs" / outcome.run_id / "actions" / "transcripts"
    assert _files(kept)["raw-message-s1.jsonl"] == '{"stage": "1"}\n'


def test_env_names_the_folder_only_when_offered() -> None:
    context = core.ActionEnv(
        action="message", stage=1, stage_id="s", stages=1, workspace=Path("/w"),
        events=Path("/e"), state_dir=Path("/s"), editable=(), timeout=1.0,
    )  # fmt: skip
    adapter = core.command_adapter("command:true")
    assert core.ENV_TRANSCRIPT_DIR not in adapter.env(context)
    offered = core.ActionEnv(**{**context.__dict__, "transcript_dir": Path("/t")})
    assert adapter.env(offered)[core.ENV_TRANSCRIPT_DIR] == os.fspath(Path("/t"))
