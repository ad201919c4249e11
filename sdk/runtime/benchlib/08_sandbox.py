# ---------------------------------------------------------------------------------------------
# sandbox
# ---------------------------------------------------------------------------------------------

SANDBOX_INHERITED = ("LANG", "LANGUAGE", "TZ", "PYTHONHASHSEED")  # and LC_*
SANDBOX_HOME = "/tmp/home"
SANDBOX_PATH = ("/usr/local/bin", "/usr/bin", "/bin")
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
POD_ROOT = "/workspace"
POD_LIB = "/run/benchlib"
POD_UID_BASE = 0x60000000
INSTALL_HINT = "install bubblewrap: apt-get install bubblewrap"
USERNS_HINT = (
    "unprivileged user namespaces are disabled: sysctl kernel.unprivileged_userns_clone=1 "
    "(Debian), sysctl kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 23.10+) or "
    "sysctl user.max_user_namespaces=15000"
)


@dataclass(frozen=True)
class Limits:
    """Resource limits of a sandbox, set with ``setrlimit`` before bubblewrap starts.

    Every process of the sandbox inherits them. ``None`` leaves a limit as it is.

    Attributes:
        cpu_seconds: CPU time of each process (RLIMIT_CPU).
        memory_bytes: Address space of each process (RLIMIT_AS).
        file_bytes: Largest file a process may write (RLIMIT_FSIZE): 1 GiB.
        processes: Processes and threads the sandbox may run at once (RLIMIT_NPROC, counted
            for its own uid: a fresh one when started as root, else added to the count of
            the caller's uid).
        tmp_bytes: Size of the sandbox's ``/tmp`` (and home) tmpfs.
    """

    cpu_seconds: int | None = 3600
    memory_bytes: int | None = 8 << 30
    file_bytes: int | None = 1 << 30
    processes: int | None = 512
    tmp_bytes: int = 1 << 30


@dataclass(frozen=True)
class Bind:
    """A host path made visible in a sandbox.

    Attributes:
        source: The host path.
        target: Where it appears inside (default: the same path).
        writable: Read-write (the default is read-only).
    """

    source: Path
    target: str = ""
    writable: bool = False

    @property
    def inside(self) -> str:
        """The path inside the sandbox."""
        return self.target or str(self.source)


@dataclass(frozen=True)
class Seal:
    """What a sealed process may see and do; :func:`seal_argv` turns it into bubblewrap options.

    Two views:

    * ``minimal`` (candidate commands, fixture services): a fresh, read-only root holding
      only the system folders (``/usr``, ``/bin``, ``/sbin``, ``/lib*``, ``/etc``), a new
      ``/dev``, the sandbox's own ``/proc``, a tmpfs ``/tmp`` (with ``$HOME``), and ``binds``.
      Everything else -- task folders, the corpus, checkouts, judge folders, fixture caches,
      runs folders -- does not exist.
    * ``system`` (agents): the host's ``/`` read-only, each of ``hidden`` covered by an empty
      tmpfs, then ``binds``.

    Always: own user, PID, IPC, UTS, cgroup and network namespaces (a private loopback; the
    host network only with ``network``), no capabilities, no new user namespaces, killed with
    its parent, a new terminal session, and only the environment ``env`` (see
    :func:`sandbox_env`; bubblewrap itself sets ``PWD`` to ``cwd``).

    Attributes:
        binds: Host paths to show, in order (later ones may cover earlier ones).
        view: ``minimal`` or ``system``.
        hidden: Paths covered by an empty tmpfs (``system`` view).
        network: Share the host network (default: none but a private loopback).
        limits: Resource limits.
        env: The complete environment of the sealed process.
        cwd: Working directory inside.
        pid1: Run the command itself as PID 1, without bubblewrap's reaper (which would hold
            the sandbox's standard streams where its processes can reach them).
    """

    binds: tuple[Bind, ...] = ()
    view: str = "minimal"
    hidden: tuple[str, ...] = ()
    network: bool = False
    limits: Limits = field(default_factory=Limits)
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str = "/"
    pid1: bool = False


