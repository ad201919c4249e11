"""Start an exported task's loopback fixture services (copied as ``services.py``; stdlib only).

It lives in the agent image at ``/opt/benchsmith/services.py`` beside ``services.json``
(``{"workdir": ..., "services": [{"name", "run", "url_file", "origins"}]}``) and the
SDK's ``benchlib.py``, and does what ``benchsmith run`` does before the first stage: start
each service in the workspace with ``--port 0`` appended through benchlib's service wrapper
(``benchlib.py --service``), which opens its origins (``BENCHSMITH_ORIGIN*`` in its
environment) and relays them to its port; wait for its ``LISTENING <port>`` line and its
origins, and write each origin's ``http://127.0.0.1:<port>`` into its URL file (read-only,
like every input).

- ``services.py -- CMD...`` is the image's ENTRYPOINT: start the services, then exec CMD;
- ``services.py --ensure`` is the task's healthcheck: start them unless they run already
  (for sandboxes that ignore ENTRYPOINT) and exit 0 once every URL file is written;
- ``services.py --supervise`` starts them and stays in the foreground (offline sandbox).

A service's output goes to ``/opt/benchsmith/run/<name>.log``, the requests relayed to it
(benchlib's request log: its origins first, then JSON lines by ``seq``) to
``run/<name>.requests.jsonl``; ``run/ready`` marks success, ``run/failed`` says why it
failed, ``run/pids`` lists the services' process groups.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LIB = HERE / "benchlib.py"
RUN = HERE / "run"
PYTHON = re.compile(r"python[0-9.]*")
READY = RUN / "ready"
LISTENING = re.compile(r"^LISTENING (\d{1,5})\r?$", re.MULTILINE)
START_TIMEOUT = 15.0
ENTRYPOINT_GRACE = 2.0  # --ensure first gives a running ENTRYPOINT this long to claim the start


def config() -> dict[str, Any]:
    """The workdir and services the export declared."""
    loaded: dict[str, Any] = json.loads((HERE / "services.json").read_text(encoding="utf-8"))
    return loaded


def await_port(process: subprocess.Popen[bytes], log: Path, deadline: float) -> int:
    """Wait for the service's ``LISTENING <port>`` line in its log."""
    while time.monotonic() < deadline:
        match = LISTENING.search(log.read_text(encoding="utf-8", errors="replace"))
        if match and 0 < int(match.group(1)) < 65536:
            return int(match.group(1))
        if process.poll() is not None:
            raise RuntimeError(f"{log.stem} exited with status {process.returncode}")
        time.sleep(0.05)
    raise RuntimeError(f"{log.stem} did not print 'LISTENING <port>' in time")


def await_origins(
    process: subprocess.Popen[bytes], record: Path, deadline: float
) -> dict[str, int]:
    """Wait for the first line of the service's request log: its origins (name -> port)."""
    while time.monotonic() < deadline:
        first = record.read_bytes().split(b"\n", 1)
        with contextlib.suppress(ValueError):
            if len(first) > 1:
                origins = json.loads(first[0])["origins"]
                return {str(name): int(port) for name, port in origins.items()}
        if process.poll() is not None:
            raise RuntimeError(f"{record.stem} exited with status {process.returncode}")
        time.sleep(0.05)
    raise RuntimeError(f"{record.stem} did not report its origins in time")


def wrapped(argv: list[str]) -> list[str]:
    """``argv`` run through benchlib's service wrapper: a Python service inside it, any
    other as its child (as ``benchsmith run`` starts them)."""
    if len(argv) > 1 and PYTHON.fullmatch(Path(argv[0]).name):
        return [argv[0], str(LIB), "--service", *argv[1:]]
    return [sys.executable, "-I", "-S", str(LIB), "--service", "--exec", *argv]


