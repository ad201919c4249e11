"""benchlib: the standard-library runtime shared by every task's seed.py and judge.py.

This file is assembled, in the benchsmith repository, from the parts in
``sdk/runtime/benchlib/`` (``01_pod.py`` to ``14_contract.py``, joined in order by
``benchsmith.assembly``: ``make runtime``) into ``sdk/benchsmith/runtime/benchlib.py``;
``benchsmith build`` copies that to the root of each corpus and ``benchsmith lint`` reports
copies that drifted. Edit the parts, never a copy. It imports nothing outside the Python
standard library, so a corpus runs anywhere Python 3.11+ does, without benchsmith installed.

It has two audiences. Corpus code -- generated seed.py and judge.py, a task's fixtures.py
generators and the judge's authored region -- may use only the names in ``__all__``: that
is the API authors rely on (CONTRIBUTING.md documents it). Every other name is internal to
benchsmith: the SDK (``build``, ``check``, ``run``) imports the public-looking ones, a
leading underscore marks helpers used only in this file, and either may change with the SDK.

Sections (each header names the corpus API it defines; the parts holding them in brackets):
    * pod      -- PID 1 of a sealed fixture run (``python -I -S benchlib.py --pod``), and the
                  wrapper that starts fixture services inside it; first in the file so that it
                  runs before the imports the other sections need, and starts in milliseconds
                  [01_pod, 02_pod_relay, 02_pod_servers (the serve, http and stop steps of
                  candidate servers), 03_pod_entry: its entry point, then the imports];
    * files    -- deterministic writers (fixed modes, gzip mtime 0) and tree hashes [04];
    * seeding  -- tabular fixtures from declared columns, anchors, authored generators [05];
    * layout   -- materializing fixtures and workspaces (seed.py, visible/, stages/, edge/)
                  [06];
    * process  -- running candidate commands with timeouts and process-group kills [07];
    * sandbox  -- the bubblewrap primitive (:class:`Seal`, :func:`seal_argv`,
                  :func:`sandbox_status`, :func:`sealed_popen`) and :func:`run_pod`
                  [08_sandbox, 09_pods];
    * reading  -- defensive readers of candidate outputs [10];
    * judging  -- checks, the progress-level contract and the one-JSON-object verdict
                  [11_checks, 12_judge, 13_steps (candidate servers unsealed, HTTP
                  responses), 13_trial];
    * contract -- the one reading of a judge every benchsmith reader applies: its command
                  line, its process, its verdict [14].
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time

# ---------------------------------------------------------------------------------------------
# pod
# ---------------------------------------------------------------------------------------------
# LIGHT: this section imports neither pathlib nor contextlib, each of which would cost every
# pod's PID 1 milliseconds; that is what the "see LIGHT" lint exemptions below refer to.

POD_FLAG = "--pod"
SERVICE_FLAG = "--service"
POD_CAPTURE_LIMIT = 64 * 1024
_PR_SET_DUMPABLE = 4
_LISTEN_PREFIX = b"LISTENING "
SERVICE_PLAN_VARIABLE = "BENCHSMITH_SERVICE_PLAN"
SERVICE_STDERR_LIMIT = 16 * 1024
SERVICE_REQUEST_LIMIT = 10_000
SERVICE_TAIL_LINES = 10


def _listening_port(line: bytes) -> int:
    """The port of a ``LISTENING <port>`` line, else 0."""
    text = line.rstrip(b"\r")
    port = text[len(_LISTEN_PREFIX) :]
    if text.startswith(_LISTEN_PREFIX) and port.isdigit() and 0 < int(port) < 65536:
        return int(port)
    return 0


def service_failure(name: str, display: str, problem: str, stderr: bytes) -> str:
    """The message of a failed service: its name, command, what went wrong, its last stderr."""
    message = f"service {name!r}" + (f" ({display})" if display else "") + f" {problem}"
    lines = stderr.decode("utf-8", "replace").rstrip().splitlines()[-SERVICE_TAIL_LINES:]
    if lines:
        message += "; the last lines of its stderr:\n" + "\n".join("    " + t for t in lines)
    else:
        message += "; it wrote nothing to stderr"
    return message


def set_nondumpable() -> bool:
    """Make this process non-dumpable (``prctl(PR_SET_DUMPABLE, 0)``).

    No process without capabilities -- not even one of the same uid -- can then open its
    ``/proc/PID/fd`` entries, read its memory or trace it. Forks inherit the flag; ``exec``
    resets it. Returns False where the call is not available.
    """
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _spawn(
    argv: list[str],
    cwd: str,
    env: dict[str, str],
    fds: tuple[int, ...],
    memory_bytes: int | None = None,
) -> tuple[int, str]:
    """Fork and exec ``argv`` in a new session with ``fds`` as its descriptors 0, 1, 2, ...

    ``memory_bytes`` caps the address space (RLIMIT_AS) of the command and its children.
    Returns ``(pid, "")``, or ``(-1, why)`` when it could not start (the message arrives on a
    close-on-exec pipe, which a successful exec closes empty).
    """
    errors, report = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: nothing here may return
        try:
            os.close(errors)
            os.setsid()
            if memory_bytes:
                _limit_memory(memory_bytes)
            for number, fd in enumerate(fds):
                os.dup2(fd, number)
            for number in (signal.SIGPIPE, signal.SIGXFSZ):  # ignored by Python, not by them
                signal.signal(number, signal.SIG_DFL)
            os.chdir(cwd)
            os.execvpe(argv[0], argv, env)
        except BaseException as exc:  # reported to the parent, whatever it is
            _write_all(report, str(exc).encode("utf-8", "replace") or b"exec failed")
        finally:
            os._exit(127)
    os.close(report)
    why = _read_all(errors).decode("utf-8", "replace")
    os.close(errors)
    if why:
        os.waitpid(pid, 0)
        return -1, why
    return pid, ""


def _limit_memory(memory_bytes: int) -> None:
    """Cap this process's address space (RLIMIT_AS) at ``memory_bytes`` (or its hard limit)."""
    import resource  # only commands with a memory cap need it (see LIGHT)

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    top = memory_bytes if hard == resource.RLIM_INFINITY else min(memory_bytes, hard)
    resource.setrlimit(resource.RLIMIT_AS, (top, top))


def _kill(pid: int, *, group: bool = False) -> None:
    """SIGKILL ``pid`` (or its process group), if it is still there."""
    try:  # noqa: SIM105  # see LIGHT
        (os.killpg if group else os.kill)(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _stat_of(pid: int) -> list[bytes]:
    """``/proc/PID/stat`` after the command name: state, ppid, pgrp, session, ..."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            return stream.read().rsplit(b")", 1)[-1].split()
    except OSError:
        return []


class _PodService:
    """A fixture service the pod started: its pid (also its session) and its output pipes."""

    def __init__(self, spec: dict[str, Any], pid: int, pipes: tuple[int, int, int]) -> None:
        self.name, self.display, self.pid = spec["name"], spec.get("display", ""), pid
        self.stdout, self.stderr, self.requests = pipes
        self.buffer = b""
        self.problem = ""
        self.port = 0
        self.tail = b""  # the last SERVICE_STDERR_LIMIT bytes of its stderr
        self.logged = self.recorded = 0
        self.request_buffer = b""
        self.origins: dict[str, int] = {}
        self.open = True
        self.listening = False

    def fds(self) -> list[int]:
        """The pipes still open."""
        return [fd for fd in (self.stdout, self.stderr, self.requests) if fd >= 0]


class _Pod:
    """The supervisor: PID 1 of a sealed fixture run, following the JSON plan read on stdin.

    It starts the plan's services (``LISTENING <port>`` handshake, URL files), runs the
    commands one by one (each in its own session, killed at its timeout; the steps of
    candidate servers through :class:`_PodSteps`), kills everything but the services and the
    running candidate servers after each command, and reports on its result channel, one
    JSON object a line: ``service`` (name, port or error), ``log`` (name, line), ``command``
    (index, returncode, timed_out, error, detail), ``server`` (index of a serve step whose
    server broke the contract later, error) and a final ``done``. It is non-dumpable, so the
    commands, which share its uid, cannot reach that channel through ``/proc/1/fd``.
    """

    def __init__(self, plan: dict[str, Any], channel: int) -> None:
        self.plan, self.channel = plan, channel
        self.env: dict[str, str] = dict(plan["env"])
        self.null = os.open(os.devnull, os.O_RDWR)
        self.services: list[_PodService] = []
        self.steps = _PodSteps(self)

    def report(self, event: str, **fields: Any) -> None:
        """Write one result line."""
        _write_all(self.channel, (json.dumps({"event": event, **fields}) + "\n").encode())

    def run(self) -> None:
        """Start every service, then run every command; always report ``done``."""
        try:
            if all(self.start(service) for service in self.plan["services"]):
                self.commands()
            for _ in range(64):  # what the services printed last (bounded: they still run)
                if not self.pump(self.services, time.monotonic()):
                    break
        finally:
            self.steps.end()
            for service in self.services:
                text = service.tail.decode("utf-8", "replace")
                self.report("stderr", name=service.name, text=text)
            self.report("done")

    def start(self, spec: dict[str, Any]) -> bool:
        """Start one service, await its port and write its URL files; False (reported) if not."""
        argv, name = list(spec["argv"]), spec["name"]
        pipes = [os.pipe(), os.pipe(), os.pipe()]
        if spec.get("python"):  # non-dumpable from its first line of Python on
            argv = [argv[0], self.plan["lib"], SERVICE_FLAG, *argv[1:]]
        else:  # a child of the (non-dumpable) wrapper that relays and records its requests
            argv = [sys.executable, "-I", "-S", self.plan["lib"], SERVICE_FLAG, "--exec", *argv]
        plan = {"log_fd": 3, "origins": [name, *spec.get("origins", {})]}
        env = {**self.env, SERVICE_PLAN_VARIABLE: json.dumps(plan)}
        fds = (self.null, *(w for _, w in pipes))
        pid, why = _spawn(argv, spec["cwd"], env, fds)
        for _, writable in pipes:
            os.close(writable)
        if pid < 0:
            for readable, _ in pipes:
                os.close(readable)
            self.fail(spec, f"could not be started: {why}", b"")
            return False
        service = _PodService(spec, pid, (pipes[0][0], pipes[1][0], pipes[2][0]))
        self.services.append(service)
        deadline = time.monotonic() + float(spec["timeout"])
        problem = self.handshake(service, deadline, float(spec["timeout"]))
        while not problem and not service.origins:
            if service.requests < 0 or not self.pump([service], deadline):
                problem = "did not report its origins"
        if problem:
            code = self.reap(service.pid, grace=0.0 if service.open else 1.0)
            if not service.listening and code is not None:
                problem = f"exited with status {code} before printing 'LISTENING <port>'"
            elif not service.listening and not problem.startswith("printed"):
                problem += " (still running)"
            self.drain(service)
            self.fail(spec, problem, service.tail)
            return False
        origins = service.origins
        self.report("service", name=name, port=origins[name], origins=origins)
        files = {name: spec.get("url_file", ""), **spec.get("origins", {})}
        for origin, path in files.items():
            if path and origin in origins:
                self.write_url(path, f"http://127.0.0.1:{origins[origin]}\n")
        return True

    def fail(self, spec: dict[str, Any], problem: str, tail: bytes) -> None:
        """Report that a service broke its contract or failed."""
        message = service_failure(spec["name"], spec.get("display", ""), problem, tail)
        self.report("service", name=spec["name"], error=message)

    def handshake(self, service: _PodService, deadline: float, timeout: float) -> str:
        """Read the service's output until ``LISTENING <port>``; "" then, else what went wrong."""
        while not service.listening:
            if not service.open:
                return "closed its standard output before printing 'LISTENING <port>'"
            if time.monotonic() >= deadline or not self.pump([service], deadline):
                return f"did not print 'LISTENING <port>' within {timeout:g} s"
            if service.problem:
                return service.problem
        return ""

    def pump(self, services: Sequence[Any], deadline: float, handle: int = -1) -> bool:
        """Wait until ``deadline`` for output of ``services`` (or ``handle``); True if any came.

        ``services`` are fixture services or candidate servers (:class:`_CandidateServer`).
        """
        watched = [fd for s in services for fd in s.fds()]
        timeout = max(0.0, deadline - time.monotonic())
        if not watched and handle < 0:
            time.sleep(timeout)
            return False
        ready, _, _ = select.select(watched + ([handle] if handle >= 0 else []), [], [], timeout)
        for service in services:
            for fd in service.fds():
                if fd in ready and isinstance(service, _CandidateServer):
                    self.steps.read(service)
                elif fd in ready:
                    self.read(service, fd)
        return bool(ready)

    def read(self, service: _PodService, fd: int) -> None:
        """Read one chunk of one of a service's pipes."""
        chunk = os.read(fd, 65536)
        if fd == service.stderr:
            service.tail = (service.tail + chunk)[-SERVICE_STDERR_LIMIT:]
        elif fd == service.requests:
            self.requests(service, chunk)
        else:
            service.open = bool(chunk)
            lines = (service.buffer + chunk).split(b"\n")
            service.buffer = lines.pop() if chunk else b""
            for line in lines + ([service.buffer] if not chunk and service.buffer else []):
                self.stdout_line(service, line)
        if not chunk:
            os.close(fd)
            for attribute in ("stdout", "stderr", "requests"):
                if getattr(service, attribute) == fd:
                    setattr(service, attribute, -1)

    def stdout_line(self, service: _PodService, line: bytes) -> None:
        """One line of a service's standard output: the contract of spec 10.4."""
        port = _listening_port(line)
        if not service.listening and port:
            service.listening, service.port = True, port
        elif not service.listening:
            shown = line.decode("utf-8", "replace").strip()[:200]
            service.problem = f"printed {shown!r} on standard output before 'LISTENING <port>'"
        elif port:
            if not service.problem:
                service.problem = "printed a second 'LISTENING <port>' line"
                message = service_failure(service.name, service.display, service.problem, b"")
                self.report("service", name=service.name, error=message)
        else:
            self.log(service, line)

    def requests(self, service: _PodService, chunk: bytes) -> None:
        """Forward the request log lines of a service (its origins first)."""
        lines = (service.request_buffer + chunk).split(b"\n")
        service.request_buffer = lines.pop() if chunk else b""
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict) and isinstance(entry.get("origins"), dict):
                service.origins = {str(k): int(v) for k, v in entry["origins"].items()}
            elif isinstance(entry, dict) and service.recorded < SERVICE_REQUEST_LIMIT:
                service.recorded += 1
                self.report("request", name=service.name, entry=entry)

    def drain(self, service: _PodService) -> None:
        """Read what a stopped service left in its pipes."""
        for _ in range(64):
            if not (service.fds() and self.pump([service], time.monotonic())):
                return

    def write_url(self, path: str, text: str) -> None:
        """Write a service's URL file (never through a symlink)."""
        os.makedirs(os.path.dirname(path), exist_ok=True)  # noqa: PTH103, PTH120  # see LIGHT
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
        fd = os.open(path, flags, 0o644)
        try:
            _write_all(fd, text.encode())
        finally:
            os.close(fd)

    def commands(self) -> None:
        """Run the commands in order (steps of candidate servers among them, see
        :class:`_PodSteps`); after a timeout the rest are not run."""
        timed_out = False
        for index, command in enumerate(self.plan["commands"]):
            kind = command.get("kind", "run")
            if timed_out:
                for fd in (command["stdout_fd"], command["stderr_fd"]):
                    os.close(int(fd))
                self.report("command", index=index, error="not run: an earlier command timed out")
            elif kind != "run":
                self.report("command", index=index, **self.steps.run(kind, index, command))
            else:
                code, timed_out, why = self.execute(command)
                self.report("command", index=index, returncode=code, timed_out=timed_out, error=why)

    def execute(self, command: dict[str, Any]) -> tuple[int | None, bool, str]:
        """Run one command: (exit status or None, timed out, why it could not start)."""
        try:
            stdin = os.open(command["stdin"], os.O_RDONLY) if command.get("stdin") else self.null
        except OSError as exc:
            return None, False, f"stdin: {exc}"
        fds = (stdin, int(command["stdout_fd"]), int(command["stderr_fd"]))
        memory = command.get("memory_bytes")
        env = {**self.env, **self.steps.env}  # the running candidate servers' URLs
        pid, why = _spawn(list(command["argv"]), command["cwd"], env, fds, memory)
        for fd in {*fds} - {self.null}:
            os.close(fd)
        if pid < 0:
            return None, False, why
        code = self.wait(pid, time.monotonic() + float(command["timeout"]))
        _kill(pid, group=True)
        if code is None:
            self.reap(pid)
        self.sweep()
        return code, code is None, ""

    def wait(self, pid: int, deadline: float) -> int | None:
        """Wait for ``pid``, forwarding service output; its exit status (None at the deadline)."""
        try:
            handle = os.pidfd_open(pid)
        except (AttributeError, OSError):  # no pidfd (old kernel): poll
            handle = -1
        try:
            while True:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    return os.waitstatus_to_exitcode(status)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self.forward(remaining if handle >= 0 else min(remaining, 0.01), handle)
        finally:
            if handle >= 0:
                os.close(handle)

    def forward(self, timeout: float, handle: int = -1) -> None:
        """Wait up to ``timeout`` for ``handle`` or service output; report the output's lines."""
        self.pump([*self.services, *self.steps.servers()], time.monotonic() + timeout, handle)

    def log(self, service: _PodService, line: bytes) -> None:
        """Report one log line, within the service's capture limit."""
        if line.strip() and service.logged < POD_CAPTURE_LIMIT:
            service.logged += len(line)
            self.report("log", name=service.name, line=line.decode("utf-8", "replace"))

    def sweep(self) -> None:
        """Kill every process of the pod except PID 1 and the services' sessions."""
        pids = [s.pid for s in self.services] + [s.pid for s in self.steps.servers()]
        keep = {str(pid).encode() for pid in pids}
        for _ in range(3):  # a process may fork while it is being swept
            found = []
            for name in os.listdir("/proc"):  # noqa: PTH208  # see LIGHT
                fields = _stat_of(int(name)) if name.isdigit() and name != "1" else []
                if len(fields) > 3 and fields[0] not in (b"Z", b"X") and fields[3] not in keep:
                    found.append(int(name))
            for pid in found:
                _kill(pid)
            self.reap_zombies(time.monotonic() + (2.0 if found else 0.0), found)
            if not found:
                return

    def reap_zombies(self, deadline: float, pids: list[int]) -> None:
        """Reap every exited child (orphans are ours) until ``pids`` are gone or the deadline."""
        while True:
            try:
                while True:
                    pid, status = os.waitpid(-1, os.WNOHANG)
                    if not pid:
                        break
                    self.steps.exits[pid] = os.waitstatus_to_exitcode(status)
            except ChildProcessError:
                pass
            alive = [p for p in pids if _stat_of(p)[:1] not in ([], [b"Z"], [b"X"])]
            if not alive or time.monotonic() >= deadline:
                return
            time.sleep(0.002)

    def reap(self, pid: int, grace: float = 0.0) -> int | None:
        """Reap ``pid`` if it exits within ``grace`` seconds (its status), else kill its session
        and return None."""
        deadline = time.monotonic() + grace
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
            while not done and time.monotonic() < deadline:  # closed its output: exiting
                time.sleep(0.005)
                done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status)
            _kill(pid, group=True)
            os.waitpid(pid, 0)
        except ChildProcessError:  # reaped already, by a sweep
            pass
        return None


def _pod_main() -> int:
    """``benchlib.py --pod``: the plan on stdin, the results on stdout (see :class:`_Pod`)."""
    set_nondumpable()
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as PID 1, ignore the pod's signals
    plan = json.loads(_read_all(0))
    channel = os.dup(1)  # not inheritable: no command receives it
    for fd in _open_fds():
        if fd > 2 and fd != channel:
            try:  # noqa: SIM105  # see LIGHT
                os.set_inheritable(fd, False)  # capture files reach only their own command
            except OSError:  # the listing's own descriptor, closed since
                pass
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    _Pod(plan, channel).run()
    return 0


def _open_fds() -> list[int]:
    return [int(n) for n in os.listdir("/proc/self/fd") if n.isdigit()]  # noqa: PTH208


def _service_main(args: list[str]) -> int:
    """``benchlib.py --service [OPTIONS] SCRIPT|-m MODULE ARGS...``: run a Python service
    non-dumpable, so that no command of the pod can write into its output (its log);
    ``benchlib.py --service --exec PROGRAM ARGS...`` runs any other service as its child,
    passing its standard output through.

    With ``BENCHSMITH_SERVICE_PLAN`` set (``{"log_fd": N, "origins": [NAME, ...]}``) it first
    opens one loopback listener per origin that relays to the service's own port, tells the
    service its origins (``BENCHSMITH_ORIGIN``, ``BENCHSMITH_ORIGIN_<NAME>``) and records every
    HTTP/1.x request relayed through them as JSON lines on fd N (see :class:`_RelayedHttp`).
    """
    set_nondumpable()
    plan = os.environ.pop(SERVICE_PLAN_VARIABLE, "")
    recorder = _ServiceRecorder(json.loads(plan)) if plan else None
    if args[:1] == ["--exec"]:
        if recorder is not None:
            recorder.install(python=False)
        return _exec_service(args[1:], recorder)
    if recorder is not None:
        recorder.install(python=True)
    return _run_python_service(args)


def _run_python_service(args: list[str]) -> int:
    """Run a Python service's script, module or ``-c`` code in this process."""
    import runpy

    while args and args[0].startswith("-") and args[0] not in ("-m", "-c"):
        args = args[2:] if args[0] in ("-X", "-W") else args[1:]  # interpreter options
    if len(args) > 1 and args[0] == "-c":
        sys.argv = ["-c", *args[2:]]
        exec(compile(args[1], "<string>", "exec"), {"__name__": "__main__"})
    elif len(args) > 1 and args[0] == "-m":
        sys.argv = [args[1], *args[2:]]
        sys.path[0] = os.getcwd()  # noqa: PTH109  # see LIGHT
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    elif args:
        if not os.path.isfile(args[0]):  # noqa: PTH113  # see LIGHT
            sys.stderr.write(f"benchsmith: the service script {args[0]} does not exist\n")
            return 2
        sys.argv = list(args)
        sys.path[0] = os.path.dirname(os.path.abspath(args[0]))  # noqa: PTH100, PTH120
        runpy.run_path(args[0], run_name="__main__")
    return 0


def _exec_service(argv: list[str], recorder: _ServiceRecorder | None) -> int:
    """Run a service that is not Python as a child (same session): pass its standard output
    through, learn its port from its first line (``LISTENING <port>``); its exit status."""
    import subprocess

    try:
        child = subprocess.Popen(argv, stdout=subprocess.PIPE)
    except OSError as exc:
        sys.stderr.write(f"benchsmith: the service command {argv[0]} could not run: {exc}\n")
        return 127
    assert child.stdout is not None
    first = b""  # the first line of its output, until it is whole (the pod checks the rest)
    decided = recorder is None
    while chunk := os.read(child.stdout.fileno(), 65536):
        if not decided:
            first += chunk
            decided = b"\n" in first or len(first) > POD_CAPTURE_LIMIT
            port = _listening_port(first.split(b"\n", 1)[0]) if decided else 0
            if recorder is not None and port:
                recorder.port = port
                recorder.upstream.set()
        try:
            _write_all(1, chunk)
        except OSError:  # nobody reads its output any more
            break
    code = child.wait()
    return code if code >= 0 else 128 - code


BYPASS_REFUSAL = "a connection straight to the service's port, not via an origin"
"""Why a Python service refused a connection that did not come through one of its origins."""


class _ServiceRecorder:
    """The origins and the request log of a service (see :func:`_service_main`).

    Entries are JSON lines: first ``{"origins": {NAME: PORT}}``, then per request one line
    at its arrival (``seq``, ``time``, ``method``, ``target``, ``version``, ``host``,
    ``headers``, ``body_bytes``, ``in_flight``, ``origin``), later lines of the same ``seq``
    with its ``status``, its ``end`` and (chunked bodies) its ``body_bytes``.
    """

    def __init__(self, plan: dict[str, Any]) -> None:
        import threading

        self.fd = int(plan["log_fd"])
        self.names = [str(n) for n in plan["origins"]]
        self.lock = threading.Lock()
        self.upstream = threading.Event()
        self.port = 0
        self.started = time.monotonic()
        self.seq = self.in_flight = 0
        self.listeners: list[Any] = []
        self.relaying: set[int] = set()  # local ports of relay connections not yet accepted

    def emit(self, entry: dict[str, Any]) -> None:
        with self.lock:
            _write_all(self.fd, (json.dumps(entry, sort_keys=True) + "\n").encode())

    def install(self, *, python: bool) -> None:
        """Open the origins, start their relays; a Python service's port is learned from its
        first listening socket (any other from its ``LISTENING`` line)."""
        import socket
        import threading

        origins = {}
        for name in self.names:
            listener = socket.create_server(("127.0.0.1", 0))
            self.listeners.append(listener)
            origins[name] = listener.getsockname()[1]
            url = f"http://127.0.0.1:{origins[name]}"
            os.environ["BENCHSMITH_ORIGIN_" + name.upper().replace("-", "_")] = url
        os.environ["BENCHSMITH_ORIGIN"] = f"http://127.0.0.1:{origins[self.names[0]]}"
        os.environ["BENCHSMITH_ORIGINS"] = json.dumps(
            {n: f"http://127.0.0.1:{p}" for n, p in origins.items()}
        )
        if python:
            self.patch_listen(socket)
            self.patch_accept(socket)
        for name, listener in zip(self.names, self.listeners, strict=True):
            threading.Thread(target=self.accept, args=(listener, name), daemon=True).start()
        self.emit({"origins": origins})

    def patch_listen(self, socket: Any) -> None:
        """Learn the service's own port from its first listening TCP socket."""
        recorder, original = self, socket.socket.listen

        def listen(sock: Any, *args: Any) -> None:
            original(sock, *args)
            if not recorder.port and sock not in recorder.listeners:
                try:
                    recorder.port = int(sock.getsockname()[1])
                    recorder.upstream.set()
                except (OSError, TypeError, IndexError):  # not an IP socket
                    pass

        socket.socket.listen = listen

    def patch_accept(self, socket: Any) -> None:
        """Guard the service's own port: a connection to it that does not come from one of the
        relays (one sent straight to the port, bypassing the origins) is closed unserved and
        recorded as a refused request of origin "" (:meth:`refuse`); ``accept`` then raises
        ``ConnectionAbortedError``, which ``socketserver`` and ``asyncio`` skip."""
        recorder, original = self, socket.socket.accept

        def accept(sock: Any) -> Any:
            conn, address = original(sock)
            if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock in recorder.listeners:
                return conn, address
            if not recorder.port or sock.getsockname()[1] != recorder.port:
                return conn, address
            host, port = str(address[0]).removeprefix("::ffff:"), int(address[1])
            # A relay's connection is let in once, even if the relay closed it meanwhile: the
            # backlog is accepted in order, so its port cannot come back in a later connection.
            with recorder.lock:
                relayed = host == "127.0.0.1" and port in recorder.relaying
                if relayed:
                    recorder.relaying.discard(port)
            if relayed:
                return conn, address
            conn.close()
            recorder.refuse("", BYPASS_REFUSAL)
            raise ConnectionAbortedError("benchsmith: a connection bypassing the origins")

        socket.socket.accept = accept

    def refuse(self, origin: str, reason: str, target: str = "") -> None:
        """Record a refused request: one the relay could not read as HTTP/1.x (it closed the
        connection instead of passing it on) or a connection that bypassed the origins. Its
        method is "" (it fails any check of the methods) and ``refused`` says why."""
        seq = self.arrived({
            "method": "", "target": target[:4000], "version": "", "host": "", "headers": [],
            "body_bytes": 0, "origin": origin, "refused": reason,
        })  # fmt: skip
        self.finished(seq, answered=False)

    def arrived(self, head: dict[str, Any]) -> int:
        """Record a request whose head arrived; its sequence number."""
        with self.lock:
            self.seq += 1
            self.in_flight += 1
            seq, in_flight = self.seq, self.in_flight
        now = round(time.monotonic() - self.started, 6)
        self.emit({"seq": seq, "time": now, "in_flight": in_flight, **head})
        return seq

    def answered(self, seq: int, status: int) -> None:
        """A request's final status line reached the relay: it is no longer in flight. (The
        body may still be coming, but a client that waits for each response cannot send its
        next request before this, so it never sees two in flight.)"""
        with self.lock:
            self.in_flight -= 1
        self.emit({"seq": seq, "status": status})

    def finished(self, seq: int, answered: bool) -> None:
        """A request's response was relayed completely (or its connection ended)."""
        if not answered:
            with self.lock:
                self.in_flight -= 1
        self.emit({"seq": seq, "end": round(time.monotonic() - self.started, 6)})

    def accept(self, listener: Any, name: str) -> None:
        """Relay each connection to an origin to the service's own port."""
        import threading

        while True:
            client, _ = listener.accept()
            threading.Thread(target=self.relay, args=(client, name), daemon=True).start()

    def relay(self, client: Any, name: str) -> None:
        import socket
        import threading

        if not self.upstream.wait(60.0):
            client.close()
            return
        upstream = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        local = 0
        try:  # its local port is known before the service can accept it (see patch_accept)
            upstream.bind(("127.0.0.1", 0))
            local = int(upstream.getsockname()[1])
            with self.lock:
                self.relaying.add(local)
            upstream.connect(("127.0.0.1", self.port))
        except OSError:
            with self.lock:
                self.relaying.discard(local)
            client.close()
            upstream.close()
            return
        http = _RelayedHttp(self, name)
        back = threading.Thread(target=_pump, args=(upstream, client, http.responses), daemon=True)
        back.start()
        if not _pump(client, upstream, http.requests):  # refused: close both ends
            for end in (client, upstream):
                try:  # noqa: SIM105  # see LIGHT
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        back.join()
        http.closed()
        client.close()
        upstream.close()