def sandbox_env(
    extra: Mapping[str, str] | None = None, *, path: Sequence[str] = ()
) -> dict[str, str]:
    """The environment of a sealed process: a whitelist of the caller's, plus ``extra``.

    Kept from the caller: ``LANG``, ``LANGUAGE``, ``LC_*``, ``TZ`` and ``PYTHONHASHSEED``.
    Set: ``PATH`` (``path``, then the system folders), ``HOME`` and ``TMPDIR`` (tmpfs),
    ``PYTHONDONTWRITEBYTECODE=1`` and ``PYTHONIOENCODING=utf-8``. Never ``PWD``, ``OLDPWD``
    or anything naming a benchsmith folder.
    """
    inherited = os.environ.items()
    env = {k: v for k, v in inherited if k in SANDBOX_INHERITED or k.startswith("LC_")}
    env |= {"PATH": ":".join([*path, *SANDBOX_PATH]), "HOME": SANDBOX_HOME, "TMPDIR": "/tmp"}
    env |= {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"}
    env.update(extra or {})
    return env


def _system_options() -> list[str]:
    """The minimal view's system folders; symlinked ones (``/bin -> usr/bin``) as symlinks."""
    options = []
    for folder in SYSTEM_DIRS:
        path = Path(folder)
        if path.is_symlink():
            options += ["--symlink", str(path.readlink()), folder]
        elif path.is_dir():
            options += ["--ro-bind", folder, folder]
    return options


def seal_options(seal: Seal) -> list[str]:
    """The bubblewrap options (without ``bwrap`` and the command) that realize ``seal``."""
    options = ["--unshare-all", "--unshare-user", "--disable-userns"]
    options += ["--share-net"] if seal.network else []
    options += ["--die-with-parent", "--new-session"] + (["--as-pid-1"] if seal.pid1 else [])
    options += ["--cap-drop", "ALL"]
    if seal.view == "system":
        options += ["--ro-bind", "/", "/"]
    elif seal.view == "minimal":
        options += _system_options()
    else:
        raise ValueError(f"unknown sandbox view {seal.view!r}")
    size = str(seal.limits.tmp_bytes)
    options += ["--dev", "/dev", "--proc", "/proc", "--size", size, "--tmpfs", "/tmp"]
    options += ["--dir", SANDBOX_HOME]
    for hidden in seal.hidden:
        options += ["--tmpfs", hidden]
    for bind in seal.binds:
        options += ["--bind" if bind.writable else "--ro-bind", str(bind.source), bind.inside]
    options += ["--remount-ro", "/", "--clearenv"]  # the root is no scratch space
    for name, value in sorted(seal.env.items()):
        if name not in ("PWD", "OLDPWD"):
            options += ["--setenv", name, value]
    return [*options, "--chdir", seal.cwd]


def seal_argv(seal: Seal, argv: Sequence[str]) -> list[str]:
    """The complete bubblewrap command line that runs ``argv`` sealed by ``seal``.

    For inspection and tests; :func:`sealed_popen` passes the options through ``--args FD``
    instead, so that no host path shows on a command line.
    """
    return ["bwrap", *seal_options(seal), "--", *argv]


def _drops_root() -> bool:
    """Whether sealed processes started by this (root) process run as a fresh unprivileged uid.

    Root keeps every capability inside bubblewrap without a user namespace, and the kernel
    does not enforce RLIMIT_NPROC for uid 0, so root always drops to a fresh uid before
    starting bubblewrap.
    """
    return os.geteuid() == 0


_POD_UIDS = itertools.count()


@dataclass(frozen=True)
class _Identity:
    """Whom the sandbox runs as: a fresh uid (when started by root) or the caller."""

    uid: int
    gid: int
    fresh: bool

    @classmethod
    def choose(cls) -> _Identity:
        if not _drops_root():
            return cls(os.getuid(), os.getgid(), False)
        number = (os.getpid() << 6 | next(_POD_UIDS) & 63) % (1 << 28)
        return cls(POD_UID_BASE + number, POD_UID_BASE + number, True)


def _reachable(path: Path, uid: int) -> bool:
    """Whether ``uid`` (with no groups) may traverse every folder above ``path``."""
    for folder in Path(os.path.realpath(path)).parents:
        try:
            info = folder.stat()
        except OSError:
            return False
        bit = 0o100 if info.st_uid == uid else 0o001
        if not info.st_mode & bit:
            return False
    return True


def _chown_tree(root: Path, uid: int, gid: int, skip: Iterable[Path] = ()) -> None:
    """Give ``root`` and everything below it to ``uid`` (links themselves, never their targets),
    but for the folders ``skip`` and what they hold (read-only binds: their files may be hard
    links to a shared pristine fixture)."""
    skipped = {Path(p) for p in skip}
    os.chown(root, uid, gid, follow_symlinks=False)
    for folder, dirs, files in walk(root):
        dirs[:] = [d for d in dirs if Path(folder, d) not in skipped]
        for name in dirs + files:
            os.chown(Path(folder, name), uid, gid, follow_symlinks=False)


class _Mounts:
    """The few libc calls that stage bind sources in a private mount namespace."""

    CLONE_NEWNS = 0x00020000
    MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18

    def __init__(self) -> None:
        import ctypes

        self.libc = ctypes.CDLL(None, use_errno=True)
        self.errno = ctypes.get_errno

    def check(self, result: int, what: str) -> None:
        if result != 0:
            code = self.errno()
            raise OSError(code, f"{what}: {os.strerror(code)}")

    def stage(self, pairs: Sequence[tuple[bytes, bytes]]) -> None:
        """In the calling (child) process: a private mount namespace with ``pairs`` bound."""
        self.check(self.libc.unshare(self.CLONE_NEWNS), "unshare(CLONE_NEWNS)")
        flags = self.MS_REC | self.MS_PRIVATE
        self.check(self.libc.mount(b"none", b"/", None, flags, None), "mount --make-rprivate /")
        for source, point in pairs:
            flags = self.MS_BIND | self.MS_REC
            self.check(self.libc.mount(source, point, None, flags, None), "mount --rbind")


_MOUNTS: list[_Mounts] = []


def _apply_limits(limits: Limits, identity: _Identity, processes: int) -> None:
    """In the child: set the resource limits (before dropping root, which may lower them)."""
    pairs = (
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_AS, limits.memory_bytes),
        (resource.RLIMIT_FSIZE, limits.file_bytes),
        (resource.RLIMIT_NPROC, processes if limits.processes is not None else None),
        (resource.RLIMIT_CORE, 0),
    )
    for kind, value in pairs:
        if value is not None:
            _, hard = resource.getrlimit(kind)
            top = value if hard == resource.RLIM_INFINITY or identity.fresh else min(value, hard)
            resource.setrlimit(kind, (top, top))


