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
