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
