"""A stop signal always ends the runner's work, even when it lands where Python can only
report an exception (an at-fork hook while a subprocess starts)."""

from __future__ import annotations

import fcntl
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from benchsmith.runtime.run import (
    OWNER_LOCK,
    TEMP_PREFIX,
    Interrupted,
    interruptible,
    private_temp,
    sweep_stale_temp,
    uninterrupted,
)


def test_an_interrupt_swallowed_as_unraisable_is_delivered_again() -> None:
    swallowed = SimpleNamespace(
        exc_type=Interrupted,
        exc_value=Interrupted(signal.SIGTERM),
        exc_traceback=None,
        err_msg="Exception ignored in",
        object=None,
    )
    with pytest.raises(Interrupted) as caught, interruptible():
        sys.unraisablehook(swallowed)  # what CPython calls instead of raising
        time.sleep(5)  # the signal sent again interrupts this
    assert caught.value.signum == signal.SIGTERM


def test_other_unraisable_exceptions_reach_the_hook_in_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    other = SimpleNamespace(exc_type=ValueError, exc_value=ValueError("boom"))
    with interruptible():
        sys.unraisablehook(other)
        assert sys.unraisablehook is not seen.append
    assert seen == [other]
    assert sys.unraisablehook == seen.append  # restored on the way out


def test_a_stop_signal_during_the_temporary_folders_removal_waits_until_it_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM landing between the lock file's removal and the folder's would leave a folder
    no sweep removes (it keys on the lock): it is held until the removal ended."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    unlink = os.unlink

    def unlink_then_stop(path: Any, *args: Any, **kwargs: Any) -> None:
        unlink(path, *args, **kwargs)
        if os.fspath(path).endswith(OWNER_LOCK):
            os.kill(os.getpid(), signal.SIGTERM)

    with pytest.raises(Interrupted), interruptible(), private_temp() as root:
        (root / "workspace").mkdir()
        (root / "workspace" / "file.txt").write_text("x")
        monkeypatch.setattr(os, "unlink", unlink_then_stop)
    assert not root.exists()
    assert list(tmp_path.iterdir()) == []
    # an error on its way out is what the caller sees, not the SIGTERM (os.unlink still sends
    # it) that came meanwhile
    with pytest.raises(RuntimeError, match="the body failed"), interruptible(), private_temp():
        raise RuntimeError("the body failed")
    assert list(tmp_path.iterdir()) == []


def test_a_stop_signal_while_the_folder_is_created_removes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    rename = os.rename

    def rename_then_stop(*args: Any, **kwargs: Any) -> None:
        rename(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(os, "rename", rename_then_stop)  # the lock file is put in place
    entered = False
    with pytest.raises(Interrupted), interruptible(), private_temp():
        entered = True
    assert not entered
    assert list(tmp_path.iterdir()) == []


def test_held_signals_are_raised_after_the_block_and_nothing_is_held_outside_it() -> None:
    ran: list[str] = []
    with pytest.raises(Interrupted) as caught, interruptible(), uninterrupted():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # the handler has run by now
        ran.append("rest of the block")
    assert ran == ["rest of the block"]
    assert caught.value.signum == signal.SIGINT
    with pytest.raises(Interrupted), interruptible():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)


def test_a_stale_folder_is_swept_and_a_live_ones_is_kept(tmp_path: Path) -> None:
    stale = tmp_path / f"{TEMP_PREFIX}dead"
    (stale / "cache").mkdir(parents=True)
    (stale / OWNER_LOCK).touch()
    (tmp_path / f"{TEMP_PREFIX}unlocked").mkdir()  # being created: not the sweep's to judge
    abandoned = tmp_path / f"{TEMP_PREFIX}abandoned"  # killed before its lock existed
    (abandoned / "workspace").mkdir(parents=True)
    an_hour_ago = time.time() - 3600
    os.utime(abandoned, (an_hour_ago, an_hour_ago))
    live = tmp_path / f"{TEMP_PREFIX}live"
    live.mkdir()
    handle = os.open(live / OWNER_LOCK, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        assert sweep_stale_temp(tmp_path) == [abandoned, stale]
    finally:
        os.close(handle)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [f"{TEMP_PREFIX}live", f"{TEMP_PREFIX}unlocked"]
