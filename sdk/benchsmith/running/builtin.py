"""The built-in adapters, run as ``python -m benchsmith.running.builtin replay|nop``.

``replay`` plays the task's reference solution stage by stage: at each ``message`` action it
copies ``reference/stages/<stage-id>/`` (or, when the reference has no per-stage folders, the
whole ``reference/``) over the workspace's editable paths, runs the task's commands of the
stages so far in the live workspace (as an agent trying its solution would, so the task's
services see requests during the agent phase), and emits realistic synthetic
events -- assistant turns, tool calls whose result sizes are the real sizes of what it read,
per-call usage with a growing prompt cache, an early ``done`` and ``idle``. A ``compact``
action emits a completed compaction. Every number is a pure function of the task's files,
so two replays of one task record identical figures.

``nop`` only goes idle: the do-nothing agent (a requested compaction it never reports is
recorded as failed).

Both speak the same protocol as any external adapter (:mod:`benchsmith.running.protocol`);
they import only the standard library and the runtime, so they start fast.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchsmith.running import protocol

MODEL = "replay-model"
# Synthetic per-million-token prices (uncached input, cache write, cache read, output), USD.
PRICES = (3.0, 3.75, 0.30, 15.0)


@dataclass(frozen=True, slots=True)
class Request:
    """One action as the runner described it in the environment."""

    action: str
    stage: int
    stage_id: str
    workspace: Path
    events: Path
    state_dir: Path
    editable: tuple[str, ...]
    message: str
    reference: Path | None

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Request:
        """Read the ``BENCHSMITH_*`` variables."""
        message_file = env.get(protocol.ENV_MESSAGE_FILE)
        reference = env.get(protocol.ENV_REFERENCE)
        return cls(
            action=env[protocol.ENV_ACTION],
            stage=int(env[protocol.ENV_STAGE]),
            stage_id=env[protocol.ENV_STAGE_ID],
            workspace=Path(env[protocol.ENV_WORKSPACE]),
            events=Path(env[protocol.ENV_EVENTS]),
            state_dir=Path(env[protocol.ENV_STATE_DIR]),
            editable=tuple(json.loads(env[protocol.ENV_EDITABLE])),
            message=Path(message_file).read_text(encoding="utf-8") if message_file else "",
            reference=Path(reference) if reference else None,
        )


class Emitter:
    """Appends protocol events to the events file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def emit(self, event_type: str, /, **fields: Any) -> None:
        """Append one event line (flushed at once, so the runner sees it live)."""
        with open(self.path, "a", encoding="utf-8") as stream:
            stream.write(protocol.event_line({"type": event_type, **fields}))


