"""Signals for the command line: what SIGINT and SIGTERM raise, and the exit status they give.

Until a command starts, SIGINT and SIGTERM raise :class:`Stopped`; authoring commands see
:class:`KeyboardInterrupt` (SIGTERM as its subclass :class:`Terminated`) so every cleanup path
runs; other commands get Python's defaults back (:func:`restore_defaults`). A leaf module:
the console script (:mod:`benchsmith.entry`) and the CLI both import it.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType


class Stopped(BaseException):
    """SIGINT or SIGTERM before a command started (not a KeyboardInterrupt: click keeps off).

    Attributes:
        signum: The signal.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class Terminated(KeyboardInterrupt):
    """SIGTERM during an authoring command, raised like Ctrl-C so every cleanup path runs."""


def stop(signum: int, frame: FrameType | None) -> None:
    """Signal handler until a command starts: raise :class:`Stopped`."""
    raise Stopped(signum)


def terminate(signum: int, frame: FrameType | None) -> None:
    """SIGTERM handler of authoring commands: raise :class:`Terminated`."""
    raise Terminated


def interruption(exc: BaseException) -> int | None:
    """The signal behind ``exc`` (SIGINT or SIGTERM), also when Python wrapped it (a signal
    inside ``__set_name__`` surfaces as a RuntimeError caused by it), else ``None``."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, Stopped):
            return current.signum
        if isinstance(current, KeyboardInterrupt):
            return signal.SIGTERM if isinstance(current, Terminated) else signal.SIGINT
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def exit_status(signum: int) -> int:
    """The shell's convention: 128 + the signal (130 for SIGINT, 143 for SIGTERM)."""
    return 128 + signum


def restore_defaults() -> None:
    """Python's own handlers again, for commands that expect them (main thread only)."""
    if threading.current_thread() is threading.main_thread():
        if signal.getsignal(signal.SIGINT) is stop:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if signal.getsignal(signal.SIGTERM) is stop:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
