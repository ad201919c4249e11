# ---------------------------------------------------------------------------------------------
# layout -- SDK-internal
# ---------------------------------------------------------------------------------------------

AUTHORING_ONLY = ("reference", "witnesses", "mutants", "audit.lock")
"""Task folders and files used only while authoring (proofs of the judge, the recorded
audit): never in a workspace, a judge's runtime or an export."""

PRIVATE_NAMES = (
    "task.toml",
    "judge.py",
    "seed.py",
    "fixtures.py",
    *AUTHORING_ONLY,
    "edge",
    "benchsmith.lock",
    "scenario.json",
)


@dataclass(frozen=True)
class Layout:
    """Where a task's static files are and how its workspace is shaped.

    Attributes:
        task_dir: The task folder.
        stages: Stage ids in order.
        editable: Workspace paths a solution may write.
        edge_include_visible: Whether the edge fixture starts from visible/.
        injects: Each stage's static folder, relative to the task folder (scenario.json's
            ``inject``, which the runner reads); empty: ``visible/`` for stage 1 and
            ``stages/<id>/`` for the others, as build writes them.
    """

    task_dir: Path
    stages: tuple[str, ...]
    editable: tuple[str, ...]
    edge_include_visible: bool = True
    injects: tuple[str, ...] = ()

    @classmethod
    def from_task(cls, task_dir: Path, task: Mapping[str, Any]) -> Layout:
        """Build a layout from a judge's embedded task data."""
        return cls(
            task_dir=task_dir,
            stages=tuple(task["stages"]),
            editable=tuple(task["editable"]),
            edge_include_visible=task.get("edge_include_visible", True),
        )

    def stage_number(self, stage: int | None) -> int:
        """Clamp ``stage`` (``None`` = final) to a valid 1-based stage number."""
        return len(self.stages) if stage is None else max(1, min(stage, len(self.stages)))

    def static_dirs(self, fixture: str, stage: int) -> list[Path]:
        """Static folders copied over the seeded files, in order."""
        visible = self.task_dir / "visible"
        if fixture == "edge":
            dirs = [visible] if self.edge_include_visible else []
            return [*dirs, self.task_dir / "edge"]
        return [self.inject_dir(number) for number in range(1, stage + 1)]

    def inject_dir(self, stage: int) -> Path:
        """The static folder of the 1-based ``stage`` (it need not exist)."""
        if self.injects:
            return self.task_dir / self.injects[stage - 1].rstrip("/")
        if stage == 1:
            return self.task_dir / "visible"
        return self.task_dir / "stages" / self.stages[stage - 1]

    def is_editable(self, rel: str) -> bool:
        """Whether the workspace-relative path ``rel`` lies inside an editable path."""
        for path in self.editable:
            base = path.rstrip("/")
            if rel == base or rel.startswith(base + "/"):
                return True
        return False

    def holds_editable(self, rel: str) -> bool:
        """Whether folder ``rel`` contains an editable path (so it must stay writable)."""
        return any(p.rstrip("/").startswith(rel + "/") for p in self.editable)


def run_seed(
    layout: Layout,
    dest: Path,
    *,
    fixture: str,
    stage: int,
    python: str = sys.executable,
    only: bool = False,
) -> None:
    """Run the task's seed.py into ``dest``; raise RuntimeError with its stderr on failure.

    seed.py gets :data:`SEED_TIMEOUT` seconds: a hanging generator fails instead of hanging.
    """
    argv = [python, "seed.py", "--out", str(dest), "--fixture", fixture, "--stage", str(stage)]
    argv += ["--only"] if only else []
    try:
        done = subprocess.run(
            argv, cwd=layout.task_dir, capture_output=True, text=True, check=False,
            env=clean_env(), timeout=SEED_TIMEOUT,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"seed.py did not finish within {SEED_TIMEOUT:.0f} s") from None
    if done.returncode != 0:
        raise RuntimeError(f"seed.py failed ({done.returncode}): {done.stderr.strip()[-2000:]}")


