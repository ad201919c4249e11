"""The default interpreter is a real Python 3.12, never a shim that needs its PATH."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchsmith.pythons import default_python


@pytest.fixture
def fresh_default() -> Iterator[None]:
    default_python.cache_clear()
    yield
    default_python.cache_clear()


def _real_312() -> str:
    found = default_python()
    if subprocess.run([found, "-c", "import sys; assert sys.version_info[:2] == (3, 12)"],
                      check=False).returncode:  # fmt: skip
        pytest.skip("no Python 3.12 on this machine")
    return found


def test_a_shim_on_path_resolves_to_the_interpreter_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_default: None
) -> None:
    real = _real_312()
    shims = tmp_path / "shims"
    shims.mkdir()
    shim = shims / "python3.12"
    shim.write_text('#!/bin/sh\nexec "$SHIM_TARGET" "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    monkeypatch.setenv("SHIM_TARGET", real)
    monkeypatch.setenv("PATH", f"{shims}{os.pathsep}{os.environ['PATH']}")
    default_python.cache_clear()
    found = default_python()
    assert found != str(shim)
    assert Path(found).resolve() == Path(real).resolve()
    # what a judge does with it: run it with a PATH that holds no shim and no pyenv
    done = subprocess.run([found, "-c", "print(1)"], env={"PATH": "/nonexistent"},
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.stdout == "1\n"


def test_a_shim_that_fails_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_default: None
) -> None:
    shims = tmp_path / "shims"
    shims.mkdir()
    shim = shims / "python3.12"
    shim.write_text("#!/bin/sh\necho 'pyenv: version not installed' >&2\nexit 127\n")
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shims}{os.pathsep}/usr/bin:/bin")
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "no-pyenv"))
    assert default_python() == sys.executable