def tokens(size: int) -> int:
    """The synthetic token count of ``size`` bytes (four bytes a token, at least one)."""
    return max(1, size // 4)


class Context:
    """The replayed conversation's context size, kept in the adapter's state folder."""

    def __init__(self, state_dir: Path) -> None:
        self.file = state_dir / "replay.json"
        data = json.loads(self.file.read_text("utf-8")) if self.file.is_file() else {}
        self.tokens: int = data.get("tokens", 0)

    def save(self) -> None:
        """Persist the context size for the run's next action."""
        self.file.write_text(json.dumps({"tokens": self.tokens}), encoding="utf-8")

    def call(self, emitter: Emitter, new_bytes: int, output_bytes: int, kind: str = "main") -> None:
        """Emit the usage of one model call that adds ``new_bytes`` to the context."""
        fresh, output, cached = tokens(new_bytes), tokens(output_bytes), self.tokens
        uncached = max(1, fresh // 4)  # the newest turn; the rest is written to the cache
        written = fresh - uncached
        prices = zip((uncached, written, cached, output), PRICES, strict=True)
        emitter.emit(
            "usage", model=MODEL, kind=kind, input_tokens=uncached, uncached_input_tokens=uncached,
            cache_read_tokens=cached, cache_write_tokens=written, output_tokens=output,
            cost_usd=round(sum(n * price for n, price in prices) / 1e6, 8),
            context_tokens=cached + fresh,
        )  # fmt: skip
        self.tokens = cached + fresh + output


def listing(workspace: Path) -> str:
    """The sorted file listing a ``list_files`` tool call would show (names only)."""
    names = []
    for folder, dirs, files in os.walk(workspace):
        dirs.sort()
        names += [Path(folder, name).relative_to(workspace).as_posix() for name in files]
    return "".join(f"{name}\n" for name in sorted(names))


def source_for(reference: Path, stage_id: str) -> Path:
    """The overlay for a stage: ``reference/stages/<id>/`` when present, else the reference."""
    staged = reference / "stages" / stage_id
    return staged if staged.is_dir() else reference


def replay_message(request: Request, emitter: Emitter) -> None:
    """Answer one stage by copying the reference overlay, with realistic events."""
    context = Context(request.state_dir)
    emitter.emit("assistant", text="I will look at the workspace first.", tokens=9)
    shown = listing(request.workspace)
    emitter.emit("tool_call", name="list_files", result_bytes=len(shown.encode()))
    read = len(request.message.encode()) + len(shown.encode())
    if request.stage == 1 and (request.workspace / "TASK.md").is_file():
        size = (request.workspace / "TASK.md").stat().st_size
        emitter.emit("tool_call", name="read_file", result_bytes=size)
        read += size
    context.call(emitter, read, 120)
    written = write_reference(request, emitter)
    context.call(emitter, 60 * max(len(written), 1), sum(written.values()))
    if written:
        ran = run_commands(request, emitter)
        if ran:
            context.call(emitter, ran, 40)
    summary = f"Stage {request.stage} ({request.stage_id}) is done: wrote {', '.join(written)}."
    emitter.emit("assistant", text=summary, tokens=tokens(len(summary)))
    emitter.emit("done")
    context.save()


def write_reference(request: Request, emitter: Emitter) -> dict[str, int]:
    """Overlay the reference on the editable paths; return written path -> bytes."""
    if request.reference is None or not request.reference.is_dir():
        emitter.emit("error", message="replay: no reference solution was provided")
        return {}
    source = source_for(request.reference, request.stage_id)
    copied = [rel for rel in request.editable if replace_path(source, request.workspace, rel)]
    written = {rel: size_of(request.workspace / rel) for rel in copied}
    for size in written.values():
        emitter.emit("tool_call", name="write_files", result_bytes=len(f"wrote {size} bytes"))
    return written


def task_data(reference: Path) -> dict[str, Any]:
    """judge.py's ``TASK`` data beside ``reference`` (read as a literal, never run); {} when
    it cannot be read."""
    import ast

    try:
        tree = ast.parse((reference.parent / "judge.py").read_bytes())
    except (OSError, SyntaxError, ValueError):
        return {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["TASK"]:
            try:
                task = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, RecursionError):
                return {}
            return task if isinstance(task, dict) else {}
    return {}


def run_commands(request: Request, emitter: Emitter) -> int:
    """Run the commands that apply at this stage (introduced so far, not ended) in the
    workspace, one ``tool_call`` each; the bytes they printed."""
    import subprocess

    from benchsmith.pythons import default_python
    from benchsmith.runtime import benchlib

    if request.reference is None:
        return 0
    task = task_data(request.reference)
    stages = [str(s) for s in task.get("stages", [])]
    upto = stages[: request.stage] if stages else [request.stage_id]
    python, printed = "", 0
    for command in task.get("commands", []):
        if not isinstance(command, dict) or not isinstance(command.get("argv"), list):
            continue
        if command.get("stage", upto[0]) not in upto or command.get("until") in upto[:-1]:
            continue  # not introduced yet, or ended (``until``) before this stage
        python = python or default_python()
        argv = benchlib.resolve_argv([str(a) for a in command["argv"]], python)
        cwd = request.workspace / str(command.get("cwd") or ".")
        stdin = command.get("stdin")
        try:
            with open(cwd / stdin if stdin else os.devnull, "rb") as source:
                done = subprocess.run(
                    argv, cwd=cwd, stdin=source, capture_output=True, check=False,
                    timeout=float(command.get("timeout", 60.0)),
                )  # fmt: skip
            size, failed = len(done.stdout) + len(done.stderr), done.returncode != 0
        except (OSError, subprocess.SubprocessError) as exc:
            size, failed = len(str(exc)), True
        emitter.emit("tool_call", name="bash", result_bytes=size, is_error=failed)
        printed += size
    return printed


def replace_path(source: Path, workspace: Path, rel: str) -> bool:
    """Make the editable ``rel`` of the workspace what the reference has; False if it has none.

    An editable folder keeps its identity (a sealed agent's is a mount point) and gets the
    reference's contents instead of its own.
    """
    from benchsmith.runtime import benchlib

    src, dest = source / rel.rstrip("/"), workspace / rel.rstrip("/")
    if not (src.exists() or src.is_symlink()):
        return False
    if src.is_dir() and not src.is_symlink() and dest.is_dir() and not dest.is_symlink():
        for child in sorted(dest.iterdir()):
            benchlib.remove_path(child)
        shutil.copytree(src, dest, symlinks=True, dirs_exist_ok=True)
        return True
    benchlib.remove_path(dest)
    benchlib.ensure_parent(dest)
    if src.is_dir() and not src.is_symlink():
        shutil.copytree(src, dest, symlinks=True)
    else:
        shutil.copy2(src, dest, follow_symlinks=False)
    return True


def size_of(path: Path) -> int:
    """Total bytes of a file or of every file under a folder."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def replay_compact(request: Request, emitter: Emitter) -> None:
    """Summarize the context to a quarter of its size and report the compaction."""
    context = Context(request.state_dir)
    before = context.tokens
    context.call(emitter, 200, before, kind="compaction")
    context.tokens = max(1, before // 4)
    emitter.emit(
        "compaction", status="completed", tokens_before=before, tokens_after=context.tokens
    )
    context.save()


def main(argv: Sequence[str] | None = None) -> int:
    """Run one action of the ``replay`` or ``nop`` adapter; 0 when it went idle."""
    args = list(sys.argv[1:] if argv is None else argv)
    mode = args[0] if args else ""
    if mode not in ("replay", "nop"):
        sys.stderr.write("usage: python -m benchsmith.running.builtin replay|nop\n")
        return 2
    request = Request.from_env(os.environ)
    emitter = Emitter(request.events)
    if mode == "replay" and request.action == "message":
        replay_message(request, emitter)
    elif mode == "replay" and request.action == "compact":
        replay_compact(request, emitter)
    emitter.emit("idle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