def materialize(
    layout: Layout,
    dest: Path,
    *,
    fixture: str = "main",
    stage: int | None = None,
    python: str = sys.executable,
) -> Path:
    """Write a complete fixture: seed.py output, then visible/, stages/ or edge/ files.

    Args:
        layout: The task's layout.
        dest: Destination folder (created).
        fixture: ``"main"`` or ``"edge"``.
        stage: Main fixture as of this stage (``None``: final, with every stage's files).
        python: Interpreter that runs seed.py.

    Returns:
        ``dest``.
    """
    number = layout.stage_number(stage)
    run_seed(layout, dest, fixture=fixture, stage=number, python=python)
    for folder in layout.static_dirs(fixture, number):
        if folder.is_dir():
            copy_tree(folder, dest)
    _fix_modes(dest)
    return dest


def inject_stage(layout: Layout, workspace: Path, stage: int, python: str = sys.executable) -> None:
    """Add the files stage ``stage`` introduces (seeded and static) to a live workspace."""
    with tempfile.TemporaryDirectory(prefix="benchlib-stage-") as tmp:
        apply_stage_files(layout, workspace, stage_files(layout, Path(tmp), stage, python))


def stage_files(layout: Layout, dest: Path, stage: int, python: str = sys.executable) -> Path:
    """Write the files stage ``stage`` introduces (seeded, then static) into ``dest``.

    Returns:
        ``dest``, ready for :func:`apply_stage_files` (which only reads it, so one copy can
        serve many workspaces).
    """
    run_seed(layout, dest, fixture="main", stage=stage, python=python, only=True)
    static = layout.inject_dir(stage)
    if stage > 1 and static.is_dir():
        copy_tree(static, dest)
    _fix_modes(dest)
    return dest


def apply_stage_files(layout: Layout, workspace: Path, delta: Path) -> None:
    """Copy the files of :func:`stage_files` into ``workspace``; inputs end up read-only."""
    for folder, dirs, files in walk(delta):
        dirs.sort()
        for name in sorted(files):
            rel = Path(folder, name).relative_to(delta)
            target = workspace / rel
            _real_parents(target, workspace)
            copy_path(Path(folder, name), target)
    protect_inputs(layout, workspace)


def _real_parents(target: Path, root: Path) -> None:
    """Make every folder between ``root`` and ``target`` a real, owner-writable folder.

    A symlink (or a file) where a folder belongs is replaced by a folder, so that nothing is
    ever written through a link the workspace's owner planted to reach outside it; the owner
    gets write access to the existing folders, so a new file can be created below read-only
    inputs without root rights.
    """
    folder = root
    for part in target.relative_to(root).parts[:-1]:
        folder = folder / part
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            remove_path(folder)
        if folder.exists():
            folder.chmod(folder.stat().st_mode | 0o700)
        else:
            folder.mkdir()
            folder.chmod(DIR_MODE)


def protect_inputs(layout: Layout, workspace: Path) -> None:
    """Make everything outside the editable paths read-only (the root stays writable)."""
    for folder, dirs, files in walk(workspace, topdown=False):
        rel_dir = Path(folder).relative_to(workspace).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        for name in files:
            rel = f"{rel_dir}/{name}" if rel_dir else name
            path = Path(folder, name)
            if not layout.is_editable(rel) and not path.is_symlink():
                path.chmod(READ_ONLY_FILE)
        if rel_dir and not layout.is_editable(rel_dir) and not layout.holds_editable(rel_dir):
            Path(folder).chmod(READ_ONLY_DIR)
        dirs.sort()


def make_workspace(
    layout: Layout, dest: Path, *, stage: int | None = 1, python: str = sys.executable
) -> Path:
    """Materialize the workspace an agent receives at ``stage`` (``None``: final).

    The workspace holds the seeded files, visible/, the files of stages up to ``stage`` and
    TASK.md; inputs are read-only and the editable paths exist and are writable. Nothing
    private (judge, reference, witnesses, mutants, edge fixture, task.toml) is copied.
    """
    materialize(layout, dest, fixture="main", stage=stage, python=python)
    copy_path(layout.task_dir / "TASK.md", dest / "TASK.md")
    for path in layout.editable:
        target = dest / path.rstrip("/")
        if path.endswith("/"):
            target.mkdir(parents=True, exist_ok=True)
    _fix_modes(dest)
    protect_inputs(layout, dest)
    return dest


