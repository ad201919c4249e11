"""`memory_mb` on `[[commands]]`: the judge caps the command's address space (RLIMIT_AS)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchsmith.dsl.load import read_task_text
from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib

# Holds 256 MiB at once (a whole large input read as one string), then reports success.
GREEDY = "data = bytearray(256 << 20); print('held', len(data))"
MODEST = "data = bytearray(4 << 20); print('held', len(data))"
TASK = """
id = 9
slug = "capped"
title = "Capped"
pressure = "N"
prose = "Stream it."

[[commands]]
run = "python -m solution.main"
memory_mb = {memory}

[[commands]]
run = "python -m solution.after"
"""


def test_memory_mb_reaches_the_judge_data_and_is_bounded(tmp_path: Path) -> None:
    spec, found = read_task_text(TASK.format(memory=80), tmp_path / "task.toml")
    assert spec is not None, found
    capped, free = (c.to_runtime() for c in spec.commands)
    assert capped["memory_mb"] == 80 and "memory_mb" not in free
    assert benchlib.memory_of(capped) == 80 << 20 and benchlib.memory_of(free) is None
    spec, found = read_task_text(TASK.format(memory=8), tmp_path / "task.toml")
    assert spec is None and [d.code for d in found] == ["BS102"]


def test_run_command_caps_the_address_space(tmp_path: Path) -> None:
    python, cap = default_python(), 64 << 20

    def run(code: str, memory: int | None) -> benchlib.CommandResult:
        return benchlib.run_command(
            [python, "-c", code], cwd=tmp_path, timeout=30.0, scratch=tmp_path / "s",
            memory_bytes=memory,
        )  # fmt: skip

    assert run(GREEDY, None).ok
    greedy = run(GREEDY, cap)
    assert greedy.returncode == 1 and "MemoryError" in greedy.stderr
    assert run(MODEST, cap).ok


SEALABLE, WHY_NOT = benchlib.sandbox_status()


@pytest.mark.skipif(not SEALABLE, reason=f"the sandbox cannot run here: {WHY_NOT}")
def test_a_sealed_command_is_capped_too(tmp_path: Path) -> None:
    kit = benchlib.PodKit.prepare(tmp_path / "judge" / "lib", default_python())
    root = tmp_path / "judge" / "run-main"
    root.mkdir()
    argv = (kit.interpreter.executable, "-c")
    commands = [
        benchlib.PodCommand((*argv, GREEDY), timeout=30.0, memory_bytes=64 << 20),
        benchlib.PodCommand((*argv, MODEST), timeout=30.0, memory_bytes=64 << 20),
        benchlib.PodCommand((*argv, GREEDY), timeout=30.0),
    ]
    greedy, modest, free = benchlib.run_pod(
        kit, root, commands=commands, scratch=tmp_path / "scratch"
    ).results
    assert greedy.returncode == 1 and "MemoryError" in greedy.stderr
    assert modest.ok and free.ok