_HEAD_LIMIT = 64 * 1024
_TO_CLOSE, _CHUNKED, _OPAQUE = -2, -1, -3  # framings besides a Content-Length
_HEX = frozenset(b"0123456789abcdefABCDEF")
_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class _Refused(ValueError):
    """A request stream the relay cannot read as HTTP/1.x: it records it and closes it."""


class _HttpReader:
    """Reads one direction of an HTTP/1.x connection as bytes arrive: each message head goes
    to ``on_head``, which returns its body's framing (a length, ``_CHUNKED``, ``_TO_CLOSE``
    or ``_OPAQUE``: stop reading); ``on_end`` gets the body size when the message ends.

    With ``on_refused`` (the requests' reader) :meth:`feed` holds back the bytes it has not
    read yet (a head before its end, a chunk line before its newline), so that the relay
    passes on only what it recorded; whatever it cannot read (a bad head, a bad chunk,
    ``_Refused`` from ``on_head``, a head cut by the end of the stream) goes to
    ``on_refused(reason, text)`` and :meth:`feed` returns None from then on: the relay
    closes the connection. Without it (the responses' reader) every byte is relayed as it
    comes, and a stream it cannot read is relayed unread."""

    def __init__(
        self, on_head: Any, on_end: Any, on_refused: Any = None, on_body: Any = None
    ) -> None:
        import threading

        self.on_head, self.on_end, self.on_refused = on_head, on_end, on_refused
        self.on_body = on_body  # gets each piece of a body as it is read (not chunk lines)
        self.buffer = b""
        self.mode = "head"  # head, body, chunk, data, crlf, trailer, close, opaque, refused
        self.left = self.size = 0
        self.lock = threading.Lock()  # feed and switch come from the two relay threads

    def feed(self, data: bytes) -> bytes | None:
        """Read ``data``; the bytes to relay now, None once the stream was refused."""
        with self.lock:
            if self.mode == "refused":
                return None
            if self.mode in ("opaque", "close"):
                if self.mode == "close" and self.on_body is not None:
                    self.on_body(data)
                self.size += len(data)
                data, self.buffer = self.buffer + data, b""  # what switch() left held back
                return data
            pending = self.buffer = self.buffer + data
            try:
                while self.mode not in ("opaque", "close") and self.step():
                    pass
            except Exception as exc:  # a garbled stream
                self.garbled(exc)
            if self.mode == "refused":
                return None
            if self.on_refused is None:  # the responses: relayed as they come
                if self.mode == "opaque":
                    self.buffer = b""
                return data
            if self.mode == "opaque":
                self.buffer = b""
                return pending
            return pending[: len(pending) - len(self.buffer)]

    def garbled(self, exc: Exception) -> None:
        if self.on_refused is None:  # relayed, not read
            self.mode = "opaque"
            return
        text = self.buffer[:4000].decode("latin-1").split("\n", 1)[0].strip()
        reason = str(exc) if isinstance(exc, _Refused) else f"unreadable {self.mode}"
        self.mode, self.buffer = "refused", b""
        self.on_refused(reason, text)

    def switch(self) -> None:
        """The connection switched protocols (an answered ``Upgrade`` or ``CONNECT``): relay
        the rest unread."""
        with self.lock:
            if self.mode != "refused":
                self.mode = "opaque"  # the bytes held back go with the next ones

    def finish(self) -> bool:
        """The stream ended: a body framed by the close ends with it; a request head it cut
        is refused (False: the service, which got its bytes, must not answer it)."""
        with self.lock:
            if self.mode == "close":
                self.end()
            elif self.on_refused is not None and self.mode == "head" and self.buffer.strip():
                self.garbled(_Refused("a request head cut by the end of the stream"))
            return self.mode != "refused"

    def step(self) -> bool:
        """Read one element of the buffer; False when more bytes are needed."""
        if self.mode in ("body", "data"):
            taken = min(self.left, len(self.buffer))
            if self.on_body is not None and taken:
                self.on_body(self.buffer[:taken])
            self.buffer, self.size = self.buffer[taken:], self.size + taken
            self.left -= taken
            if not self.left and self.mode == "body":
                self.end()
            elif not self.left:
                self.mode = "crlf"
            return bool(self.buffer) or not self.left
        if self.mode == "head":
            return self.head()
        end = self.buffer.find(b"\n")
        if end < 0:
            if len(self.buffer) > _HEAD_LIMIT:
                raise _Refused(f"a chunk line over {_HEAD_LIMIT} bytes")
            return False
        line = self.buffer[:end].strip()  # taken off once read (a refusal names it)
        if self.mode == "chunk":
            digits = line.split(b";", 1)[0].strip()
            if not digits or not _HEX.issuperset(digits):
                raise _Refused("a chunk size that is not hexadecimal")
            size = int(digits, 16)
            self.mode, self.left = ("data", size) if size else ("trailer", 0)
        elif self.mode == "crlf":
            if line:
                raise _Refused("chunk data longer than its size")
            self.mode = "chunk"
        elif not line:  # the trailer's end
            self.end()
        self.buffer = self.buffer[end + 1 :]
        return True

    def head(self) -> bool:
        """Read a message head (a blank line between messages is skipped)."""
        if self.buffer[:1] in (b"\r", b"\n") and self.buffer.lstrip(b"\r\n"):
            self.buffer = self.buffer.lstrip(b"\r\n")
        found = ((self.buffer.find(b"\n\r\n"), 3), (self.buffer.find(b"\n\n"), 2))
        ends = [(at, length) for at, length in found if at >= 0]
        if not ends:
            if len(self.buffer) > _HEAD_LIMIT:
                raise _Refused(f"a head over {_HEAD_LIMIT} bytes")
            return False
        at, length = min(ends)
        lines = self.buffer[:at].decode("latin-1").split("\n")
        if self.on_refused is not None:
            for h in lines[1:]:
                name = h.split(":", 1)[0]
                if ":" not in h or not name or not _TOKEN.issuperset(name):
                    raise _Refused(f"a header line that is not NAME: VALUE: {h.strip()[:200]!r}")
        pairs = [h.split(":", 1) for h in lines[1:] if ":" in h]
        headers = [(k.strip(), v.strip()) for k, v in pairs]
        framing = self.on_head(lines[0].strip(), headers)
        self.buffer = self.buffer[at + length :]
        self.size = 0
        if framing == _OPAQUE:
            self.mode = "opaque"
        elif framing == _TO_CLOSE:
            if self.on_body is not None and self.buffer:
                self.on_body(self.buffer)
            self.mode, self.size, self.buffer = "close", len(self.buffer), b""
        elif framing == _CHUNKED:
            self.mode = "chunk"
        elif framing > 0:
            self.mode, self.left = "body", framing
        else:
            self.end()
        return True

    def end(self) -> None:
        self.mode = "head"
        self.on_end(self.size)


def _header(headers: list[tuple[str, str]], name: str) -> str:
    """The first header ``name`` (any case), "" without one."""
    return next((v for k, v in headers if k.lower() == name), "")


def _framing(headers: list[tuple[str, str]]) -> int:
    """A response body's framing by its headers: chunked, its length, or none (0)."""
    if "chunked" in _header(headers, "transfer-encoding").lower():
        return _CHUNKED
    length = _header(headers, "content-length")
    return int(length) if length.isdigit() else 0


def _request_framing(headers: list[tuple[str, str]]) -> int:
    """A request body's framing: chunked, its length or none (0); ``_Refused`` when its
    length is ambiguous (a service could read it otherwise and find a request in it)."""
    encodings = [v for k, v in headers if k.lower() == "transfer-encoding"]
    lengths = {v for k, v in headers if k.lower() == "content-length"}
    if encodings and lengths:
        raise _Refused("both Transfer-Encoding and Content-Length")
    if encodings:
        if [e.lower() for e in encodings] != ["chunked"]:
            raise _Refused(f"Transfer-Encoding other than chunked: {encodings[:3]}")
        return _CHUNKED
    if len(lengths) > 1:
        raise _Refused(f"Content-Lengths that differ: {sorted(lengths)[:3]}")
    length = next(iter(lengths), "0")
    if not (length.isascii() and length.isdigit()):
        raise _Refused(f"a Content-Length that is not a number: {length[:100]!r}")
    return int(length)


