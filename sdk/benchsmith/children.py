"""Child processes that die with benchsmith, so ``kill -9`` of a command leaves none running.

On Linux a child started with :func:`die_with_parent` as its ``preexec_fn`` asks the kernel
for SIGKILL when its parent dies (``prctl(PR_SET_PDEATHSIG)``). Elsewhere, and in a process
running several threads (where a ``preexec_fn`` is not safe), it is a no-op: children then
finish on their own.
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal
import sys
import threading
from collections.abc import Callable

PR_SET_PDEATHSIG = 1


@functools.cache
def _prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        function: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return function


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that kills the child when this process dies (``None`` off Linux or
    when other threads run)."""
    prctl = _prctl()
    if prctl is None or threading.active_count() > 1:
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)

    return preexec
