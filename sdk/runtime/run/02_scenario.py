# ---------------------------------------------------------------------------------------------
# scenario
# ---------------------------------------------------------------------------------------------

SCENARIO_FILE: Final = "scenario.json"
SCENARIO_SCHEMA: Final = "prime-context.python-realworld-task/v1"
WORKSPACE_PLACEHOLDER: Final = benchlib.WORKSPACE_PLACEHOLDER
VERSIONED: Final = ("scenario.json", "judge.py", "seed.py")
_INJECT = re.compile(r"^(visible|stages/[^/]+)/$")


class ScenarioError(Exception):
    """Raised when a task folder holds no usable scenario.json (or judge.py, seed.py)."""


@dataclass(frozen=True)
class Stage:
    """One stage of scenario.json: id, injected folder, user message, compaction after it."""

    id: str
    inject: str
    message: str
    compact_after: bool


@dataclass(frozen=True)
class Service:
    """A loopback fixture service kept running during the agent run (spec 10.4)."""

    name: str
    run: str
    url_file: str
    origins: tuple[tuple[str, str], ...] = ()

    def declared(self) -> dict[str, Any]:
        """The service as judge.py's ``TASK["services"]`` declares it."""
        data: dict[str, Any] = {"name": self.name, "run": self.run, "url_file": self.url_file}
        if self.origins:
            data["origins"] = dict(self.origins)
        return data


@dataclass(frozen=True)
class Scenario:
    """A task as the runner sees it: scenario.json plus the judge's services.

    Attributes:
        task_dir: The task folder.
        id: Task number.
        slug: Task slug.
        title: Task title.
        pressure: Pressure class (N, L, M, H).
        timeout_seconds: The agent's time budget over all its actions.
        editable: Workspace paths the agent may write.
        stages: Stages in order.
        judge_command: The judge's command line (``{workspace}`` placeholder).
        services: Fixture services (from judge.py's ``TASK["services"]``).
    """

    task_dir: Path
    id: int
    slug: str
    title: str
    pressure: str
    timeout_seconds: float
    editable: tuple[str, ...]
    stages: tuple[Stage, ...]
    judge_command: tuple[str, ...]
    services: tuple[Service, ...] = ()

    @property
    def dirname(self) -> str:
        """``NN-slug``: the task's folder name and its key in run records."""
        return self.task_dir.name

    @property
    def layout(self) -> benchlib.Layout:
        """The runtime layout: stage ids, their ``inject`` folders, editable paths."""
        return benchlib.Layout(
            task_dir=self.task_dir,
            stages=tuple(s.id for s in self.stages),
            editable=self.editable,
            injects=tuple(s.inject for s in self.stages),
        )


def _require(condition: bool, path: Path, what: str) -> None:
    if not condition:
        raise ScenarioError(f"{path}: {what}")


def load_scenario(task_dir: Path) -> Scenario:
    """Read a task folder's scenario.json (and the services its judge.py declares).

    Raises:
        ScenarioError: When scenario.json is missing, not JSON or not of the v1 shape the
            runner needs, or seed.py, judge.py or TASK.md is missing.
    """
    task_dir = Path(task_dir).absolute()
    path = task_dir / SCENARIO_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ScenarioError(f"{path}: cannot be read: {exc}") from None
    except RecursionError:
        raise ScenarioError(f"{path}: cannot be read: nested too deeply") from None
    _require(isinstance(data, dict), path, "not a JSON object")
    _require(data.get("schema") == SCENARIO_SCHEMA, path, f"schema is not {SCENARIO_SCHEMA}")
    for name in ("seed.py", "judge.py", "TASK.md"):
        _require((task_dir / name).is_file(), task_dir / name, "missing")
    scenario = Scenario(
        task_dir=task_dir,
        id=_int(data, "id", path),
        slug=_text(data, "slug", path),
        title=_text(data, "title", path),
        pressure=_text(data, "pressure", path),
        timeout_seconds=float(_int(data, "timeout_seconds", path)),
        editable=_texts(data, "editable_paths", path),
        stages=_stages(data, path),
        judge_command=_judge_command(data, path),
        services=judge_services(task_dir / "judge.py"),
    )
    _require(scenario.timeout_seconds > 0, path, "timeout_seconds must be positive")
    return scenario


def _int(data: Mapping[str, Any], key: str, path: Path) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScenarioError(f"{path}: {key}: no integer")
    return value


def _text(data: Mapping[str, Any], key: str, path: Path) -> str:
    value = data.get(key)
    _require(isinstance(value, str) and bool(value), path, f"{key}: no text")
    return str(value)


def _texts(data: Mapping[str, Any], key: str, path: Path) -> tuple[str, ...]:
    value = data.get(key)
    ok = isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)
    _require(ok, path, f"{key}: not a list of strings")
    return tuple(value)  # type: ignore[arg-type]