def overlay(
    src_root: Path, dest_root: Path, paths: Iterable[str], skipped: list[str] | None = None
) -> list[str]:
    """Copy each editable ``paths`` entry that exists under ``src_root`` over ``dest_root``.

    Only regular files, folders and symlinks that stay inside ``dest_root`` are copied: a
    FIFO, socket or device, or a link leading out of the tree (which would let a candidate
    command reach the caller's files), is left out and named in ``skipped``.

    At most one :class:`CopyBudget` is copied over all ``paths``; what lies beyond is left
    out and named in ``skipped`` too.

    Returns:
        The paths copied. ``src_root`` is only read.
    """
    copied, budget = [], CopyBudget()
    for rel in paths:
        name = rel.rstrip("/")
        src = src_root / name
        if src.exists() or src.is_symlink():
            target = dest_root / name
            if target.parent.exists():
                target.parent.chmod(target.parent.stat().st_mode | 0o700)
            remove_path(target)
            ensure_parent(target)
            kept = skipped if skipped is not None else []
            _safe_copy(src, target, dest_root, name, kept, budget)
            copied.append(rel)
    return copied


def candidate_paths(editable: Iterable[str], outputs: Iterable[str]) -> list[str]:
    """The editable paths a judge copies from a workspace: those holding no declared output.

    Outputs must be produced by the commands under judgement, so folders that hold outputs
    (``output/``, a state folder) start as the pristine fixture has them.
    """
    declared = [o.rstrip("/") for o in outputs]
    return [
        p
        for p in editable
        if not any(o == p.rstrip("/") or o.startswith(p.rstrip("/") + "/") for o in declared)
    ]


def reset_outputs(root: Path, pristine: Path, outputs: Iterable[str]) -> None:
    """Put every declared output back as the pristine fixture has it (or remove it)."""
    for rel in outputs:
        name = rel.rstrip("/")
        if (pristine / name).exists():
            copy_path(pristine / name, root / name)
        elif (root / name).exists() or (root / name).is_symlink():
            remove_path(root / name)


def input_folders(layout: Layout, fixture: Path, written: Iterable[str] = ()) -> list[str]:
    """The input folders of a materialized ``fixture``: the topmost real folders that are not
    editable, hold no editable path and hold none of ``written`` (paths the commands write,
    such as declared outputs or service URL files). Relative, sorted.

    Sealed judgings bind them read-only (spec 10.5) instead of copying them.
    """
    targets = [w.rstrip("/") for w in written]
    found = []
    for folder, dirs, _ in walk(fixture):
        dirs.sort()
        base = Path(folder).relative_to(fixture).as_posix()
        descend = []
        for name in dirs:
            rel = name if base == "." else f"{base}/{name}"
            if Path(folder, name).is_symlink():
                continue
            if (
                layout.is_editable(rel)
                or layout.holds_editable(rel)
                or any(t == rel or t.startswith(rel + "/") for t in targets)
            ):
                descend.append(name)
            else:
                found.append(rel)
        dirs[:] = descend
    return sorted(found)


def link_fixture(
    pristine: Path, root: Path, linked: Sequence[str] = (), empty: Sequence[str] = ()
) -> None:
    """Copy the folder ``pristine`` to ``root`` (created), keeping symlinks as links; files
    inside the folders ``linked`` (relative) are hard links to the pristine ones instead of
    copies (copies where the file system refuses a link), and the folders ``empty``
    (relative) are created without their content."""
    prefixes = tuple(str(root / rel) + os.sep for rel in linked)
    emptied = {os.path.normpath(pristine / rel) for rel in empty}

    def skip(folder: str, names: list[str]) -> list[str]:
        return names if os.path.normpath(folder) in emptied else []

    def place(src: str, dst: str) -> str:
        if prefixes and dst.startswith(prefixes):
            try:
                os.link(src, dst, follow_symlinks=False)
                return dst
            except OSError:  # another file system, or links refused (protected_hardlinks)
                pass
        return cast(str, shutil.copy2(src, dst, follow_symlinks=False))

    shutil.copytree(
        pristine, root, symlinks=True, copy_function=place, ignore=skip if emptied else None
    )