def _own_processes(uid: int) -> int:
    """Processes and threads the kernel counts against RLIMIT_NPROC for ``uid`` (roughly)."""
    count = 0
    for pid in _proc_pids():
        with contextlib.suppress(OSError, IndexError, ValueError):
            if Path(f"/proc/{pid}").stat().st_uid == uid:
                count += int(_stat_fields(pid)[17])
    return count


def _preexec(
    limits: Limits, identity: _Identity, staged: Sequence[tuple[bytes, bytes]]
) -> Callable[[], None]:
    """What the child does between fork and exec of bwrap: stage, limit, drop root."""
    mounts = _MOUNTS[0] if staged else None  # ctypes resolved before the fork
    processes = limits.processes or 0
    if not identity.fresh and limits.processes is not None:
        processes += _own_processes(identity.uid)

    def prepare() -> None:
        if mounts is not None:
            mounts.stage(staged)
        _apply_limits(limits, identity, processes)
        if identity.fresh:
            os.setgroups([])
            os.setresgid(identity.gid, identity.gid, identity.gid)
            os.setresuid(identity.uid, identity.uid, identity.uid)

    return prepare


def _stage(seal: Seal, identity: _Identity, folder: Path) -> tuple[Seal, list[tuple[bytes, bytes]]]:
    """Replace bind sources the sandbox uid cannot reach by mount points under ``folder``."""
    if not identity.fresh:
        return seal, []
    binds, staged = [], []
    for number, bind in enumerate(seal.binds):
        if _reachable(bind.source, identity.uid):
            binds.append(bind)
            continue
        point = folder / str(number)
        if bind.source.is_dir():
            point.mkdir()
        else:
            point.touch()
        staged.append((os.fsencode(bind.source), os.fsencode(point)))
        binds.append(Bind(point, bind.inside, bind.writable))
    if staged and not _MOUNTS:
        _MOUNTS.append(_Mounts())
    return replace(seal, binds=tuple(binds)), staged


