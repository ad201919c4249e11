"""Source positions for paths into parsed TOML and JSON documents.

``tomllib`` and ``json`` return plain dicts and lists without any notion of where a value came
from, so validation errors found on the parsed document (by jsonschema) could not be reported as
``file:line:col``. This module scans the source text a second time and records, for every key
and array element, where it starts. The scanners assume the text already parsed successfully;
on anything they cannot follow they stop and return what they located so far.

Positions are ``(line, column)``, both 1-based. Lines are separated by ``\\n`` (so CRLF files
work) and columns count code points, like Python string indices.
"""

from __future__ import annotations

import json
import re
import tomllib
from bisect import bisect_right
from contextlib import suppress
from typing import ClassVar, Final

DocPath = tuple[str | int, ...]

_Positions = dict[DocPath, tuple[int, int]]

_MAX_DEPTH: Final = 100  # Nesting beyond this stops the scan (tomllib's own inline limit).
_TOML_BARE_KEY: Final = re.compile(r"[A-Za-z0-9_-]+")
_TOML_BARE_VALUE: Final = re.compile(r"[^,\]}#\r\n]+")  # Numbers, dates, booleans, inf, nan.
_JSON_BARE_VALUE: Final = re.compile(r"[-+.\w]+")  # Numbers, true/false/null, NaN, Infinity.
_TOML_ESCAPES: Final = {
    "b": "\b",
    "t": "\t",
    "n": "\n",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    '"': '"',
    "\\": "\\",
}
_TOML_HEX_ESCAPES: Final = {"x": 2, "u": 4, "U": 8}
_AT_LINE: Final = re.compile(r"\(at line (\d+), column (\d+)\)\Z")
_AT_END: Final = "(at end of document)"


class _Stop(Exception):
    """Raised when the scanner meets text it cannot follow; the scan ends there."""


class _Scanner:
    """A cursor over source text that records the positions of document paths.

    Attributes:
        text: The source text.
        pos: Index of the next character to read.
        positions: The located paths so far.
    """

    first_wins: ClassVar[bool] = True

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.positions: _Positions = {}
        self._line_starts = [0, *(match.end() for match in re.finditer("\n", text))]

    def peek(self, size: int = 1) -> str:
        """Return the next ``size`` characters (fewer at the end of the text)."""
        return self.text[self.pos : self.pos + size]

    def at_end(self) -> bool:
        """Return True when every character has been read."""
        return self.pos >= len(self.text)

    def expect(self, token: str) -> None:
        """Consume ``token``, or stop the scan when the text does not continue with it."""
        if not self.text.startswith(token, self.pos):
            raise _Stop
        self.pos += len(token)

    def skip_chars(self, chars: str) -> None:
        """Consume every following character that is one of ``chars``."""
        while self.peek() and self.peek() in chars:
            self.pos += 1

    def match(self, pattern: re.Pattern[str]) -> str:
        """Consume and return a non-empty match of ``pattern``, or stop the scan."""
        found = pattern.match(self.text, self.pos)
        if found is None:
            raise _Stop
        self.pos = found.end()
        return found.group()

    def mark(self, path: DocPath, offset: int) -> None:
        """Record that ``path`` starts at string index ``offset``."""
        if self.first_wins and path in self.positions:
            return
        line = bisect_right(self._line_starts, offset)
        self.positions[path] = (line, offset - self._line_starts[line - 1] + 1)