class _RelayedHttp:
    """What the relay of one connection reads of it: the requests from the client and the
    responses from the service, paired in order (pipelining included).

    The requests are read strictly: what is not an HTTP/1.x request (no version or another
    one, HTTP/0.9 included; a bad method or header line; an ambiguous body length: both
    ``Transfer-Encoding`` and ``Content-Length``, one not a number) is recorded as a refused
    request (method "") and its connection closed before the service sees it. A connection
    is read to its end unless the service switched protocols (101, or 2xx to ``CONNECT``);
    an ``Upgrade`` answered otherwise changes nothing."""

    def __init__(self, recorder: _ServiceRecorder, origin: str) -> None:
        import collections

        self.recorder, self.origin = recorder, origin
        self.pending: collections.deque[tuple[int, str]] = collections.deque()  # unanswered
        self.reading = self.chunked = 0  # the request being read (its body chunked)
        self.answering = 0  # the request whose response is being read
        self.requests = _HttpReader(self.request, self.request_end, self.refused)
        self.responses = _HttpReader(self.response, self.response_end, on_body=self.scan)
        port = recorder.port
        self.needles = (b"127.0.0.1:%d" % port, b"localhost:%d" % port) if port else ()
        self.tail = b""  # the end of the previous response chunk (a link split across two)
        self.flagged = 0  # the last request whose response was flagged

    def request(self, line: str, headers: list[tuple[str, str]]) -> int:
        """A request head: record it (before the service sees it); its body's framing."""
        parts = line.split()
        if len(parts) != 3 or not _TOKEN.issuperset(parts[0]):
            raise _Refused("not an HTTP/1.x request line")
        if not parts[2].startswith("HTTP/1.") or not parts[2][7:].isdigit():
            raise _Refused(f"not HTTP/1.x but {parts[2][:20]!r}")
        framing = _request_framing(headers)
        self.reading = self.recorder.arrived({
            "method": parts[0],
            "target": parts[1][:4000],
            "version": parts[2],
            "host": _header(headers, "host"),
            "headers": [[k, v[:1000]] for k, v in headers[:100]],
            "body_bytes": max(framing, 0),
            "origin": self.origin,
        })  # fmt: skip
        self.chunked = self.reading if framing == _CHUNKED else 0
        self.pending.append((self.reading, parts[0].upper()))
        return framing

    def request_end(self, size: int) -> None:
        if self.chunked:
            self.recorder.emit({"seq": self.chunked, "body_bytes": size})

    def refused(self, reason: str, text: str) -> None:
        self.recorder.refuse(self.origin, reason, text)

    def response(self, line: str, headers: list[tuple[str, str]]) -> int:
        """A response head: a final status answers the oldest pending request."""
        parts = line.split(None, 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
            return _OPAQUE
        status = int(parts[1])
        if not self.pending or (100 <= status < 200 and status != 101):
            return 0 if self.pending else _OPAQUE  # an interim response: no body
        self.answering, method = self.pending.popleft()
        self.tail = b""  # a new body: nothing of the last one counts
        self.recorder.answered(self.answering, status)
        if status == 101 or (method == "CONNECT" and 200 <= status < 300):
            self.requests.switch()  # before the client can read this answer
            return _OPAQUE
        if method == "HEAD" or status in (204, 304):
            return 0
        framing = _framing(headers)
        return framing if framing or _header(headers, "content-length") else _TO_CLOSE

    def scan(self, chunk: bytes) -> None:
        """Flag a response whose body holds an absolute link to the service's own port (which
        refuses every connection its origins do not relay): ``private_link`` on its request.
        ``chunk`` is the next piece of the body being read."""
        seq = self.answering
        if not self.needles or not seq or self.flagged == seq:
            return
        text = self.tail + chunk
        self.tail = text[-32:]
        for needle in self.needles:
            start = text.find(needle)
            while start >= 0:
                after = text[start + len(needle) : start + len(needle) + 1]
                if after and not after.isdigit():
                    self.flagged = seq
                    self.recorder.emit({"seq": seq, "private_link": True})
                    return
                start = text.find(needle, start + 1)

    def response_end(self, size: int) -> None:
        if self.answering:
            self.recorder.finished(self.answering, answered=True)
            self.answering = 0

    def closed(self) -> None:
        """Both directions ended: close what is still open."""
        self.responses.finish()
        if self.answering:
            self.recorder.finished(self.answering, answered=True)
        for seq, _ in self.pending:
            self.recorder.finished(seq, answered=False)
        self.pending.clear()


def _pump(source: Any, target: Any, reader: _HttpReader) -> bool:
    """Copy ``source`` to ``target`` until end of file (``reader`` reads each chunk before it
    goes on), then end ``target``'s writing half; False (and nothing more copied) as soon as
    the reader refused the stream."""
    try:
        while chunk := source.recv(65536):
            relayed = reader.feed(chunk)
            if relayed is None:
                return False
            if relayed:
                target.sendall(relayed)
    except OSError:
        pass
    if not reader.finish():
        return False
    try:  # noqa: SIM105  # see LIGHT
        target.shutdown(1)  # socket.SHUT_WR
    except OSError:
        pass
    return True


# ---------------------------------------------------------------------------------------------
# pod: candidate servers -- the serve, http and stop steps of a command sequence
# ---------------------------------------------------------------------------------------------
# A task whose candidate program is a server declares steps among its commands (task.toml
# ``[[commands]]`` with ``serve``, ``http`` or ``stop``): PID 1 starts the candidate's server
# in the background and awaits its one ``LISTENING <port>`` line (spec 10.4), sends it HTTP
# requests itself (trusted code, not the candidate's), stops it with SIGTERM and, after a
# bounded wait, SIGKILL, and stops every server still running when the pod ends. Unsealed
# judging runs the same steps in the judge's process (:class:`_LocalSteps`); both share the
# line contract (:class:`_ServerOutput`) and the client (:func:`http_exchange`). LIGHT too.

STEP_KINDS = ("serve", "http", "stop")
SERVER_CAPTURE_LIMIT = 1024 * 1024  # what a server prints after LISTENING, kept per step
SERVER_END_GRACE = 2.0  # seconds a server still running at the end has after SIGTERM
HTTP_RESPONSE_LIMIT = 1024 * 1024
HTTP_HEADER_LIMIT = 100
SERVER_VARIABLE_PREFIX = "BENCHSMITH_SERVER_"


def step_kind(command: Mapping[str, Any]) -> str:
    """``serve``, ``http`` or ``stop`` for a step of a command sequence, else ``run``."""
    return next((kind for kind in STEP_KINDS if command.get(kind) is not None), "run")


def server_variable(name: str) -> str:
    """The environment variable that gives later commands a running server's base URL."""
    return SERVER_VARIABLE_PREFIX + "".join(c if c.isalnum() else "_" for c in name.upper())


class _ServerOutput:
    """The standard output of a candidate server, line by line: first exactly one
    ``LISTENING <port>`` line, then log lines (kept, at most :data:`SERVER_CAPTURE_LIMIT`).

    ``problem`` says how the server broke the contract before it was listening, ``late`` how
    it did after (a second ``LISTENING`` line).
    """

    def __init__(self) -> None:
        self.buffer = b""
        self.port = 0
        self.problem = ""
        self.late = ""
        self.log = b""
        self.kept = 0
        self.closed = False

    @property
    def listening(self) -> bool:
        return self.port > 0

    def feed(self, chunk: bytes) -> bytes:
        """Take one chunk (``b""``: end of output); the log bytes to keep."""
        self.closed = self.closed or not chunk
        lines = (self.buffer + chunk).split(b"\n")
        self.buffer = lines.pop() if chunk else b""
        if not chunk and lines and not lines[-1]:
            lines.pop()
        kept = b""
        for line in lines:
            kept += self.line(line)
        return kept

    def line(self, line: bytes) -> bytes:
        port = _listening_port(line)
        if not self.listening and not self.problem:
            if port:
                self.port = port
            elif line.rstrip(b"\r").startswith(b"LISTENING"):
                shown = line.decode("utf-8", "replace").strip()[:200]
                self.problem = f"printed a malformed line {shown!r} (expected 'LISTENING <port>')"
            else:
                shown = line.decode("utf-8", "replace").strip()[:200]
                self.problem = f"printed {shown!r} on standard output before 'LISTENING <port>'"
            return b""
        if port or line.rstrip(b"\r").startswith(b"LISTENING "):
            self.late = self.late or "printed a second 'LISTENING <port>' line"
        room = SERVER_CAPTURE_LIMIT - self.kept
        kept = (line + b"\n")[: max(0, room)]
        self.kept += len(kept)
        return kept


def http_exchange(
    port: int,
    request: Mapping[str, Any],
    body: bytes | None,
    timeout: float,
) -> tuple[dict[str, Any], bytes]:
    """Send one HTTP/1.1 request to ``127.0.0.1:port``: ``request`` has ``method``,
    ``target`` and ``headers`` (name, value pairs) and optionally ``limit`` (response bytes
    kept). The whole exchange ends within ``timeout`` seconds (a watchdog closes the socket).

    Returns:
        ``({"status", "reason", "headers", "truncated"}, body)``.

    Raises:
        OSError: When no complete response arrived (the message says why).
    """
    import http.client  # only pods and judges that send requests need it (see LIGHT)
    import socket
    import threading

    limit = int(request.get("limit") or HTTP_RESPONSE_LIMIT)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        sock = connection.sock
        if sock is not None:
            try:  # noqa: SIM105  # see LIGHT
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    watchdog = threading.Timer(timeout, expire)
    watchdog.daemon = True
    watchdog.start()
    try:
        connection.putrequest(str(request["method"]), str(request["target"]), skip_host=False)
        for name, value in request.get("headers", []):
            connection.putheader(str(name), str(value))
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        data = response.read(limit + 1)
        head = {
            "status": response.status,
            "reason": response.reason,
            "headers": [[k, v[:8192]] for k, v in response.getheaders()[:HTTP_HEADER_LIMIT]],
            "truncated": len(data) > limit,
        }
        return head, data[:limit]
    except (OSError, http.client.HTTPException, ValueError) as exc:
        if expired.is_set() or isinstance(exc, TimeoutError):
            raise OSError(f"no complete response within {timeout:g} s") from None
        if isinstance(exc, ConnectionRefusedError):
            raise OSError(f"connection to 127.0.0.1:{port} refused") from None
        raise OSError(f"no valid HTTP response: {type(exc).__name__}: {exc}") from None
    finally:
        watchdog.cancel()
        connection.close()


class _CandidateServer:
    """A candidate server PID 1 started: its serve step, pid (also its session), its
    standard output (a pipe PID 1 reads) and the step's capture file for its log."""

    def __init__(self, name: str, index: int, pid: int, stdout: int, capture: int) -> None:
        self.name, self.index, self.pid = name, index, pid
        self.stdout, self.capture = stdout, capture
        self.output = _ServerOutput()
        self.reported = False  # a late problem was reported

    def fds(self) -> list[int]:
        return [self.stdout] if self.stdout >= 0 else []


class _PodSteps:
    """The serve, http and stop steps of one pod (see :class:`_Pod`): the candidate servers
    that run, by name, and the base URLs later commands see."""

    def __init__(self, pod: _Pod) -> None:
        self.pod = pod
        self.running: dict[str, _CandidateServer] = {}
        self.ended: dict[str, str] = {}  # name -> why it no longer runs
        self.env: dict[str, str] = {}
        self.exits: dict[int, int] = {}  # statuses reaped by a sweep

    def servers(self) -> list[_CandidateServer]:
        return list(self.running.values())

    def run(self, kind: str, index: int, command: dict[str, Any]) -> dict[str, Any]:
        """Run one step; the fields of its ``command`` report."""
        fds = (int(command["stdout_fd"]), int(command["stderr_fd"]))
        if kind == "serve":
            return self.serve(index, command, fds)
        for fd in fds[1:] if kind == "http" else fds:
            os.close(fd)
        if kind == "http":
            return self.http(command, fds[0])
        return self.stop(command)

    def serve(self, index: int, command: dict[str, Any], fds: tuple[int, int]) -> dict[str, Any]:
        name, timeout = str(command["serve"]), float(command["timeout"])
        if name in self.running:
            for fd in fds:
                os.close(fd)
            problem = "is already running"
            return {**_failed(f"server {name!r} {problem}"), "detail": {"problem": problem}}
        readable, writable = os.pipe()
        env = {**self.pod.env, **self.env}
        memory = command.get("memory_bytes")
        spawn_fds = (self.pod.null, writable, fds[1])
        pid, why = _spawn(list(command["argv"]), command["cwd"], env, spawn_fds, memory)
        os.close(writable)
        os.close(fds[1])
        if pid < 0:
            os.close(readable)
            os.close(fds[0])
            return _failed(why)
        server = _CandidateServer(name, index, pid, readable, fds[0])
        problem = self.handshake(server, time.monotonic() + timeout, timeout)
        if problem:
            code = self.exit_of(server)
            deadline = time.monotonic() + (0.5 if server.output.closed else 0.0)
            while code is None and time.monotonic() < deadline:  # closed its output: exiting
                time.sleep(0.005)
                code = self.exit_of(server)
            self.finish(server, 0.0, signal.SIGKILL)
            if code is not None and not problem.startswith("printed"):
                problem = f"exited with status {code} before printing 'LISTENING <port>'"
            elif not problem.startswith("printed"):
                problem += " (it was still running, and was killed)"
            self.ended[name] = "it did not start"
            message = f"server {name!r} ({command.get('display', '')}) {problem}"
            return {"returncode": code, "error": message, "detail": {"problem": problem}}
        self.running[name] = server
        url = f"http://127.0.0.1:{server.output.port}"
        self.env[server_variable(name)] = url
        if command.get("url_file"):
            self.pod.write_url(command["url_file"], url + "\n")
        return {"returncode": 0, "detail": {"port": server.output.port, "url": url}}

    def handshake(self, server: _CandidateServer, deadline: float, timeout: float) -> str:
        """Read the server's output until ``LISTENING <port>`` (and what came with it)."""
        output = server.output
        while not output.listening:
            if output.problem:
                return output.problem
            if output.closed:
                return "closed its standard output before printing 'LISTENING <port>'"
            if time.monotonic() >= deadline or not self.pod.pump([server], deadline):
                return f"did not print 'LISTENING <port>' within {timeout:g} s"
        self.pod.pump([server], time.monotonic())  # a second line printed at once
        if output.late:
            server.reported = True
            return output.late
        return ""

    def read(self, server: _CandidateServer) -> None:
        """Read one chunk of a server's standard output; keep its log, note a late problem."""
        chunk = os.read(server.stdout, 65536)
        kept = server.output.feed(chunk)
        if kept:
            _write_all(server.capture, kept)
        if not chunk:
            os.close(server.stdout)
            server.stdout = -1
        if server.output.late and not server.reported and server.name in self.running:
            server.reported = True
            problem = server.output.late + " after it was listening"
            self.pod.report("server", index=server.index, error=f"server {server.name!r} {problem}")

    def http(self, command: dict[str, Any], capture: int) -> dict[str, Any]:
        request = command["http"]
        name = str(request["server"])
        try:
            server, problem = self.live(name, "before this request")
            if server is None:
                return _failed(problem)
            body = _request_body(request)
            head, data = self.exchange(server.output.port, request, body, float(command["timeout"]))
            _write_all(capture, data)
            return {"returncode": 0, "detail": head}
        except OSError as exc:
            return _failed(f"{request['method']} {request['target']} to server {name!r}: {exc}")
        finally:
            os.close(capture)

    def exchange(
        self, port: int, request: Mapping[str, Any], body: bytes | None, timeout: float
    ) -> tuple[dict[str, Any], bytes]:
        """:func:`http_exchange` in a thread, while this one keeps reading what the services
        and servers print (a server blocked on a full pipe would never answer)."""
        import threading

        box: dict[str, Any] = {}

        def send() -> None:
            try:
                box["response"] = http_exchange(port, request, body, timeout)
            except OSError as exc:
                box["error"] = exc

        thread = threading.Thread(target=send, daemon=True)
        thread.start()
        while thread.is_alive():
            self.pod.pump([*self.pod.services, *self.servers()], time.monotonic() + 0.01)
            thread.join(0.0)
        if "error" in box:
            raise box["error"]
        response: tuple[dict[str, Any], bytes] = box["response"]
        return response

    def stop(self, command: dict[str, Any]) -> dict[str, Any]:
        name, timeout = str(command["stop"]), float(command["timeout"])
        server, problem = self.live(name, "before the stop")
        if server is None:
            return _failed(problem)
        code = self.finish(server, timeout, signal.SIGTERM)
        self.drop(server, "it was stopped")
        if code is None:
            return _failed(f"server {name!r} did not exit within {timeout:g} s of SIGTERM; killed")
        return {"returncode": 0, "detail": {"exit": code}}

    def live(self, name: str, when: str) -> tuple[_CandidateServer | None, str]:
        """The running server ``name``, or None and why the step (``when``) cannot use it."""
        server = self.running.get(name)
        if server is None:
            why = self.ended.get(name, "it was never started")
            return None, f"not run: server {name!r} is not running ({why})"
        exited = self.exit_of(server)
        if exited is not None:
            self.drop(server, f"it exited with status {exited}")
            return None, f"server {name!r} exited with status {exited} {when}"
        return server, ""

    def drop(self, server: _CandidateServer, why: str) -> None:
        """Forget a server that no longer runs (its group killed, its pipes closed)."""
        self.finish(server, 0.0, signal.SIGKILL)
        self.running.pop(server.name, None)
        self.env.pop(server_variable(server.name), None)
        self.ended[server.name] = why

    def exit_of(self, server: _CandidateServer) -> int | None:
        """The exit status of a server that exited already (None while it runs)."""
        if server.pid in self.exits:
            return self.exits[server.pid]
        try:
            done, status = os.waitpid(server.pid, os.WNOHANG)
        except ChildProcessError:
            return self.exits.get(server.pid, -1)
        if done:
            self.exits[server.pid] = os.waitstatus_to_exitcode(status)
            return self.exits[server.pid]
        return None

    def finish(self, server: _CandidateServer, grace: float, signum: int) -> int | None:
        """Send ``signum`` to the server's group, wait ``grace`` seconds for it (reading its
        output), then SIGKILL the group; its exit status (None: killed at the deadline)."""
        deadline = time.monotonic() + grace
        code = self.exit_of(server)
        if code is None:
            try:  # noqa: SIM105  # see LIGHT
                os.killpg(server.pid, signum)
            except (ProcessLookupError, PermissionError):
                pass
        while code is None and time.monotonic() < deadline:
            if not (
                server.fds() and self.pod.pump([server], min(deadline, time.monotonic() + 0.05))
            ):
                time.sleep(0.005)
            code = self.exit_of(server)
        _kill(server.pid, group=True)
        if code is None:
            try:  # noqa: SIM105  # see LIGHT
                os.waitpid(server.pid, 0)
            except ChildProcessError:
                pass
        for _ in range(64):  # what it left in its pipe
            if not (server.fds() and self.pod.pump([server], time.monotonic())):
                break
        if server.stdout >= 0:
            os.close(server.stdout)
            server.stdout = -1
        if server.capture >= 0:
            os.close(server.capture)
            server.capture = -1
        return code

    def end(self) -> None:
        """Stop every server still running (the pod ends)."""
        for server in self.servers():
            self.finish(server, SERVER_END_GRACE, signal.SIGTERM)
            self.running.pop(server.name, None)


def _failed(error: str) -> dict[str, Any]:
    return {"returncode": None, "error": error}


def _request_body(request: Mapping[str, Any]) -> bytes | None:
    """The body of an http step: its inline text or the bytes of its file."""
    if request.get("body_file"):
        with open(request["body_file"], "rb") as stream:
            return stream.read(HTTP_RESPONSE_LIMIT * 16)
    body = request.get("body")
    return None if body is None else str(body).encode("utf-8")


if __name__ == "__main__" and sys.argv[1:2] == [POD_FLAG]:
    sys.exit(_pod_main())
if __name__ == "__main__" and sys.argv[1:2] == [SERVICE_FLAG]:
    sys.exit(_service_main(sys.argv[2:]))

# Everything below is imported only by judges, seeds and the SDK, never by a pod's PID 1.
import argparse
import bisect
import codecs
import contextlib
import csv
import datetime as _dt
import decimal
import errno
import functools
import gzip
import hashlib
import io
import itertools
import operator
import pickle
import posixpath
import random
import re
import resource
import selectors
import shlex
import shutil
import sqlite3
import stat
import subprocess
import tempfile
import threading
import traceback
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import IO, Any, TypeVar, cast, overload

# The corpus-facing API (see the module docstring); tests/runtime/test_api.py keeps it honest.
__all__ = [
    "CheckFailed",
    "CommandResult",
    "Files",
    "HttpResponse",
    "Judge",
    "Request",
    "Run",
    "SeedContext",
    "as_decimal",
    "expect",
    "expect_equal",
    "seed_main",
]

FILE_MODE = 0o644
DIR_MODE = 0o755
READ_ONLY_FILE = 0o444
READ_ONLY_DIR = 0o555
GZIP_LEVEL = 6
READ_LIMIT = 256 * 1024 * 1024
CAPTURE_LIMIT = 64 * 1024
NOTE_LIMIT = 300
SEED_TIMEOUT = 900.0


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


# ---------------------------------------------------------------------------------------------
# seeding -- corpus API: SeedContext, seed_main; the rest is SDK-internal
# ---------------------------------------------------------------------------------------------


def _decimal_text(units: int, scale: int) -> str:
    sign = "-" if units < 0 else ""
    whole, frac = divmod(abs(units), 10**scale)
    return f"{sign}{whole}.{frac:0{scale}d}" if scale else f"{sign}{whole}"


def _scale(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def _parse_datetime(text: str) -> _dt.datetime:
    return _dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _draw_seq(col: Mapping[str, Any], rng: random.Random) -> Callable[[int], Any]:
    pattern, start = col["seq"], col.get("start", 1)
    return lambda i: pattern.format(start + i)


def _draw_int(col: Mapping[str, Any], rng: random.Random) -> Callable[[int], Any]:
    low, high = col["int"]
    randint = rng.randint
    return lambda i: randint(low, high)


def _draw_decimal(col: Mapping[str, Any], rng: random.Random) -> Callable[[int], Any]:
    low, high = col["decimal"]
    scale = max(_scale(low), _scale(high))
    lo, hi = (int(decimal.Decimal(v).scaleb(scale)) for v in (low, high))
    randint = rng.randint
    # Text, not Decimal: CSV writes it as is; JSON writers turn decimal columns into numbers.
    return lambda i: _decimal_text(randint(lo, hi), scale)


def _draw_date(col: Mapping[str, Any], rng: random.Random) -> Callable[[int], Any]:
    lo, hi = (_dt.date.fromisoformat(v).toordinal() for v in col["date"])
    fmt, randint, fromordinal = col.get("format"), rng.randint, _dt.date.fromordinal
    if fmt:
        return lambda i: fromordinal(randint(lo, hi)).strftime(fmt)
    return lambda i: fromordinal(randint(lo, hi)).isoformat()


def _draw_datetime(col: Mapping[str, Any], rng: random.Random) -> Callable[[int], Any]:
    start, end = (_parse_datetime(v) for v in col["datetime"])
    span = int((end - start).total_seconds())
    aware = start.tzinfo is not None
    base = start.astimezone(_dt.UTC) if aware else start
    fmt = col.get("format") or ("%Y-%m-%dT%H:%M:%SZ" if aware else "%Y-%m-%dT%H:%M:%S")
    randint, delta = rng.randint, _dt.timedelta
    return lambda i: (base + delta(seconds=randint(0, span))).strftime(fmt)


def _draw_choice(col: Mapping[str, Any], rng: random.Random) -> Callable[[int], Any]:
    options, weights = list(col["choice"]), col.get("weights")
    if not weights:
        choice = rng.choice
        return lambda i: choice(options)
    cumulative = list(itertools.accumulate(weights))
    total, uniform, pick = cumulative[-1], rng.random, bisect.bisect
    return lambda i: options[pick(cumulative, uniform() * total)]


def _draw_const(col: Mapping[str, Any], rng: random.Random) -> Callable[[int], Any]:
    value = col["value"]
    return lambda i: value


_DRAWERS: dict[str, Callable[[Mapping[str, Any], random.Random], Callable[[int], Any]]] = {
    "seq": _draw_seq,
    "int": _draw_int,
    "decimal": _draw_decimal,
    "date": _draw_date,
    "datetime": _draw_datetime,
    "choice": _draw_choice,
    "const": _draw_const,
}


def _drawer(
    col: Mapping[str, Any], rng: random.Random, vocab: Callable[[str], list[Any]]
) -> Callable[[int], Any]:
    draw: Callable[[int], Any]
    if col["kind"] == "vocab":
        options, choice = vocab(col["vocab"]), rng.choice
        draw = lambda i: choice(options)  # noqa: E731
    else:
        draw = _DRAWERS[col["kind"]](col, rng)
    rate = col.get("null_rate")
    if not rate:
        return draw
    uniform = rng.random
    return lambda i: None if uniform() < rate else draw(i)


def _coerce(col: Mapping[str, Any], value: Any) -> Any:
    """Give hand-written values their column's type (decimal text -> Decimal, etc.)."""
    if value is None or isinstance(value, bool):
        return value
    if col["kind"] == "decimal" and isinstance(value, str | int | float):
        return decimal.Decimal(str(value))
    if col["kind"] == "int" and isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return value


def _typed(spec: Mapping[str, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    columns = {c["name"]: c for c in spec["columns"]}
    return {k: _coerce(columns[k], v) if k in columns else v for k, v in record.items()}


def _place_anchors(rows: list[list[Any]], anchors: Sequence[Mapping[str, Any]]) -> None:
    """Insert anchor records into ``rows`` at explicit or evenly spread positions."""
    placed = [(a.get("at"), r) for a in anchors for r in a["records"]]
    total = len(rows) + len(placed)
    positions = [
        at if at is not None else (k + 1) * total // (len(placed) + 1)
        for k, (at, _) in enumerate(placed)
    ]
    order = sorted(range(len(placed)), key=lambda k: (positions[k], k))
    for k in order:
        rows.insert(min(positions[k], len(rows)), placed[k][1])


def _sort_key(value: Any) -> tuple[int, Any]:
    if isinstance(value, int | float | decimal.Decimal) and not isinstance(value, bool):
        return (0, value)
    return (1, "" if value is None else str(value))


def _tabular_rows(
    spec: Mapping[str, Any], rng: random.Random, vocab: Callable[[str], list[Any]]
) -> tuple[list[str], list[list[Any]]]:
    """Build the header and rows of a declared tabular file: records, filler, anchors.

    Rows are lists in header order (the hot path of million-row files creates no dicts).
    """
    header = list(spec["header"]) or (list(spec["records"][0]) if spec["records"] else [])

    def in_order(record: Mapping[str, Any]) -> list[Any]:
        typed = _typed(spec, record)
        return [typed.get(k) for k in header]

    rows = [in_order(r) for r in spec["records"]]
    anchors = [
        {"at": a["at"], "records": [in_order(r) for r in a["records"]]} for a in spec["anchors"]
    ]
    fixed = len(rows) + sum(len(a["records"]) for a in anchors)
    filler = max(0, (spec["rows"] or fixed) - fixed)
    if filler:
        draws = [_drawer(c, rng, vocab) for c in spec["columns"]]
        rows.extend([draw(i) for draw in draws] for i in range(filler))
    _place_anchors(rows, anchors)
    if spec["sort_by"]:
        index = [header.index(k) for k in spec["sort_by"]]
        rows.sort(key=lambda r: tuple(_sort_key(r[i]) for i in index))
    return header, rows


def _cell_text(value: Any) -> str:
    """Render one value as CSV text (None -> empty, booleans lower-case)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _json_text(value: Any, indent: int | None = 2, level: int = 0) -> str:
    """Serialize like ``json.dumps`` but keep Decimal values as exact JSON numbers."""
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, Mapping):
        items = [f"{json.dumps(str(k), ensure_ascii=False)}: " for k in value]
        parts = [
            k + _json_text(v, indent, level + 1) for k, v in zip(items, value.values(), strict=True)
        ]
        return _join_json(parts, "{", "}", indent, level)
    if isinstance(value, list | tuple):
        parts = [_json_text(v, indent, level + 1) for v in value]
        return _join_json(parts, "[", "]", indent, level)
    return json.dumps(value, ensure_ascii=False)


def _join_json(parts: list[str], open_: str, close: str, indent: int | None, level: int) -> str:
    if not parts:
        return open_ + close
    if indent is None:
        return open_ + ", ".join(parts) + close
    pad, inner = " " * (indent * level), " " * (indent * (level + 1))
    return open_ + "\n" + ",\n".join(inner + p for p in parts) + "\n" + pad + close


def _write_csv(
    path: Path,
    header: Sequence[str],
    rows: Iterable[Mapping[str, Any]],
    *,
    carriage_returns: bool = True,
) -> None:
    """Write a CSV file (LF line endings, minimal quoting) with a fixed mode.

    The csv module leaves a lone carriage return unquoted when the line terminator is LF,
    which readers then take for a line break; rows holding one are written fully quoted.
    Pass ``carriage_returns=False`` when no value can contain one (the fast path).
    """
    cells = ([_cell_text(r.get(k)) for k in header] for r in rows)
    _write_csv_rows(path, header, cells, carriage_returns=carriage_returns)


def _write_csv_rows(
    path: Path,
    header: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    carriage_returns: bool = True,
) -> None:
    """Write CSV rows given as sequences in header order (see :func:`_write_csv`).

    Values are written as the csv module writes them: None as an empty field, numbers and
    Decimals through ``str``; pass :func:`_cell_text` output for lower-case booleans.
    """
    with _open_output(path) as stream:
        plain = csv.writer(stream, lineterminator="\n")
        quoted = csv.writer(stream, lineterminator="\n", quoting=csv.QUOTE_ALL)
        if not carriage_returns:
            plain.writerow(header)
            plain.writerows(rows)
            return
        for row in itertools.chain([list(header)], rows):
            cells = [_cell_text(c) for c in row]
            (quoted if any("\r" in c for c in cells) else plain).writerow(cells)


def _write_json(path: Path, value: Any) -> None:
    """Write a JSON document (two-space indent, trailing newline) with a fixed mode."""
    with _open_output(path) as stream:
        stream.write(_json_text(value) + "\n")


def _write_jsonl(path: Path, rows: Iterable[Any]) -> None:
    """Write one compact JSON value per line with a fixed mode."""
    with _open_output(path) as stream:
        stream.writelines(_json_text(r, indent=None) + "\n" for r in rows)


def _may_hold_cr(spec: Mapping[str, Any]) -> bool:
    """Whether any value of a declared file could contain a carriage return."""
    fixed = [spec["header"], spec["records"], [a["records"] for a in spec["anchors"]]]
    options = [c.get("choice", c.get("value", c.get("seq", ""))) for c in spec["columns"]]
    vocabularies = any(c["kind"] == "vocab" for c in spec["columns"])
    return vocabularies or "\\r" in json.dumps([fixed, options])


def _may_hold_bool(spec: Mapping[str, Any]) -> bool:
    """Whether any value of a declared file could be a boolean (written lower-case)."""
    options = [c.get("choice", [c.get("value")]) for c in spec["columns"]]
    fixed = [*spec["records"], *(r for a in spec["anchors"] for r in a["records"])]
    values = [v for o in options for v in o] + [v for r in fixed for v in r.values()]
    return any(isinstance(v, bool) for v in values)


def _write_tabular(
    path: Path, spec: Mapping[str, Any], header: list[str], rows: list[list[Any]]
) -> None:
    """Write ``rows`` (lists in ``header`` order) in the format of ``spec``."""
    if spec["format"] == "csv":
        cells = ([_cell_text(c) for c in r] for r in rows) if _may_hold_bool(spec) else rows
        _write_csv_rows(path, header, cells, carriage_returns=_may_hold_cr(spec))
        return
    numbers = {c["name"] for c in spec["columns"] if c["kind"] == "decimal"}
    records = [
        {
            k: decimal.Decimal(v) if k in numbers and isinstance(v, str) else v
            for k, v in zip(header, r, strict=True)
        }
        for r in rows
    ]
    if spec["format"] == "jsonl":
        _write_jsonl(path, records)
    else:
        _write_json(path, {spec["wrap"]: records} if spec["wrap"] else records)


@dataclass
class SeedContext:
    """What an authored fixture generator receives.

    Attributes:
        out: Root folder of the fixture being written.
        path: The declared path of this generator's entry (relative to ``out``).
        fixture: ``"main"`` or ``"edge"``.
        stage: The stage number being materialized (1-based).
        rng: This entry's own seeded stream, ``random.Random(f"{seed}/{path}")``.
        seed: The task seed, ``20260831 + id``.
        task_dir: The task folder (for reading committed data files).
    """

    out: Path
    path: str
    fixture: str
    stage: int
    rng: random.Random
    seed: int
    task_dir: Path
    anchors: Mapping[str, list[dict[str, Any]]] = field(default_factory=dict)

    def anchor(self, name: str) -> list[dict[str, Any]]:
        """Return the records of the anchor ``name`` (copies; safe to modify)."""
        records: list[dict[str, Any]] = json.loads(json.dumps(self.anchors[name]))
        return records

    def vocab(self, name: str) -> list[Any]:
        """Return the frozen vocabulary ``vocab/<name>.json``."""
        return _load_vocab(self.task_dir, name)

    def stream(self, name: str) -> random.Random:
        """A named stream, ``random.Random(f"{seed}/{name}")``, for state several generators
        share (each generator entry otherwise draws from its own ``rng``)."""
        return random.Random(f"{self.seed}/{name}")

    def target(self, rel: str = "") -> Path:
        """Return the absolute path of ``rel`` (default: this entry's path) inside ``out``."""
        return self.out / (rel or self.path)

    def open_text(self, rel: str = "") -> contextlib.AbstractContextManager[IO[str]]:
        """Open a text file for writing (UTF-8, ``newline=""``; gzip when it ends in .gz)."""
        return _open_output(self.target(rel))

    def open_binary(self, rel: str = "") -> contextlib.AbstractContextManager[IO[bytes]]:
        """Open a binary file for writing (gzip when it ends in .gz)."""
        return _open_output(self.target(rel), binary=True)

    def write_text(self, rel: str, text: str) -> None:
        """Write a whole text file."""
        with self.open_text(rel) as stream:
            stream.write(text)

    def write_bytes(self, rel: str, data: bytes) -> None:
        """Write a whole binary file."""
        with self.open_binary(rel) as stream:
            stream.write(data)

    def write_csv(self, rel: str, header: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> None:
        """Write a CSV file (see :func:`_write_csv`)."""
        _write_csv(self.target(rel), header, rows)

    def write_json(self, rel: str, value: Any) -> None:
        """Write a JSON file (see :func:`_write_json`)."""
        _write_json(self.target(rel), value)

    def write_jsonl(self, rel: str, rows: Iterable[Any]) -> None:
        """Write a JSON Lines file (see :func:`_write_jsonl`)."""
        _write_jsonl(self.target(rel), rows)


_VOCAB_CACHE: dict[tuple[str, str], list[Any]] = {}


def _load_vocab(task_dir: Path, name: str) -> list[Any]:
    """Return the values of the committed vocabulary ``vocab/<name>.json``."""
    key = (str(task_dir), name)
    if key not in _VOCAB_CACHE:
        path = task_dir / "vocab" / f"{name}.json"
        _VOCAB_CACHE[key] = json.loads(path.read_text(encoding="utf-8"))["values"]
    return _VOCAB_CACHE[key]


def _load_generators(task_dir: Path, names: Iterable[str]) -> dict[str, Callable[..., Any]]:
    wanted = sorted(set(names))
    if not wanted:
        return {}
    sys.path.insert(0, str(task_dir))
    try:
        import fixtures  # type: ignore[import-not-found]  # the task's authored module
    finally:
        sys.path.remove(str(task_dir))
    return {name: getattr(fixtures, name) for name in wanted}


def _verify_writes(out: Path, entry: Mapping[str, Any]) -> None:
    """Fail loudly when a generator did not write every path its entry declares."""
    missing = [p for p in entry.get("writes", []) if not (out / p.rstrip("/")).exists()]
    if missing:
        raise RuntimeError(f"generator {entry['generator']!r} did not write {', '.join(missing)}")


def seed_fixture(
    task: Mapping[str, Any],
    task_dir: Path,
    out: Path,
    *,
    fixture: str = "main",
    stage: int = 1,
    only_stage: bool = False,
) -> None:
    """Write a fixture described by the seed data ``task`` (embedded in seed.py) into ``out``.

    Args:
        task: Seed data: ``seed``, ``stages``, ``files``, ``edge_files``, ``anchors``.
        task_dir: The task folder (vocabularies, fixtures.py).
        out: Destination folder (created if missing).
        fixture: ``"main"`` or ``"edge"``.
        stage: Write the main fixture as of this 1-based stage (files of later stages are
            left out). Ignored for the edge fixture.
        only_stage: Write only the files the stage ``stage`` introduces.
    """
    entries = task["edge_files"] if fixture == "edge" else task["files"]
    stages = list(task["stages"])
    if fixture == "main":
        numbered = [(stages.index(e["stage"]) + 1, e) for e in entries]
        entries = [e for n, e in numbered if (n == stage if only_stage else n <= stage)]
    generators = _load_generators(task_dir, [e["generator"] for e in entries if e["generator"]])
    out.mkdir(parents=True, exist_ok=True)
    for entry in entries:
        rng = random.Random(f"{task['seed']}/{entry['path']}")
        if entry["generator"]:
            context = SeedContext(
                out, entry["path"], fixture, stage, rng, task["seed"], task_dir, task["anchors"]
            )
            generators[entry["generator"]](context)
            _verify_writes(out, entry)
        else:
            header, rows = _tabular_rows(entry, rng, lambda name: _load_vocab(task_dir, name))
            _write_tabular(out / entry["path"], entry, header, rows)
    _fix_modes(out)


def seed_main(task: Mapping[str, Any], task_dir: Path, argv: Sequence[str] | None = None) -> int:
    """The command line of a generated seed.py."""
    parser = argparse.ArgumentParser(description=f"Write the fixture of task {task['id']}.")
    parser.add_argument("--out", required=True, type=Path, help="destination folder")
    parser.add_argument("--fixture", choices=("main", "edge"), default="main")
    parser.add_argument(
        "--stage", default="1", help="1-based stage number, or 'final' (default: 1)"
    )
    parser.add_argument(
        "--only", action="store_true", help="write only the files that --stage introduces"
    )
    args = parser.parse_args(argv)
    count = len(task["stages"])
    stage = count if args.stage == "final" else int(args.stage)
    if not 1 <= stage <= count:
        parser.error(f"--stage must be between 1 and {count} or 'final'")
    seed_fixture(task, task_dir, args.out, fixture=args.fixture, stage=stage, only_stage=args.only)
    return 0


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


# ---------------------------------------------------------------------------------------------
# process -- corpus API: CommandResult (run.results); the rest is SDK-internal
# ---------------------------------------------------------------------------------------------

PYTHON_NAMES = ("python", "python3", "python3.12")


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for unsealed processes: inherited, minus Python overrides and the
    working directories (``PWD``, ``OLDPWD``), which would name the caller's folders."""
    dropped = ("PYTHONPATH", "PYTHONHOME", "PWD", "OLDPWD")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update({"PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"})
    env.update(extra or {})
    return env


def resolve_argv(argv: Sequence[str], python: str) -> list[str]:
    """Replace a leading ``python`` with the interpreter the judge was asked to use."""
    argv = list(argv)
    if argv and argv[0] in PYTHON_NAMES:
        argv[0] = python
    return argv


@dataclass
class CommandResult:
    """What one candidate command did.

    Attributes:
        argv: The command as run.
        returncode: Exit status (negative: killed by that signal; ``None``: did not start).
        timed_out: Whether the judge killed it at its timeout.
        stdout: The first 64 KiB of standard output (decoded with replacement).
        stderr: The first 64 KiB of standard error.
        stdout_path: File holding the complete standard output (deleted with the run).
        error: Why the command could not start, if it did not; for a step of a candidate
            server (``serve``, ``http``, ``stop``), why the step failed.
        detail: What a step reported: ``serve`` its ``port`` and ``url`` (or the
            ``problem``), ``http`` the response's ``status``, ``reason``, ``headers`` (name,
            value pairs) and ``truncated`` (its body is the step's standard output), ``stop``
            the server's ``exit`` status. Empty for a plain command.
    """

    argv: list[str]
    returncode: int | None
    timed_out: bool
    stdout: str
    stderr: str
    stdout_path: Path | None = None
    error: str = ""
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether it ran to completion with exit status 0 (a step: whether it succeeded)."""
        return self.returncode == 0 and not self.timed_out and not self.error

    def describe(self) -> str:
        """One line for notes: how the command ended."""
        if self.error:  # a step's error (no program, or a server's problem) says it all
            whole = self.error.startswith("not run") or not self.argv or "problem" in self.detail
            return self.error if whole else f"could not start: {self.error}"
        if self.timed_out:
            return "timed out"
        tail = self.stderr.strip().splitlines()[-1:] if self.returncode else []
        return f"exit status {self.returncode}" + (f": {tail[0]}" if tail else "")


def _head(path: Path, limit: int = CAPTURE_LIMIT) -> str:
    with open(path, "rb") as stream:
        return stream.read(limit).decode("utf-8", errors="replace")


def kill_group(process: subprocess.Popen[Any]) -> None:
    """Kill the process group of ``process`` (the command and every child it left)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


RUN_TOKEN_VARIABLE = "BENCHLIB_RUN_TOKEN"
_TOKENS = itertools.count(1)


def run_token() -> str:
    """A token unique to one candidate process tree (pid, counter and a monotonic clock)."""
    return f"{os.getpid()}-{next(_TOKENS)}-{time.monotonic_ns()}"


def sweep(token: str, group: int | None = None) -> list[int]:
    """Kill every live process of ``group`` or whose environment carries ``token``.

    A child that left its process group (``setsid``, a daemonizing double fork) escapes
    :func:`kill_group` but still inherits the environment the judge gave the command, so the
    token finds it (Linux ``/proc``; elsewhere only the group is killed). Returns once every
    process found is dead (or after two seconds), so nothing writes to a fixture after the
    judge starts reading it. Returns the pids killed.
    """
    needle = f"{RUN_TOKEN_VARIABLE}={token}".encode()
    killed: list[int] = []
    for _ in range(3):  # a process may fork while it is being swept
        found = [p for p in _proc_pids() if p not in killed and _swept(p, needle, group)]
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        killed.extend(found)
        if not found:
            break
        _await_death(found, time.monotonic() + 2.0)
    return killed


def _swept(pid: int, needle: bytes, group: int | None) -> bool:
    fields = _stat_fields(pid)
    if not fields or fields[0] in (b"Z", b"X"):
        return False
    in_group = group is not None and len(fields) > 2 and fields[2] == str(group).encode()
    return in_group or needle in _environ_entries(pid)


def _stat_fields(pid: int) -> list[bytes]:
    """The fields of ``/proc/PID/stat`` after the command name (state, ppid, pgrp, ...)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            return stream.read().rsplit(b")", 1)[-1].split()
    except OSError:
        return []


def _await_death(pids: Sequence[int], deadline: float) -> None:
    """Wait until every pid is gone or a zombie (SIGKILL is delivered asynchronously)."""
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.01)


def _alive(pid: int) -> bool:
    state = _stat_fields(pid)[:1]
    return bool(state) and state not in ([b"Z"], [b"X"])


def _proc_pids() -> list[int]:
    try:
        names = [entry.name for entry in Path("/proc").iterdir()]
    except OSError:
        return []
    mine = os.getpid()
    return sorted(int(n) for n in names if n.isdigit() and int(n) != mine)


def _environ_entries(pid: int) -> list[bytes]:
    try:
        with open(f"/proc/{pid}/environ", "rb") as stream:
            return stream.read().split(b"\0")
    except OSError:
        return []


def _scratch_file(scratch: Path, prefix: str) -> Path:
    """A new empty file under ``scratch`` (its descriptor closed at once)."""
    handle, name = tempfile.mkstemp(prefix=prefix, dir=scratch)
    os.close(handle)
    return Path(name)


def run_command(
    argv: Sequence[str],
    *,
    cwd: Path,
    timeout: float,
    scratch: Path,
    stdin: Path | None = None,
    env: Mapping[str, str] | None = None,
    memory_bytes: int | None = None,
) -> CommandResult:
    """Run a candidate command in its own process group; never raises for its failures.

    Output goes to files under ``scratch`` (so a flood cannot exhaust memory); after the
    command ends or times out the whole group is killed, so no child outlives it.
    ``memory_bytes`` caps the address space (RLIMIT_AS) of the command and its children.
    """
    scratch.mkdir(parents=True, exist_ok=True)
    out_path, err_path = _scratch_file(scratch, "stdout-"), _scratch_file(scratch, "stderr-")
    token = run_token()
    variables = dict(env) if env is not None else clean_env()
    variables[RUN_TOKEN_VARIABLE] = token
    timed_out = False
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        try:
            source = open(stdin, "rb") if stdin else subprocess.DEVNULL  # noqa: SIM115
        except OSError as exc:
            return CommandResult(list(argv), None, False, "", "", out_path, f"stdin: {exc}")
        try:
            process = subprocess.Popen(
                list(argv), cwd=cwd, stdin=source, stdout=out, stderr=err,
                env=variables, start_new_session=True,
                preexec_fn=(lambda: _limit_memory(memory_bytes)) if memory_bytes else None,
            )  # fmt: skip
        except OSError as exc:
            return CommandResult(list(argv), None, False, "", "", out_path, str(exc))
        finally:
            if stdin:
                source.close()  # type: ignore[union-attr]
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        kill_group(process)
        process.wait()
        sweep(token, group=process.pid)
    code = None if timed_out else process.returncode
    return CommandResult(list(argv), code, timed_out, _head(out_path), _head(err_path), out_path)


@dataclass(frozen=True)
class Request:
    """One request a fixture service received, as its request log recorded it.

    The log is kept by benchlib, outside the fixture where the candidate cannot write: the
    relay of the service's origins reads each HTTP/1.x request and its response as they pass
    (keep-alive, pipelining, ``Content-Length`` and chunked bodies), whatever the service is
    written in, and passes on only what it recorded (what it cannot read is recorded as
    refused and its connection closed). A Python service also refuses and records a
    connection sent straight to its own port; one that is not Python does not, so such
    requests are missing from its log.

    Attributes:
        seq: Arrival order, from 1.
        time: Arrival, in seconds since the service started (monotonic clock).
        end: When its response had passed the relay whole, or its connection ended without
            one (seconds since the start); None when the log was read before.
        method: ``GET``, ``POST``, ...
        target: The request target as sent (path and query).
        host: The ``Host`` header ("" without one).
        headers: Every header as sent, in order: ``(name, value)`` pairs.
        body_bytes: The request body's size (its ``Content-Length``, or the chunks' total
            once a chunked body ended; 0 without a body).
        status: The final response status the service sent, or None (no response).
        in_flight: Requests not yet answered (no final status line back at the relay) when
            it arrived, itself included: 1 when none other. A client that waits for each
            response before sending the next request always sees 1.
        origin: The origin it came through (the service's name or a further origin); ""
            for a connection sent straight to a Python service's own port (refused).
        version: The HTTP version of the request line.
        refused: Why the relay refused it, "" for a request it relayed: what it could not
            read as an HTTP/1.x request (HTTP/0.9, a bad line, an ambiguous body length;
            ``target`` then holds its first line) or a connection that bypassed the origins.
            Its connection was closed unanswered, and its ``method`` is "", so that a check
            of the methods fails on it.
        private_link: Whether the service's response holds an absolute link to the port
            the service itself listens on (``127.0.0.1:PORT`` or ``localhost:PORT``), which
            refuses every connection its origins do not relay.
    """

    seq: int
    time: float
    method: str
    target: str
    host: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    body_bytes: int = 0
    status: int | None = None
    in_flight: int = 1
    origin: str = ""
    end: float | None = None
    version: str = ""
    refused: str = ""
    private_link: bool = False

    @property
    def path(self) -> str:
        """The target without its query."""
        return self.target.split("?", 1)[0]

    def header(self, name: str, default: str | None = None) -> str | None:
        """The first header ``name`` (case-insensitive), or ``default``."""
        wanted = name.lower()
        return next((v for k, v in self.headers if k.lower() == wanted), default)


def requests_of(lines: Iterable[Mapping[str, Any]]) -> list[Request]:
    """The requests of a service's raw request log lines, in arrival order."""
    merged: dict[int, dict[str, Any]] = {}
    for line in lines:
        with contextlib.suppress(TypeError, ValueError):
            merged.setdefault(int(line["seq"]), {}).update(line)
    found = []
    for seq, entry in sorted(merged.items()):
        if "method" not in entry:
            continue
        with contextlib.suppress(TypeError, ValueError, KeyError):
            found.append(
                Request(
                    seq=seq, time=float(entry["time"]), method=str(entry["method"]),
                    target=str(entry["target"]), host=str(entry.get("host", "")),
                    headers=tuple((str(k), str(v)) for k, v in entry.get("headers", [])),
                    body_bytes=int(entry.get("body_bytes", 0)),
                    status=None if entry.get("status") is None else int(entry["status"]),
                    in_flight=int(entry.get("in_flight", 1)), origin=str(entry.get("origin", "")),
                    end=None if entry.get("end") is None else float(entry["end"]),
                    version=str(entry.get("version", "")),
                    refused=str(entry.get("refused", "")),
                    private_link=entry.get("private_link") is True,
                )
            )  # fmt: skip
    return found


@dataclass
class ServiceHandle:
    """A running loopback service.

    Attributes:
        process: The server process (its own process group).
        port: The port it announced with ``LISTENING <port>``.
        log: The lines it printed after that (at most 64 KiB), while it runs.
        name: The service's name.
        origins: Its origins (name -> port): the relays in front of its own port.
        entries: Its raw request log lines, while it runs (see :meth:`requests`).
        stderr: The end of its standard error (16 KiB at most), while it runs.
        error: Set when it broke the ``LISTENING`` contract after starting.
    """

    process: subprocess.Popen[bytes]
    port: int
    log: list[str] = field(default_factory=list)
    name: str = "service"
    origins: dict[str, int] = field(default_factory=dict)
    entries: list[dict[str, Any]] = field(default_factory=list)
    stderr: bytearray = field(default_factory=bytearray)
    error: str = ""
    display: str = ""

    @property
    def url(self) -> str:
        """Base URL of the service (its first origin)."""
        return f"http://127.0.0.1:{self.origins.get(self.name, self.port)}"

    def origin_url(self, origin: str) -> str:
        """The URL of one of its origins."""
        return f"http://127.0.0.1:{self.origins[origin]}"

    def requests(self) -> list[Request]:
        """The requests it received so far, in arrival order."""
        return requests_of(list(self.entries))


def _await_listening(
    process: subprocess.Popen[bytes], deadline: float, timeout: float
) -> tuple[int, str, bytes]:
    """Read the service's stdout until its ``LISTENING <port>`` line: (port, problem, rest)."""
    assert process.stdout is not None
    buffer = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.05)
        if not ready:
            if process.poll() is not None:
                break
            continue
        chunk = os.read(process.stdout.fileno(), 4096)
        if not chunk:
            break
        buffer = (buffer + chunk)[-CAPTURE_LIMIT:]
        if b"\n" in buffer:
            line, rest = buffer.split(b"\n", 1)
            port = _listening_port(line)
            if port:
                return port, "", rest
            shown = line.decode("utf-8", "replace").strip()[:200]
            return 0, f"printed {shown!r} on standard output before 'LISTENING <port>'", b""
    with contextlib.suppress(subprocess.TimeoutExpired):  # EOF: it is most likely exiting
        process.wait(timeout=1.0)
    code = process.poll()
    if code is not None:
        return 0, f"exited with status {code} before printing 'LISTENING <port>'", b""
    if time.monotonic() < deadline:
        return 0, "closed its standard output before printing 'LISTENING <port>'", b""
    return 0, f"did not print 'LISTENING <port>' within {timeout:g} s (still running)", b""


def _drain(stream: IO[bytes], handle: ServiceHandle, rest: bytes) -> None:
    """Read a service's output to its end, keeping the first 64 KiB of lines in its log; a
    second ``LISTENING`` line is its error."""
    kept = 0
    with contextlib.suppress(OSError, ValueError):
        lines = itertools.chain(rest.splitlines(keepends=True), stream)
        for line in lines:
            if _listening_port(line.rstrip(b"\n")) and not handle.error:
                problem = "printed a second 'LISTENING <port>' line"
                handle.error = service_failure(handle.name, handle.display, problem, b"")
            elif kept < CAPTURE_LIMIT and line.strip():
                kept += len(line)
                handle.log.append(line.decode("utf-8", "replace").rstrip("\r\n"))


def _drain_stderr(stream: IO[bytes], tail: bytearray) -> None:
    with contextlib.suppress(OSError, ValueError):
        while chunk := stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536):
            tail.extend(chunk)
            del tail[:-SERVICE_STDERR_LIMIT]


def _drain_requests(fd: int, handle: ServiceHandle) -> None:
    with contextlib.suppress(OSError, ValueError), open(fd, "rb") as stream:
        for line in stream:
            with contextlib.suppress(ValueError):
                entry = json.loads(line)
                if isinstance(entry, dict) and isinstance(entry.get("origins"), dict):
                    handle.origins.update({str(k): int(v) for k, v in entry["origins"].items()})
                elif isinstance(entry, dict) and len(handle.entries) < 3 * SERVICE_REQUEST_LIMIT:
                    handle.entries.append(entry)


@contextlib.contextmanager
def start_service(
    argv: Sequence[str],
    *,
    cwd: Path,
    timeout: float = 15.0,
    env: Mapping[str, str] | None = None,
    name: str = "service",
    display: str = "",
    origins: Sequence[str] = (),
    python: bool | None = None,
    seal: Seal | None = None,
) -> Iterator[ServiceHandle]:
    """Start a server with ``--port 0``, wait for its ``LISTENING <port>`` line, yield it.

    Every service runs through benchlib's service wrapper, which opens its origins (its own
    ``name`` and ``origins``), relays them to the service's port and records the HTTP
    requests it relays (:meth:`ServiceHandle.requests`). A Python service (``python``, by
    default when ``argv`` runs a script or a module with a Python interpreter) runs inside
    the wrapper; any other runs as the wrapper's child. The service's process group is
    always killed on exit, whatever happened.

    With ``seal`` the service runs under bubblewrap as ``seal`` says (its environment is
    ``seal.env``, never the caller's, plus the wrapper's plan), with this runtime's file
    bound read-only so that the wrapper can run; ``cwd`` must be visible in it.

    Raises:
        RuntimeError: When the service does not start, naming it, its command, what went
            wrong and the last lines of its standard error.
    """
    token = run_token()
    if seal is not None:
        variables = dict(seal.env)
    else:
        variables = dict(env) if env is not None else clean_env()
    variables[RUN_TOKEN_VARIABLE] = token
    if python is None:
        python = len(argv) > 1 and _is_python(argv[0])
    wrapper = [str(Path(__file__).resolve()), SERVICE_FLAG]
    if python:
        command = [argv[0], *wrapper, *argv[1:], "--port", "0"]
    else:
        command = [sys.executable, "-I", "-S", *wrapper, "--exec", *argv, "--port", "0"]
    readable, writable = os.pipe()
    plan = {"log_fd": writable, "origins": [name, *origins]}
    variables[SERVICE_PLAN_VARIABLE] = json.dumps(plan)
    stack = contextlib.ExitStack()
    try:
        process = stack.enter_context(_service_process(command, cwd, variables, writable, seal))
    except (OSError, ValueError) as exc:
        os.close(readable)
        os.close(writable)
        why = f"could not be started: {exc}"
        raise RuntimeError(service_failure(name, display, why, b"")) from None
    os.close(writable)
    handle = ServiceHandle(process, 0, name=name, display=display)
    assert process.stdout is not None and process.stderr is not None
    threads = [
        threading.Thread(target=_drain_requests, args=(readable, handle)),
        threading.Thread(target=_drain_stderr, args=(process.stderr, handle.stderr)),
    ]
    try:
        for thread in threads:
            thread.daemon = True
            thread.start()
        deadline = time.monotonic() + timeout
        port, problem, rest = _await_listening(process, deadline, timeout)
        while not problem and name not in handle.origins:
            if time.monotonic() >= deadline or process.poll() is not None:
                problem = "did not report its origins"
            time.sleep(0.005)
        if problem:
            kill_group(process)
            process.wait()
            threads[-1].join(timeout=1.0)
            raise RuntimeError(service_failure(name, display, problem, bytes(handle.stderr)))
        handle.port = port
        drain = threading.Thread(target=_drain, args=(process.stdout, handle, rest), daemon=True)
        drain.start()
        yield handle
    finally:
        kill_group(process)
        process.wait()
        stack.close()
        sweep(token, group=process.pid)
        for thread in threads:
            thread.join(timeout=1.0)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


@contextlib.contextmanager
def _service_process(
    command: Sequence[str], cwd: Path, env: Mapping[str, str], log_fd: int, seal: Seal | None
) -> Iterator[subprocess.Popen[bytes]]:
    """A service's process, in its own session (unsealed) or sandbox (``seal``).

    Raises:
        OSError: When it cannot be started.
    """
    streams: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    if seal is None:
        yield subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.DEVNULL, env=env, start_new_session=True,
            pass_fds=(log_fd,), **streams,
        )  # fmt: skip
        return
    binds = [*seal.binds, Bind(Path(__file__).resolve())]
    if command[0] == sys.executable:  # the wrapper of a non-Python service: this interpreter
        own = interpreter(sys.executable)
        command = [own.executable, *command[1:]]
        binds += own.binds()
    sealed = replace(seal, binds=tuple(binds), env=env, cwd=str(cwd))
    with sealed_popen(sealed, command, pass_fds=(log_fd,), **streams) as process:
        yield process


def _is_python(program: str) -> bool:
    """Whether ``program`` is a Python interpreter."""
    name = Path(program).name
    return bool(re.fullmatch(r"python[0-9.]*", name)) or program == sys.executable


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


@dataclass(frozen=True)
class PodService:
    """A fixture service a pod starts before its commands.

    Attributes:
        name: The service's name (log lines and errors carry it).
        argv: Its command line (``--port 0`` included), interpreter resolved.
        url_file: Path, relative to the fixture root, that receives its base URL.
        python: Whether ``argv`` runs a Python script or module (then it runs inside
            benchlib's non-dumpable service wrapper, so no command can forge its output; any
            other service runs as the wrapper's child). The wrapper opens the origins and
            records the requests relayed through them either way.
        cwd: Working directory, relative to the fixture root.
        display: The command as the task declares it (errors show it).
        origins: The service's further origins: name -> file (relative to the fixture root)
            that receives its URL, or "".
    """

    name: str
    argv: tuple[str, ...]
    url_file: str
    python: bool = True
    cwd: str = "."
    display: str = ""
    origins: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PodCommand:
    """A command a pod runs in the fixture root.

    Attributes:
        argv: The command line, interpreter resolved.
        cwd: Working directory, relative to the fixture root.
        stdin: File fed to standard input, relative to the fixture root.
        timeout: Seconds before its session is killed.
        memory_bytes: Address-space limit (RLIMIT_AS) of its processes; None: the pod's.
        kind: ``run`` (a command), or a step of a candidate server: ``serve`` (start
            ``argv`` in the background, await its ``LISTENING <port>`` line for ``timeout``
            seconds), ``http`` (PID 1 sends a request) or ``stop`` (SIGTERM, ``timeout``
            seconds, SIGKILL); see :class:`_PodSteps`.
        step: A step's settings: ``serve`` (its server's name), ``url_file`` (relative to
            the fixture root) and ``display``; ``http`` (``server``, ``method``, ``target``,
            ``headers``, ``body`` or ``body_file``, ``limit``); ``stop`` (the name). Left
            out of comparisons (a probe is a plain command).
    """

    argv: tuple[str, ...]
    cwd: str = "."
    stdin: str | None = None
    timeout: float = 60.0
    memory_bytes: int | None = None
    kind: str = "run"
    step: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass
class PodOutcome:
    """What a pod reported.

    Attributes:
        results: One result per command, in order.
        ports: Each started service's port.
        logs: Each service's output lines (at most 64 KiB per service).
        error: Why a service did not start (then no command ran) or broke its contract;
            empty otherwise.
        origins: Each started service's origins (name -> port).
        requests: Each service's request log (see :class:`Request`).
        stderr: The end of each service's standard error (16 KiB at most).
        not_run: The indexes of the commands the pod did not run (an earlier one timed out,
            a service did not start, or the pod ended first), in order.
    """

    results: list[CommandResult]
    ports: dict[str, int] = field(default_factory=dict)
    logs: dict[str, list[str]] = field(default_factory=dict)
    error: str = ""
    origins: dict[str, dict[str, int]] = field(default_factory=dict)
    requests: dict[str, list[Request]] = field(default_factory=dict)
    stderr: dict[str, str] = field(default_factory=dict)
    not_run: list[int] = field(default_factory=list)


_PREPARE = (
    "import json, os, py_compile, sys; "
    "py_compile.compile(sys.argv[1], cfile=sys.argv[2], dfile=sys.argv[3], doraise=True); "
    "print(json.dumps([os.path.realpath(sys.executable), sys.base_prefix]))"
)


@dataclass(frozen=True)
class PodKit:
    """What every pod of one judging shares: the interpreter and a private runtime copy.

    Attributes:
        interpreter: The candidates' interpreter (PID 1 runs it too).
        lib: Private folder holding the copy of this runtime that PID 1 runs.
        entry: The file PID 1 runs: ``benchlib.pyc``, compiled ahead so that it starts in
            milliseconds (``benchlib.py`` when compiling failed).
    """

    interpreter: Interpreter
    lib: Path
    entry: str

    @classmethod
    def prepare(cls, folder: Path, python: str, cache: Path | None = None) -> PodKit:
        """Copy this runtime into the private ``folder`` -- before any candidate code runs,
        so that nothing a candidate does can change what later pods execute -- and compile it
        with ``python``, which is resolved at the same time. Both results are kept in the
        fixture ``cache`` (written only by judges) for the next judge of the same run.

        Raises:
            RuntimeError: When ``python`` cannot be run.
        """
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(DIR_MODE)
        source = Path(__file__).read_bytes()
        (folder / "benchlib.py").write_bytes(source)
        key = hashlib.sha256(source + python.encode()).hexdigest()[:20]
        kept = cache / ".pod" / key if cache is not None else None
        info = _kept_interpreter(kept, folder / "benchlib.pyc")
        if info is None:
            info = cls._compile(python, folder)
            if kept is not None and info is not None:
                _keep(folder / "benchlib.pyc", kept.with_suffix(".pyc"))
                _keep_text(json.dumps([info.executable, info.prefix]), kept.with_suffix(".json"))
        if info is None:  # compiling failed: PID 1 runs (and compiles) the source
            (folder / "benchlib.py").chmod(FILE_MODE)
            return cls(interpreter(python), folder, "benchlib.py")
        for name in ("benchlib.py", "benchlib.pyc"):
            (folder / name).chmod(FILE_MODE)
        return cls(info, folder, "benchlib.pyc")

    @staticmethod
    def _compile(python: str, folder: Path) -> Interpreter | None:
        """Compile ``folder/benchlib.py`` with ``python``; the interpreter, or None."""
        argv = [python, "-I", "-S", "-c", _PREPARE, str(folder / "benchlib.py")]
        argv += [str(folder / "benchlib.pyc"), f"{POD_LIB}/benchlib.py"]
        try:
            done = subprocess.run(
                argv, capture_output=True, text=True, timeout=120, check=True, env=clean_env()
            )
            executable, prefix = json.loads(done.stdout)
        except (OSError, ValueError, subprocess.SubprocessError):
            return None
        return Interpreter(executable, prefix)


def _kept_interpreter(kept: Path | None, compiled: Path) -> Interpreter | None:
    """The interpreter and compiled runtime a previous judge kept (copied to ``compiled``)."""
    if kept is None:
        return None
    try:
        executable, prefix = json.loads(kept.with_suffix(".json").read_text(encoding="utf-8"))
        shutil.copyfile(kept.with_suffix(".pyc"), compiled)
    except (OSError, ValueError):
        return None
    return Interpreter(executable, prefix)


def _keep_text(text: str, kept: Path) -> None:
    """Write ``text`` to ``kept`` atomically."""
    with contextlib.suppress(OSError):
        kept.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".benchlib-", dir=kept.parent)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        Path(name).replace(kept)


def _keep(path: Path, kept: Path) -> None:
    """Copy ``path`` to ``kept`` atomically (concurrent judges may race; either copy wins)."""
    with contextlib.suppress(OSError):
        kept.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".benchlib-", dir=kept.parent)
        os.close(handle)
        shutil.copyfile(path, name)
        Path(name).replace(kept)


def _inside(rel: str) -> str:
    """The path inside a pod of ``rel`` (relative to the fixture root)."""
    return posixpath.normpath(posixpath.join(POD_ROOT, rel))


def run_pod(
    kit: PodKit,
    root: Path,
    *,
    commands: Sequence[PodCommand],
    services: Sequence[PodService] = (),
    scratch: Path,
    limits: Limits | None = None,
    service_timeout: float = 15.0,
    readonly: Sequence[str] = (),
    inputs: Path | None = None,
) -> PodOutcome:
    """Run ``services`` and then ``commands`` in one sandbox over the fixture ``root``.

    The pod is one minimal-view :class:`Seal`: ``root`` is its writable ``/workspace`` (but
    for the folders ``readonly``, relative to ``root``, bound read-only over it from the
    same place in ``inputs``, by default ``root`` itself), the
    interpreter and ``kit``'s runtime copy are read-only, and PID 1 is benchlib's supervisor
    (``--pod``). Services and commands share the pod's private loopback and nothing else.
    Standard output and error of each command go to files under ``scratch``. Never raises
    for what the commands do; a service that does not start is ``error``.
    """
    scratch.mkdir(parents=True, exist_ok=True)
    token = run_token()
    env = sandbox_env(
        {RUN_TOKEN_VARIABLE: token}, path=[str(Path(kit.interpreter.executable).parent)]
    )
    captures = [
        (_scratch_file(scratch, "stdout-"), _scratch_file(scratch, "stderr-")) for _ in commands
    ]
    handles = [os.open(p, os.O_WRONLY) for pair in captures for p in pair]
    plan = {
        "lib": f"{POD_LIB}/{kit.entry}",
        "env": env,
        "services": [_service_plan(s, service_timeout) for s in services],
        "commands": [
            _command_plan(c, handles[2 * n], handles[2 * n + 1]) for n, c in enumerate(commands)
        ],
    }
    plan_path = _scratch_file(scratch, "plan-")
    plan_path.write_text(json.dumps(plan), encoding="utf-8")
    source = root if inputs is None else inputs
    bound = tuple(Bind(source / rel, f"{POD_ROOT}/{rel}") for rel in readonly)
    seal = Seal(
        binds=(
            *kit.interpreter.binds(), Bind(kit.lib, POD_LIB), Bind(root, POD_ROOT, True), *bound
        ),
        env=env, cwd=POD_ROOT, pid1=True, limits=limits or Limits(),
    )  # fmt: skip
    argv = [kit.interpreter.executable, "-I", "-S", f"{POD_LIB}/{kit.entry}", POD_FLAG]
    budget = sum(c.timeout for c in commands) + service_timeout * len(services) + 30.0
    log_path = _scratch_file(scratch, "pod-")
    try:
        with open(plan_path, "rb") as plan_in, open(log_path, "wb") as log, sealed_popen(
            seal, argv, stdin=plan_in, stdout=subprocess.PIPE, stderr=log, pass_fds=handles,
            restore_owner=False,
        ) as process:  # fmt: skip
            for handle in handles:
                os.close(handle)
            handles = []
            assert process.stdout is not None
            events = _pod_events(process, time.monotonic() + budget)
    finally:
        for handle in handles:
            os.close(handle)
    return _pod_outcome(commands, captures, events, log_path)


def _reported_result(
    argv: list[str], event: Mapping[str, Any], out: Path, err: Path
) -> CommandResult:
    """The result of a command the pod reported on."""
    code = event.get("returncode")
    return CommandResult(
        argv=argv,
        returncode=None if code is None else int(code),
        timed_out=bool(event.get("timed_out")),
        stdout=_head(out),
        stderr=_head(err),
        stdout_path=out,
        error=str(event.get("error") or ""),
        detail=dict(event.get("detail") or {}),
    )


def _service_plan(service: PodService, timeout: float) -> dict[str, Any]:
    return {
        "name": service.name,
        "argv": list(service.argv),
        "cwd": _inside(service.cwd),
        "url_file": _inside(service.url_file) if service.url_file else "",
        "python": service.python,
        "timeout": timeout,
        "display": service.display,
        "origins": {n: _inside(f) if f else "" for n, f in service.origins.items()},
    }


def _command_plan(command: PodCommand, stdout: int, stderr: int) -> dict[str, Any]:
    plan: dict[str, Any] = {
        "argv": list(command.argv),
        "cwd": _inside(command.cwd),
        "stdin": _inside(command.stdin) if command.stdin else None,
        "timeout": command.timeout,
        "memory_bytes": command.memory_bytes,
        "stdout_fd": stdout,
        "stderr_fd": stderr,
        "kind": command.kind,
    }
    step = dict(command.step)
    if command.kind == "serve":
        plan["serve"], plan["display"] = step["serve"], step.get("display", "")
        plan["url_file"] = _inside(step["url_file"]) if step.get("url_file") else ""
    elif command.kind == "http":
        request = dict(step)
        request["body_file"] = _inside(step["body_file"]) if step.get("body_file") else ""
        plan["http"] = request
    elif command.kind == "stop":
        plan["stop"] = step["stop"]
    return plan


def _pod_events(process: subprocess.Popen[bytes], deadline: float) -> list[dict[str, Any]]:
    """Read the pod's result lines until it closes its channel (killing it at ``deadline``)."""
    assert process.stdout is not None
    channel, buffer, events = process.stdout.fileno(), b"", []
    while True:
        remaining = deadline - time.monotonic()
        ready = select.select([channel], [], [], max(0.0, remaining))[0] if remaining > 0 else []
        if not ready:
            process.kill()
            events.append({"event": "deadline"})
            break
        chunk = os.read(channel, 65536)
        if not chunk:
            break
        lines = (buffer + chunk).split(b"\n")
        buffer = lines.pop()
        for line in lines:
            with contextlib.suppress(ValueError):
                event = json.loads(line)
                if isinstance(event, dict):
                    events.append(event)
    process.wait()
    return events


def _pod_outcome(
    commands: Sequence[PodCommand],
    captures: Sequence[tuple[Path, Path]],
    events: Sequence[Mapping[str, Any]],
    log_path: Path,
) -> PodOutcome:
    """Turn the pod's result lines into command results, ports, logs and an error."""
    outcome = PodOutcome([])
    reported: dict[int, Mapping[str, Any]] = {}
    broken: dict[int, str] = {}  # serve steps whose server broke the contract later
    entries: dict[str, list[Mapping[str, Any]]] = {}
    for event in events:
        kind, name = event.get("event"), str(event.get("name", ""))
        if kind == "service" and "port" in event:
            outcome.ports[name] = int(event["port"])
            outcome.origins[name] = {str(k): int(v) for k, v in event.get("origins", {}).items()}
            entries.setdefault(name, [])
        elif kind == "service":
            outcome.error = outcome.error or str(event.get("error", "service failed"))
        elif kind == "request" and isinstance(event.get("entry"), dict):
            entries.setdefault(name, []).append(event["entry"])
        elif kind == "stderr":
            outcome.stderr[name] = str(event.get("text", ""))
        elif kind == "log":
            outcome.logs.setdefault(name, []).append(str(event.get("line", "")))
        elif kind == "command":
            reported[int(event.get("index", -1))] = event
        elif kind == "server":  # a candidate server broke the contract after its serve step
            broken[int(event.get("index", -1))] = str(event.get("error", ""))
    outcome.requests = {name: requests_of(lines) for name, lines in entries.items()}
    late = any(e.get("event") == "deadline" for e in events)
    done = any(e.get("event") == "done" for e in events)
    last = _head(log_path, CAPTURE_LIMIT).strip().splitlines()[-1:]
    crash = "the sandbox ended unexpectedly" + (f": {last[0]}" if last else "")
    for number, (command, (out, err)) in enumerate(zip(commands, captures, strict=True)):
        report = reported.get(number)
        argv = list(command.argv)
        if report is None:
            why = "" if late else "not run: " + (outcome.error or ("" if done else crash))
            outcome.results.append(CommandResult(argv, None, late, "", "", out, why.strip()))
            outcome.not_run.append(number)
            continue
        result = _reported_result(argv, report, out, err)
        if command.kind == "serve":
            result.error = server_note(result.error or broken.get(number, ""), result.stderr)
        outcome.results.append(result)
        if str(report.get("error") or "").startswith("not run"):
            outcome.not_run.append(number)
    return outcome


def server_note(error: str, stderr: str) -> str:
    """A serve step's error with the last lines of the server's standard error ("" stays)."""
    if not error:
        return ""
    lines = stderr.rstrip().splitlines()[-3:]
    return error + ("; its stderr ends: " + " | ".join(t.strip() for t in lines) if lines else "")


# ---------------------------------------------------------------------------------------------
# reading -- corpus API: CheckFailed, Files (run.files, run.source); the rest is SDK-internal
# ---------------------------------------------------------------------------------------------


SQLITE_SECONDS = 120.0
SQLITE_HEAP_BYTES = 1 << 30


class CheckFailed(Exception):
    """Raised by a check (or a reader) to fail it with a message for the notes."""


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Files:
    """Defensive readers rooted at one folder: every problem is a :class:`CheckFailed`."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, rel: str) -> Path:
        """Return the path of ``rel``; fail for symlinks and paths escaping the root."""
        path = self.root / rel
        if ".." in Path(rel).parts or Path(rel).is_absolute():
            raise CheckFailed(f"{rel}: path escapes the fixture")
        if path.is_symlink():
            raise CheckFailed(f"{rel}: is a symlink; a regular file was expected")
        if not path.resolve().is_relative_to(self.root.resolve()):
            raise CheckFailed(f"{rel}: a symlinked folder leads outside the fixture")
        return path

    def exists(self, rel: str) -> bool:
        """Whether ``rel`` exists (as anything)."""
        return (self.root / rel).exists() or (self.root / rel).is_symlink()

    def bytes(self, rel: str) -> bytes:
        """Return the content of the regular file ``rel`` (at most 256 MiB)."""
        path = self.path(rel)
        if not path.exists():
            raise CheckFailed(f"{rel}: missing")
        if not path.is_file():
            raise CheckFailed(f"{rel}: not a regular file")
        if path.stat().st_size > READ_LIMIT:
            raise CheckFailed(f"{rel}: larger than {READ_LIMIT} bytes")
        data = path.read_bytes()
        if not (rel.endswith(".gz") and data[:2] == b"\x1f\x8b"):
            return data
        try:
            return gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:  # corrupt, truncated, bad deflate data
            raise CheckFailed(f"{rel}: not a valid gzip file ({exc})") from None

    def text(self, rel: str) -> str:
        """Return ``rel`` decoded as UTF-8, strictly: a byte-order mark fails (the spec's
        UTF-8 has none, and with one a first line or header is no longer what TASK.md
        states; a task that accepts one reads ``bytes`` itself and says so in TASK.md)."""
        data = self.bytes(rel)
        if data.startswith(codecs.BOM_UTF8):
            raise CheckFailed(
                f"{rel}: begins with a UTF-8 byte-order mark (bytes 0-2: EF BB BF); "
                "UTF-8 output has none"
            )
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CheckFailed(f"{rel}: not valid UTF-8 (byte {exc.start})") from None

    def csv_rows(self, rel: str) -> list[list[str]]:
        """Return every row of a CSV file, header included; ragged rows fail."""
        try:
            rows = list(csv.reader(io.StringIO(self.text(rel), newline="")))
        except csv.Error as exc:
            raise CheckFailed(f"{rel}: not valid CSV ({exc})") from None
        if not rows or not any(rows[0]):
            raise CheckFailed(f"{rel}: no header row")
        for number, row in enumerate(rows[1:], start=2):
            if len(row) != len(rows[0]):
                raise CheckFailed(
                    f"{rel}: row {number} has {len(row)} fields, header has {len(rows[0])}"
                )
        return rows

    def csv(self, rel: str) -> list[dict[str, str]]:
        """Return the data rows of a CSV file as dicts keyed by the header."""
        rows = self.csv_rows(rel)
        return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]

    def header(self, rel: str) -> list[str]:
        """Return the header row of a CSV file."""
        return self.csv_rows(rel)[0]

    def json(self, rel: str) -> Any:
        """Return a parsed JSON file (numbers with a fraction parse as Decimal)."""
        try:
            return json.loads(self.text(rel), parse_float=decimal.Decimal)
        except (ValueError, RecursionError) as exc:
            raise CheckFailed(f"{rel}: not valid JSON ({exc})") from None

    def jsonl(self, rel: str) -> list[Any]:
        """Return the values of a JSON Lines file (blank lines are skipped)."""
        values = []
        for number, line in enumerate(self.text(rel).splitlines(), start=1):
            if line.strip():
                try:
                    values.append(json.loads(line, parse_float=decimal.Decimal))
                except ValueError as exc:
                    raise CheckFailed(f"{rel}: line {number} is not JSON ({exc})") from None
        return values

    def records(self, rel: str) -> list[Any]:
        """Return the rows of a CSV, JSON Lines or JSON-array output."""
        name = rel.removesuffix(".gz")
        if name.endswith(".csv"):
            return self.csv(rel)
        if name.endswith(".jsonl"):
            return self.jsonl(rel)
        value = self.json(rel)
        if not isinstance(value, list):
            raise CheckFailed(f"{rel}: expected a JSON array of records")
        return value

    def sqlite(self, rel: str) -> sqlite3.Connection:
        """Open a SQLite database read-only (fails when it is not one), bounded: its queries
        stop after :data:`SQLITE_SECONDS` in all (``OperationalError: interrupted``) and
        SQLite's heap is capped at :data:`SQLITE_HEAP_BYTES`, temporary tables in memory
        (``MemoryError``), so a candidate's recursive view cannot run or grow for ever; a
        check stopped so fails with a note naming the bound (:func:`run_check`)."""
        path = self.path(rel)
        if not path.is_file():
            raise CheckFailed(f"{rel}: missing")
        try:
            connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            connection.execute(f"PRAGMA hard_heap_limit={SQLITE_HEAP_BYTES}")
            connection.execute("PRAGMA temp_store=MEMORY")
            deadline = time.monotonic() + SQLITE_SECONDS
            connection.set_progress_handler(lambda: time.monotonic() > deadline, 10_000)
            connection.execute("PRAGMA schema_version").fetchone()
        except sqlite3.Error as exc:
            raise CheckFailed(f"{rel}: not a SQLite database ({exc})") from None
        return connection


def _discard(_: object) -> None:
    """Parsing succeeded; the parsed value itself is not needed."""


def _parse_text(files: Files, rel: str) -> None:
    files.text(rel)


def _parse_mbox(files: Files, rel: str) -> None:
    text = files.text(rel)
    if text and not text.startswith("From "):
        raise CheckFailed(f"{rel}: an mbox file starts with a 'From ' line")


def _parse_ics(files: Files, rel: str) -> None:
    text = files.text(rel)
    if "BEGIN:VCALENDAR" not in text or "END:VCALENDAR" not in text:
        raise CheckFailed(f"{rel}: not an iCalendar file (no VCALENDAR)")


def _parse_directory(files: Files, rel: str) -> None:
    if not files.path(rel.rstrip("/")).is_dir():
        raise CheckFailed(f"{rel}: missing or not a folder")


def _parse_binary(files: Files, rel: str) -> None:
    files.bytes(rel)


def _parse_sqlite(files: Files, rel: str) -> None:
    files.sqlite(rel).close()


_PARSERS: dict[str, Callable[[Files, str], None]] = {
    "csv": lambda f, rel: _discard(f.csv_rows(rel)),
    "json": lambda f, rel: _discard(f.json(rel)),
    "jsonl": lambda f, rel: _discard(f.jsonl(rel)),
    "text": _parse_text,
    "markdown": _parse_text,
    "html": _parse_text,
    "ics": _parse_ics,
    "mbox": _parse_mbox,
    "sqlite": _parse_sqlite,
    "directory": _parse_directory,
    "binary": _parse_binary,
}


# ---------------------------------------------------------------------------------------------
# judging -- corpus API: Judge, Run, expect, expect_equal, as_decimal; the rest SDK-internal
# ---------------------------------------------------------------------------------------------

_ASSERTIONS = [0]


def expect(condition: object, message: str) -> None:
    """Assert inside a check: fail the check with ``message`` when ``condition`` is false."""
    _ASSERTIONS[0] += 1
    if not condition:
        raise CheckFailed(message)


def expect_equal(actual: Any, expected: Any, what: str) -> None:
    """Assert ``actual == expected``; the note points at the first difference."""
    expect(actual == expected, f"{what}: {_difference(actual, expected)}")


def _difference(actual: Any, expected: Any) -> str:
    """Describe the first difference between two values (dicts and lists are walked)."""
    if isinstance(actual, dict) and isinstance(expected, dict):
        for key in sorted(set(expected) | set(actual), key=str):
            if key not in actual:
                return f"missing {key!r} (expected {_short(expected[key])})"
            if key not in expected:
                return f"unexpected {key!r} = {_short(actual[key])}"
            if actual[key] != expected[key]:
                return f"at {key!r}: " + _difference(actual[key], expected[key])
    if isinstance(actual, list) and isinstance(expected, list):
        for index, (left, right) in enumerate(zip(actual, expected, strict=False)):
            if left != right:
                return f"at [{index}]: " + _difference(left, right)
        if len(actual) != len(expected):
            return f"expected {len(expected)} items, got {len(actual)}"
    return f"expected {_short(expected)}, got {_short(actual)}"


def as_decimal(value: Any) -> decimal.Decimal | None:
    """Parse a number or numeric text as Decimal (``None`` when it is not one)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = decimal.Decimal(str(value).strip())
    except decimal.InvalidOperation:
        return None
    return number if number.is_finite() else None


def _same_value(actual: Any, expected: Any, *, numeric: bool = False) -> bool:
    """Compare a candidate value with an expected one.

    Numbers compare numerically (also against numeric CSV text); with ``numeric`` both sides
    are compared as Decimal whatever their types; everything else compares exactly.
    """
    if isinstance(expected, bool) or isinstance(actual, bool):
        return str(actual).lower() == str(expected).lower()
    if numeric or isinstance(expected, int | float | decimal.Decimal):
        left, right = as_decimal(actual), as_decimal(expected)
        return left is not None and left == right
    return bool(actual == expected)


def _value_at(document: Any, dotted: str) -> Any:
    """Follow a dotted path (``a.b.0``; ``\\.`` is a literal dot) into parsed JSON."""
    node = document
    for raw in re.split(r"(?<!\\)\.", dotted) if dotted else []:
        key = raw.replace("\\.", ".")
        if (
            isinstance(node, list)
            and key.lstrip("-").isdigit()
            and -len(node) <= int(key) < len(node)
        ):
            node = node[int(key)]
        elif isinstance(node, dict) and key in node:
            node = node[key]
        else:
            raise CheckFailed(f"path {dotted!r}: no {key!r} in the output")
    return node


def _has_path(document: Any, dotted: str) -> bool:
    try:
        _value_at(document, dotted)
    except CheckFailed:
        return False
    return True


def _matches(row: Any, where: Mapping[str, Any]) -> bool:
    return isinstance(row, dict) and all(
        k in row and _same_value(row[k], v) for k, v in where.items()
    )


def _select_rows(run: Run, spec: Mapping[str, Any]) -> list[Any]:
    rel = spec["file"]
    if _is_csv_selection(spec):
        return _csv_selection(run, spec)
    if "path" in spec:
        rows = _value_at(run.files.json(rel), spec["path"])
        if not isinstance(rows, list):
            raise CheckFailed(f"{rel}: {spec['path']} is not a list of records")
    else:
        rows = run.files.records(rel)
    where = spec.get("where", {})
    return [r for r in rows if _matches(r, where)]


def _is_csv_selection(spec: Mapping[str, Any]) -> bool:
    """Whether :func:`check_expectation` evaluates ``spec`` by selecting rows of a CSV file
    (:func:`_csv_selection`)."""
    if any(key in spec for key in ("exit_code", "stream", "contains", "not_contains", "path")):
        return False
    if spec.get("absent") and "where" not in spec:
        return False
    if not isinstance(spec.get("where", {}), Mapping):
        return False  # fails on its own, as before, not every expectation sharing its file
    return "file" in spec and str(spec["file"]).removesuffix(".gz").endswith(".csv")


def _where_key(spec: Mapping[str, Any]) -> tuple[str, str]:
    """The file and ``where`` of a row selection (``repr`` tells ``1`` from ``"1"``)."""
    return spec["file"], repr(sorted(spec.get("where", {}).items()))


def _csv_selection(run: Run, spec: Mapping[str, Any]) -> list[dict[str, str]]:
    """The data rows of ``spec``'s CSV file its ``where`` selects, as dicts keyed by the header
    (the rows :meth:`Files.records` gives that :func:`_matches` ``where``).

    A large file is parsed once for all the expectations of the run that select rows of it
    (:attr:`Run.pending`, the declared ones not yet evaluated), not once per expectation.
    Each selection keeps the selected rows as parsed, and only the expectation using it
    turns them into dicts; it is dropped once every pending expectation that needs it was
    evaluated. A file that fails to parse fails each of them with the same note (kept as
    text: the exception's traceback would keep the parsed file alive).
    """
    key = _where_key(spec)
    pending = run.pending
    if key not in run.selections:
        group = [spec, *(s for s in pending if s is not spec and _where_key(s)[0] == key[0])]
        wheres = {_where_key(s): s.get("where", {}) for s in group}
        try:
            rows = run.files.csv_rows(key[0])
        except CheckFailed as exc:
            run.selections.update(dict.fromkeys(wheres, str(exc)))
        else:
            for other, where in wheres.items():
                run.selections[other] = (rows[0], _select_csv_rows(rows, where))
            del rows
    found = run.selections[key]
    if any(s is spec for s in pending):
        pending[:] = [s for s in pending if s is not spec]
    if not any(_where_key(s) == key for s in pending):
        del run.selections[key]
    if isinstance(found, str):
        raise CheckFailed(found)
    header, picked = found
    return [dict(zip(header, row, strict=True)) for row in picked]


def _select_csv_rows(rows: list[list[str]], where: Mapping[str, Any]) -> list[list[str]]:
    """The data rows of a parsed CSV file (``rows``, header first) that ``where`` selects, as
    :func:`_matches` selects them among :meth:`Files.csv`'s dicts (a repeated column name
    reads its last column); text values are compared without a dict per row."""
    header, data = rows[0], itertools.islice(rows, 1, None)
    column = {name: index for index, name in enumerate(header)}
    if any(name not in column for name in where):
        return []
    wanted = [(column[name], value) for name, value in where.items()]
    if not wanted:
        picked = list(data)
    elif all(type(value) is str for _, value in wanted):
        pick = operator.itemgetter(*(index for index, _ in wanted))
        values = tuple(value for _, value in wanted)
        target = values if len(values) > 1 else values[0]
        picked = [row for row in data if pick(row) == target]
    else:
        picked = [row for row in data if all(_same_value(row[i], v) for i, v in wanted)]
    return picked


def _describe_where(spec: Mapping[str, Any]) -> str:
    where = ", ".join(f"{k}={v!r}" for k, v in spec.get("where", {}).items())
    return f"{spec['file']} rows where {where}" if where else f"{spec['file']} rows"


def check_expectation(run: Run, spec: Mapping[str, Any]) -> None:
    """Evaluate one declared expectation (from task.toml) against a fixture run."""
    numeric = bool(spec.get("decimal"))
    if "response" in spec:
        _check_response(run, spec, numeric)
        return
    if "exit_code" in spec:
        code = run.last.returncode if run.results else None
        expect_equal(code, spec["exit_code"], "exit status of the last command")
        return
    if "stream" in spec:  # the last command's stdout or stderr (its first 64 KiB)
        text = getattr(run.last, spec["stream"]) if run.results else ""
        _check_text(text, spec, f"{spec['stream']} of the last command")
        return
    rel = spec["file"]
    if "contains" in spec or "not_contains" in spec:
        _check_text(run.files.text(rel), spec, rel)
        return
    if spec.get("absent") and "where" not in spec and "path" not in spec:
        expect(not run.files.exists(rel), f"{rel}: must not exist")
        return
    if spec.get("absent") and "path" in spec and "where" not in spec:
        document = run.files.json(rel)
        expect(not _has_path(document, spec["path"]), f"{rel}: {spec['path']} must not exist")
        return
    if "path" in spec and "where" not in spec:
        actual = _value_at(run.files.json(rel), spec["path"])
        if "equals" in spec:
            ok = _same_value(actual, spec["equals"], numeric=numeric)
            expect(
                ok, f"{rel} {spec['path']}: expected {_short(spec['equals'])}, got {_short(actual)}"
            )
        return
    _check_rows(run, spec, numeric)


def _check_response(run: Run, spec: Mapping[str, Any], numeric: bool) -> None:
    """A response expectation: the status, JSON body or text of an http step's response."""
    response = run.response(spec["response"])
    what = f"response of {spec['response']!r}"
    if "status" in spec:
        expect_equal(response.status, spec["status"], f"status of the {what}")
    elif "equals" in spec:
        document = response.json()
        actual = _value_at(document, spec["path"]) if "path" in spec else document
        at = f" {spec['path']}" if "path" in spec else ""
        ok = _same_value(actual, spec["equals"], numeric=numeric)
        expect(ok, f"{what}{at}: expected {_short(spec['equals'])}, got {_short(actual)}")
    else:
        _check_text(response.text, spec, what)


def _check_text(text: str, spec: Mapping[str, Any], what: str) -> None:
    for needle in spec.get("contains", ()):
        expect(needle in text, f"{what}: does not contain {_short(needle)}")
    for needle in spec.get("not_contains", ()):
        expect(needle not in text, f"{what}: must not contain {_short(needle)}")


def _check_rows(run: Run, spec: Mapping[str, Any], numeric: bool) -> None:
    rows, what = _select_rows(run, spec), _describe_where(spec)
    if spec.get("absent"):
        expect(not rows, f"{what}: expected none, found {len(rows)}")
    elif "count" in spec:
        expect(len(rows) == spec["count"], f"{what}: expected {spec['count']}, found {len(rows)}")
    elif "equals" in spec:
        expect(len(rows) == 1, f"{what}: expected exactly one, found {len(rows)}")
        for key, value in spec["equals"].items():
            actual = rows[0].get(key)
            ok = _same_value(actual, value, numeric=numeric)
            expect(ok, f"{what}: {key} expected {_short(value)}, got {_short(actual)}")


T = TypeVar("T")
DERIVED_FOLDER = ".derived"
_MISSING: Any = object()
# What a cached derived value may be made of: plain data, dates, decimals, the usual
# containers and classes the judge itself defines. Anything else is computed, not loaded.
_DERIVED_GLOBALS = {
    "builtins": {"bytearray", "complex", "frozenset", "range", "set", "slice", "object"},
    "collections": {"Counter", "OrderedDict", "defaultdict", "deque"},
    "datetime": {"date", "datetime", "time", "timedelta", "timezone"},
    "decimal": {"Decimal"},
    "fractions": {"Fraction"},
    "zoneinfo": {"ZoneInfo"},
}
_DERIVED_FACTORIES = {"int", "list", "dict", "set", "str", "float", "tuple"}


class _DerivedUnpickler(pickle.Unpickler):
    """Loads what :meth:`Run.derived` stored, refusing every global outside plain data and
    the judge's own classes: a cache file can never make the judge call anything else."""

    def find_class(self, module: str, name: str) -> Any:
        allowed = _DERIVED_GLOBALS.get(module, set())
        if module == "builtins" and name in _DERIVED_FACTORIES:
            allowed = _DERIVED_FACTORIES  # defaultdict(list) and the like
        if "." not in name and name in allowed:
            return super().find_class(module, name)
        if module == "__main__" and "." not in name:
            found = getattr(sys.modules["__main__"], name, None)
            if isinstance(found, type) and found.__module__ == "__main__":
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a derived value")


def _load_derived(path: Path) -> Any:
    """The value cached at ``path``, or ``_MISSING`` (absent, unreadable or refused)."""
    try:
        with path.open("rb") as stream:
            return _DerivedUnpickler(stream).load()
    except Exception:  # any failure: compute the value instead
        return _MISSING


def _store_derived(path: Path, value: Any) -> None:
    """Cache ``value`` at ``path`` atomically (concurrent judges race harmlessly); a value
    that cannot be pickled is not cached."""
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # caching is an optimization, never a failure
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".derived-", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        Path(name).replace(path)
    except OSError:
        Path(name).unlink(missing_ok=True)


@dataclass
class Run:
    """One fixture after the candidate's commands ran in it.

    Attributes:
        fixture: ``"main"`` or ``"edge"``.
        root: The folder the commands ran in.
        files: Readers of ``root`` (candidate outputs, and inputs as the candidate left them).
        source: Readers of the pristine fixture (trust these for inputs).
        results: One :class:`CommandResult` per declared command, in order.
        service_logs: The lines each fixture service printed after ``LISTENING <port>``.
        service_requests: Each fixture service's request log (read it with :meth:`requests`).
        service_stderr: The end of each fixture service's standard error (diagnostics).
        replayed: The commands did not run in this judging: ``root`` and ``results`` are
            those an earlier judging kept (``judge.py --replay-runs``).
        readonly: The fixture's input folders (relative to ``root``) that sealed commands see
            read-only: their files are hard links to the pristine fixture (see
            :func:`input_folders`); empty when the run is a plain copy.
        pending: While the checks run: the declared expectations that select rows of a CSV
            output and were not evaluated yet (SDK-internal, see :func:`_csv_selection`).
        selections: The rows those expectations select, by file and ``where`` (SDK-internal).
        steps: Each named step's index in ``results`` (task.toml ``name``; read the steps
            with :meth:`step`, :meth:`response` and :meth:`server`).
    """

    fixture: str
    root: Path
    files: Files
    source: Files
    results: list[CommandResult] = field(default_factory=list)
    memo: dict[str, Any] = field(default_factory=dict)
    service_logs: dict[str, list[str]] = field(default_factory=dict)
    service_requests: dict[str, list[Request]] = field(default_factory=dict)
    service_stderr: dict[str, str] = field(default_factory=dict)
    derived_cache: Path | None = None
    replayed: bool = False
    readonly: tuple[str, ...] = ()
    pending: list[Mapping[str, Any]] = field(default_factory=list, repr=False)
    selections: dict[tuple[str, str], Any] = field(default_factory=dict, repr=False)
    steps: dict[str, int] = field(default_factory=dict)

    def derived(self, key: str, factory: Callable[[Files], T]) -> T:
        """``factory(run.source)``: a value computed from the pristine fixture alone, once.

        Use it for the truth a judge recomputes from a large input. The value is kept in
        :attr:`memo`; when the judge runs sealed and was given ``--fixture-cache`` (``check``,
        ``audit`` and the runner judge many candidates on one fixture), it is also pickled
        there, so later judgings of the same fixture by the same judge.py load it instead of
        computing it again (unsealed, a candidate could reach the cache and forge it). Only
        ``source`` reaches ``factory``: a derived value never depends on what the candidate
        wrote. A value that cannot be pickled, or a cached one that cannot be loaded (see
        :class:`_DerivedUnpickler`), is simply computed.
        """
        slot = f"\0derived:{key}"  # never an authored memo key
        if slot not in self.memo:
            path = self._derived_path(key, factory)
            value = _load_derived(path) if path else _MISSING
            if value is _MISSING:
                value = factory(self.source)
                if path:
                    _store_derived(path, value)
            self.memo[slot] = value
        return cast("T", self.memo[slot])

    def _derived_path(self, key: str, factory: Callable[..., Any]) -> Path | None:
        """Where ``key``'s value is cached: named by the judge file's bytes, the key and the
        interpreter version (the cache folder already names the fixture and stage)."""
        if self.derived_cache is None:
            return None
        module = sys.modules.get(getattr(factory, "__module__", ""), None)
        source = getattr(module, "__file__", None)
        if not source:
            return None
        digest = hashlib.sha256()
        for part in (Path(source).read_bytes(), key.encode(), sys.version.encode()):
            digest.update(len(part).to_bytes(8, "big") + part)
        return self.derived_cache / f"{digest.hexdigest()[:32]}.pickle"

    def requests(self, service: str) -> list[Request]:
        """The requests the fixture service ``service`` received while the commands ran, in
        arrival order (see :class:`Request`). benchlib recorded them outside the fixture, where
        no candidate can write; the log outlives the service.

        Raises:
            KeyError: When the task declares no service ``service``.
        """
        if service not in self.service_requests:
            declared = ", ".join(sorted(self.service_requests)) or "none"
            raise KeyError(f"no service {service!r} ran in this fixture (declared: {declared})")
        return list(self.service_requests[service])

    def step(self, name: str) -> CommandResult:
        """The result of the step (or command) task.toml names ``name``.

        Raises:
            KeyError: When no step of the judged stage has that name.
        """
        if name not in self.steps or self.steps[name] >= len(self.results):
            named = ", ".join(sorted(self.steps)) or "none"
            raise KeyError(f"no step {name!r} in this run (named steps: {named})")
        return self.results[self.steps[name]]

    def response(self, name: str) -> HttpResponse:
        """The response the ``http`` step ``name`` received (see :class:`HttpResponse`).

        Raises:
            CheckFailed: When it received none (the server did not start, the connection
                failed, no complete response came in time); the note says which.
            KeyError: When no step has that name.
        """
        return response_of(self.step(name), f"step {name!r}")

    def server(self, name: str) -> CommandResult:
        """The result of the serve step ``name`` (its ``detail`` holds ``port`` and ``url``,
        its ``error`` the note of a server that broke the ``LISTENING`` contract).

        Raises:
            CheckFailed: When the server did not start (the note says why).
            KeyError: When no step has that name.
        """
        result = self.step(name)
        if not result.ok:
            raise CheckFailed(f"server step {name!r}: {result.describe()}")
        return result

    @property
    def last(self) -> CommandResult:
        """The result of the last command."""
        return self.results[-1]

    def __getattr__(self, name: str) -> Any:
        # run.csv(...), run.json(...) etc. read candidate outputs.
        if name in (
            "csv",
            "json",
            "jsonl",
            "text",
            "bytes",
            "records",
            "header",
            "exists",
            "sqlite",
        ):
            return getattr(self.files, name)
        raise AttributeError(name)


@dataclass
class Check:
    """A declared check: a function of a :class:`Run`, the level it gates, and its name.

    ``stage`` is the 1-based stage that introduces it and ``until`` the last stage it applies
    to (``None``: every later stage): ``judge.py --stage N`` runs the checks that apply at N.
    """

    name: str
    level: int
    function: Callable[[Run], None]
    stage: int = 1
    until: int | None = None

    def applies(self, stage: int) -> bool:
        """Whether the check is part of the verdict on the state after stage ``stage``."""
        return self.stage <= stage and (self.until is None or stage <= self.until)


def declared_at(item: Mapping[str, Any], stages: Sequence[str], stage: int) -> bool:
    """Whether a declared command or output (its ``stage`` and ``until`` ids, each
    optional) applies at the 1-based ``stage`` of a task whose stage ids are ``stages``:
    from the stage that introduces it through its ``until`` stage."""
    first, last = item.get("stage"), item.get("until")
    started = first is None or list(stages).index(first) < stage
    return started and (last is None or stage <= list(stages).index(last) + 1)


@dataclass
class Outcome:
    """The result of one check."""

    name: str
    level: int
    fixture: str
    passed: bool
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping."""
        return {
            "name": self.name,
            "level": self.level,
            "fixture": self.fixture,
            "passed": self.passed,
            "note": self.note,
        }


def run_check(check: Check, run: Run) -> Outcome:
    """Run one check; an exception fails it with a note; a check must assert something."""
    before = _ASSERTIONS[0]
    try:
        check.function(run)
    except CheckFailed as exc:
        return Outcome(check.name, check.level, run.fixture, False, _clip(str(exc)))
    except (Exception, SystemExit) as exc:  # a crashing check fails; the others still run
        where = traceback.extract_tb(exc.__traceback__)[-1]
        note = _bound_note(exc) or f"check crashed: {type(exc).__name__}: {exc}"
        return Outcome(
            check.name, check.level, run.fixture, False, _clip(f"{note} (line {where.lineno})")
        )
    if _ASSERTIONS[0] == before:
        return Outcome(check.name, check.level, run.fixture, False, "check made no assertion")
    return Outcome(check.name, check.level, run.fixture, True)


def _bound_note(exc: BaseException) -> str:
    """The note of a check stopped by one of the judge's bounds, or ""."""
    if isinstance(exc, MemoryError):
        return (
            f"the judge's memory bound was reached reading the candidate's files "
            f"({JUDGE_MEMORY_BYTES >> 30} GiB of address space, {SQLITE_HEAP_BYTES >> 20} MiB "
            "of SQLite heap)"
        )
    if isinstance(exc, sqlite3.OperationalError) and str(exc) == "interrupted":
        return f"querying the candidate's SQLite database took more than {SQLITE_SECONDS:g} s"
    return ""


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= NOTE_LIMIT else text[: NOTE_LIMIT - 3] + "..."


def entry_point_problem(argv: Sequence[str], root: Path) -> str:
    """Why a command's module or script is not there (empty string when it is).

    ``python -m pkg.mod`` needs ``pkg/mod.py`` (or ``pkg/mod/__main__.py``) to exist and
    compile; ``python path.py`` needs the file. Other programs are looked up on PATH.
    """
    argv = list(argv)
    if argv and argv[0] in PYTHON_NAMES:
        kind, target = python_target(argv)
        if kind == "module":
            return _module_problem(target, root)
        if kind == "script":
            return _source_problem(root / target, target)
        return target
    return "" if argv and (shutil.which(argv[0]) or (root / argv[0]).is_file()) else "not found"


_OPTIONS_WITH_VALUE = ("-X", "-W", "--check-hash-based-pycs")


def python_target(argv: Sequence[str]) -> tuple[str, str]:
    """What ``python [options] ...`` runs.

    Returns:
        ``("module", name)``, ``("script", path)``, or ``("", why not)`` for inline code
        (``-c``), a program read from stdin, or nothing at all.
    """
    args = list(argv[1:])
    while args:
        arg = args.pop(0)
        if arg == "-m":
            return ("module", args[0]) if args else ("", "-m names no module")
        if arg.startswith("-m"):
            return "module", arg[2:]
        if arg.startswith("-c"):
            return "", "runs inline code (-c), not a module or script"
        if arg == "-":
            return "", "reads its program from standard input"
        if arg in _OPTIONS_WITH_VALUE and args:
            args.pop(0)
        elif not arg.startswith("-"):
            return "script", arg
    return "", "names no module or script"


def _module_problem(module: str, root: Path) -> str:
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__main__.py"):
        if candidate.is_file():
            return _source_problem(candidate, module)
    return f"module {module} not found"


def _source_problem(path: Path, shown: str) -> str:
    if not path.is_file():
        return f"{shown} not found"
    try:
        compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return f"{shown} does not compile: {exc}"
    return ""


IMPORT_PROBE_SECONDS = 30.0
"""The longest an import probe runs (times the judge's ``--time-scale``); a module still
importing then has started, so it counts as importing."""

IMPORT_PROBE = """\
import importlib, importlib.util, sys
name = sys.argv[1]
sys.argv = [name, *sys.argv[2:]]
spec = importlib.util.find_spec(name)
if spec is not None and spec.submodule_search_locations is not None:
    name += ".__main__"
try:
    importlib.import_module(name)
except SystemExit:
    pass
"""
"""What an import probe runs: ``python -c IMPORT_PROBE MODULE ARGS...`` imports the module
``python -m MODULE ARGS...`` would run (``sys.argv`` as it would see it) without running it as
``__main__``; a ``SystemExit`` at import (an unguarded ``main()``) counts as starting, any
other exception (exit status 1, its traceback on stderr) as not importing."""


def import_probe_argv(argv: Sequence[str], python: str) -> list[str] | None:
    """The import probe of a ``python -m MODULE ...`` command (``None`` for other commands)."""
    argv = list(argv)
    if not argv or argv[0] not in PYTHON_NAMES:
        return None
    kind, module = python_target(argv)
    if kind != "module":
        return None
    rest = argv[argv.index("-m") + 2 :] if "-m" in argv else argv[argv.index("-m" + module) + 1 :]
    return resolve_argv([argv[0], "-c", IMPORT_PROBE, module, *rest], python)


def _import_problem_of(result: CommandResult) -> str:
    """Why an import probe's module does not import ("" when it does)."""
    if result.timed_out or result.ok or result.error:
        return ""  # still importing at the limit, imported, or the probe itself failed
    tail = result.stderr.strip().splitlines()[-1:]
    return f"the module does not import: {tail[0] if tail else f'exit {result.returncode}'}"


class Judge:
    """A task's judge: generated data plus the authored checks registered on it.

    Args:
        task: The data build embeds in judge.py: id, stages, editable, commands, outputs,
            expect (main anchor expectations), edge_expect, edge_include_visible, services.
        task_dir: The task folder (defaults to the folder of the judge's ``__main__``).
    """

    def __init__(self, task: Mapping[str, Any], task_dir: Path | None = None) -> None:
        self.task = task
        main = sys.modules.get("__main__")
        default = Path(getattr(main, "__file__", ".")).resolve().parent
        self.task_dir = task_dir or default
        self.main_checks: list[Check] = [
            self._declared(e, e["level"]) for e in task.get("expect", [])
        ]
        self.edge_checks: list[Check] = [self._declared(e, 5) for e in task.get("edge_expect", [])]

    @property
    def stage_count(self) -> int:
        """How many stages the task has."""
        return len(self.task.get("stages") or [""])

    def stage_number(self, stage: int | str | None) -> int:
        """The 1-based number of ``stage``: a number, a stage id or its digits (``None``: 1).

        Raises:
            ValueError: When ``stage`` names no stage of the task.
        """
        stages = list(self.task.get("stages") or [""])
        if stage is None:
            return 1
        if isinstance(stage, str) and stage in stages:
            return stages.index(stage) + 1
        if isinstance(stage, str) and stage.isdigit():
            stage = int(stage)
        if isinstance(stage, int) and not isinstance(stage, bool) and 1 <= stage <= len(stages):
            return stage
        raise ValueError(f"unknown stage {stage!r}: use 1 to {len(stages)} or one of {stages}")

    def _declared(self, spec: Mapping[str, Any], level: int) -> Check:
        until = spec.get("until")
        return Check(
            spec["name"], level, _bind_expectation(spec), self.stage_number(spec.get("stage")),
            None if until is None else self.stage_number(until),
        )  # fmt: skip

    def check(
        self,
        level: int = 4,
        name: str | None = None,
        *,
        stage: int | str | None = None,
        until: int | str | None = None,
    ) -> Callable[[Callable[[Run], None]], Callable[[Run], None]]:
        """Register a main-fixture check gating ``level`` (3: core, 4: every stated rule).

        ``stage`` (a stage id or 1-based number; default: the first stage) is the stage that
        introduces the check, ``until`` the last one it applies to (default: every later one).
        """
        if level not in (3, 4):
            raise ValueError("main checks gate level 3 or 4")
        first = self.stage_number(stage)
        last = None if until is None else self.stage_number(until)
        if last is not None and last < first:
            raise ValueError(f"until {until!r} comes before stage {stage!r}")

        def register(function: Callable[[Run], None]) -> Callable[[Run], None]:
            check = Check(name or function.__name__, level, function, first, last)
            self.main_checks.append(check)
            return function

        return register

    @overload
    def edge(self, function: Callable[[Run], None]) -> Callable[[Run], None]: ...

    @overload
    def edge(
        self, *, stage: int | str | None = None, until: int | str | None = None
    ) -> Callable[[Callable[[Run], None]], Callable[[Run], None]]: ...

    def edge(
        self,
        function: Callable[[Run], None] | None = None,
        *,
        stage: int | str | None = None,
        until: int | str | None = None,
    ) -> Any:
        """Register a check of the edge fixture (all must pass for level 5).

        Used bare (``@judge.edge``) it applies at every stage; ``@judge.edge(stage=...,
        until=...)`` takes the keywords of :meth:`check`, for an edge fixture that holds a
        later stage's inputs (a solution stopped before that stage ignores them).
        """
        first = self.stage_number(stage)
        last = None if until is None else self.stage_number(until)
        if last is not None and last < first:
            raise ValueError(f"until {until!r} comes before stage {stage!r}")

        def register(check: Callable[[Run], None]) -> Callable[[Run], None]:
            self.edge_checks.append(Check(check.__name__, 5, check, first, last))
            return check

        return register if function is None else register(function)

    def main(self, argv: Sequence[str] | None = None) -> int:
        """Command line of judge.py: print exactly one JSON verdict; 0 when one was produced."""
        parser = argparse.ArgumentParser(description="Judge a candidate workspace.")
        parser.add_argument("--workspace", required=True, type=Path)
        parser.add_argument("--python", default=sys.executable, help="interpreter for commands")
        parser.add_argument("--fixture-cache", type=Path, help="reuse materialized fixtures")
        parser.add_argument(
            "--time-scale", type=_positive, default=1.0, help="multiply every command timeout"
        )
        parser.add_argument(
            "--unsealed", action="store_true",
            help="run the commands without the bubblewrap sandbox (unsafe; noted in the verdict)",
        )  # fmt: skip
        parser.add_argument(
            "--stage",
            help="judge the state after this stage (1-based number or stage id) with the "
            "checks that apply by then; default: the final, scored verdict",
        )
        parser.add_argument(
            "--no-ladder", action="store_true",
            help="the final verdict without the stage ladder (for validation tools that only "
            "tell 5 from below 5, which the ladder never changes)",
        )  # fmt: skip
        parser.add_argument(
            "--keep-runs", type=Path, metavar="DIR",
            help="keep what the commands left: each fixture's run folder moves to DIR/FIXTURE, "
            "its command results and service requests to DIR/FIXTURE.json",
        )  # fmt: skip
        parser.add_argument(
            "--replay-runs", type=Path, metavar="DIR",
            help="judge the runs an earlier --keep-runs judging of the same stage left in DIR "
            "instead of running the commands (validation tools; the verdict notes it)",
        )  # fmt: skip
        args = parser.parse_args(argv)
        if args.keep_runs is not None and args.replay_runs is not None:
            parser.error("--keep-runs and --replay-runs cannot be combined")
        stage: int | None = None
        if args.stage is not None:
            try:
                stage = self.stage_number(args.stage)
            except ValueError as exc:
                parser.error(f"--stage: {exc}")
        stdout = sys.stdout
        bound_memory(JUDGE_MEMORY_BYTES)
        try:
            sealed, why = (
                (False, "--unsealed was given")
                if args.unsealed
                else sandbox_status(args.fixture_cache)
            )
            # Anything an authored check prints goes to stderr: stdout carries one object.
            with contextlib.redirect_stdout(sys.stderr):
                verdict = self.evaluate(
                    args.workspace,
                    python=args.python,
                    cache=args.fixture_cache,
                    time_scale=args.time_scale,
                    sealed=sealed,
                    stage=stage,
                    keep=args.keep_runs,
                    replay=args.replay_runs,
                    ladder=not args.no_ladder,
                )
            if not sealed:
                verdict["notes"] = [_clip(f"unsealed: {why}"), *verdict["notes"]][:50]
            code = 0
        except (Exception, SystemExit) as exc:  # a verdict is printed whatever went wrong
            verdict = error_verdict(f"judge error: {type(exc).__name__}: {exc}")
            code = 1
        stdout.write(json.dumps(verdict, sort_keys=True) + "\n")
        stdout.flush()
        return code

    def evaluate(
        self,
        workspace: Path,
        *,
        python: str,
        cache: Path | None = None,
        time_scale: float = 1.0,
        sealed: bool = False,
        stage: int | None = None,
        keep: Path | None = None,
        replay: Path | None = None,
        ladder: bool = True,
    ) -> dict[str, Any]:
        """Judge ``workspace`` (read only) and return the verdict mapping.

        With ``stage`` (1-based), the workspace is judged as the state after that stage: the
        main fixture as of that stage, the commands, outputs and checks that apply by then,
        and the verdict says ``"stage": N``. Without it, the final (scored) verdict.

        ``time_scale`` multiplies every command timeout (validation tools shorten the wait
        for a candidate that never ends; the runner and the corpus use 1). With ``sealed``,
        the commands (and fixture services) of each fixture run in one sandbox
        (:func:`run_pod`) that sees nothing but the system, the interpreter and that
        fixture; this runtime is copied into the judge's private folder before any of them.
        With ``keep``, the runs are kept there afterwards (:meth:`_Trial.keep_runs`). With
        ``replay``, the runs an earlier ``keep`` of the same stage left there are judged
        instead of running the commands again (the mutation audit judges the reference once
        per round of perturbed expectations; what the reference wrote does not change).
        The final verdict of a staged task below 3 is laddered (:func:`ladder_verdict`)
        unless ``ladder`` is false or the runs are replayed.
        """
        if not workspace.is_dir():
            raise RuntimeError(f"workspace {workspace} is not a folder")
        number = self.stage_count if stage is None else self.stage_number(stage)
        self.validate(number)
        with temporary_folder("benchlib-judge-") as tmp:
            kit = PodKit.prepare(Path(tmp) / "lib", python, cache) if sealed else None
            trial = self.trial(workspace, Path(tmp), python=python, cache=cache, kit=kit)
            trial.time_scale, trial.stage, trial.replay = time_scale, number, replay
            verdict = trial.verdict()
            if stage is not None:
                verdict["stage"] = number
            elif (
                ladder
                and replay is None
                and self.stage_count > 1
                and verdict["progress_level"] < 3
                and not _stage1_command_failed(trial)
            ):
                first = self.trial(
                    workspace, Path(tmp) / "stage1", python=python, cache=cache, kit=kit
                )
                first.time_scale, first.stage = time_scale, 1
                verdict = ladder_verdict(verdict, trial, first)
            if keep is not None:
                trial.keep_runs(keep)
            return verdict

    def trial(
        self,
        workspace: Path,
        tmp: Path,
        *,
        python: str,
        cache: Path | None = None,
        kit: PodKit | None = None,
    ) -> _Trial:
        """A judging of ``workspace`` with scratch folder ``tmp`` (see :func:`produce`); its
        commands run sealed in pods when given a ``kit``."""
        layout = Layout.from_task(self.task_dir, self.task)
        return _Trial(self, layout, tmp, workspace.resolve(), python, cache, kit)

    def validate(self, stage: int | None = None) -> None:
        """Raise :class:`JudgeDefect` when the declared checks cannot decide every level (at
        the 1-based ``stage``; default: the final one)."""
        number = self.stage_count if stage is None else stage
        if not any(c.level == 3 and c.applies(number) for c in self.main_checks):
            at = "" if number == self.stage_count else f" at stage {number}"
            raise JudgeDefect(f"the judge declares no level-3 check{at}, so level 3 is undecidable")

    def main_checks_at(self, stage: int) -> list[Check]:
        """The main checks that apply at the 1-based ``stage``, in declaration order."""
        return [c for c in self.main_checks if c.applies(stage)]

    def edge_checks_at(self, stage: int) -> list[Check]:
        """The edge checks that apply at the 1-based ``stage``, in declaration order."""
        return [c for c in self.edge_checks if c.applies(stage)]


class JudgeDefect(Exception):
    """Raised when a judge's own declarations make a sound verdict impossible."""


def _positive(text: str) -> float:
    """argparse type of ``--time-scale``: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be above 0: {text!r}")
    return value


def produce(
    judge: Judge,
    workspace: Path,
    fixture: str,
    *,
    tmp: Path,
    python: str = sys.executable,
    cache: Path | None = None,
    time_scale: float = 1.0,
    env: Mapping[str, str] | None = None,
) -> Run:
    """Run a workspace's commands on a clean ``fixture`` exactly as judging does; no checks.

    Validation tools use it to see what a candidate writes (mutation analysis compares a
    mutant's outputs with the reference's). The fixture copy lives under ``tmp``.

    Args:
        judge: The task's judge (its embedded task data says the commands and outputs).
        workspace: The candidate workspace (only its editable paths are used).
        fixture: ``"main"`` or ``"edge"``.
        tmp: Scratch folder (created); the run's root is inside it.
        python: Interpreter for the commands.
        cache: Fixture cache, as ``--fixture-cache``.
        time_scale: Multiplies every command timeout.
        env: Variables added to the commands' environment (:func:`clean_env`).

    Returns:
        The run: its root holds the outputs, ``results`` each command's outcome.
    """
    tmp.mkdir(parents=True, exist_ok=True)
    trial = judge.trial(workspace, tmp, python=python, cache=cache)
    trial.time_scale, trial.env = time_scale, env
    run = trial.prepare(fixture)
    trial.execute(run)
    return run


def _result_record(result: CommandResult) -> dict[str, Any]:
    """A command result as JSON (``stdout_path`` dropped: it is deleted with the run)."""
    return {f.name: getattr(result, f.name) for f in fields(result) if f.name != "stdout_path"}


def _request_record(request: Request) -> dict[str, Any]:
    record = {f.name: getattr(request, f.name) for f in fields(request)}
    record["headers"] = [list(pair) for pair in request.headers]
    return record


def load_kept_run(folder: Path, fixture: str) -> Run | None:
    """The run ``judge.py --keep-runs folder`` kept for ``fixture`` (None if it never ran):
    its folder, command results, service requests, lines and standard error (``source``
    reads the same folder; a sealed run's read-only input folders are not kept, see
    :meth:`_Trial.keep_runs`)."""
    record = _kept_record(folder, fixture)
    return None if record is None else _kept_run(folder / fixture, fixture, record)


def _kept_record(folder: Path, fixture: str) -> dict[str, Any] | None:
    """``FIXTURE.json`` of a kept run (see :meth:`_Trial.keep_runs`), or None."""
    try:
        record: dict[str, Any] = json.loads(
            (folder / f"{fixture}.json").read_text(encoding="utf-8")
        )
    except FileNotFoundError:
        return None
    return record


def _kept_run(
    root: Path, fixture: str, record: Mapping[str, Any], source: Files | None = None,
    **extra: Any,
) -> Run:  # fmt: skip
    """The run in ``root`` with what its kept ``record`` says (``source``: its folder)."""
    results = [CommandResult(**r) for r in record["results"]]
    requests = {
        name: [Request(**{**q, "headers": tuple(tuple(h) for h in q["headers"])}) for q in log]
        for name, log in record["service_requests"].items()
    }
    files = Files(root)
    return Run(
        fixture, root, files, source or files, results=results, service_requests=requests,
        service_logs=record.get("service_logs", {}),
        service_stderr=record.get("service_stderr", {}), **extra,
    )  # fmt: skip


def _pod_service(spec: Mapping[str, Any], python: str) -> PodService:
    """A declared service as a pod starts it (``--port 0`` appended)."""
    argv = shlex.split(spec["run"])
    resolved = (*resolve_argv(argv, python), "--port", "0")
    return PodService(
        spec["name"], resolved, spec["url_file"], argv[:1] != [] and argv[0] in PYTHON_NAMES,
        display=f"{spec['run']} --port 0", origins=dict(spec.get("origins", {})),
    )  # fmt: skip


JUDGE_MEMORY_BYTES = 8 << 30
"""The judge's own address space (the soft RLIMIT_AS judge.py sets for itself): what it reads
of a candidate's files is held under it, so a hostile output ends in a failed check (a
``MemoryError``), never in a judge that grows until the machine swaps."""


def bound_memory(limit: int) -> None:
    """Lower this process's soft address-space limit to ``limit`` (never raise it; the hard
    limit stays, so sandboxes started later set their own)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft > limit:
        top = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (top, hard))