def start(service: dict[str, Any], workdir: Path) -> subprocess.Popen[bytes]:
    """Start one service (output to its log, requests to its request log), write its URLs."""
    name, origins = service["name"], service.get("origins", {})
    log, record = RUN / f"{name}.log", RUN / f"{name}.requests.jsonl"
    with open(log, "wb") as stream, open(record, "wb") as requests:
        plan = {"log_fd": requests.fileno(), "origins": [name, *origins]}
        process = subprocess.Popen(
            wrapped([*shlex.split(service["run"]), "--port", "0"]), cwd=workdir,
            stdin=subprocess.DEVNULL, stdout=stream, stderr=subprocess.STDOUT,
            start_new_session=True, pass_fds=(requests.fileno(),),
            env={**os.environ, "BENCHSMITH_SERVICE_PLAN": json.dumps(plan)},
        )  # fmt: skip
    with open(RUN / "pids", "a", encoding="utf-8") as pids:
        pids.write(f"{process.pid}\n")
    deadline = time.monotonic() + START_TIMEOUT
    await_port(process, log, deadline)
    ports = await_origins(process, record, deadline)
    for origin, relative in {name: service["url_file"], **origins}.items():
        if relative and origin in ports:
            write_url(workdir, relative, f"http://127.0.0.1:{ports[origin]}")
    return process


def write_url(workdir: Path, relative: str, url: str) -> None:
    """Write the service's base URL into its (read-only) URL file."""
    target = workdir / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        target.chmod(0o644)
    target.write_text(url + "\n", encoding="utf-8")
    target.chmod(0o444)


def start_all() -> list[subprocess.Popen[bytes]]:
    """Start every service and write its URL file; return the processes."""
    settings = config()
    workdir = Path(settings["workdir"])
    RUN.mkdir(parents=True, exist_ok=True)
    processes = [start(service, workdir) for service in settings["services"]]
    READY.write_text("ready\n", encoding="utf-8")
    return processes


def claim() -> bool:
    """Take the right to start the services: True for the first caller only."""
    RUN.mkdir(parents=True, exist_ok=True)
    with open(RUN / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (RUN / "started").exists():
            return False
        (RUN / "started").write_text(f"{os.getpid()}\n", encoding="utf-8")
        return True


def start_claimed() -> list[subprocess.Popen[bytes]]:
    """Start the services, recording a failure where ``--ensure`` reports it."""
    try:
        return start_all()
    except (OSError, RuntimeError) as exc:
        (RUN / "failed").write_text(f"{exc}\n", encoding="utf-8")
        raise


def supervise() -> int:
    """Start the services unless another process did, and wait while they run."""
    if not claim():
        return 0
    processes = start_claimed()
    while all(p.poll() is None for p in processes):
        time.sleep(1.0)
    return 1


def ensure(timeout: float = 60.0) -> int:
    """Start a detached supervisor unless one started; wait until the services are ready."""
    grace = time.monotonic() + ENTRYPOINT_GRACE
    while not (RUN / "started").exists() and time.monotonic() < grace:
        time.sleep(0.1)
    if not (RUN / "started").exists():
        subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--supervise"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
    deadline = time.monotonic() + timeout
    while not READY.exists():
        if (RUN / "failed").exists() or time.monotonic() > deadline:
            reason = (RUN / "failed").read_text() if (RUN / "failed").exists() else "timeout"
            print(f"services are not ready: {reason.strip()}", file=sys.stderr)
            return 1
        time.sleep(0.1)
    return 0


def main(argv: list[str]) -> int:
    """Dispatch on the first argument (see the module docstring)."""
    if argv[:1] == ["--ensure"]:
        return ensure()
    if argv[:1] == ["--supervise"]:
        return supervise()
    command = argv[1:] if argv[:1] == ["--"] else argv
    if claim():
        with contextlib.suppress(OSError, RuntimeError):  # --ensure reports it
            start_claimed()
    if not command:
        while True:
            time.sleep(3600)
    os.execvp(command[0], command)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
