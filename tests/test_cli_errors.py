"""The CLI's error boundary: exit codes, no traceback unless --debug, OSError as BS001."""

from __future__ import annotations

import errno
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import pytest

from benchsmith import building
from benchsmith.cli._common import EXIT_INTERNAL


def crash(*args: object, **kwargs: object) -> NoReturn:
    raise ZeroDivisionError("a bug")


def full_disk(*args: object, **kwargs: object) -> NoReturn:
    raise OSError(errno.ENOSPC, "No space left on device", "/corpus/07-tiny-task/.seed.py.x")


def test_a_bug_is_one_line_and_exit_4(
    cli: Callable[..., Any], make_task: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(building, "build", crash)
    result = cli("build", make_task())
    assert result.exit_code == EXIT_INTERNAL == 4
    assert "internal error: ZeroDivisionError: a bug" in result.output
    assert "--debug" in result.output and "Traceback" not in result.output


def test_debug_shows_the_traceback(
    cli: Callable[..., Any], make_task: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(building, "build", crash)
    with pytest.raises(ZeroDivisionError):
        cli("--debug", "build", make_task())


def test_an_os_error_is_a_located_bs001_with_exit_3(
    cli: Callable[..., Any], make_task: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(building, "build", full_disk)
    result = cli("build", make_task())
    assert result.exit_code == 3
    assert "/corpus/07-tiny-task/.seed.py.x:1:1: BS001 No space left on device" in result.output
    assert "Traceback" not in result.output
