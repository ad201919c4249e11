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
