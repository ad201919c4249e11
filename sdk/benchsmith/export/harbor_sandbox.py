"""A Harbor environment without a container engine: bubblewrap over a benchsmith export.

``benchsmith export harbor`` writes this module beside the exported tasks as
``benchsmith_sandbox.py``. It needs only the standard library, ``harbor`` and the ``bwrap``
executable, so Harbor's own venv imports it::

    PYTHONPATH=OUT harbor run -p OUT/01-expense-reconciliation -a oracle \\
        --env benchsmith_sandbox:BubblewrapEnvironment

Harbor's orchestrator then runs the whole trial as usual (agent, steps, artifacts, the
separate verifier); this class only replaces Docker. It builds an "image" from the
``sandbox.json`` recipe that the export writes beside each Dockerfile (the same description,
rendered twice): the host's system folders (``/usr``, ``/etc``, ``/lib*``, ``/bin``) are
mounted read-only, everything else (``/app``, ``/logs``, ``/tests``, ``/solution``, ``/tmp``,
``/opt``, ``/home``, ``/root``) is a private folder of this environment, and each command
runs in its own ``bwrap`` sandbox (own PID, IPC and UTS namespaces; the host network, so
loopback services are reachable). The Python the image would have is the host's Python
3.12, mounted read-only at its own path and reached as ``python3`` through ``/opt/python/bin``.

Users are emulated, since the caller is usually not root: the image's non-root users exist
in ``/etc/passwd``, and a command run as one of them sees what Docker's ownership would
forbid it to write as read-only mounts (everything but its own folders, ``/tmp`` and
``/logs``; inside the workspace, the entries root put there: inputs, and the files a step
adds). Built images are cached by content under ``$XDG_CACHE_HOME/benchsmith-sandbox``
(``--ek cache_dir=...``; ``--force-build`` rebuilds); ``--ek python=/path/to/python3.12``
picks the interpreter.

Differences from Docker, by design: a background process does not outlive the command that
started it (except the image's ENTRYPOINT, which runs for the environment's lifetime); no CPU
or memory limits; no network isolation (``network_mode`` other than ``public`` is refused);
paths outside those folders are not writable. It is meant for the oracle and nop agents and
for agents already installed on the host, not for agents that install system packages.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from harbor.environments.base import BaseEnvironment, ExecResult
from harbor.environments.capabilities import EnvironmentCapabilities

RECIPE = "sandbox.json"
RECIPE_FORMAT = "benchsmith-sandbox/1"
SYSTEM_DIRS = ("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc")
PRIVATE_DIRS = ("tmp", "logs", "tests", "solution", "opt", "home", "root", "run", "var/tmp")
SHARED_DIRS = ("tmp", "logs", "var/tmp")  # writable by every user, as Harbor makes /logs
PYTHON_BIN = "/opt/python/bin"
PATH = f"{PYTHON_BIN}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
ENTRYPOINT_COMMAND = ("sh", "-c", "sleep infinity")  # what Harbor's compose files run


def _find_python(explicit: str | None) -> str:
    """The Python 3.12 the sandbox runs as python3 (explicit, on PATH, pyenv, or this one)."""
    candidates: list[str | None] = [explicit] if explicit else []
    if not explicit:
        candidates.append(shutil.which("python3.12"))
        root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
        candidates += [str(p) for p in sorted(root.glob("3.12*/bin/python3.12"), reverse=True)]
        candidates.append(str(Path(sys.base_prefix) / "bin" / f"python3.{sys.version_info[1]}"))
    for candidate in candidates:
        if candidate and _probe(candidate) is not None:
            return candidate
    raise RuntimeError("no working Python 3.12 found for the sandbox (pass --ek python=...)")


def _probe(python: str) -> tuple[str, str] | None:
    """``(real executable, base prefix)`` of a working Python 3.12, else None."""
    code = (
        "import os, sys; print(os.path.realpath(sys.executable)); print(sys.base_prefix); "
        "print(sys.version_info[:2])"
    )
    try:
        done = subprocess.run(
            [python, "-c", code], stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=30,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != 3 or lines[2] != "(3, 12)":
        return None
    return lines[0], os.path.realpath(lines[1])


def _container_parts(path: str) -> tuple[str, ...]:
    """The normalized parts of an absolute container path."""
    pure = PurePosixPath(os.path.normpath(path))
    if not pure.is_absolute():
        raise ValueError(f"container path must be absolute: {path!r}")
    return pure.parts[1:]


def _unlock(path: Path) -> None:
    """Give the owner write access so a copy can replace or enter ``path``."""
    with contextlib.suppress(OSError):
        path.chmod(path.stat().st_mode | 0o700 if path.is_dir() else path.stat().st_mode | 0o200)


def _remove_tree(root: Path) -> None:
    """rmtree that first unlocks read-only folders (inputs are 0555)."""
    for folder, dirs, _ in os.walk(root):
        for name in dirs:
            path = Path(folder, name)
            if not path.is_symlink():
                _unlock(path)
    shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def _writable(folder: Path) -> Iterator[None]:
    """Let the caller add to ``folder`` (inputs are 0555), then restore its mode."""
    mode = folder.stat().st_mode
    if mode & 0o200:
        yield
        return
    folder.chmod(mode | 0o700)
    try:
        yield
    finally:
        folder.chmod(mode)


def _copy_into(source: Path, target: Path) -> None:
    """Copy a file or a folder's contents to ``target``, as root would (modes kept)."""
    if not target.parent.exists():
        target.parent.mkdir(parents=True)
    if source.is_dir():
        if not target.is_dir():
            with _writable(target.parent):
                target.mkdir()
        for item in sorted(source.iterdir()):
            _copy_into(item, target / item.name)
        return
    with _writable(target.parent):
        if target.is_dir() and not target.is_symlink():
            _remove_tree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()
        shutil.copy2(source, target, follow_symlinks=False)