def _link_stays_inside(link: Path, root: Path, target: str | None = None) -> bool:
    """Whether the symlink ``link`` (placed under ``root``; its text ``target``, read when
    not given) points inside ``root``, lexically."""
    text = str(link.readlink()) if target is None else target
    if text.startswith("/"):
        return False
    resolved = Path(os.path.normpath(link.parent.absolute() / text))
    return resolved.is_relative_to(Path(os.path.normpath(root.absolute())))


COPY_FILE_BYTES = 256 << 20
COPY_TOTAL_BYTES = 1 << 30
COPY_FILES = 100_000


class CopyBudget:
    """What one overlay of a candidate's workspace may copy into a fixture: at most
    :data:`COPY_FILES` entries, no file above :data:`COPY_FILE_BYTES` and
    :data:`COPY_TOTAL_BYTES` in all, counted by apparent size (a sparse file of 1 GiB
    holding 12 KiB would be copied dense). What lies beyond is left out and named, so a
    candidate that floods its editable paths gets a verdict saying so, and the judge's disk
    and time stay bounded."""

    __slots__ = ("bytes", "entries", "full")

    def __init__(self) -> None:
        self.bytes = self.entries = 0
        self.full = False

    def admit(self, info: os.stat_result, shown: str, skipped: list[str]) -> bool:
        """Whether the entry ``info`` fits; if not, why goes into ``skipped``."""
        if self.full:
            return False
        self.entries += 1
        if self.entries > COPY_FILES:
            self.full = True
            skipped.append(f"{shown} and everything after it (more than {COPY_FILES} entries)")
            return False
        if not stat.S_ISREG(info.st_mode):
            return True
        if info.st_size > COPY_FILE_BYTES:
            skipped.append(f"{shown} ({info.st_size} bytes: above {COPY_FILE_BYTES} per file)")
            return False
        if self.bytes + info.st_size > COPY_TOTAL_BYTES:
            self.full = True
            skipped.append(f"{shown} and everything after it (above {COPY_TOTAL_BYTES} bytes)")
            return False
        self.bytes += info.st_size
        return True


def _safe_copy(
    src: Path, dest: Path, root: Path, rel: str, skipped: list[str], budget: CopyBudget
) -> None:
    """Copy ``src`` to ``dest`` (a folder with all it holds, at any depth), skipping special
    files and escaping links, within ``budget``. Folders get their modes (plus owner
    access) once filled.

    Both trees are walked through descriptors, as :func:`delete_tree` walks one: each
    folder is entered from its parent's descriptor and left through ``..``, so every step
    costs the same at any depth (path-based copying was quadratic in the depth: 4.6 s of
    ``mkdir`` alone for a folder nested 1,200 deep).
    """
    held = [os.open(src.parent, _FOLDER_FLAGS)]  # source folder, target folder
    try:
        held.append(os.open(dest.parent, _FOLDER_FLAGS))
        _copy_tree_at(held, (src.name, dest.name, rel), dest.parent, root, (skipped, budget))
    finally:
        for handle in held:
            os.close(handle)


