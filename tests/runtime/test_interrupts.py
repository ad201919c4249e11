"""A stop signal always ends the runner's work, even when it lands where Python can only
report an exception (an at-fork hook while a subprocess starts)."""

from __future__ import annotations

import signal
import sys
import time
from types import SimpleNamespace

import pytest

from benchsmith.runtime.run import Interrupted, interruptible


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
