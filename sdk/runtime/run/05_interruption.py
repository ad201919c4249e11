# ---------------------------------------------------------------------------------------------
# interruption
# ---------------------------------------------------------------------------------------------

TEMP_PREFIX: Final = "benchsmith-run-"
OWNER_LOCK: Final = ".lock"
STOP_SIGNALS: Final = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class Interrupted(BaseException):
    """Raised in the runner by SIGTERM, SIGINT or SIGHUP: every cleanup runs on the way out.

    Attributes:
        signum: The signal.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_held: list[int] | None = None
"""Stop signals received inside :func:`uninterrupted` (``None``: none is being held)."""


def _interrupt(signum: int, frame: Any) -> None:
    if _held is not None:
        _held.append(signum)
        return
    raise Interrupted(signum)


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold stop signals while the block runs; the first that came is raised after it,
    unless an exception is already on its way out (that one is what the caller must see).

    For the few steps that must not stop half-way, such as removing an invocation's lock
    file and then its folder: keep the block that short, a held signal waits for it.
    Blocking the signal would not do: it reaches whichever thread does not block it, and
    Python runs the handler in the main thread anyway. Outside the main thread, and nested,
    this holds nothing more.
    """
    global _held
    if _held is not None or threading.current_thread() is not threading.main_thread():
        yield
        return
    _held = []
    try:
        yield
    finally:
        held, _held = _held, None
        if held and sys.exc_info()[1] is None:
            raise Interrupted(held[0])


REDELIVERY_DELAY = 0.05
"""Seconds after which a swallowed stop signal is sent again (see :func:`_redeliver`)."""


def _redeliver(unraisable: Any, fallback: Callable[[Any], object]) -> None:
    """An :class:`Interrupted` raised where Python can only report it ("Exception ignored
    in", e.g. in an at-fork hook while a subprocess starts) is not lost: another thread sends
    its signal again a moment later, once this code is left (sent from here, the handler
    would raise inside this hook and be swallowed again). Anything else goes to
    ``fallback``."""
    if isinstance(unraisable.exc_value, Interrupted):
        again = (os.getpid(), unraisable.exc_value.signum)
        threading.Timer(REDELIVERY_DELAY, os.kill, again).start()
    else:
        fallback(unraisable)


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Turn SIGTERM, SIGINT and SIGHUP into :class:`Interrupted` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _interrupt) for s in STOP_SIGNALS}
    hook = sys.unraisablehook
    sys.unraisablehook = functools.partial(_redeliver, fallback=hook)
    try:
        yield
    finally:
        sys.unraisablehook = hook
        for number, handler in previous.items():
            signal.signal(number, handler)


def owner_alive(root: Path) -> bool:
    """Whether the invocation owning the temporary folder ``root`` still runs (holds its lock)."""
    try:
        handle = os.open(root / OWNER_LOCK, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(handle)
    return False


def sweep_stale_temp(base: Path) -> list[Path]:
    """Remove the temporary folders of invocations that died (``kill -9``) under ``base``:
    their workspaces, seeded caches and judges' folders (``benchlib-judge-*``)."""
    removed = []
    for folder in sorted(base.glob(f"{TEMP_PREFIX}*")):
        if (folder / OWNER_LOCK).is_file():
            if owner_alive(folder):
                continue
        elif not _abandoned(folder):
            continue  # an invocation that is creating it: its lock comes next
        _dispose(folder, tries=DISPOSE_TRIES_STALE)
        if not folder.exists():
            removed.append(folder)
    return removed


ABANDONED_SECONDS: Final = 600.0
"""Age after which a runner's folder without a lock file is swept: one whose owner was
killed (``kill -9``) between creating it and its lock, or between removing the lock and
the folder. A live invocation's folder has its lock a moment after it is created."""


def _abandoned(folder: Path) -> bool:
    try:
        changed = folder.stat().st_mtime
    except OSError:
        return False
    return time.time() - changed > ABANDONED_SECONDS


@contextlib.contextmanager
def private_temp() -> Iterator[Path]:
    """A temporary folder holding everything this invocation creates (sessions, caches, the
    judges' folders through ``TMPDIR``), locked while it lives and removed afterwards; the
    folders of dead invocations are swept first."""
    base = Path(tempfile.gettempdir())
    sweep_stale_temp(base)
    saved = tempfile.tempdir, os.environ.get("TMPDIR")
    root: Path | None = None
    handle: int | None = None
    try:
        with uninterrupted():  # its lock file must exist before anything can stop this
            root = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX, dir=base))
            root.chmod(0o711)  # sandboxes reach their staged mounts through it; nobody lists it
            handle = _owner_lock(root)
        tempfile.tempdir, os.environ["TMPDIR"] = str(root), str(root)
        yield root
    finally:
        tempfile.tempdir = saved[0]
        if saved[1] is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved[1]
        try:
            if root is not None:
                _dispose(root)
        finally:
            if handle is not None:
                os.close(handle)


def _owner_lock(root: Path) -> int:
    """Create ``root``'s lock file, already locked: it is locked under another name and then
    renamed, so no sweep (:func:`sweep_stale_temp`) ever sees it unlocked and takes a live
    invocation's folder for a dead one's. Returns the open, locked handle."""
    staged = root / f"{OWNER_LOCK}-new"
    handle = os.open(staged, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(handle, fcntl.LOCK_EX)
    staged.rename(root / OWNER_LOCK)
    return handle


DISPOSE_TRIES: Final = 100
"""Rounds (50 ms apart) an invocation spends removing its own folder at exit: up to 5 s,
spent only while something is still being created in it. A sandbox killed a moment ago dies
with its PID namespace, not at once, and on a loaded machine that took over the former 1 s
(issue 30: a folder left behind after SIGTERM, seen in CI under load)."""
DISPOSE_TRIES_STALE: Final = 20
"""Rounds a sweep spends on a dead invocation's folder (up to 1 s, only when it is not
emptied at once): its owner died a moment ago, so its sandboxes may still be dying."""


def _dispose(root: Path, tries: int = DISPOSE_TRIES) -> None:
    """Remove an invocation's folder, its lock last: a child killed a moment ago (a sandbox
    dies with its PID namespace, not at once) may still create a file while this runs, and
    a folder left behind must keep its lock file so the next sweep knows it is stale."""
    for _ in range(tries):
        if not root.is_dir():
            return
        for child in sorted(root.iterdir()):
            if child.name == OWNER_LOCK:
                continue
            if child.is_dir() and not child.is_symlink():
                remove_tree(child)
            else:
                with contextlib.suppress(OSError):
                    child.unlink()
        if _remove_emptied(root):
            return
        time.sleep(0.05)


def _remove_emptied(root: Path) -> bool:
    """Remove ``root`` if nothing but its lock file is left in it; whether it is gone.

    The lock goes, then the folder, stop signals held in between (:func:`uninterrupted`): a
    signal there would leave a folder without its lock. Should a file appear meanwhile, an
    (unlocked) lock file is put back, so the folder stays a dead invocation's to any sweep.
    """
    with uninterrupted():
        try:
            if [c.name for c in root.iterdir()] not in ([OWNER_LOCK], []):
                return False
            (root / OWNER_LOCK).unlink(missing_ok=True)
            root.rmdir()
        except FileNotFoundError:
            return True
        except OSError:
            with contextlib.suppress(OSError):
                (root / OWNER_LOCK).touch()
            return False
    return True