def start_declared_service(
    service: Mapping[str, Any],
    root: Path,
    python: str,
    env: Mapping[str, str] | None = None,
    seal: Seal | None = None,
) -> contextlib.AbstractContextManager[ServiceHandle]:
    """Start a service as task.toml declares it (judge data ``TASK["services"]``) in ``root``
    (sealed by ``seal``, see :func:`start_service`)."""
    argv = shlex.split(service["run"])
    return start_service(
        resolve_argv(argv, python), cwd=root, env=env, name=service["name"],
        display=f"{service['run']} --port 0", origins=list(service.get("origins", {})),
        python=argv[:1] != [] and argv[0] in PYTHON_NAMES, seal=seal,
    )  # fmt: skip


def write_url_files(root: Path, service: Mapping[str, Any], handle: ServiceHandle) -> list[Path]:
    """Write the URL files of a declared service's origins under ``root``; the files."""
    files = {service["name"]: service["url_file"], **service.get("origins", {})}
    written = []
    for origin, rel in files.items():
        if rel and origin in handle.origins:
            target = root / rel
            ensure_parent(target)
            target.write_text(handle.origin_url(origin) + "\n", encoding="utf-8")
            written.append(target)
    return written


def _pod_command(spec: Mapping[str, Any], python: str, time_scale: float) -> PodCommand:
    """A declared command as a pod runs it (its timeout times ``time_scale``)."""
    argv = tuple(resolve_argv(spec["argv"], python))
    timeout = float(spec["timeout"]) * time_scale
    return PodCommand(
        argv, spec.get("cwd", "."), spec.get("stdin"), timeout, memory_of(spec),
        step_kind(spec), step_plan(spec),
    )  # fmt: skip


