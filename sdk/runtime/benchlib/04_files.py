# ---------------------------------------------------------------------------------------------
# files -- SDK-internal
# ---------------------------------------------------------------------------------------------


def ensure_parent(path: Path) -> None:
    """Create the parent folders of ``path`` with fixed modes."""
    missing = [p for p in reversed(path.parents) if not p.exists()]
    for folder in missing:
        folder.mkdir()
        folder.chmod(DIR_MODE)


@contextlib.contextmanager
def _open_output(path: Path, *, binary: bool = False) -> Iterator[IO[Any]]:
    """Open ``path`` for writing with a fixed mode; ``.gz`` paths are gzip with mtime 0.

    Text streams are UTF-8 with ``newline=""`` so that writers control line endings.
    """
    ensure_parent(path)
    with open(path, "wb") as raw:
        stream: IO[bytes] = raw
        if path.name.endswith(".gz"):
            gz = gzip.GzipFile(
                filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=GZIP_LEVEL
            )
            stream = cast(IO[bytes], gz)
        try:
            if binary:
                yield stream
            else:
                text = io.TextIOWrapper(stream, encoding="utf-8", newline="")
                yield text
                text.flush()
                text.detach()
        finally:
            if stream is not raw:
                stream.close()
    path.chmod(FILE_MODE)


def walk(
    top: str | os.PathLike[str], *, topdown: bool = True
) -> Iterator[tuple[str, list[str], list[str]]]:
    """:func:`os.walk` without recursion, so a candidate's tree of any depth is data.

    Python 3.11's ``os.walk`` (and ``shutil.rmtree`` and ``copytree`` before 3.13) recurse
    once per level and fail with ``RecursionError`` on a folder nested about a thousand
    deep. Same contract otherwise: symlinks to folders are listed in ``dirs`` but never
    followed, folders that cannot be listed are skipped, top-down callers may prune ``dirs``
    in place, and bottom-up yields every folder after all folders below it. Names that are
    not UTF-8 come as ``surrogateescape`` strings.
    """
    if not topdown:
        yield from reversed(list(walk(top)))
        return
    stack = [os.fspath(top)]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue
        dirs: list[str] = []
        files: list[str] = []
        real: set[str] = set()
        for entry in entries:
            try:
                is_dir = entry.is_dir()
                if is_dir and not entry.is_symlink():
                    real.add(entry.name)
            except OSError:
                is_dir = False
            (dirs if is_dir else files).append(entry.name)
        yield folder, dirs, files
        stack.extend(os.path.join(folder, d) for d in reversed(dirs) if d in real)  # noqa: PTH118


_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
"""How a folder is opened to work inside it through its descriptor (``dir_fd``)."""


def delete_tree(root: str | os.PathLike[str], *, ignore_errors: bool = False) -> None:
    """:func:`shutil.rmtree` without recursion (any depth; symlinks removed, not followed).

    Each folder is entered through its parent's descriptor and left through its ``..``, and
    everything inside it is removed through its own descriptor: every step costs the same at
    any depth (a path-based removal resolves the whole path at every step, quadratic in the
    depth: 3 s for a folder nested 1,200 deep), and at most two descriptors are open.

    Raises:
        OSError: The first failure, once everything removable is gone (unless
            ``ignore_errors``).
    """
    failures: list[OSError] = []
    top = os.fspath(root)
    try:
        held = [os.open(top, _FOLDER_FLAGS | os.O_NOFOLLOW)]
    except FileNotFoundError:
        return
    except OSError as exc:  # a file or a symlink: not a tree
        failures.append(exc)
    else:
        try:
            _empty_tree(held, failures)
        finally:
            os.close(held[0])
        _try(failures, os.rmdir, top)
    if failures and not ignore_errors:
        raise failures[0]