class _TomlScanner(_Scanner):
    """Scanner for TOML documents; the first definition of a path wins."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._array_lengths: dict[DocPath, int] = {}

    def scan(self) -> None:
        """Locate every key, header segment and array element of the document."""
        table: DocPath = ()
        while True:
            self._skip_blank()
            if self.at_end():
                return
            if self.peek(2) == "[[":
                table = self._array_table_header()
            elif self.peek() == "[":
                table = self._table_header()
            else:
                self._key_value(table, depth=0)
            self._end_of_line()

    def _skip_blank(self) -> None:
        """Consume whitespace, newlines and comments."""
        self.skip_chars(" \t\r\n")
        while self.peek() == "#":
            self._skip_comment()
            self.skip_chars(" \t\r\n")

    def _skip_comment(self) -> None:
        """Consume a comment up to (not including) the end of its line."""
        end = self.text.find("\n", self.pos)
        self.pos = len(self.text) if end < 0 else end

    def _end_of_line(self) -> None:
        """Consume trailing whitespace and comment; the line must end here."""
        self.skip_chars(" \t\r")
        if self.peek() == "#":
            self._skip_comment()
        if not self.at_end() and self.peek() != "\n":
            raise _Stop

    def _table_header(self) -> DocPath:
        """Consume a ``[a.b]`` header and return the path of the table it opens."""
        self.pos += 1
        path = self._header_path(self._key())
        self.expect("]")
        return path

    def _array_table_header(self) -> DocPath:
        """Consume a ``[[a.b]]`` header and return the path of the element it appends."""
        start = self.pos
        self.pos += 2
        array = self._header_path(self._key())
        self.expect("]]")
        index = self._array_lengths.get(array, 0)
        self._array_lengths[array] = index + 1
        element = (*array, index)
        self.mark(element, start)
        return element

    def _header_path(self, segments: list[tuple[str, int]]) -> DocPath:
        """Resolve header key segments to a path, descending into arrays' latest tables."""
        path: DocPath = ()
        for name, offset in segments:
            if path in self._array_lengths:
                path = (*path, self._array_lengths[path] - 1)
            path = (*path, name)
            self.mark(path, offset)
        return path

    def _key_value(self, table: DocPath, depth: int) -> None:
        """Consume ``key = value`` inside ``table``, locating the key and the value."""
        path = table
        for name, offset in self._key():
            path = (*path, name)
            self.mark(path, offset)
        self.expect("=")
        self.skip_chars(" \t")
        self._value(path, depth)

    def _key(self) -> list[tuple[str, int]]:
        """Consume a (dotted) key and surrounding whitespace; return segments and offsets."""
        segments: list[tuple[str, int]] = []
        while True:
            self.skip_chars(" \t")
            offset = self.pos
            segments.append((self._key_segment(), offset))
            self.skip_chars(" \t")
            if self.peek() != ".":
                return segments
            self.pos += 1

    def _key_segment(self) -> str:
        """Consume one bare or quoted key segment and return its name."""
        if self.peek() == '"':
            return _decode_basic(self._single_line_string()[1:-1])
        if self.peek() == "'":
            return self._single_line_string()[1:-1]
        return self.match(_TOML_BARE_KEY)

    def _value(self, path: DocPath, depth: int) -> None:
        """Consume the value at ``path``, locating what is nested inside it."""
        if depth > _MAX_DEPTH:
            raise _Stop
        char = self.peek()
        if char == "[":
            self._array(path, depth + 1)
        elif char == "{":
            self._inline_table(path, depth + 1)
        elif self.peek(3) in ('"""', "'''"):
            self._multi_line_string()
        elif char in ('"', "'"):
            self._single_line_string()
        else:
            self.match(_TOML_BARE_VALUE)

    def _array(self, path: DocPath, depth: int) -> None:
        """Consume an inline (possibly multi-line) array, locating each element."""
        self.pos += 1
        index = 0
        while True:
            self._skip_blank()
            if self.peek() == "]":
                self.pos += 1
                return
            self.mark((*path, index), self.pos)
            self._value((*path, index), depth)
            index += 1
            self._skip_blank()
            if self.peek() == ",":
                self.pos += 1
            elif self.peek() != "]":
                raise _Stop

    def _inline_table(self, path: DocPath, depth: int) -> None:
        """Consume ``{ k = v, ... }``, locating its keys as for a table."""
        self.pos += 1
        while True:
            self._skip_blank()
            if self.peek() == "}":
                self.pos += 1
                return
            self._key_value(path, depth)
            self._skip_blank()
            if self.peek() == ",":
                self.pos += 1
            elif self.peek() != "}":
                raise _Stop

    def _single_line_string(self) -> str:
        """Consume a basic or literal single-line string and return it with its quotes."""
        start = self.pos
        quote = self.peek()
        self.pos += 1
        while True:
            char = self.peek()
            if char in ("", "\n"):
                raise _Stop
            self.pos += 1
            if char == quote:
                return self.text[start : self.pos]
            if char == "\\" and quote == '"':
                self.pos += 1

    def _multi_line_string(self) -> None:
        """Consume a ``\"\"\"`` or ``'''`` string, including up to two quotes before the end."""
        quote = self.peek()
        delimiter = quote * 3
        self.pos += 3
        while not self.at_end():
            if self.text.startswith(delimiter, self.pos):
                self.pos += 3
                for _ in range(2):
                    if self.peek() == quote:
                        self.pos += 1
                return
            self.pos += 2 if quote == '"' and self.peek() == "\\" else 1
        raise _Stop