def memory_of(spec: Mapping[str, Any]) -> int | None:
    """The address-space cap in bytes of a declared command (``memory_mb``), or None."""
    megabytes = spec.get("memory_mb")
    return int(megabytes) << 20 if megabytes else None


def _not_run(command: Mapping[str, Any], why: str) -> CommandResult:
    return CommandResult(list(command["argv"]), None, False, "", "", None, f"not run: {why}")


class _Expectation:
    """A declared expectation as a check's function (:func:`check_expectation`)."""

    __slots__ = ("spec",)

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.spec = spec

    def __call__(self, run: Run) -> None:
        check_expectation(run, self.spec)


def _bind_expectation(spec: Mapping[str, Any]) -> Callable[[Run], None]:
    return _Expectation(spec)


def error_verdict(note: str) -> dict[str, Any]:
    """The verdict printed when the judge itself could not judge."""
    return {
        "status": "error",
        "progress_level": 0,
        "main_checks_passed": 0,
        "main_checks_total": 0,
        "edge_check_passed": False,
        "notes": [_clip(note)],
        "checks": [],
    }


# ---------------------------------------------------------------------------------------------
# judging: steps of candidate servers -- corpus API: HttpResponse (run.response)
# ---------------------------------------------------------------------------------------------
# The judge's side of the serve, http and stop steps (see the pod's :class:`_PodSteps`, which
# runs them sealed): the declared steps as pods run them, the same steps run unsealed in the
# judge's own process (:class:`_LocalSteps`), and what authored checks read of them.