def _move(held: list[int], index: int, name: str) -> None:
    """Replace the open folder ``held[index]`` by its entry ``name`` (``..``: its parent).

    The new descriptor is held before the old one is closed, so whatever fails, the caller
    closes exactly the descriptors it holds (never one twice, which in a threaded process
    could close another thread's file).
    """
    flags = _FOLDER_FLAGS if name == ".." else _FOLDER_FLAGS | os.O_NOFOLLOW
    new = os.open(name, flags, dir_fd=held[index])
    old, held[index] = held[index], new
    os.close(old)


def _empty_tree(held: list[int], failures: list[OSError]) -> None:
    """Remove everything inside the open folder ``held[0]``, which it ends on again.
    Failures are collected, the rest removed."""
    pending = [_remove_files(held[0], failures)]  # per level: the folders left to remove
    entered: list[str] = []  # the folder entered at each level below the top
    while True:
        if pending[-1]:
            name = pending[-1].pop()
            try:
                _move(held, 0, name)
            except OSError as exc:
                if not isinstance(exc, FileNotFoundError):
                    failures.append(exc)
                continue
            entered.append(name)
            pending.append(_remove_files(held[0], failures))
            continue
        pending.pop()
        if not entered:
            return
        _move(held, 0, "..")
        _try(failures, functools.partial(os.rmdir, dir_fd=held[0]), entered.pop())


def _remove_files(folder: int, failures: list[OSError]) -> list[str]:
    """Unlink every entry of the open ``folder`` that is not a folder; return the names of
    its folders (symlinks to folders are unlinked, never followed)."""
    folders: list[str] = []
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except OSError as exc:
        failures.append(exc)
        return folders
    for entry in entries:
        try:
            is_folder = entry.is_dir(follow_symlinks=False)
        except OSError:
            is_folder = False
        if is_folder:
            folders.append(entry.name)
        else:
            _try(failures, functools.partial(os.unlink, dir_fd=folder), entry.name)
    return folders


@contextlib.contextmanager
def temporary_folder(prefix: str) -> Iterator[Path]:
    """:class:`tempfile.TemporaryDirectory` whose removal handles any depth and read-only
    folders (a candidate's tree copied into it may have both); a leftover is never an error."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        with contextlib.suppress(OSError):
            make_writable(folder)
        delete_tree(folder, ignore_errors=True)


def _try(failures: list[OSError], action: Callable[[str], object], path: str) -> None:
    try:
        action(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        failures.append(exc)


def _fix_modes(root: Path) -> None:
    """Give every folder under ``root`` mode 755 and every file mode 644 (umask-proof).

    Symlinks are left as they are: changing a link's mode would change its target's.
    """
    for folder, dirs, files in walk(root):
        dirs.sort()
        for name in sorted(files):
            path = Path(folder, name)
            if not path.is_symlink():
                path.chmod(FILE_MODE)
        Path(folder).chmod(DIR_MODE)


def file_digest(path: Path) -> str:
    """SHA-256 of a file's content, decompressed first when it is a gzip file."""
    digest = hashlib.sha256()
    with open(path, "rb") as raw:
        stream: IO[bytes] = raw
        if path.name.endswith(".gz") and raw.read(2) == b"\x1f\x8b":
            raw.seek(0)
            stream = cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb"))
        else:
            raw.seek(0)
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def tree_entries(
    root: Path, digests: dict[tuple[int, ...], str] | None = None
) -> list[tuple[str, str, str]]:
    """Return (relative path, mode, content digest) for every entry under ``root``, sorted.

    Folders have the digest ``-``; symlinks ``->target``; FIFOs, sockets and devices
    ``special`` (they are never opened). Modes are octal permission bits. ``digests``, when
    given, caches file digests by (device, inode, size, mtime) across calls.
    """
    entries = []
    for folder, dirs, files in walk(root):
        dirs.sort()
        base = Path(folder)
        for name in sorted(dirs + files):
            path = base / name
            rel = path.relative_to(root).as_posix()
            info = path.lstat()
            mode = format(info.st_mode & 0o777, "o")
            if stat.S_ISLNK(info.st_mode):
                entries.append((rel, mode, "->" + str(path.readlink())))
            elif stat.S_ISDIR(info.st_mode):
                entries.append((rel, mode, "-"))
            elif stat.S_ISREG(info.st_mode):
                entries.append((rel, mode, _cached_digest(path, info, digests)))
            else:
                entries.append((rel, mode, "special"))
    return entries