def _hash_tree(root: Path) -> str:
    """SHA-256 over a folder's relative paths, modes and contents."""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = Path(folder, name)
            digest.update(
                f"{path.relative_to(root).as_posix()}\0{path.stat().st_mode:o}\0".encode()
            )
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _inherited(mounts: list[tuple[str, Path, bool]], target: str) -> bool | None:
    """Whether ``target`` is writable under the deepest mount above it (None: no mount)."""
    above = [m for m in mounts if target.startswith(m[0].rstrip("/") + "/")]
    return max(above, key=lambda m: len(m[0]))[2] if above else None


class BubblewrapEnvironment(BaseEnvironment):
    """Runs a benchsmith export's environment under bubblewrap (see the module docstring)."""

    def __init__(
        self,
        environment_dir: Path,
        environment_name: str,
        session_id: str,
        trial_paths: Any,
        task_env_config: Any,
        logger: Any = None,
        python: str | None = None,
        cache_dir: str | None = None,
        **kwargs: Any,
    ) -> None:
        self._python_option = python
        self._cache_option = cache_dir
        self._recipe: dict[str, Any] = {}
        self._root: Path | None = None
        self._entrypoint: subprocess.Popen[bytes] | None = None
        self._uploaded: set[str] = set()
        self._python = self._prefix = ""
        super().__init__(
            environment_dir, environment_name, session_id, trial_paths, task_env_config,
            logger=logger, **kwargs,
        )  # fmt: skip

    # -- Harbor's interface ------------------------------------------------------------------

    @staticmethod
    def type() -> str:
        """The environment type Harbor records."""
        return "benchsmith-bwrap"

    @property
    def capabilities(self) -> EnvironmentCapabilities:
        """Nothing beyond running commands: no mounts, GPUs or network policies."""
        return EnvironmentCapabilities()

    def _validate_definition(self) -> None:
        path = Path(self.environment_dir) / RECIPE
        if not path.is_file():
            raise FileNotFoundError(
                f"{path} not found: this environment runs benchsmith exports only"
            )
        recipe = json.loads(path.read_text(encoding="utf-8"))
        if recipe.get("format") != RECIPE_FORMAT:
            raise ValueError(f"{path}: unknown recipe format {recipe.get('format')!r}")
        if shutil.which("bwrap") is None:
            raise RuntimeError("bubblewrap (bwrap) is not installed")
        self._recipe = recipe

    async def start(self, force_build: bool) -> None:
        """Build (or reuse) the image, copy it for this session, start the entrypoint."""
        python, prefix = await asyncio.to_thread(self._interpreter)
        self._python, self._prefix = python, prefix
        image = await asyncio.to_thread(self._image, force_build)
        root = Path(tempfile.mkdtemp(prefix=f"benchsmith-sandbox-{self._safe_id()}-"))
        self._root = root
        await asyncio.to_thread(shutil.copytree, image / "fs", root / "fs", symlinks=True)
        self._write_identity(root)
        built = json.loads((image / "built.json").read_text(encoding="utf-8"))
        self._uploaded = set(built["root_entries"])
        if self._recipe.get("entrypoint"):
            self._start_entrypoint()
        await self.ensure_dirs(self._mount_targets(writable_only=True))  # /logs/... as providers do

    async def stop(self, delete: bool) -> None:
        """Stop the entrypoint; remove this session's files when ``delete``."""
        if self._entrypoint is not None:
            self._kill(self._entrypoint)
            await asyncio.to_thread(self._entrypoint.wait)
            self._entrypoint = None
        if delete and self._root is not None:
            await asyncio.to_thread(_remove_tree, self._root)
            self._root = None

    async def exec(
        self,
        command: str,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout_sec: int | None = None,
        user: str | int | None = None,
    ) -> ExecResult:
        """Run ``bash -c command`` in a fresh sandbox over this environment's files."""
        uid, name = self._user(self._resolve_user(user))
        workdir = cwd or self.task_env_config.workdir or self._recipe["workdir"]
        argv = self._bwrap(uid, name, workdir, self._merge_env(env) or {})
        process = await asyncio.create_subprocess_exec(
            *argv, "bash", "-c", command, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )  # fmt: skip
        try:
            out, err = await asyncio.wait_for(process.communicate(), timeout=timeout_sec or None)
        except TimeoutError:
            self._kill(process)
            await process.wait()
            raise RuntimeError(f"Command timed out after {timeout_sec} seconds") from None
        except BaseException:
            self._kill(process)
            raise
        stdout = out.decode(errors="replace") if out else None
        stderr = err.decode(errors="replace") if err else None
        callback = self._output_callback()
        if callback is not None:
            for text, stream in ((stdout, "stdout"), (stderr, "stderr")):
                if text:
                    await callback(text, stream)
        return ExecResult(stdout=stdout, stderr=stderr, return_code=process.returncode or 0)

    async def upload_file(self, source_path: Path | str, target_path: str) -> None:
        """Copy a host file to ``target_path`` (as root would)."""
        target = self._host(target_path)
        await asyncio.to_thread(_copy_into, Path(source_path), target)
        self._note_root_entry(target_path)

    async def upload_dir(self, source_dir: Path | str, target_dir: str) -> None:
        """Copy a host folder's contents into ``target_dir`` (as root would)."""
        source = Path(source_dir)
        await asyncio.to_thread(_copy_into, source, self._host(target_dir))
        for item in sorted(source.iterdir()):
            self._note_root_entry(f"{target_dir.rstrip('/')}/{item.name}")

    async def download_file(self, source_path: str, target_path: Path | str) -> None:
        """Copy a file out of the environment."""
        target = Path(target_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(shutil.copyfile, self._host(source_path, existing=True), target)

    async def download_dir(self, source_dir: str, target_dir: Path | str) -> None:
        """Copy a folder's contents out of the environment (overwriting)."""
        source = self._host(source_dir, existing=True)
        await asyncio.to_thread(
            shutil.copytree, source, Path(target_dir), symlinks=True, dirs_exist_ok=True
        )

    async def is_dir(self, path: str, user: str | int | None = None) -> bool:
        """Whether ``path`` is a folder in the environment."""
        try:
            return self._host(path).is_dir()
        except ValueError:
            return False

    async def is_file(self, path: str, user: str | int | None = None) -> bool:
        """Whether ``path`` is a regular file in the environment."""
        try:
            return self._host(path).is_file()
        except ValueError:
            return False

    # -- the image -----------------------------------------------------------------------------

    def _interpreter(self) -> tuple[str, str]:
        found = _probe(_find_python(self._python_option))
        assert found is not None
        return found

    def _cache_root(self) -> Path:
        if self._cache_option:
            return Path(self._cache_option)
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return Path(base) / "benchsmith-sandbox"

    def _image(self, force_build: bool) -> Path:
        """The built image folder for this recipe, its context and interpreter."""
        key = hashlib.sha256(
            f"{_hash_tree(Path(self.environment_dir))}\0{self._python}\0{self._prefix}".encode()
        ).hexdigest()[:32]
        cache = self._cache_root()
        image = cache / key
        if image.is_dir() and not force_build:
            return image
        cache.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix=".build-", dir=cache))
        try:
            self._build(building)
            if image.is_dir():
                _remove_tree(image)
            with contextlib.suppress(OSError):  # a concurrent build won the race: use it
                building.rename(image)
        finally:
            if building.exists():
                _remove_tree(building)
        return image

    def _build(self, image: Path) -> None:
        recipe, context = self._recipe, Path(self.environment_dir)
        fs = image / "fs"
        for folder in PRIVATE_DIRS:
            (fs / folder).mkdir(parents=True, exist_ok=True)
        for name, _ in recipe["users"]:
            (fs / "home" / name).mkdir(parents=True, exist_ok=True)
        workdir = self._inside(fs, recipe["workdir"])
        workdir.mkdir(parents=True, exist_ok=True)
        self._mountpoints(fs)
        self._link_python(fs)
        self._write_identity(image)
        if recipe["workspace"]:
            self._materialize(image, context / recipe["workspace"], workdir)
        for source, target in recipe["copies"]:
            _copy_into(context / source, self._inside(fs, target))
        entries = [
            f"{folder.rstrip('/')}/{item.name}"
            for folder in recipe["owned"]
            if self._inside(fs, folder).is_dir()
            for item in sorted(self._inside(fs, folder).iterdir())
        ]
        built = {"root_entries": sorted(entries)}
        (image / "built.json").write_text(json.dumps(built, indent=2) + "\n", encoding="utf-8")
        for argv in recipe["runs"]:
            self._run_build_step(image, list(argv))

    def _materialize(self, image: Path, context: Path, workdir: Path) -> None:
        """Run the build stage: ``python3 /build/materialize.py /workspace/out``."""
        with tempfile.TemporaryDirectory(prefix="benchsmith-build-") as tmp:
            argv = [
                *self._bwrap(0, "root", "/", {}, image=image),
                "--ro-bind", str(context), "/build",
                "--bind", tmp, "/workspace",
                "python3", "/build/materialize.py", "/workspace/out",
            ]  # fmt: skip
            self._check_run(argv, "materializing the workspace")
            for item in sorted((Path(tmp) / "out").iterdir()):
                item.rename(workdir / item.name)

    def _run_build_step(self, image: Path, argv: list[str]) -> None:
        prefix = self._bwrap(0, "root", self._recipe["workdir"], {}, image=image)
        self._check_run([*prefix, *argv], shlex.join(argv))

    def _check_run(self, argv: list[str], what: str) -> None:
        done = subprocess.run(
            argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            detail = (done.stderr or done.stdout).strip()[-3000:]
            raise RuntimeError(f"image build step failed ({what}): {detail}")

    def _mountpoints(self, fs: Path) -> None:
        """Create the folders where the interpreter's prefix is mounted inside private dirs."""
        parts = _container_parts(self._prefix)
        if parts and parts[0] not in SYSTEM_DIRS:
            fs.joinpath(*parts).mkdir(parents=True, exist_ok=True)

    def _link_python(self, fs: Path) -> None:
        folder = self._inside(fs, PYTHON_BIN)
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("python", "python3", "python3.12"):
            link = folder / name
            if not link.is_symlink():
                link.symlink_to(self._python)

    def _write_identity(self, root: Path) -> None:
        """passwd and group files with root and the image's users."""
        users = [("root", 0, "/root"), *((n, u, f"/home/{n}") for n, u in self._recipe["users"])]
        passwd = "".join(f"{n}:x:{u}:{u}:{n}:{h}:/bin/bash\n" for n, u, h in users)
        passwd += "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
        group = "".join(f"{n}:x:{u}:\n" for n, u, _ in users) + "nogroup:x:65534:\n"
        (root / "passwd").write_text(passwd, encoding="utf-8")
        (root / "group").write_text(group, encoding="utf-8")

    # -- sandboxes ------------------------------------------------------------------------------

    def _user(self, user: str | int | None) -> tuple[int, str]:
        """``(uid, name)`` of a Harbor user value (None: the image's default, root)."""
        users = dict(self._recipe["users"])
        if user is None or str(user) in ("root", "0"):
            return 0, "root"
        text = str(user).split(":")[0]
        if text in users:
            return users[text], text
        for name, uid in users.items():
            if text == str(uid):
                return uid, name
        raise ValueError(f"unknown user {user!r} (the image has root and {sorted(users)})")

    def _base_args(self, uid: int, identity: Path) -> list[str]:
        """bwrap options shared by every sandbox: namespaces, the system, the interpreter."""
        args = [
            "bwrap", "--die-with-parent", "--new-session", "--unshare-user", "--unshare-pid",
            "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox",
            "--uid", str(uid), "--gid", str(uid), "--proc", "/proc", "--dev", "/dev",
        ]  # fmt: skip
        for name in SYSTEM_DIRS:
            host = Path("/") / name
            if host.is_symlink():
                args += ["--symlink", str(host.readlink()), f"/{name}"]
            elif host.is_dir():
                args += ["--ro-bind", str(host), f"/{name}"]
        args += ["--ro-bind", str(identity / "passwd"), "/etc/passwd"]
        args += ["--ro-bind", str(identity / "group"), "/etc/group"]
        return args

    def _bwrap(
        self, uid: int, name: str, workdir: str, env: dict[str, str], image: Path | None = None
    ) -> list[str]:
        """The bwrap command line (without the command) for one user."""
        root = image or self._root
        if root is None:
            raise RuntimeError("the environment is not started")
        fs = root / "fs"
        args = self._base_args(uid, root)
        for target, host, writable in self._mount_plan(fs, uid, name):
            args += ["--bind" if writable else "--ro-bind", str(host), target]
        if _container_parts(self._prefix)[0] not in SYSTEM_DIRS:
            args += ["--ro-bind", self._prefix, self._prefix]
        return [*args, "--chdir", workdir, *self._env_args(name, env)]

    def _mount_plan(self, fs: Path, uid: int, name: str) -> list[tuple[str, Path, bool]]:
        """``(container path, host path, writable)`` in mount order, parents first."""
        tops = sorted(p.name for p in fs.iterdir() if p.is_dir() and p.name not in SYSTEM_DIRS)
        if uid == 0:
            return [(f"/{top}", fs / top, True) for top in tops]
        writable = {f"/{d}" for d in SHARED_DIRS} | {f"/home/{name}"}
        writable |= set(self._recipe["owned"]) | set(self._recipe["owned_trees"])
        trees = set(self._recipe["owned_trees"])
        locked = {e for e in self._uploaded if e not in writable and e not in trees}
        mounts: dict[str, bool] = {f"/{top}": f"/{top}" in writable for top in tops}
        mounts.update(dict.fromkeys(writable, True))
        mounts.update(dict.fromkeys(locked, False))
        ordered = sorted(mounts.items(), key=lambda item: (item[0].count("/"), item[0]))
        result: list[tuple[str, Path, bool]] = []
        for target, can_write in ordered:
            host = self._inside(fs, target)
            inherited = _inherited(result, target)
            if host.exists() and (inherited is None or inherited != can_write):
                result.append((target, host, can_write))  # a mount only where access changes
        return result

    def _env_args(self, name: str, env: dict[str, str]) -> list[str]:
        home = "/root" if name == "root" else f"/home/{name}"
        variables = {"PATH": PATH, "HOME": home, "USER": name, "LOGNAME": name}
        variables |= {"LANG": "C.UTF-8", "TERM": "dumb", **env}
        args = ["--clearenv"]
        for key, value in sorted(variables.items()):
            args += ["--setenv", key, value]
        return args

    def _start_entrypoint(self) -> None:
        """Run the image's ENTRYPOINT with Harbor's command, for the environment's lifetime."""
        argv = self._bwrap(0, "root", self._recipe["workdir"], {})
        command = [*self._recipe["entrypoint"], *ENTRYPOINT_COMMAND]
        self._entrypoint = subprocess.Popen(
            [*argv, *command], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip

    @staticmethod
    def _kill(process: Any) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)

    # -- paths ------------------------------------------------------------------------------------

    def _safe_id(self) -> str:
        return "".join(c if c.isalnum() or c in "-_." else "_" for c in self.session_id)[:60]

    @staticmethod
    def _inside(fs: Path, path: str) -> Path:
        parts = _container_parts(path)
        if parts and parts[0] in SYSTEM_DIRS:
            raise ValueError(f"{path} is a read-only system path in this sandbox")
        return fs.joinpath(*parts)

    def _host(self, path: str, existing: bool = False) -> Path:
        """The host path behind a container path (refusing system paths and escapes)."""
        if self._root is None:
            raise RuntimeError("the environment is not started")
        fs = self._root / "fs"
        host = self._inside(fs, path)
        if existing and not host.exists():
            raise FileNotFoundError(f"{path} does not exist in the environment")
        resolved = host.resolve() if host.exists() else host
        if resolved != fs.resolve() and fs.resolve() not in resolved.parents:
            raise ValueError(f"{path} leads outside the environment")
        return host

    def _note_root_entry(self, path: str) -> None:
        """Remember an entry root put directly into a folder a user owns (it stays root's)."""
        parent = str(PurePosixPath(os.path.normpath(path)).parent)
        if parent in set(self._recipe["owned"]):
            self._uploaded.add(os.path.normpath(path))