@dataclass(frozen=True)
class HttpResponse:
    """The response an ``http`` step received (read it with :meth:`Run.response`).

    Attributes:
        status: The HTTP status code.
        reason: The reason phrase.
        headers: The header lines, (name, value) in order.
        body: The body (at most the step's ``max_bytes``; ``truncated`` says it was cut).
        truncated: Whether the body was longer than the step keeps.
    """

    status: int
    reason: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    truncated: bool = False

    @property
    def text(self) -> str:
        """The body decoded as UTF-8 (with replacement)."""
        return self.body.decode("utf-8", "replace")

    def header(self, name: str, default: str | None = None) -> str | None:
        """The first header ``name`` (case-insensitive), else ``default``."""
        wanted = name.lower()
        return next((v for k, v in self.headers if k.lower() == wanted), default)

    def json(self) -> Any:
        """The body parsed as JSON.

        Raises:
            CheckFailed: When the body is not JSON.
        """
        try:
            return json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise CheckFailed(f"response body is not JSON ({exc}): {_short(self.text)}") from None


def step_names(commands: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Each named step's index among ``commands`` (the judged stage's)."""
    return {str(c["name"]): n for n, c in enumerate(commands) if c.get("name")}


def response_of(result: CommandResult, what: str) -> HttpResponse:
    """The response of an http step's ``result``.

    Raises:
        CheckFailed: When the step received none (the note says why).
    """
    if not result.ok or "status" not in result.detail:
        raise CheckFailed(f"{what}: no response: {result.describe()}")
    body = result.stdout.encode("utf-8")
    if result.stdout_path is not None and result.stdout_path.is_file():
        body = result.stdout_path.read_bytes()[:HTTP_RESPONSE_LIMIT]
    detail = result.detail
    return HttpResponse(
        int(detail["status"]), str(detail.get("reason", "")),
        tuple((str(k), str(v)) for k, v in detail.get("headers", [])), body,
        bool(detail.get("truncated")),
    )  # fmt: skip


def step_plan(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A declared step's settings as :class:`PodCommand` ``step`` holds them."""
    kind = step_kind(spec)
    if kind == "serve":
        return {"serve": spec["serve"], "url_file": spec.get("url_file") or "",
                "display": spec["run"]}  # fmt: skip
    if kind == "http":
        request = spec["http"]
        return {
            "server": request["server"],
            "method": request.get("method", "GET"),
            "target": request.get("path", "/"),
            "headers": [list(pair) for pair in request.get("headers", [])],
            "body": request.get("body"),
            "body_file": request.get("body_file") or "",
            "limit": int(request.get("max_bytes") or HTTP_RESPONSE_LIMIT),
        }
    return {"stop": spec["stop"]} if kind == "stop" else {}