@contextlib.contextmanager
def sealed_popen(
    seal: Seal,
    argv: Sequence[str],
    *,
    stdin: Any = subprocess.DEVNULL,
    stdout: Any = None,
    stderr: Any = None,
    pass_fds: Sequence[int] = (),
    restore_owner: bool = True,
) -> Iterator[subprocess.Popen[bytes]]:
    """Start ``argv`` sealed by ``seal`` under bubblewrap; kill it (if still running) on exit.

    The bubblewrap options travel through ``--args FD`` (a pipe), so no host path shows on
    a command line. When the caller is root, the sandbox runs as a fresh unprivileged uid:
    writable binds are handed to it for the duration (and back to the caller afterwards,
    unless ``restore_owner`` is false), and bind sources it could not reach (below a
    ``0700`` folder such as ``/root``) are first bound onto mount points it can reach, in a
    private mount namespace. Resource limits are set before bubblewrap starts.

    The sealed process dies with the thread that started it (``--die-with-parent``).

    Raises:
        OSError: When bubblewrap cannot be started at all.
    """
    identity = _Identity.choose()
    staging = Path(tempfile.mkdtemp(prefix="benchlib-seal-"))
    writable = [b.source for b in seal.binds if b.writable]
    protected = [b.source for b in seal.binds if not b.writable]
    try:
        staging.chmod(0o711)
        sealed, staged = _stage(seal, identity, staging)
        if identity.fresh:
            for path in writable:
                _chown_tree(path, identity.uid, identity.gid, protected)
        data = b"".join(os.fsencode(o) + b"\0" for o in seal_options(sealed))
        if len(data) > 60_000:
            raise ValueError("too many bubblewrap options for one pipe")
        readable, feed = os.pipe()
        try:
            _write_all(feed, data)
            os.close(feed)
            process = subprocess.Popen(
                ["bwrap", "--args", str(readable), "--", *argv], stdin=stdin, stdout=stdout,
                stderr=stderr, pass_fds=(readable, *pass_fds), process_group=0,
                preexec_fn=_preexec(seal.limits, identity, staged),
            )  # fmt: skip
        finally:
            os.close(readable)
        try:
            yield process
        finally:
            _kill_sandbox(process)
    finally:
        if identity.fresh and restore_owner:
            for path in writable:
                with contextlib.suppress(OSError):
                    _chown_tree(path, os.geteuid(), os.getegid(), protected)
        delete_tree(staging, ignore_errors=True)


def _kill_sandbox(process: subprocess.Popen[bytes]) -> None:
    """Kill a bubblewrap sandbox that is still running, and reap it.

    bubblewrap runs in a process group of its own, shared by its init in the sandbox (the
    sealed command runs in a new session below it), so the whole group is killed, not only
    bubblewrap: killed alone, bubblewrap leaves its init behind whenever the init did not
    yet arm its parent-death signal, waiting forever for a command that never starts (seen
    as an orphaned ``bwrap --args 5 -- true`` after a runner was stopped during the probe).
    The group is killed while bubblewrap is not yet reaped (it may have exited: its pid,
    the group's id, stays reserved until then), so the id cannot have been reused.
    """
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()