class _JsonScanner(_Scanner):
    """Scanner for JSON documents; like ``json.loads``, the last duplicate key wins."""

    first_wins = False

    def scan(self) -> None:
        """Locate every member key and array element of the document."""
        self._skip_space()
        self._value((), depth=0)

    def _skip_space(self) -> None:
        """Consume JSON whitespace."""
        self.skip_chars(" \t\r\n")

    def _value(self, path: DocPath, depth: int) -> None:
        """Consume the value at ``path``, locating what is nested inside it."""
        if depth > _MAX_DEPTH:
            raise _Stop
        char = self.peek()
        if char == "{":
            self._object(path, depth + 1)
        elif char == "[":
            self._array(path, depth + 1)
        elif char == '"':
            self._string()
        else:
            self.match(_JSON_BARE_VALUE)

    def _object(self, path: DocPath, depth: int) -> None:
        """Consume an object, locating each member at its key's opening quote."""
        self.pos += 1
        self._skip_space()
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            self._skip_space()
            offset = self.pos
            member = (*path, self._key())
            self.mark(member, offset)
            self._skip_space()
            self.expect(":")
            self._skip_space()
            self._value(member, depth)
            self._skip_space()
            if self.peek() != ",":
                self.expect("}")
                return
            self.pos += 1

    def _array(self, path: DocPath, depth: int) -> None:
        """Consume an array, locating each element at its first character."""
        self.pos += 1
        self._skip_space()
        if self.peek() == "]":
            self.pos += 1
            return
        index = 0
        while True:
            self._skip_space()
            self.mark((*path, index), self.pos)
            self._value((*path, index), depth)
            index += 1
            self._skip_space()
            if self.peek() != ",":
                self.expect("]")
                return
            self.pos += 1

    def _key(self) -> str:
        """Consume a member name and return it decoded."""
        if self.peek() != '"':
            raise _Stop
        raw = self._string()
        try:
            key = json.loads(raw, strict=False)
        except ValueError:
            raise _Stop from None
        if not isinstance(key, str):
            raise _Stop
        return key

    def _string(self) -> str:
        """Consume a string and return it with its quotes, escapes undecoded."""
        start = self.pos
        self.pos += 1
        while True:
            char = self.peek()
            if not char:
                raise _Stop
            self.pos += 1
            if char == '"':
                return self.text[start : self.pos]
            if char == "\\":
                self.pos += 1


def _decode_basic(body: str) -> str:
    """Decode the escapes of a TOML basic string's ``body`` (the text between the quotes)."""
    parts: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        escape = body[index + 1 : index + 2]
        if char != "\\":
            parts.append(char)
            index += 1
        elif escape in _TOML_ESCAPES:
            parts.append(_TOML_ESCAPES[escape])
            index += 2
        else:
            width = _TOML_HEX_ESCAPES.get(escape, 0)
            digits = body[index + 2 : index + 2 + width]
            if not width or len(digits) != width or not _is_hex(digits):
                raise _Stop
            parts.append(chr(min(int(digits, 16), 0x10FFFF)))
            index += 2 + width
    return "".join(parts)


def _is_hex(digits: str) -> bool:
    """Return True when ``digits`` consists of ASCII hexadecimal digits only."""
    return all(char in "0123456789abcdefABCDEF" for char in digits)


def locate_toml(text: str) -> dict[DocPath, tuple[int, int]]:
    """Locate every key and array element of a TOML document.

    Args:
        text: A TOML document that ``tomllib.loads`` parsed successfully.

    Returns:
        For each path into the parsed document (keys and list indices, as ``tomllib.loads``
        nests them), the 1-based ``(line, column)`` where it is first defined: the start of
        the key (also a segment of a dotted key or of a ``[table]`` header), the ``[[`` of an
        array-of-tables header for that array's element, or the first character of an inline
        array element. Text the scanner cannot follow ends the scan; what was located before
        it is returned.
    """
    scanner = _TomlScanner(text)
    with suppress(_Stop):
        scanner.scan()
    return scanner.positions