def _copy_tree_at(
    held: list[int],
    top: tuple[str, str, str],
    base: Path,
    root: Path,
    bounds: tuple[list[str], CopyBudget],
) -> None:
    """The walk of :func:`_safe_copy`: ``held`` holds the open source and target folders
    (``top``: the entry to copy there, its name in the target, its shown path; ``base``: the
    target folder's path; ``bounds``: the skipped list and the budget), and ends on them
    again."""
    skipped = bounds[0]
    pending = [[top]]  # per level: (source name, target name, shown path) left to copy
    entered: list[tuple[str, str, int]] = []  # per folder entered: target name, shown, mode
    while True:
        if not pending[-1]:
            pending.pop()
            if not entered:
                return
            _, shown, mode = entered.pop()
            try:
                os.fchmod(held[1], stat.S_IMODE(mode) | 0o700)
            except OSError as exc:
                skipped.append(f"{shown} (unreadable: {exc.strerror or exc})")
            _move(held, 0, "..")
            _move(held, 1, "..")
            continue
        name, made, shown = pending[-1].pop()
        place = _Place(base, entered, made)
        folder_mode = _copy_entry(held[0], held[1], (name, made, shown), place, root, bounds)
        if folder_mode is None:
            continue
        try:
            _move(held, 0, name)
        except OSError as exc:
            skipped.append(f"{shown} (unreadable: {exc.strerror or exc})")
            continue
        try:
            children = sorted(os.listdir(held[0]), reverse=True)  # noqa: PTH208  # a descriptor
            _move(held, 1, made)
        except OSError as exc:
            _move(held, 0, "..")
            skipped.append(f"{shown} (unreadable: {exc.strerror or exc})")
            continue
        entered.append((made, shown, folder_mode))
        pending.append([(c, c, f"{shown}/{c}") for c in children])


@dataclass(frozen=True, slots=True)
class _Place:
    """Where :func:`_safe_copy` puts an entry: ``base``, the folders entered (their names
    first in each tuple), ``name``; the path is built only for a symlink's check, so deep
    trees stay linear."""

    base: Path
    entered: Sequence[tuple[str, str, int]]
    name: str

    def path(self) -> Path:
        return Path(self.base, *(e[0] for e in self.entered), self.name)


def _copy_entry(
    source: int,
    target: int,
    names: tuple[str, str, str],
    place: _Place,
    root: Path,
    bounds: tuple[list[str], CopyBudget],
) -> int | None:
    """Copy the entry of the open folder ``source`` named ``names[0]`` into ``target`` as
    ``names[1]`` (``names[2]``: the path reported): a regular file (content, mode, times)
    or a symlink that stays inside ``root``, or create the folder and return its source
    mode (to enter it); anything else, or what the budget refuses, is skipped with why."""
    name, made, shown = names
    skipped, budget = bounds
    try:
        info = os.stat(name, dir_fd=source, follow_symlinks=False)
        if not budget.admit(info, shown, skipped):
            return None
        if stat.S_ISLNK(info.st_mode):
            text = os.readlink(name, dir_fd=source)
            if _link_stays_inside(place.path(), root, text):
                os.symlink(text, made, dir_fd=target)
            else:
                skipped.append(f"{shown} (a symlink leading outside the workspace)")
        elif stat.S_ISDIR(info.st_mode):
            os.mkdir(made, 0o700, dir_fd=target)
            return info.st_mode
        elif stat.S_ISREG(info.st_mode):
            _copy_file(source, target, name, made)
        else:
            skipped.append(f"{shown} (not a regular file, folder or symlink)")
    except OSError as exc:  # unreadable entries are the candidate's problem, not the judge's
        skipped.append(f"{shown} (unreadable: {exc.strerror or exc})")
    return None


def _copy_file(source: int, target: int, name: str, made: str) -> None:
    """Copy the regular file ``name`` to ``made`` as :func:`shutil.copy2` does (content,
    mode, times).

    Raises:
        OSError: When it cannot be read or written, or is no longer a regular file (opened
            without blocking, so a FIFO swapped in never hangs the copy).
    """
    reader = os.open(
        name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=source
    )
    try:
        info = os.fstat(reader)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        writer = os.open(made, flags, 0o600, dir_fd=target)
        try:
            with (
                open(reader, "rb", closefd=False) as stream,
                open(writer, "wb", closefd=False) as out,
            ):
                shutil.copyfileobj(stream, out, 1 << 20)
            os.fchmod(writer, stat.S_IMODE(info.st_mode))
            os.utime(writer, ns=(info.st_atime_ns, info.st_mtime_ns))
        finally:
            os.close(writer)
    finally:
        os.close(reader)
