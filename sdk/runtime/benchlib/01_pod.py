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
