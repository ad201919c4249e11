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

from benchsmith.signals import exit_status, interruption, stop


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
