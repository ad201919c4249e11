"""The console script's first code: Ctrl-C and SIGTERM end any command quietly.

Until a command starts, SIGINT and SIGTERM raise :class:`Stopped`, which no library code
catches (click turns a KeyboardInterrupt into "Aborted!" and exit status 1), so a signal while
the command line is imported or parsed ends it with 130 (SIGINT) or 143 (SIGTERM) and a
one-line note. Once a command starts, the CLI gives signals their usual meaning: authoring
commands see :class:`KeyboardInterrupt` (SIGTERM as its subclass :class:`Terminated`), so every
cleanup path runs, and exit 130 / 143 the same way; other commands get Python's defaults.

Python cannot raise an exception out of some callbacks (``__del__``, weakref and at-fork
callbacks): a signal landing in one is printed as "Exception ignored" and lost. The hook
installed here delivers it again a millisecond later instead, and prints nothing.
"""

from __future__ import annotations

import signal
import sys
import threading
from types import FrameType
from typing import Any


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


def _redeliver(unraisable: Any) -> None:
    """``sys.unraisablehook``: a lost signal is raised again, anything else shown.

    The exception is raised from a SIGALRM a millisecond later, that is, outside the callback
    that lost it (raising from the hook itself would be lost the same way).
    """
    lost = unraisable.exc_value
    if interruption(lost) is None or threading.current_thread() is not threading.main_thread():
        sys.__unraisablehook__(unraisable)
        return

    def reraise(signum: int, frame: FrameType | None) -> None:
        raise lost

    signal.signal(signal.SIGALRM, reraise)
    signal.setitimer(signal.ITIMER_REAL, 0.001)


def main() -> None:
    """Entry point of the ``benchsmith`` console script and of ``python -m benchsmith``."""
    sys.unraisablehook = _redeliver
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        from benchsmith.cli import main as run_cli

        run_cli()
    except BaseException as exc:
        signum = interruption(exc)
        if signum is None:
            raise
        sys.stderr.write("interrupted\n")
        sys.exit(exit_status(signum))