def locate_json(text: str) -> dict[DocPath, tuple[int, int]]:
    """Locate every member and array element of a JSON document.

    Args:
        text: A JSON document that ``json.loads`` parsed successfully.

    Returns:
        For each path into the parsed document, the 1-based ``(line, column)`` of the member
        key's opening quote or of the array element's first character. For a duplicated key
        the last occurrence wins, matching ``json.loads``. Text the scanner cannot follow ends
        the scan; what was located before it is returned.
    """
    scanner = _JsonScanner(text)
    with suppress(_Stop):
        scanner.scan()
    return scanner.positions


def position_of(positions: dict[DocPath, tuple[int, int]], path: DocPath) -> tuple[int, int]:
    """Return the source position of ``path``.

    Args:
        positions: The result of :func:`locate_toml` or :func:`locate_json`.
        path: Keys and list indices leading to a value, e.g. a jsonschema error's
            ``absolute_path``.

    Returns:
        The position of ``path``, else of its nearest located ancestor, else ``(1, 1)``.
    """
    for length in range(len(path), 0, -1):
        found = positions.get(path[:length])
        if found is not None:
            return found
    return (1, 1)


def toml_error_position(exc: tomllib.TOMLDecodeError, text: str | None = None) -> tuple[int, int]:
    """Return the 1-based ``(line, column)`` of a ``tomllib`` syntax error.

    Python 3.14+ sets ``lineno``/``colno`` on the error; older versions only end the message
    with ``(at line X, column Y)`` or ``(at end of document)``.

    Args:
        exc: The error raised by ``tomllib.loads``.
        text: The document that failed to parse. Only needed to place "end of document" errors
            on Python < 3.14, whose errors do not carry the document.

    Returns:
        The error's position; for "end of document" the position just past the last character
        of ``text`` (as Python 3.14 reports it); ``(1, 1)`` when it cannot be determined.
    """
    lineno = getattr(exc, "lineno", None)
    colno = getattr(exc, "colno", None)
    if isinstance(lineno, int) and isinstance(colno, int):
        return (lineno, colno)
    message = str(exc)
    found = _AT_LINE.search(message)
    if found is not None:
        return (int(found.group(1)), int(found.group(2)))
    if message.endswith(_AT_END) and text is not None:
        return (text.count("\n") + 1, len(text) - text.rfind("\n"))
    return (1, 1)


def nesting_position(text: str, limit: int, *, toml: bool = True) -> tuple[int, int] | None:
    """Return where bracket nesting first exceeds ``limit``, or ``None`` when it never does.

    Counts ``[`` and ``{`` outside strings (and, for TOML, comments), so it works on text
    a parser gave up on (too deep for its recursion) and points at the opening bracket.

    Args:
        text: TOML or JSON source.
        limit: Deepest nesting allowed.
        toml: Whether ``text`` is TOML (``'`` strings, ``#`` comments, multi-line strings).
    """
    depth, index, size = 0, 0, len(text)
    while index < size:
        char = text[index]
        if char in "[{":
            depth += 1
            if depth > limit:
                line = text.count("\n", 0, index) + 1
                return line, index - (text.rfind("\n", 0, index) + 1) + 1
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif char == "#" and toml:
            index = _after(text, "\n", index) - 1
        elif char == '"' or (char == "'" and toml):
            index = _string_end(text, index, toml) - 1
        index += 1
    return None


def _after(text: str, token: str, start: int) -> int:
    """Index just past the next ``token`` at or after ``start`` (the end when none)."""
    found = text.find(token, start)
    return len(text) if found < 0 else found + len(token)


def _string_end(text: str, start: int, toml: bool) -> int:
    """Index just past the string opening at ``start`` (tolerant of unterminated strings)."""
    quote = text[start]
    if toml and text.startswith(quote * 3, start):
        index = start + 3
        while index < len(text):
            if quote == '"' and text[index] == "\\":
                index += 2
                continue
            if text.startswith(quote * 3, index):
                return index + 3
            index += 1
        return len(text)
    index = start + 1
    while index < len(text) and text[index] not in (quote, "\n"):
        index += 2 if quote == '"' and text[index] == "\\" else 1
    return index + 1
