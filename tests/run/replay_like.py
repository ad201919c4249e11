"""A replay-like ``command:`` adapter for tests: plays a task's reference like ``replay``.

Usage: ``command:python3 replay_like.py ROOT...``. It finds its task among the folders
under the ROOTs by the workspace's TASK.md, then, at each ``message`` action, copies
``reference/stages/<stage-id>/`` (or ``reference/``) over the editable paths and reports a
little usage; a ``compact`` action reports a completed compaction. Standard library only: the
lean runner's tests run it where benchsmith cannot be imported.
"""

import json
import os
import shutil
import sys
from pathlib import Path


def emit(events: Path, **event: object) -> None:
    with open(events, "a", encoding="utf-8") as stream:
        stream.write(json.dumps(event) + "\n")


def find_task(roots: list[Path], task_md: bytes) -> Path:
    for root in roots:
        for task in sorted(root.iterdir()):
            if (task / "TASK.md").is_file() and (task / "TASK.md").read_bytes() == task_md:
                return task
    raise SystemExit("replay_like: no task has this TASK.md")


def overlay(source: Path, workspace: Path, editable: list[str]) -> None:
    for rel in editable:
        src, dest = source / rel.rstrip("/"), workspace / rel.rstrip("/")
        if src.is_dir():
            shutil.copytree(src, dest, dirs_exist_ok=True)
        elif src.is_file():
            shutil.copy(src, dest)


def main() -> int:
    env = os.environ
    events, workspace = Path(env["BENCHSMITH_EVENTS"]), Path(env["BENCHSMITH_WORKSPACE"])
    if env["BENCHSMITH_ACTION"] == "message":
        task = find_task([Path(p) for p in sys.argv[1:]], (workspace / "TASK.md").read_bytes())
        staged = task / "reference" / "stages" / env["BENCHSMITH_STAGE_ID"]
        source = staged if staged.is_dir() else task / "reference"
        overlay(source, workspace, json.loads(env["BENCHSMITH_EDITABLE"]))
        emit(events, type="usage", model="m", kind="main", input_tokens=10, output_tokens=5,
             uncached_input_tokens=10)  # fmt: skip
        emit(events, type="tool_call", name="write_files", result_bytes=12)
        emit(events, type="assistant", text="done", tokens=1)
    elif env["BENCHSMITH_ACTION"] == "compact":
        emit(events, type="compaction", status="completed")
    emit(events, type="idle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