def _stages(data: Mapping[str, Any], path: Path) -> tuple[Stage, ...]:
    stages = data.get("stages")
    _require(isinstance(stages, list) and bool(stages), path, "stages: not a list of stages")
    found = []
    for number, stage in enumerate(stages, 1):  # type: ignore[arg-type]
        where = f"stages[{number - 1}]"
        _require(isinstance(stage, dict), path, f"{where}: not an object")
        inject = _text(stage, "inject", path)
        _require(bool(_INJECT.match(inject)), path, f"{where}.inject: {inject!r} is no folder")
        compact = stage.get("compact_after")
        _require(isinstance(compact, bool), path, f"{where}.compact_after: not a boolean")
        found.append(
            Stage(_text(stage, "id", path), inject, _text(stage, "message", path), compact)
        )
    return tuple(found)


def _judge_command(data: Mapping[str, Any], path: Path) -> tuple[str, ...]:
    command = _texts(data, "judge_command", path)
    ok = any(WORKSPACE_PLACEHOLDER in a for a in command)
    _require(ok, path, f"judge_command does not pass {WORKSPACE_PLACEHOLDER}")
    return command


@contextlib.contextmanager
def serve(
    service: Mapping[str, Any], workspace: Path, python: str, *, sealed: bool = False
) -> Iterator[benchlib.ServiceHandle]:
    """Start a declared service in ``workspace`` and write its URL files (read-only), as the
    runner does for an agent; the service stops when the context ends. ``sealed``: in the
    view of :func:`service_seal`.

    Raises:
        RuntimeError: When the service does not start (the message names it, its command, what
            went wrong and the last lines of its stderr).
    """
    seal = service_seal(workspace, python) if sealed else None
    with benchlib.start_declared_service(service, workspace, python, seal=seal) as handle:
        files = {service["name"]: service["url_file"], **service.get("origins", {})}
        for rel in files.values():
            target = workspace / rel
            if rel and target.parent.exists():
                target.parent.chmod(target.parent.stat().st_mode | 0o700)
            if rel and target.exists():
                target.chmod(0o644)
        benchlib.write_url_files(workspace, service, handle)
        yield handle


SERVICE_LIMITS = benchlib.Limits(cpu_seconds=None, memory_bytes=4 << 30, processes=256)
"""A fixture service lives as long as the agent's run: no CPU-time cap; 4 GiB of address
space and 256 processes are far more than a loopback fixture server needs."""


def service_seal(workspace: Path, python: str) -> benchlib.Seal:
    """How a fixture service runs beside a sealed agent (spec 10.4).

    The minimal view: the system folders, the task's interpreter, benchlib's own file (the
    service wrapper) and the workspace, all read-only, the workspace as its working
    directory; a private ``/tmp`` and ``HOME``; an environment of its own
    (:func:`benchlib.sandbox_env`: no runner variable, no ``--pass-env`` credential); a
    fresh uid when the runner is root. It shares the host's network namespace, since the
    agent reaches it on the host's loopback (agents share it too, ``--network host``); the
    service is the task's own code, and nothing else of the host is visible to it.

    Raises:
        RuntimeError: When ``python`` cannot be run.
    """
    binds = (*benchlib.interpreter(python).binds(), benchlib.Bind(workspace))
    return benchlib.Seal(
        binds=binds, network=True, limits=SERVICE_LIMITS, env=benchlib.sandbox_env(),
        cwd=str(workspace),
    )  # fmt: skip


def judge_services(judge: Path) -> tuple[Service, ...]:
    """The services of judge.py's embedded ``TASK`` data, read as a literal (never run).

    Raises:
        ScenarioError: When judge.py does not parse or its ``services`` are malformed.
    """
    try:
        tree = ast.parse(judge.read_bytes(), filename=str(judge))
    except (OSError, SyntaxError, ValueError) as exc:
        raise ScenarioError(f"{judge}: cannot be read: {exc}") from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["TASK"]:
            try:
                task = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, RecursionError):
                return ()
            services = task.get("services", []) if isinstance(task, dict) else []
            try:
                return tuple(_service(s) for s in services)
            except (TypeError, KeyError, AttributeError) as exc:
                raise ScenarioError(f"{judge}: TASK['services'] is malformed: {exc}") from None
    return ()


def _service(data: Mapping[str, Any]) -> Service:
    origins = tuple((str(k), str(v)) for k, v in data.get("origins", {}).items())
    return Service(data["name"], data["run"], data["url_file"], origins)


def task_version(task_dir: Path) -> str:
    """SHA-256 over scenario.json, judge.py and seed.py: what an agent is asked and judged by.

    Two runs with one version ran the same task; ``benchsmith report --arms`` warns when the
    two runs of a matched pair differ.
    """
    digest = hashlib.sha256()
    for name in VERSIONED:
        path = Path(task_dir) / name
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()
