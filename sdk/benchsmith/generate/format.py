"""Parsing and formatting generated Python with the pinned ruff, in one batched call."""

from __future__ import annotations

import ast
import functools
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Mapping
from importlib.metadata import version
from pathlib import Path

from benchsmith.children import die_with_parent
from benchsmith.errors import BuildError

LINE_LENGTH = 100
TARGET_VERSION = "py311"


@functools.cache
def formatter_identity() -> str:
    """The pinned formatter and its settings; part of every render hash in the lock."""
    return f"ruff {version('ruff')} line-length={LINE_LENGTH} target={TARGET_VERSION}"


def ruff_executable() -> str:
    """Return the ruff binary installed beside benchsmith (the pinned version).

    Raises:
        BuildError: When ruff is not installed.
    """
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidate = Path(folder) / "ruff"
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("ruff")
    if found is None:
        raise BuildError("ruff is not installed; reinstall benchsmith (it pins ruff)")
    return found


def check_parses(name: str, source: str) -> None:
    """Raise BuildError (with the line) when generated ``source`` is not valid Python."""
    try:
        ast.parse(source, filename=name)
    except SyntaxError as exc:
        line = (exc.text or "").strip()
        raise BuildError(f"{name}:{exc.lineno}:{exc.offset}: generated code does not parse: "
                         f"{exc.msg}: {line[:120]}") from exc  # fmt: skip


def format_sources(sources: Mapping[str, str]) -> dict[str, str]:
    """Format every Python source with one ``ruff format`` call.

    Args:
        sources: Display name -> source text. Every source is ``ast.parse``d first.

    Returns:
        Display name -> formatted source.

    Raises:
        BuildError: When a source does not parse or ruff fails.
    """
    for name, source in sources.items():
        check_parses(name, source)
    if not sources:
        return {}
    with tempfile.TemporaryDirectory(prefix="benchsmith-fmt-") as tmp:
        paths = {name: Path(tmp, f"f{index}.py") for index, name in enumerate(sources)}
        for name, path in paths.items():
            path.write_text(sources[name], encoding="utf-8", newline="\n")
        _run_ruff([str(p) for p in paths.values()])
        return {name: path.read_text(encoding="utf-8") for name, path in paths.items()}


def _run_ruff(files: list[str]) -> None:
    argv = [
        ruff_executable(), "format", "--isolated", "--no-cache", "--quiet",
        "--line-length", str(LINE_LENGTH), "--target-version", TARGET_VERSION, *files,
    ]  # fmt: skip
    done = subprocess.run(
        argv, capture_output=True, text=True, check=False, preexec_fn=die_with_parent()
    )
    if done.returncode != 0:
        raise BuildError(f"ruff format failed: {done.stderr.strip()[:2000]}")