def _cached_digest(
    path: Path, info: os.stat_result, digests: dict[tuple[int, ...], str] | None
) -> str:
    if digests is None:
        return file_digest(path)
    key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
    if key not in digests:
        digests[key] = file_digest(path)
    return digests[key]


def entries_hash(entries: Iterable[tuple[str, str, str]]) -> str:
    """One SHA-256 over a tree's :func:`tree_entries` -- equal trees, equal hashes."""
    digest = hashlib.sha256()
    for entry in entries:
        digest.update("\t".join(entry).encode("utf-8") + b"\n")
    return digest.hexdigest()


def copy_tree(src: Path, dest: Path) -> None:
    """Copy the contents of folder ``src`` into ``dest`` (merging), keeping symlinks as links.

    Raises:
        ValueError: When a symlink under ``src`` leads outside ``src`` (its copy would show
            whatever it points at); nothing is copied then.
    """
    escaping = escaping_links(src)
    if escaping:
        raise ValueError(f"{src / escaping[0]} is a symlink leading outside {src}")
    shutil.copytree(src, dest, symlinks=True, dirs_exist_ok=True, copy_function=shutil.copy2)


def escaping_links(folder: Path) -> list[str]:
    """The symlinks under ``folder`` (relative paths, sorted) that lead outside it.

    A link is judged by its text, never followed: absolute targets and relative ones whose
    ``..`` climb out of ``folder`` escape.
    """
    found = []
    for current, dirs, files in walk(folder):
        dirs.sort()
        for name in sorted(dirs + files):
            path = Path(current, name)
            if path.is_symlink() and not _link_stays_inside(path, folder):
                found.append(path.relative_to(folder).as_posix())
    return found


def copy_path(src: Path, dest: Path) -> None:
    """Copy a file, symlink or folder ``src`` to ``dest``, replacing what is there."""
    remove_path(dest)
    ensure_parent(dest)
    if src.is_dir() and not src.is_symlink():
        shutil.copytree(src, dest, symlinks=True)
    else:
        shutil.copy2(src, dest, follow_symlinks=False)


def remove_path(path: Path) -> None:
    """Remove a file, link, FIFO or folder if present, even when read-only."""
    if path.is_dir() and not path.is_symlink():
        _open_folders(os.fspath(path))  # deleting needs only the folders writable
        delete_tree(path)
    elif path.is_symlink() or path.exists():
        path.unlink()


def make_writable(root: Path) -> None:
    """Restore owner write permission under ``root`` (so it can be deleted or refreshed).

    A file with several links is left alone: it may be a pristine fixture's file that a sealed
    run hard-links (:func:`link_fixture`), whose mode is the fixture's; deleting a link needs
    only its folder writable.
    """
    _open_folders(os.fspath(root), files=True)


def _open_folders(root: str, *, files: bool = False) -> None:
    """Give every folder under ``root`` (itself included) owner read, write and search
    permission and, with ``files``, every file that is not a symlink and has one link owner
    read and write permission.

    Walks as :func:`os.walk` does (symlinks never followed, folders that cannot be listed
    skipped), on ``str`` paths and :class:`os.DirEntry` types: a fixture holds thousands of
    files.
    """
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue
        os.chmod(folder, os.stat(folder).st_mode | 0o700)  # noqa: PTH101, PTH116  # str paths
        folders = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:  # a symlink to a folder is listed with the folders, never entered
                if not entry.is_symlink():
                    folders.append(entry.path)
            elif files:
                status = entry.stat(follow_symlinks=False)
                if not stat.S_ISLNK(status.st_mode) and status.st_nlink == 1:
                    os.chmod(entry.path, status.st_mode | 0o600)  # noqa: PTH101  # str paths
        stack.extend(sorted(folders, reverse=True))
