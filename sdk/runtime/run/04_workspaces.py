# ---------------------------------------------------------------------------------------------
# workspaces
# ---------------------------------------------------------------------------------------------

_WORKSPACE_ENTRY = "workspace"
_TREE = "tree"


@dataclass(frozen=True)
class WorkspaceSource:
    """Materializes a task's workspaces for its runs: seeded once, then copied.

    seed.py is deterministic, so every run of a task in one invocation starts from the same
    tree. With a ``cache`` folder, the stage-1 workspace and each later stage's files are
    materialized once, the first time a run needs them (under an exclusive lock, into a
    temporary folder renamed into place when complete, so concurrent runs wait for one
    seeding and a crash leaves no half-written entry), and every run copies them, symlinks as
    links and every mode kept. A workspace holding a FIFO, socket or device is not cached.

    Attributes:
        layout: The task's layout (its ``injects`` are scenario.json's folders).
        python: Interpreter that runs seed.py.
        cache: This task's folder in the invocation's cache; ``None`` seeds afresh each time.
    """

    layout: benchlib.Layout
    python: str
    cache: Path | None = None

    def make(self, dest: Path) -> None:
        """Write the stage-1 workspace to ``dest`` (which must not exist yet)."""
        if self.cache is not None:
            tree = self.entry(_WORKSPACE_ENTRY, self.build_workspace) / _TREE
            if tree.is_dir():
                shutil.copytree(tree, dest, symlinks=True)
                return
        benchlib.make_workspace(self.layout, dest, stage=1, python=self.python)

    def inject(self, workspace: Path, stage: int) -> None:
        """Add the files stage ``stage`` introduces to the live ``workspace``."""
        if self.cache is None:
            benchlib.inject_stage(self.layout, workspace, stage, self.python)
            return
        entry = self.entry(f"stage-{stage}", lambda out: self.build_stage(out, stage))
        benchlib.apply_stage_files(self.layout, workspace, entry / _TREE)

    def build_workspace(self, out: Path) -> None:
        """Materialize the stage-1 workspace into ``out/tree`` when a copy can reproduce it."""
        benchlib.make_workspace(self.layout, out / _TREE, stage=1, python=self.python)
        if not copyable(out / _TREE):
            benchlib.remove_path(out / _TREE)

    def build_stage(self, out: Path, stage: int) -> None:
        """Write the files stage ``stage`` introduces into ``out/tree``."""
        (out / _TREE).mkdir()
        benchlib.stage_files(self.layout, out / _TREE, stage, self.python)

    def entry(self, name: str, build: Callable[[Path], None]) -> Path:
        """The cache entry ``name``, built by ``build`` (into an empty folder) if missing."""
        assert self.cache is not None
        ready = self.cache / name
        if ready.is_dir():
            return ready
        self.cache.mkdir(parents=True, exist_ok=True)
        with _locked(self.cache / f".{name}.lock"):
            if not ready.is_dir():
                building = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=self.cache))
                try:
                    build(building)
                    building.rename(ready)
                finally:
                    if building.exists():
                        benchlib.remove_path(building)
        return ready


def copyable(root: Path) -> bool:
    """Whether ``root`` holds only folders, regular files and symlinks (a copy's repertoire)."""
    for folder, dirs, files in benchlib.walk(root):
        for name in dirs + files:
            mode = Path(folder, name).lstat().st_mode
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                return False
    return True


def remove_tree(root: Path) -> None:
    """Remove a folder of the runner's, read-only trees included, whatever is left."""
    with contextlib.suppress(OSError):
        benchlib.make_writable(root)
    benchlib.delete_tree(root, ignore_errors=True)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if missing) across processes."""
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


# ---------------------------------------------------------------------------------------------
# archive -- deterministic archives of final workspaces (both runners keep one per run)
# ---------------------------------------------------------------------------------------------
# Entries are sorted, owned by uid/gid 0 with empty names, dated 0 and gzip-compressed with
# mtime 0, so two identical workspaces give byte-identical archives (handy for comparing
# arms). Modes are kept, so read-only inputs stay visible as such.

WORKSPACE_ARCHIVE: Final = "workspace.tar.gz"


def archive_members(root: Path, paths: tuple[str, ...] | None) -> list[Path]:
    """Files, links and folders under ``root`` (only under ``paths`` when given).

    Sorted by relative path, so every folder comes before its contents.
    """
    tops = [root / p.rstrip("/") for p in paths] if paths is not None else [root]
    found: set[Path] = set()
    for top in tops:
        if not (top.exists() or top.is_symlink()):
            continue
        if top != root:
            found.add(top)
        if top.is_dir() and not top.is_symlink():
            found.update(_archive_walk(top))
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def _archive_walk(top: Path) -> Iterator[Path]:
    for folder, dirs, files in benchlib.walk(top):
        dirs.sort()
        base = Path(folder)
        for name in sorted(dirs + files):
            yield base / name


def _info(path: Path, root: Path) -> tarfile.TarInfo | None:
    """The tar header of ``path``; ``None`` for FIFOs, sockets and devices (never opened)."""
    info = tarfile.TarInfo(path.relative_to(root).as_posix())
    status = path.lstat()
    info.mode = status.st_mode & 0o7777
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    if stat.S_ISLNK(status.st_mode):
        info.type, info.linkname = tarfile.SYMTYPE, str(path.readlink())
    elif stat.S_ISDIR(status.st_mode):
        info.type = tarfile.DIRTYPE
    elif stat.S_ISREG(status.st_mode):
        info.size = status.st_size
    else:
        return None
    return info


def write_archive(
    root: Path, dest: Path, paths: tuple[str, ...] | None = None
) -> list[tuple[str, str]]:
    """Archive ``root`` (or only its ``paths``) to ``dest`` as a deterministic tar.gz.

    Returns:
        The workspace-relative paths left out, each with why: ``unreadable`` (unreadable
        files, FIFOs, sockets and devices: an agent may leave any of them, and opening a
        FIFO would block the runner forever) or ``above N bytes`` (a file larger than
        ``benchlib.COPY_FILE_BYTES``, the judge's own bound: a sparse file of 1 GiB that
        holds nothing would otherwise be read and compressed whole).
    """
    skipped: list[tuple[str, str]] = []
    benchlib.ensure_parent(dest)
    with (
        open(dest, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for path in archive_members(root, paths):
            try:
                added = _add(tar, path, root)
            except OSError:
                added = "unreadable"
            if added:
                skipped.append((path.relative_to(root).as_posix(), added))
    return skipped


def archive_workspace(
    workspace: Path, run_dir: Path, paths: tuple[str, ...] | None = None
) -> list[DiagnosticEntry]:
    """Archive a run's final workspace (only ``paths`` when given) as ``run_dir``'s
    :data:`WORKSPACE_ARCHIVE`; an ``archive`` diagnostic for each entry left out."""
    skipped = write_archive(workspace, run_dir / WORKSPACE_ARCHIVE, paths)
    return [
        DiagnosticEntry(0, "runner", 0, 0, "archive", f"{why}, not archived: {rel}")
        for rel, why in skipped
    ]


def _add(tar: tarfile.TarFile, path: Path, root: Path) -> str:
    """Add ``path`` to ``tar``; why it was left out, or "" once added."""
    info = _info(path, root)
    if info is None:
        return "unreadable"
    if info.isreg() and info.size > benchlib.COPY_FILE_BYTES:
        return f"above {benchlib.COPY_FILE_BYTES} bytes"
    if info.isreg():
        with open(path, "rb") as stream:
            tar.addfile(info, stream)
    else:
        tar.addfile(info)
    return ""