class _LocalServer:
    """A candidate server the judge started unsealed: its process, token and output."""

    def __init__(self, name: str, process: subprocess.Popen[bytes], token: str) -> None:
        self.name, self.process, self.token = name, process, token
        self.output = _ServerOutput()
        self.reader: threading.Thread | None = None
        self.lock = threading.Lock()
        self.result: CommandResult | None = None  # its serve step's, once it listens


class _LocalSteps:
    """The serve, http and stop steps of one unsealed fixture run, in the judge's process
    (what :class:`_PodSteps` does in a pod); a context manager that stops every server it
    started on exit, whatever happened."""

    def __init__(self, root: Path, scratch: Path, env: Mapping[str, str] | None) -> None:
        """``env``: variables added to the servers' environment (as :func:`produce`'s)."""
        self.root, self.scratch, self.base = root, scratch, env
        self.running: dict[str, _LocalServer] = {}
        self.ended: dict[str, str] = {}
        self.env: dict[str, str] = {}

    def __enter__(self) -> _LocalSteps:
        return self

    def __exit__(self, *exc: object) -> None:
        for server in list(self.running.values()):
            self.halt(server, SERVER_END_GRACE)
        self.running.clear()

    def run(self, command: Mapping[str, Any], argv: list[str], timeout: float) -> CommandResult:
        """Run one step (``argv``: a serve step's command line, interpreter resolved)."""
        self.scratch.mkdir(parents=True, exist_ok=True)
        out = _scratch_file(self.scratch, "stdout-")
        err = _scratch_file(self.scratch, "stderr-")
        kind = step_kind(command)
        if kind == "serve":
            code, error, detail = self.serve(command, argv, timeout, out, err)
        elif kind == "http":
            code, error, detail = self.http(command, timeout, out)
        else:
            code, error, detail = self.stop(str(command["stop"]), timeout)
        result = CommandResult(argv, code, False, "", _head(err), out, error, detail)
        result.stdout = _head(out)
        if kind == "serve":
            result.error = server_note(error, result.stderr)
            if not error:
                server = self.running[str(command["serve"])]
                with server.lock:
                    server.result = result
                    _note_late(server)
        return result

    def serve(
        self, command: Mapping[str, Any], argv: list[str], timeout: float, out: Path, err: Path
    ) -> tuple[int | None, str, dict[str, Any]]:
        name = str(command["serve"])
        if name in self.running:
            return None, f"server {name!r} is already running", {"problem": "is already running"}
        token = run_token()
        env = clean_env({**(self.base or {}), **self.env, RUN_TOKEN_VARIABLE: token})
        memory = memory_of(command)
        with open(err, "wb") as stderr:
            try:
                process = subprocess.Popen(
                    argv, cwd=self.root / command.get("cwd", "."), stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE, stderr=stderr, env=env, start_new_session=True,
                    preexec_fn=(lambda: _limit_memory(memory)) if memory else None,
                )  # fmt: skip
            except OSError as exc:
                return None, str(exc), {}
        server = _LocalServer(name, process, token)
        problem = self.handshake(server, timeout)
        if problem:
            try:  # it closed its output: it is exiting
                code = server.process.wait(timeout=0.5 if server.output.closed else 0.0)
            except subprocess.TimeoutExpired:
                code = None
            self.halt(server, 0.0, signal.SIGKILL)
            if code is not None and not problem.startswith("printed"):
                problem = f"exited with status {code} before printing 'LISTENING <port>'"
            elif not problem.startswith("printed"):
                problem += " (it was still running, and was killed)"
            self.ended[name] = "it did not start"
            return code, f"server {name!r} ({command['run']}) {problem}", {"problem": problem}
        server.reader = threading.Thread(target=self.follow, args=(server, out), daemon=True)
        server.reader.start()
        self.running[name] = server
        url = f"http://127.0.0.1:{server.output.port}"
        self.env[server_variable(name)] = url
        if command.get("url_file"):
            target = self.root / command["url_file"]
            ensure_parent(target)
            target.write_text(url + "\n", encoding="utf-8")
        return 0, "", {"port": server.output.port, "url": url}

    def handshake(self, server: _LocalServer, timeout: float) -> str:
        """Read the server's output until ``LISTENING <port>``; "" then, else the problem."""
        assert server.process.stdout is not None
        fd, output = server.process.stdout.fileno(), server.output
        deadline = time.monotonic() + timeout
        while not output.listening:
            if output.problem:
                return output.problem
            if output.closed:
                return "closed its standard output before printing 'LISTENING <port>'"
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                return f"did not print 'LISTENING <port>' within {timeout:g} s"
            output.log += output.feed(os.read(fd, 65536))
        if select.select([fd], [], [], 0)[0]:  # a second line printed at once
            output.log += output.feed(os.read(fd, 65536))
        return output.late

    def follow(self, server: _LocalServer, out: Path) -> None:
        """Keep the server's log lines (a thread, until its output closes)."""
        assert server.process.stdout is not None
        fd = server.process.stdout.fileno()
        with open(out, "ab") as stream:
            stream.write(server.output.log)
            while True:
                chunk = os.read(fd, 65536)
                with server.lock:
                    stream.write(server.output.feed(chunk))
                    stream.flush()
                    _note_late(server)
                if not chunk:
                    return

    def http(
        self, command: Mapping[str, Any], timeout: float, out: Path
    ) -> tuple[int | None, str, dict[str, Any]]:
        request = step_plan(command)
        name = str(request["server"])
        server, problem = self.live(name, "before this request")
        if server is None:
            return None, problem, {}
        if request["body_file"]:
            request["body_file"] = str(self.root / request["body_file"])
        try:
            head, data = http_exchange(server.output.port, request, _request_body(request), timeout)
        except OSError as exc:
            return None, f"{request['method']} {request['target']} to server {name!r}: {exc}", {}
        out.write_bytes(data)
        return 0, "", head

    def stop(self, name: str, timeout: float) -> tuple[int | None, str, dict[str, Any]]:
        server, problem = self.live(name, "before the stop")
        if server is None:
            return None, problem, {}
        code = self.halt(server, timeout)
        self.drop(server, "it was stopped")
        if code is None:
            return None, f"server {name!r} did not exit within {timeout:g} s of SIGTERM; killed", {}
        return 0, "", {"exit": code}

    def live(self, name: str, when: str) -> tuple[_LocalServer | None, str]:
        """The running server ``name``, or None and why the step (``when``) cannot use it."""
        server = self.running.get(name)
        if server is None:
            why = self.ended.get(name, "it was never started")
            return None, f"not run: server {name!r} is not running ({why})"
        code = server.process.poll()
        if code is not None:
            self.drop(server, f"it exited with status {code}")
            return None, f"server {name!r} exited with status {code} {when}"
        return server, ""

    def drop(self, server: _LocalServer, why: str) -> None:
        self.halt(server, 0.0, signal.SIGKILL)
        self.running.pop(server.name, None)
        self.env.pop(server_variable(server.name), None)
        self.ended[server.name] = why

    def halt(self, server: _LocalServer, grace: float, signum: int = signal.SIGTERM) -> int | None:
        """Signal the server's group, wait ``grace`` seconds, then kill the group and every
        process carrying its token; its exit status (None: killed at the deadline)."""
        process = server.process
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signum)
        try:
            code: int | None = process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            code = None
        kill_group(process)
        process.wait()
        sweep(server.token, group=process.pid)
        if server.reader is not None:
            server.reader.join(timeout=2.0)
        if process.stdout is not None and (server.reader is None or not server.reader.is_alive()):
            process.stdout.close()
        return code


def _note_late(server: _LocalServer) -> None:
    """Fail the serve step of a server that broke the contract once it listened."""
    result = server.result
    if server.output.late and result is not None and not result.error:
        result.error = f"server {server.name!r} {server.output.late} after it was listening"


class _Trial:
    """One judging of one workspace: fixtures, gates, checks, level."""

    def __init__(
        self, judge: Judge, layout: Layout, tmp: Path, workspace: Path, python: str,
        cache: Path | None, kit: PodKit | None = None,
    ) -> None:  # fmt: skip
        self.judge, self.layout, self.tmp = judge, layout, tmp
        self.workspace, self.python, self.cache, self.kit = workspace, python, cache, kit
        self.time_scale = 1.0
        self.stage = len(layout.stages)
        self.env: Mapping[str, str] | None = None
        self.notes: list[str] = []
        self.outcomes: list[Outcome] = []
        self.runs: dict[str, Run] = {}  # the judged runs by fixture (not import probes)
        self.replay: Path | None = None  # judge the runs kept there (see Judge.evaluate)

    def _applies(self, item: Mapping[str, Any]) -> bool:
        """Whether a declared command or output applies at the judged stage."""
        return declared_at(item, self.layout.stages, self.stage)

    @property
    def commands(self) -> list[Mapping[str, Any]]:
        """The declared commands of the judged stage, in order."""
        return [c for c in self.judge.task["commands"] if self._applies(c)]

    @property
    def outputs(self) -> list[Mapping[str, Any]]:
        """The declared outputs of the judged stage."""
        return [o for o in self.judge.task["outputs"] if self._applies(o)]

    def pristine(self, fixture: str) -> Path:
        """A pristine materialized fixture, from the cache when one was given.

        The main fixture is the one of the judged stage (cached as ``main`` when that is the
        final stage, else as ``main-stageN``); the edge fixture has no stages.
        """
        stage = self.stage if fixture == "main" else None
        final = stage is None or stage == len(self.layout.stages)
        name = fixture if final else f"main-stage{stage}"
        if self.cache is None:
            return materialize(
                self.layout, self.tmp / f"pristine-{name}", fixture=fixture, stage=stage,
                python=self.python,
            )  # fmt: skip
        ready = self.cache / name
        if not ready.is_dir():
            self.cache.mkdir(parents=True, exist_ok=True)
            building = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=self.cache))
            try:
                materialize(self.layout, building, fixture=fixture, stage=stage, python=self.python)
                building.rename(ready)
            except OSError:
                if not ready.is_dir():  # not a lost race with a concurrent judge
                    raise
            finally:
                remove_path(building)
        return ready

    def prepare(self, fixture: str, name: str = "", *, bind_inputs: bool = False) -> Run:
        """Copy a pristine fixture into ``run-NAME`` (the fixture's name by default) and
        overlay the candidate's editable paths.

        Sealed, the input folders (:func:`input_folders`) are not copied: their files are
        hard-linked from the pristine fixture, and the pod binds those folders read-only (spec
        10.5), so no candidate can write, chmod, rename or delete them. Unsealed, everything
        is copied (a candidate could otherwise reach the shared pristine files). With
        ``bind_inputs`` (sealed only) the input folders are left empty instead: the pod must
        then bind them from the pristine fixture (``run_pod(inputs=run.source.root)``), and
        the run's own readers do not see them.
        """
        pristine = self.pristine(fixture)
        if self.replay is not None and not name:
            return self.replayed(fixture, pristine, self.replay)
        root = self.tmp / f"run-{name or fixture}"
        readonly: tuple[str, ...] = ()
        if self.kit is not None:
            readonly = tuple(input_folders(self.layout, pristine, self.written_paths()))
        link_fixture(pristine, root, readonly, readonly if bind_inputs else ())
        skipped: list[str] = []
        outputs = [o["path"] for o in self.outputs]
        overlay(self.workspace, root, candidate_paths(self.layout.editable, outputs), skipped)
        reset_outputs(root, pristine, outputs)
        if fixture == "main" and not name:
            self.notes.extend(_clip(f"workspace: left out {s}") for s in skipped[:5])
        run = Run(fixture, root, Files(root), Files(pristine), readonly=readonly)
        run.steps = step_names(self.commands)
        if self.cache is not None and self.kit is not None:  # sealed: no candidate reaches it
            run.derived_cache = self.cache / DERIVED_FOLDER / pristine.name
        if not name:
            self.runs[fixture] = run
        return run

    def replayed(self, fixture: str, pristine: Path, folder: Path) -> Run:
        """The run of ``fixture`` that ``judge.py --keep-runs folder`` kept, to judge again.

        Raises:
            RuntimeError: When ``folder`` holds no run of ``fixture`` at the judged stage.
        """
        record = _kept_record(folder, fixture)
        if record is None or record.get("stage") != self.stage:
            raise RuntimeError(f"{folder} holds no kept {fixture} run of stage {self.stage}")
        inputs = tuple(str(rel) for rel in record.get("fixture_inputs", []))
        root = self.tmp / f"replay-{fixture}"  # the kept run, its left-out inputs linked back
        shutil.copytree(folder / fixture, root, symlinks=True)
        for rel in inputs:
            link_fixture(pristine / rel, root / rel, ["."])
        run = _kept_run(root, fixture, record, Files(pristine), readonly=inputs, replayed=True)
        run.steps = step_names(self.commands)
        if self.cache is not None and self.kit is not None:
            run.derived_cache = self.cache / DERIVED_FOLDER / pristine.name
        self.runs[fixture] = run
        self.notes.append(_clip(f"{fixture}: replayed the runs kept in {folder}"))
        return run

    def written_paths(self) -> list[str]:
        """Every path the commands or services may write besides the editable ones: the
        declared outputs (of every stage) and each service's URL files."""
        written = [o["path"] for o in self.judge.task["outputs"]]
        written += [c.get("url_file") or "" for c in self.judge.task["commands"]]
        for service in self.judge.task.get("services", []):
            written += [service["url_file"], *service.get("origins", {}).values()]
        return [w for w in written if w]

    def keep_runs(self, folder: Path) -> None:
        """Move each judged run's folder to ``folder/FIXTURE`` and write ``FIXTURE.json``
        (its command results, service requests, lines and standard error;
        :func:`load_kept_run` reads them back). A fixture that never ran (the main gates
        failed before the edge) is absent.

        A sealed run's read-only input folders (:attr:`Run.readonly`) are left out: their
        files are hard links to the shared pristine fixture, which an edit of a kept file
        would change for every later judging; they are unchanged by construction, and
        ``FIXTURE.json`` lists them (``fixture_inputs``).
        """
        folder.mkdir(parents=True, exist_ok=True)
        for fixture, run in sorted(self.runs.items()):
            for rel in run.readonly:
                remove_path(run.root / rel)
            shutil.move(run.root, folder / fixture)
            record = {
                "stage": self.stage,
                "fixture_inputs": list(run.readonly),
                "results": [_result_record(r) for r in run.results],
                "service_requests": {
                    name: [_request_record(q) for q in log]
                    for name, log in sorted(run.service_requests.items())
                },
                "service_logs": dict(sorted(run.service_logs.items())),
                "service_stderr": dict(sorted(run.service_stderr.items())),
            }
            (folder / f"{fixture}.json").write_text(json.dumps(record), encoding="utf-8")

    def execute(self, run: Run) -> None:
        """Run every declared command in order (services up around them); a note for each
        service that refused connections bypassing its origins (:func:`bypass_notes`)."""
        if run.replayed:
            return
        if self.kit is not None:
            self.execute_sealed(run, self.kit)
        else:
            self.execute_unsealed(run)
        self.notes.extend(bypass_notes(run))

    def execute_unsealed(self, run: Run) -> None:
        """:meth:`execute` without a sandbox: services and commands as the judge's children."""
        handles: list[ServiceHandle] = []
        with contextlib.ExitStack() as stack:
            for service in self.judge.task.get("services", []):
                handle = stack.enter_context(self.start(service, run.root))
                handles.append(handle)
                run.service_logs[service["name"]] = handle.log
                write_url_files(run.root, service, handle)
            steps = stack.enter_context(_LocalSteps(run.root, self.tmp / "scratch", self.env))
            for command in self.commands:
                if run.results and run.results[-1].timed_out:  # the fixture is lost already
                    run.results.append(_not_run(command, "an earlier command timed out"))
                elif step_kind(command) != "run":
                    argv = resolve_argv(command["argv"], self.python)
                    timeout = float(command["timeout"]) * self.time_scale
                    run.results.append(steps.run(command, argv, timeout))
                else:
                    run.results.append(self.run_one(command, run.root, steps.env))
        for handle in handles:
            run.service_requests[handle.name] = handle.requests()
            run.service_stderr[handle.name] = bytes(handle.stderr).decode("utf-8", "replace")
            if handle.error:
                raise RuntimeError(handle.error)

    def execute_sealed(self, run: Run, kit: PodKit) -> None:
        """Run the services and commands in one sandbox over the fixture (see :func:`run_pod`).

        Raises:
            RuntimeError: When a service did not start (as :func:`start_service` does).
        """
        python = kit.interpreter.executable
        services = [_pod_service(s, python) for s in self.judge.task.get("services", [])]
        scale = self.time_scale
        commands = [_pod_command(c, python, scale) for c in self.commands]
        outcome = run_pod(
            kit, run.root, commands=commands, services=services, scratch=self.tmp / "scratch",
            readonly=run.readonly,
        )  # fmt: skip
        if outcome.error:
            raise RuntimeError(outcome.error)
        run.results.extend(outcome.results)
        run.service_logs.update(outcome.logs)
        run.service_requests.update(outcome.requests)
        run.service_stderr.update(outcome.stderr)

    def start(
        self, service: Mapping[str, Any], root: Path
    ) -> contextlib.AbstractContextManager[ServiceHandle]:
        """Start a declared fixture service in ``root``."""
        return start_declared_service(service, root, self.python)

    def run_one(
        self, command: Mapping[str, Any], root: Path, servers: Mapping[str, str] | None = None
    ) -> CommandResult:
        """Run one declared command in the fixture ``root`` (``servers``: the variables that
        name the running candidate servers' URLs)."""
        stdin = root / command["stdin"] if command.get("stdin") else None
        extra = {**(self.env or {}), **(servers or {})}
        return run_command(
            resolve_argv(command["argv"], self.python),
            cwd=root / command.get("cwd", "."),
            timeout=float(command["timeout"]) * self.time_scale,
            scratch=self.tmp / "scratch",
            stdin=stdin,
            env=clean_env(extra) if self.env is not None or extra else None,
            memory_bytes=memory_of(command),
        )

    def gate_scripts(self, run: Run) -> bool:
        """Level 1, before anything runs: every command's module or script exists and
        compiles."""
        ok = True
        for command in self.commands:
            if step_kind(command) in ("http", "stop"):  # PID 1 runs them, no program
                continue
            problem = entry_point_problem(command["argv"], run.root / command.get("cwd", "."))
            if problem:
                self.notes.append(_clip(f"level 1: {command['run']}: {problem}"))
                ok = False
        return ok

    def gate_imports(self, run: Run) -> bool:
        """Level 1, once the commands ran: the module of every ``python -m`` command that
        failed imports (spec section 6).

        A command that exited 0 imported its module, so only failed ones are probed; the
        probe (:meth:`import_problems`) runs in a fresh copy of the fixture with the
        candidate's files, so neither the commands' writes nor the probe's own reach
        ``run``; sealed, its pod binds the input folders from the pristine fixture (read-only,
        as for ``run``) instead of linking them again.
        """
        failed = [c for c, r in zip(self.commands, run.results, strict=True) if not r.ok]
        if not failed:
            return True
        probe = self.prepare("main", "import-probe", bind_inputs=True)
        try:
            found = self.import_problems(failed, probe.root, probe.readonly, probe.source.root)
        finally:
            remove_path(probe.root)
        problems = list(zip(failed, found, strict=True))
        for command, problem in problems:
            if problem:
                self.notes.append(_clip(f"level 1: {command['run']}: {problem}"))
        return not any(problem for _, problem in problems)

    def import_problem(
        self,
        command: Mapping[str, Any],
        root: Path,
        readonly: Sequence[str] = (),
        inputs: Path | None = None,
    ) -> str:
        """Why a ``python -m`` command's module does not import in the fixture ``root`` (""
        when it does, or for other commands), by a time-limited probe, sealed when the
        judging is (``readonly``: the fixture's input folders, as :attr:`Run.readonly`,
        bound from ``inputs`` as :func:`run_pod` does)."""
        return self.import_problems([command], root, readonly, inputs)[0]

    def import_problems(
        self,
        commands: Sequence[Mapping[str, Any]],
        root: Path,
        readonly: Sequence[str] = (),
        inputs: Path | None = None,
    ) -> list[str]:
        """:meth:`import_problem` of each of ``commands``, in order, probing each distinct
        probe (command line, folder and time limit) once: identical probes of one fixture
        answer alike. Sealed, the probes share one pod; one that the pod did not run (after
        a probe that timed out) is run in a fresh pod."""
        probes = [self._import_probe(c) for c in commands]
        distinct = list(dict.fromkeys(p for p in probes if p is not None))
        if self.kit is not None:
            results = self._sealed_probes(self.kit, distinct, root, readonly, inputs)
        else:
            env = None if self.env is None else clean_env(self.env)
            results = [
                run_command(list(p.argv), cwd=root / p.cwd, timeout=p.timeout,
                            scratch=self.tmp / "scratch", env=env)
                for p in distinct
            ]  # fmt: skip
        found = {p: _import_problem_of(r) for p, r in zip(distinct, results, strict=True)}
        return ["" if p is None else found[p] for p in probes]

    def _import_probe(self, command: Mapping[str, Any]) -> PodCommand | None:
        """The import probe of a ``python -m`` command (``None`` for other commands).

        Sealed, it names the interpreter the pod runs the commands with: ``--python`` may be
        a pyenv shim, which does not exist inside the sandbox, so a probe naming it failed
        to start and passed every module."""
        python = self.python if self.kit is None else self.kit.interpreter.executable
        argv = import_probe_argv(command["argv"], python)
        if argv is None:
            return None
        timeout = min(float(command["timeout"]), IMPORT_PROBE_SECONDS) * self.time_scale
        return PodCommand(tuple(argv), command.get("cwd", "."), None, timeout)

    def _sealed_probes(
        self,
        kit: PodKit,
        probes: Sequence[PodCommand],
        root: Path,
        readonly: Sequence[str],
        inputs: Path | None,
    ) -> list[CommandResult]:
        """Run ``probes`` in as few pods as their timeouts allow (a pod runs nothing after a
        command that timed out); their results, in order."""
        results: list[CommandResult] = []
        while len(results) < len(probes):
            pending = probes[len(results) :]
            outcome = run_pod(
                kit, root, commands=pending, scratch=self.tmp / "scratch", readonly=readonly,
                inputs=inputs,
            )  # fmt: skip
            if outcome.error:
                raise RuntimeError(outcome.error)
            # the first probe of a pod counts whatever happened (as when each had its own pod)
            ran = min((n for n in outcome.not_run if n > 0), default=len(pending))
            results.extend(outcome.results[:ran])
        return results

    def gate_outputs(self, run: Run) -> bool:
        """Level 2: every command completed and every output exists and parses."""
        ok = True
        for command, result in zip(self.commands, run.results, strict=True):
            if not result.ok:
                self.notes.append(_clip(f"level 2: {command['run']}: {result.describe()}"))
                ok = False
        for output in self.outputs:
            problem = self.output_problem(run, output)
            if problem:
                self.notes.append(_clip(f"level 2: {problem}"))
                ok = False
        return ok

    def output_problem(self, run: Run, output: Mapping[str, Any]) -> str:
        """Why a declared output is missing or unparsable (empty string when fine)."""
        if output["format"] == "stdout":
            return ""
        try:
            if output["format"] == "csv":  # one parse, the header read from it
                header = run.files.csv_rows(output["path"])[0]
            else:
                _PARSERS[output["format"]](run.files, output["path"])
                header = run.files.header(output["path"]) if output.get("header") else []
            if output.get("header"):
                expect_equal(header, list(output["header"]), f"{output['path']} header")
        except CheckFailed as exc:
            return str(exc)
        return ""

    def run_checks(self, checks: list[Check], run: Run) -> list[Outcome]:
        """Run checks in declaration order and remember their outcomes."""
        run.pending = [
            c.function.spec
            for c in checks
            if isinstance(c.function, _Expectation) and _is_csv_selection(c.function.spec)
        ]
        try:
            outcomes = [run_check(c, run) for c in checks]
        finally:
            run.pending, run.selections = [], {}
        self.outcomes.extend(outcomes)
        for outcome in outcomes:
            if not outcome.passed:
                self.notes.append(_clip(f"{run.fixture}: {outcome.name}: {outcome.note}"))
        return outcomes

    def verdict(self) -> dict[str, Any]:
        """Judge the main fixture, then the edge, and compute the level."""
        main_checks = self.judge.main_checks_at(self.stage)
        main = self.prepare("main")
        started = self.gate_scripts(main)
        completed = False
        outcomes: list[Outcome] = []
        if started:
            self.execute(main)
            started = self.gate_imports(main)
            completed = started and self.gate_outputs(main)
        if completed:
            outcomes = self.run_checks(main_checks, main)
        edge_passed = completed and self.edge_passes()
        return make_verdict(
            started=started,
            completed=completed,
            main=[(o.level, o.passed) for o in outcomes],
            main_total=len(main_checks),
            edge_passed=edge_passed,
            notes=self.notes,
            checks=[o.to_dict() for o in self.outcomes],
        )

    def edge_passes(self) -> bool:
        """Run the candidate on the edge fixture and evaluate the edge checks."""
        checks = self.judge.edge_checks_at(self.stage)
        if not checks:
            at = "" if self.stage == self.judge.stage_count else f" at stage {self.stage}"
            self.notes.append(f"edge: no edge check applies{at}")
            return False
        edge = self.prepare("edge")
        self.execute(edge)
        failed = _edge_failures(self.commands, edge.results, _declares_exit(checks))
        if failed:
            command, result = failed[0]
            self.notes.append(_clip(f"edge: {command['run']}: {result.describe()}"))
            return False
        return all(o.passed for o in self.run_checks(checks, edge))


def bypass_notes(run: Run) -> list[str]:
    """Why requests failed when a service sent its clients straight to its own port.

    A Python service listens on a private port behind its origins, which relay and record
    every request; a connection sent to the private port itself is refused. That happens
    when a service renders absolute links from the port it listens on: each link its client
    follows is refused, with nothing else to say why. The note says so, so that an author
    whose reference fails that way (and a candidate's notes) learn the cause.
    """
    notes = []
    advice = (
        "a service renders links from the Host header of each request (or from "
        "BENCHSMITH_ORIGIN), never from its own port"
    )
    for name, requests in sorted(run.service_requests.items()):
        linked = sum(r.private_link for r in requests)
        if linked:
            notes.append(
                _clip(
                    f"{run.fixture}: service {name!r}: {linked} response(s) link to the port "
                    f"it listens on, which refuses every connection not relayed by its "
                    f"origins: {advice}"
                )
            )
        bypassed = sum(r.refused == BYPASS_REFUSAL for r in requests)
        if bypassed:
            notes.append(
                _clip(
                    f"{run.fixture}: service {name!r}: {bypassed} connection(s) went straight "
                    f"to the port it listens on, bypassing its origins, and were refused: "
                    f"{advice}"
                )
            )
    return notes