_STATUS: list[tuple[bool, str]] = []


def sandbox_status(cache: Path | None = None) -> tuple[bool, str]:
    """Whether sealed processes can run here: ``(True, "")`` or ``(False, cause and fix)``.

    Probes once per process by sealing ``true`` exactly as every sandbox is started (fresh
    uid and all); the result is cached, and kept in the fixture ``cache`` when one is given
    (the judges of one check or run invocation then probe once between them).
    """
    kept = cache / ".pod" / "sandbox.json" if cache is not None else None
    if not _STATUS and kept is not None:
        with contextlib.suppress(OSError, ValueError, TypeError):
            ok, why = json.loads(kept.read_text(encoding="utf-8"))
            _STATUS.append((bool(ok), str(why)))
    if not _STATUS:
        _STATUS.append(_probe())
        if kept is not None:
            _keep_text(json.dumps(list(_STATUS[0])), kept)
    return _STATUS[0]


def _probe() -> tuple[bool, str]:
    if shutil.which("bwrap") is None:
        return False, f"bubblewrap (bwrap) is not on PATH; {INSTALL_HINT}"
    seal = Seal(env=sandbox_env(), limits=Limits(processes=64))
    try:
        with sealed_popen(
            seal, ["true"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        ) as process:
            _, err = process.communicate(timeout=30)
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        return False, f"cannot start bwrap: {exc}"
    if process.returncode == 0:
        return True, ""
    message = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
    return False, _explain(message[0], process.returncode)


def _explain(message: str, code: int) -> str:
    """The cause (bwrap's words) and the fix of a failed probe."""
    lowered = message.lower()
    namespaces = ("uid map", "namespace", "operation not permitted", "permission denied")
    if any(word in lowered for word in namespaces):
        return f"{message} — {USERNS_HINT}"
    return f"bwrap failed (exit status {code}): {message}"


@dataclass(frozen=True)
class Interpreter:
    """A Python interpreter as a sandbox needs it.

    Attributes:
        executable: The real executable (pyenv shims and venv links resolved).
        prefix: ``sys.base_prefix``: the installation bound read-only into sandboxes.
    """

    executable: str
    prefix: str

    def binds(self) -> tuple[Bind, ...]:
        """Read-only binds that make the interpreter work inside a minimal view (none when it
        lives in the system folders)."""
        kept: list[str] = []
        for path in sorted({self.prefix, str(Path(self.executable).parent)}, key=len):
            if not any(_below(path, k) for k in [*kept, *SYSTEM_DIRS]):
                kept.append(path)
        return tuple(Bind(Path(p)) for p in kept)


def _below(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies inside it (lexically)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


_INTERPRETERS: dict[str, Interpreter] = {}
_PROBE_PYTHON = (
    "import json, os, sys; print(json.dumps([os.path.realpath(sys.executable), sys.base_prefix]))"
)


def interpreter(python: str) -> Interpreter:
    """Resolve ``python`` (a name on PATH, a pyenv shim, a venv's link) by running it once.

    Raises:
        RuntimeError: When it cannot be run.
    """
    if python not in _INTERPRETERS:
        try:
            done = subprocess.run(
                [python, "-I", "-S", "-c", _PROBE_PYTHON], capture_output=True, text=True,
                timeout=60, check=True, env=clean_env(),
            )  # fmt: skip
            executable, prefix = json.loads(done.stdout)
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            raise RuntimeError(f"cannot run the interpreter {python}: {exc}") from None
        _INTERPRETERS[python] = Interpreter(executable, prefix)
    return _INTERPRETERS[python]
