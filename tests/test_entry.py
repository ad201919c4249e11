"""Signals end commands quietly, also when Python wraps or loses them."""

from __future__ import annotations

import signal

from benchsmith.cli import AUTHORING, app
from benchsmith.signals import Stopped, Terminated, exit_status, interruption


def test_the_signal_behind_an_exception_is_found() -> None:
    assert interruption(Stopped(signal.SIGTERM)) == signal.SIGTERM
    assert interruption(Terminated()) == signal.SIGTERM
    assert interruption(KeyboardInterrupt()) == signal.SIGINT
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as inner:  # how Python 3.11 reports one in __set_name__
            raise RuntimeError("Error calling __set_name__") from inner
    except RuntimeError as wrapped:
        assert interruption(wrapped) == signal.SIGINT
    assert interruption(ValueError("a bug")) is None
    assert (exit_status(signal.SIGINT), exit_status(signal.SIGTERM)) == (130, 143)


def test_every_authoring_command_exists() -> None:
    names = {c.name or c.callback.__name__ for c in app.registered_commands if c.callback}
    assert names >= AUTHORING