def _declares_exit(checks: Sequence[Check]) -> bool:
    """Whether an edge expectation states the last command's exit status (``exit_code``)."""
    return any(
        isinstance(c.function, _Expectation) and "exit_code" in c.function.spec for c in checks
    )


def _edge_failures(
    commands: Sequence[Mapping[str, Any]], results: Sequence[CommandResult], declared: bool
) -> list[tuple[Mapping[str, Any], CommandResult]]:
    """The edge run's commands that did not complete, as on main: each must exit 0.

    A command that timed out or could not start always fails. When an edge expectation
    declares the exit status (``exit_code``), the last command's status is that
    expectation's to judge instead.
    """
    failed = []
    for index, (command, result) in enumerate(zip(commands, results, strict=True)):
        exempt = declared and index == len(results) - 1 and not (result.timed_out or result.error)
        if not result.ok and not exempt:
            failed.append((command, result))
    return failed


def make_verdict(
    *,
    started: bool,
    completed: bool,
    main: Sequence[tuple[int, bool]],
    main_total: int,
    edge_passed: bool,
    notes: Sequence[str],
    checks: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """Compute the progress level monotonically and build the verdict.

    Level 1 needs the commands to start, 2 the workflow to complete with parseable outputs,
    3 every level-3 check (at least one), 4 every main check, 5 the edge as well. Checks run
    only once the workflow completed, so ``main`` is empty below level 2 and otherwise holds
    one ``(level, passed)`` pair per declared main check.

    Raises:
        ValueError: When the inputs break those rules (the verdict would break the
            contract: a level reached with no executed check, or counts that disagree).
    """
    _require_consistent(started, completed, main, main_total)
    passed = sum(ok for _, ok in main)
    core = [ok for level, ok in main if level == 3]
    level = 0
    for reached, gate in (
        (1, started),
        (2, completed),
        (3, bool(core) and all(core)),
        (4, passed == main_total),
        (5, edge_passed),
    ):
        if not gate:
            break
        level = reached
    return {
        "status": "pass" if level == 5 else "fail",
        "progress_level": level,
        "main_checks_passed": passed,
        "main_checks_total": main_total,
        "edge_check_passed": bool(edge_passed),
        "notes": list(notes)[:50],
        "checks": list(checks),
    }


LADDER_NOTE = (
    "stage ladder: the workspace scores 5 at stage 1 but below 3 finally, so level 3 "
    "(a later stage's requirements are missing; checks noted 'after stage 1' passed there)"
)
NOT_REACHED = "not reached: the final workflow did not complete"


def ladder_verdict(final: dict[str, Any], trial: _Trial, first: _Trial) -> dict[str, Any]:
    """The final verdict of a staged task whose own level is below 3: level 3 when the
    candidate completes stage 1 exactly (spec section 6: the core transformation is right,
    a follow-up requirement is missing), else ``final`` unchanged.

    ``trial`` is the final judging; ``first`` judges the same workspace at stage 1 (as
    ``judge.py --stage 1`` does), which must reach 5. Each main check of the final stage
    then reports its final outcome; when the final workflow did not complete (so no check
    ran finally), a check that applies at stage 1 reports its pass there (noted 'after
    stage 1') and the others fail as not reached. When no main check passes that way, or
    every one does, the final verdict stands, with a note. The edge is the final judging's.
    """
    first.tmp.mkdir()
    try:
        early = first.verdict()
    except JudgeDefect:  # no level-3 check at stage 1
        return final
    if early["progress_level"] < 5:
        return final
    finally_ = {o.name: o for o in trial.outcomes if o.fixture == "main"}
    checks = [
        _laddered(check, finally_.get(check.name))
        for check in trial.judge.main_checks_at(trial.stage)
    ]
    passed = sum(c["passed"] for c in checks)
    if not 0 < passed < len(checks):
        why = "no main check passes finally" if not passed else "every main check passes"
        level = final["progress_level"]
        note = _clip(f"stage ladder: stage 1 is complete, but {why}; level {level} stands")
        return {**final, "notes": [note, *final["notes"]][:50]}
    return {
        "status": "fail",
        "progress_level": 3,
        "main_checks_passed": passed,
        "main_checks_total": len(checks),
        "edge_check_passed": final["edge_check_passed"],
        "notes": [LADDER_NOTE, *final["notes"]][:50],
        "checks": checks + [o.to_dict() for o in trial.outcomes if o.fixture == "edge"],
    }


def _stage1_command_failed(trial: _Trial) -> bool:
    """Whether a command of stage 1 ran in the final judging and did not complete (an exit
    status other than 0, a timeout, not started): a solution that keeps stage 1 keeps its
    commands working on the final data (every later stage message asks to retain it), so
    the stage ladder (:func:`ladder_verdict`) does not judge it again at stage 1, where a
    hanging or crashing candidate would cost its timeouts a second time. When the final
    commands did not run at all (a later stage's module is missing), nothing is known and
    the ladder judges stage 1."""
    run = trial.runs.get("main")
    results = run.results if run is not None else []
    return any(
        declared_at(command, trial.layout.stages, 1) and not result.ok
        for command, result in zip(trial.commands, results, strict=False)
    )


def _laddered(check: Check, outcome: Outcome | None) -> dict[str, Any]:
    """One main check of a laddered verdict (see :func:`ladder_verdict`): its final
    ``outcome``, or (``None``: the final workflow did not complete) its pass at stage 1."""
    if outcome is not None:
        return outcome.to_dict()
    note = "after stage 1" if check.applies(1) else NOT_REACHED
    return Outcome(check.name, check.level, "main", check.applies(1), note).to_dict()


def _require_consistent(
    started: bool, completed: bool, main: Sequence[tuple[int, bool]], main_total: int
) -> None:
    """Reject inputs from which no contract-abiding verdict can be built."""
    if main_total < 1:
        raise ValueError("a judge needs at least one main check")
    if completed and not started:
        raise ValueError("the workflow cannot complete without starting")
    if main and not completed:
        raise ValueError("main checks ran although the workflow did not complete")
    if completed and len(main) != main_total:
        raise ValueError(f"{len(main)} main outcomes for {main_total} declared checks")
    if main and not any(level == 3 for level, _ in main):
        raise ValueError("no level-3 check among the main checks")


# ---------------------------------------------------------------------------------------------
# contract -- SDK-internal: the one reading of a judge (its command line, process, verdict)
# ---------------------------------------------------------------------------------------------
#
# ``check``, ``audit``, ``benchsmith run``, the bundle's run.py and the Harbor verifier build a
# judge's command line, run it and hold its verdict with these functions only, so a judge is
# held to one rule everywhere (spec section 6). The structural check mirrors
# ``schemas/judge-result.schema.json`` (the SDK validates that schema on top, and a test proves
# this check is never more lenient than it); where the two could differ the stricter wins.

WORKSPACE_PLACEHOLDER = "{workspace}"
STAGE_OPTION = "--stage"
VERDICT_STDOUT_LIMIT = 16 << 20
VERDICT_STDERR_KEEP = 64 << 10
VERDICT_STDERR_TAIL = 400
VERDICT_ERROR_NOTE_LIMIT = 500
JUDGE_EXIT_GRACE = 1.0
_JUDGE_POLL = 0.1
_JUDGE_CHUNK = 64 << 10
_VERDICT_REQUIRED = (
    "status",
    "progress_level",
    "main_checks_passed",
    "main_checks_total",
    "edge_check_passed",
    "notes",
)
_VERDICT_OPTIONAL = ("stage", "checks")
_CHECK_REQUIRED = ("name", "level", "fixture", "passed", "note")
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` safe to write as UTF-8 anywhere (reports, SQLite, a terminal): a name that is
    not UTF-8 (a ``surrogateescape`` string, from an agent's files, as judges' notes and
    diagnostics quote them) shows its bytes escaped (``\\xff``)."""
    if not LONE_SURROGATE.search(text):
        return text
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name decodes to
        raw = text.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "backslashreplace")


def clip_text(text: str, limit: int = NOTE_LIMIT) -> str:
    """Collapse whitespace and shorten ``text`` to ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True, slots=True)
class Verdict:
    """A judge's result (spec section 6), with how it was obtained.

    A verdict with ``problems`` is an ``error`` verdict (level 0, the problems as notes): the
    judge broke the contract, whatever it printed.

    Attributes:
        status: ``pass``, ``fail`` or ``error``.
        progress_level: 0 to 5.
        main_checks_passed: Main checks passed.
        main_checks_total: Main checks declared.
        edge_check_passed: Whether the edge check passed.
        notes: The judge's notes (an error verdict's: its problems, clipped).
        raw: The object the judge printed when it was structurally valid (kept even when
            refused).
        exit_code: The judge's exit status (``None`` when it was killed or did not start).
        seconds: Wall time of the judge process.
        problems: Why the judging broke the contract (empty when the verdict is sound).
    """

    status: str
    progress_level: int
    main_checks_passed: int
    main_checks_total: int
    edge_check_passed: bool
    notes: tuple[str, ...]
    raw: dict[str, Any] | None
    exit_code: int | None
    seconds: float
    problems: tuple[str, ...] = ()

    @property
    def strict_pass(self) -> bool:
        """Level 5 with status pass: the only strict pass."""
        return self.status == "pass" and self.progress_level == 5

    @property
    def stage(self) -> int | None:
        """The stage the verdict judged (``judge.py --stage``; ``None``: the final verdict)."""
        return None if self.raw is None else self.raw.get("stage")

    @property
    def claimed_level(self) -> int | None:
        """The level the judge printed, even when refused (``None``: no valid object)."""
        return None if self.raw is None else int(self.raw["progress_level"])

    @property
    def claimed_notes(self) -> tuple[str, ...]:
        """The notes the judge printed, even when refused (empty: no valid object)."""
        return () if self.raw is None else tuple(printable(n) for n in self.raw["notes"])

    def refused(self, *problems: str) -> Verdict:
        """This judging as an error verdict, with ``problems`` added to its own."""
        return refused_verdict(
            *self.problems, *problems, raw=self.raw, exit_code=self.exit_code, seconds=self.seconds
        )

    def to_dict(self) -> dict[str, Any]:
        """The verdict as a judge prints it (an error verdict: its problems as notes)."""
        if self.raw is not None and not self.problems:
            return dict(self.raw)
        return {
            "status": self.status,
            "progress_level": self.progress_level,
            "main_checks_passed": self.main_checks_passed,
            "main_checks_total": self.main_checks_total,
            "edge_check_passed": self.edge_check_passed,
            "notes": list(self.notes),
            "checks": [],
        }


def refused_verdict(
    *problems: str,
    raw: dict[str, Any] | None = None,
    exit_code: int | None = None,
    seconds: float = 0.0,
) -> Verdict:
    """The verdict recorded when the judge could not judge, or broke the contract."""
    notes = tuple(clip_text(printable(p), VERDICT_ERROR_NOTE_LIMIT) for p in problems)
    return Verdict("error", 0, 0, 0, False, notes, raw, exit_code, seconds, problems)


class _NotJson(ValueError):
    """A constant Python's json module accepts but JSON does not (NaN, Infinity)."""


def _refuse_constant(name: str) -> Any:
    raise _NotJson(name)


def parse_verdict(stdout: bytes | str) -> tuple[dict[str, Any] | None, str]:
    """The one JSON object ``stdout`` holds, or ``None`` and why it holds no such thing.

    Standard output must be UTF-8 holding exactly one JSON object and nothing else (a debug
    line before it, a second object, ``NaN`` are all refused)."""
    if isinstance(stdout, bytes):
        try:
            stdout = stdout.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, f"the judge's stdout is not UTF-8 (byte {exc.start})"
    text = stdout.strip()
    if not text:
        return None, "the judge printed nothing on stdout"
    try:
        values, rest = _decode_all(text)
    except _NotJson as exc:
        return None, f"the judge printed {exc}, which is not JSON"
    if rest:
        return None, f"the judge's stdout holds text that is not JSON: {clip_text(rest, 80)!r}"
    if len(values) != 1:
        return None, f"the judge printed {len(values)} JSON values; exactly one object is required"
    if not isinstance(values[0], dict):
        return None, f"the judge printed a JSON {type(values[0]).__name__}, not an object"
    return values[0], ""


def _decode_all(text: str) -> tuple[list[Any], str]:
    """Decode consecutive JSON values; return them and the undecodable remainder."""
    decoder = json.JSONDecoder(parse_constant=_refuse_constant)
    values: list[Any] = []
    position = 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        try:
            value, position = decoder.raw_decode(text, position)
        except _NotJson:
            raise
        except (ValueError, RecursionError):
            return values, text[position:]
        values.append(value)
    return values, ""


def verdict_problems(verdict: Any) -> list[str]:
    """Every way a printed ``verdict`` breaks the judge contract (empty when it is sound):
    its structure, a reported error, the progress-level invariants, the per-check details."""
    problems = structure_problems(verdict)
    if problems:
        return problems
    if verdict["status"] == "error":
        notes = verdict["notes"]
        return [f"the judge reported an error: {notes[0] if notes else 'no note'}"]
    return level_problems(verdict) + detail_problems(verdict)


def _is_int(value: Any, low: int, high: int | None = None) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and low <= value
        and (high is None or value <= high)
    )


_FIELD_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "status": (lambda v: v in ("pass", "fail", "error"), "is not one of 'pass', 'fail', 'error'"),
    "progress_level": (lambda v: _is_int(v, 0, 5), "is not an integer from 0 to 5"),
    "main_checks_passed": (lambda v: _is_int(v, 0), "is not a non-negative integer"),
    "main_checks_total": (lambda v: _is_int(v, 0), "is not a non-negative integer"),
    "edge_check_passed": (lambda v: isinstance(v, bool), "is not a boolean"),
    "notes": (
        lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v),
        "is not a list of strings",
    ),
    "stage": (lambda v: _is_int(v, 1), "is not an integer of at least 1"),
}
_CHECK_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "name": (lambda v: isinstance(v, str), "is not a string"),
    "level": (lambda v: _is_int(v, 3, 5), "is not an integer from 3 to 5"),
    "fixture": (lambda v: v in ("main", "edge"), "is not 'main' or 'edge'"),
    "passed": (lambda v: isinstance(v, bool), "is not a boolean"),
    "note": (lambda v: isinstance(v, str), "is not a string"),
}


def structure_problems(verdict: Any) -> list[str]:
    """Where ``verdict`` breaks the structure of ``schemas/judge-result.schema.json``."""
    if not isinstance(verdict, dict):
        return ["schema: the verdict: is not a JSON object"]
    problems = _object_problems(
        verdict, "the verdict", _VERDICT_REQUIRED, _VERDICT_OPTIONAL, _FIELD_RULES
    )
    checks = verdict.get("checks", [])
    if not isinstance(checks, list):
        return [*problems, "schema: checks: is not a list"]
    for index, check in enumerate(checks):
        where = f"checks/{index}"
        if not isinstance(check, dict):
            problems.append(f"schema: {where}: is not a JSON object")
            continue
        problems += _object_problems(check, where, _CHECK_REQUIRED, (), _CHECK_RULES)
    return problems


def _object_problems(
    value: dict[str, Any],
    where: str,
    required: Sequence[str],
    optional: Sequence[str],
    rules: Mapping[str, tuple[Callable[[Any], bool], str]],
) -> list[str]:
    """Missing and unexpected properties of one object, then its fields that break a rule
    (``where`` names the object: ``the verdict``, ``checks/0``)."""
    prefix = "" if where == "the verdict" else f"{where}/"
    known = (*required, *optional)
    problems = [f"schema: {where}: {key!r} is required" for key in required if key not in value]
    problems += [
        f"schema: {where}: unexpected property {clip_text(repr(key), 60)}"
        for key in sorted(value)
        if key not in known
    ]
    problems += [
        f"schema: {prefix}{key}: {message}"
        for key, (ok, message) in rules.items()
        if key in value and not ok(value[key])
    ]
    return problems


def level_problems(verdict: Mapping[str, Any]) -> list[str]:
    """Where a structurally valid verdict breaks the progress-level invariants."""
    level, status = verdict["progress_level"], verdict["status"]
    passed, total = verdict["main_checks_passed"], verdict["main_checks_total"]
    edge = verdict["edge_check_passed"]
    counts = f"level {level}, {passed}/{total} main checks, edge {'passed' if edge else 'failed'}"
    all_main = total >= 1 and passed == total
    rules = [
        (total >= 1, "main_checks_total is 0: a judge needs at least one main check"),
        (passed <= total, f"main_checks_passed {passed} exceeds main_checks_total {total}"),
        ((status == "pass") == (level == 5), f"status {status!r} at level {level}"),
        ((level == 5) == (all_main and edge), f"level 5 iff all main and edge pass ({counts})"),
        (
            (level == 4) == (all_main and not edge),
            f"level 4 iff all main checks pass and the edge fails ({counts})",
        ),
        (level < 3 or passed >= 1, f"level {level} with no passed main check (nothing verified)"),
        (level >= 2 or passed == 0, f"{passed} main check(s) passed below level 2"),
    ]
    return [f"contract: {message}" for ok, message in rules if not ok]


def detail_problems(verdict: Mapping[str, Any]) -> list[str]:
    """Where the optional per-check details disagree with the verdict's counts."""
    checks = verdict.get("checks") or []
    main = [c for c in checks if c["fixture"] == "main"]
    edge = [c for c in checks if c["fixture"] == "edge"]
    problems = []
    if main and len(main) != verdict["main_checks_total"]:
        total = verdict["main_checks_total"]
        problems.append(f"{len(main)} main checks ran, main_checks_total says {total}")
    if main and sum(c["passed"] for c in main) != verdict["main_checks_passed"]:
        problems.append("the passed main checks disagree with main_checks_passed")
    if verdict["edge_check_passed"] and checks and not edge:
        problems.append("edge_check_passed although no edge check ran")
    if edge and all(c["passed"] for c in edge) != verdict["edge_check_passed"]:
        problems.append("the edge checks disagree with edge_check_passed")
    return [f"contract: {p}" for p in problems]


def unsealed_judging(notes: Sequence[str]) -> str:
    """Why a verdict cannot stand when sealing was required: its judge says it ran the
    candidates unsealed (a note ``unsealed: <cause>``, e.g. its sandbox probe failed); empty
    when it does not. Sealing is verified, never assumed."""
    said = next((n for n in notes if n.startswith("unsealed:")), "")
    if not said:
        return ""
    return f"the judge ran the candidates unsealed although sealing was required ({said})"


@dataclass(frozen=True, slots=True)
class Captured:
    """What one judge process left behind.

    Attributes:
        stdout: Standard output (at most :data:`VERDICT_STDOUT_LIMIT` bytes).
        stderr: The last :data:`VERDICT_STDERR_KEEP` bytes of standard error.
        returncode: Exit status; ``None`` when the judge was killed before it exited.
        timed_out: Whether it was killed at its timeout.
        overflow: Whether it printed more than the stdout limit and was killed.
    """

    stdout: bytes
    stderr: bytes
    returncode: int | None
    timed_out: bool = False
    overflow: bool = False


def hold_verdict(
    captured: Captured,
    *,
    timeout: float,
    seconds: float,
    stage: int | None = None,
    sealed: bool = True,
) -> Verdict:
    """Hold what a judge process left to the contract.

    Args:
        captured: The judge's output and how it ended.
        timeout: The timeout it ran under (for the message when it was killed).
        seconds: Its wall time.
        stage: The stage it was asked to judge (``None``: the final verdict); the verdict
            must say the same.
        sealed: Whether sealing was required: a verdict whose judge says it ran the
            candidates unsealed is then refused.
    """
    code = captured.returncode
    if captured.overflow:
        limit = f"{VERDICT_STDOUT_LIMIT >> 20} MiB"
        return refused_verdict(
            f"the judge printed more than {limit} on stdout and was killed", seconds=seconds
        )
    if captured.timed_out or code is None:
        return refused_verdict(
            f"the judge printed no verdict within {timeout:.0f} s and was killed", seconds=seconds
        )
    printed, problem = parse_verdict(captured.stdout)
    if printed is None:
        tail = _stderr_tail(captured.stderr)
        return refused_verdict(
            f"{problem} (exit status {code}){tail}", exit_code=code, seconds=seconds
        )
    problems = verdict_problems(printed)
    raw = None if any(p.startswith("schema:") for p in problems) else printed
    if code != 0 and not problems:
        problems.append(f"the judge exited with status {code} after a sound verdict")
    if raw is not None and raw.get("stage") != stage:
        asked = "the final verdict" if stage is None else f"stage {stage}"
        said = raw.get("stage")
        judged = "the final state" if said is None else f"stage {said}"
        problems.append(f"contract: the judge was asked for {asked} but judged {judged}")
    if not problems and sealed:
        problem = unsealed_judging(printed["notes"])
        problems += [problem] if problem else []
    if problems:
        return refused_verdict(*problems, raw=raw, exit_code=code, seconds=seconds)
    return Verdict(
        status=printed["status"],
        progress_level=printed["progress_level"],
        main_checks_passed=printed["main_checks_passed"],
        main_checks_total=printed["main_checks_total"],
        edge_check_passed=printed["edge_check_passed"],
        notes=tuple(printable(n) for n in printed["notes"]),
        raw=printed,
        exit_code=code,
        seconds=seconds,
    )


def _stderr_tail(stderr: bytes) -> str:
    text = stderr.decode("utf-8", errors="replace")
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return f"; stderr: {clip_text(lines[-1], VERDICT_STDERR_TAIL)}" if lines else ""


def judge_argv(
    command: Sequence[str], workspace: Path | str, python: str, options: Sequence[str] = ()
) -> list[str]:
    """A judge's command line: scenario.json's ``judge_command`` with ``{workspace}``
    replaced and a leading ``python`` made ``python``, then ``--python EXE`` and ``options``
    (``--fixture-cache DIR``, ``--stage N``, ...)."""
    argv = [a.replace(WORKSPACE_PLACEHOLDER, str(workspace)) for a in command]
    return [*resolve_argv(argv, python), "--python", python, *options]


def judge_accepts_stage(
    command: Sequence[str],
    task_dir: Path,
    python: str,
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = 60.0,
) -> bool:
    """Whether the judge lists ``--stage`` in its ``--help`` (it judges stage snapshots)."""
    argv = resolve_argv([a.replace(WORKSPACE_PLACEHOLDER, ".") for a in command], python)
    try:
        done = subprocess.run(
            [*argv, "--help"], cwd=task_dir, stdin=subprocess.DEVNULL, capture_output=True,
            text=True, timeout=timeout, env=dict(clean_env() if env is None else env),
            check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and STAGE_OPTION in done.stdout


def judge_once(
    argv: Sequence[str],
    *,
    cwd: Path,
    timeout: float,
    env: Mapping[str, str] | None = None,
    umask: int = -1,
    stage: int | None = None,
    sealed: bool = True,
    output: Path | None = None,
) -> Verdict:
    """Run one judge command (see :func:`judge_argv`) and hold its verdict to the contract.

    Args:
        argv: The judge's command line.
        cwd: Its working directory (the task folder).
        timeout: Seconds after which its process group is killed.
        env: Its environment (default: :func:`clean_env`); the run's sweep token is added.
        umask: The umask applied in its process (-1: inherited).
        stage: The stage it was asked for (``--stage N`` in ``argv``; ``None``: final).
        sealed: Whether sealing was required (see :func:`hold_verdict`).
        output: When given, the judge's stdout is written there and the tail of its
            stderr next to it (``.stderr``).

    Returns:
        The verdict, an ``error`` verdict (never an exception) when the judge could not
        start, was killed, or broke the contract.
    """
    started = time.monotonic()
    try:
        captured = capture_judge(
            list(argv), cwd=cwd, timeout=timeout, env=clean_env() if env is None else env,
            umask=umask,
        )  # fmt: skip
    except OSError as exc:
        return refused_verdict(
            f"the judge could not start: {exc}", seconds=time.monotonic() - started
        )
    seconds = time.monotonic() - started
    if output is not None:
        output.write_bytes(captured.stdout)
        output.with_suffix(".stderr").write_bytes(captured.stderr)
    return hold_verdict(captured, timeout=timeout, seconds=seconds, stage=stage, sealed=sealed)


def capture_judge(
    argv: list[str], *, cwd: Path, timeout: float, env: Mapping[str, str], umask: int = -1
) -> Captured:
    """Run a judge in its own session and collect its output; nothing of it outlives the call.

    The whole process group is killed when the judge ends (or at the timeout, or once it
    printed more than :data:`VERDICT_STDOUT_LIMIT` bytes), then every process carrying this
    run's environment token is swept (children that left the group). The pipes are closed
    and the judge reaped before returning: a batch judges hundreds of workspaces in one
    process.

    Raises:
        OSError: When the judge cannot be started.
    """
    token = run_token()
    variables = {**env, RUN_TOKEN_VARIABLE: token}
    deadline = time.monotonic() + timeout
    with subprocess.Popen(
        argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=variables, umask=umask, start_new_session=True,
    ) as process:  # fmt: skip
        try:
            stdout, stderr, overflow = _read_judge_pipes(process, deadline)
            exited = not overflow and _await_exit(process, deadline)
        finally:
            kill_group(process)  # the judge is not reaped yet: its group id is ours
            process.wait()
            sweep(token)
    code = process.returncode if exited else None
    return Captured(stdout, stderr, code, timed_out=not exited and not overflow, overflow=overflow)


def _read_judge_pipes(
    process: subprocess.Popen[bytes], deadline: float
) -> tuple[bytes, bytes, bool]:
    """Read stdout (capped) and stderr (its tail) until both close, the deadline, or overflow.

    A descendant that inherited the pipes may hold them open after the judge exited; reading
    then stops :data:`JUDGE_EXIT_GRACE` seconds after the exit. Returns stdout, the stderr
    tail and whether stdout exceeded :data:`VERDICT_STDOUT_LIMIT`.
    """
    assert process.stdout is not None and process.stderr is not None
    out, err = bytearray(), bytearray()
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, out)
        selector.register(process.stderr, selectors.EVENT_READ, err)
        while selector.get_map():
            now = time.monotonic()
            if now >= deadline:
                break
            ready = selector.select(min(deadline - now, _JUDGE_POLL))
            if not ready and _exited_unreaped(process):
                deadline = min(deadline, now + JUDGE_EXIT_GRACE)
            for key, _ in ready:
                chunk = os.read(key.fd, _JUDGE_CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                buffer: bytearray = key.data
                buffer += chunk
                if buffer is err:
                    del err[:-VERDICT_STDERR_KEEP]
                elif len(out) > VERDICT_STDOUT_LIMIT:
                    return bytes(out[:VERDICT_STDOUT_LIMIT]), bytes(err), True
    return bytes(out), bytes(err), False


def _await_exit(process: subprocess.Popen[bytes], deadline: float) -> bool:
    """Wait (without reaping) until the judge exits; False when the deadline comes first."""
    while not _exited_unreaped(process):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def _exited_unreaped(process: subprocess.Popen[bytes]) -> bool:
    """Whether the judge exited, leaving it unreaped so its group id cannot be reused yet."""
    if sys.platform != "linux":  # no waitid(WNOWAIT) everywhere: reap (Popen keeps the code)
        return process.poll() is not None
    try:
        found = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return found is not None
