"""Tests for benchsmith.dsl.locate: mapping document paths back to source positions."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchsmith.dsl.locate import (
    DocPath,
    locate_json,
    locate_toml,
    position_of,
    toml_error_position,
)

Position = tuple[int, int]


def _offset(text: str, position: Position) -> int:
    """Return the string index of a 1-based (line, col) position in ``text``."""
    line, col = position
    starts = [0, *(index + 1 for index, char in enumerate(text) if char == "\n")]
    return starts[line - 1] + col - 1


def _at(text: str, position: Position) -> str:
    """Return the text from ``position`` on."""
    return text[_offset(text, position) :]


def _paths(value: Any, prefix: DocPath = ()) -> Iterator[DocPath]:
    """Yield every key / index path inside a parsed document."""
    if isinstance(value, dict):
        items: Iterator[tuple[str | int, Any]] = iter(value.items())
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for step, child in items:
        yield (*prefix, step)
        yield from _paths(child, (*prefix, step))


def _value_at(document: Any, path: DocPath) -> Any:
    for step in path:
        document = document[step]
    return document


# --- TOML: tables and keys ---------------------------------------------------------------------


def test_tables_and_nested_tables_locate_header_segments_and_keys() -> None:
    text = '[server]\nhost = "h"\n\n[server.tls]\ncert = "c"\n[other]\nport = 1\n'
    positions = locate_toml(text)
    assert positions == {
        ("server",): (1, 2),
        ("server", "host"): (2, 1),
        ("server", "tls"): (4, 9),
        ("server", "tls", "cert"): (5, 1),
        ("other",): (6, 2),
        ("other", "port"): (7, 1),
    }


def test_first_occurrence_wins_for_super_table_defined_later() -> None:
    text = "[a.b]\nx = 1\n[a]\ny = 2\n"
    positions = locate_toml(text)
    assert positions[("a",)] == (1, 2)
    assert positions[("a", "b")] == (1, 4)
    assert positions[("a", "y")] == (4, 1)


def test_header_with_whitespace_and_quoted_segments() -> None:
    text = "[ a . \"b.c\" . 'd' ]\nk = 1\n"
    positions = locate_toml(text)
    assert positions[("a",)] == (1, 3)
    assert positions[("a", "b.c")] == (1, 7)
    assert positions[("a", "b.c", "d")] == (1, 15)
    assert positions[("a", "b.c", "d", "k")] == (2, 1)


def test_dotted_keys_locate_every_segment_keeping_first_occurrence() -> None:
    text = "a.b.c = 1\na.b.d = 2\n[t]\nx . y = 3\n"
    positions = locate_toml(text)
    assert positions[("a",)] == (1, 1)
    assert positions[("a", "b")] == (1, 3)
    assert positions[("a", "b", "c")] == (1, 5)
    assert positions[("a", "b", "d")] == (2, 5)
    assert positions[("t", "x")] == (4, 1)
    assert positions[("t", "x", "y")] == (4, 5)


def test_quoted_keys_are_single_segments_with_escapes_decoded() -> None:
    text = '"a b" = 1\n\'x.y\' = 2\n"q\\"\\u0041" = 3\n"" = 4\nt."u.v".w = 5\n'
    document = tomllib.loads(text)
    positions = locate_toml(text)
    assert set(positions) == set(_paths(document))
    assert positions[("a b",)] == (1, 1)
    assert positions[("x.y",)] == (2, 1)
    assert positions[('q"A',)] == (3, 1)
    assert positions[("",)] == (4, 1)
    assert positions[("t", "u.v", "w")] == (5, 9)


def test_columns_count_code_points_before_a_key() -> None:
    text = 't = { s = "😀😀", k = 1 }\n"é𝄞" . b = 1\n'
    positions = locate_toml(text)
    assert positions[("t", "k")] == (1, 17)
    assert positions[("é𝄞", "b")] == (2, 8)
    assert _at(text, positions[("é𝄞", "b")]).startswith("b = 1")


def test_crlf_line_endings_give_the_same_positions() -> None:
    text = '[a]\nx = [\n  1, # one\n  2,\n]\ns = """\nline\n"""\n[b]\ny = 1\n'
    crlf = text.replace("\n", "\r\n")
    assert tomllib.loads(crlf) == tomllib.loads(text)
    assert locate_toml(crlf) == locate_toml(text)
    assert locate_toml(crlf)[("b", "y")] == (10, 1)


# --- TOML: arrays of tables --------------------------------------------------------------------


def test_array_of_tables_elements_point_at_double_bracket() -> None:
    text = '[[products]]\nname = "a"\n\n[[products]]\n\n  [[products]]\nname = "c"\n'
    positions = locate_toml(text)
    assert positions[("products",)] == (1, 3)
    assert positions[("products", 0)] == (1, 1)
    assert positions[("products", 0, "name")] == (2, 1)
    assert positions[("products", 1)] == (4, 1)
    assert positions[("products", 2)] == (6, 3)
    assert positions[("products", 2, "name")] == (7, 1)


def test_nested_arrays_of_tables_restart_counting_per_parent_element() -> None:
    text = (
        "[[a]]\n"  # 1
        "[[a.b]]\n"  # 2
        "x = 1\n"  # 3
        "[[a.b]]\n"  # 4
        "[a.c]\n"  # 5
        "y = 2\n"  # 6
        "[[a]]\n"  # 7
        "[[ a . b ]]\n"  # 8
        "z = 3\n"  # 9
    )
    document = tomllib.loads(text)
    positions = locate_toml(text)
    assert set(positions) == set(_paths(document))
    assert positions[("a", 0)] == (1, 1)
    assert positions[("a", 0, "b")] == (2, 5)
    assert positions[("a", 0, "b", 0)] == (2, 1)
    assert positions[("a", 0, "b", 0, "x")] == (3, 1)
    assert positions[("a", 0, "b", 1)] == (4, 1)
    assert positions[("a", 0, "c")] == (5, 4)
    assert positions[("a", 0, "c", "y")] == (6, 1)
    assert positions[("a", 1)] == (7, 1)
    assert positions[("a", 1, "b")] == (8, 8)
    assert positions[("a", 1, "b", 0)] == (8, 1)
    assert positions[("a", 1, "b", 0, "z")] == (9, 1)


# --- TOML: inline values -----------------------------------------------------------------------


def test_inline_tables_locate_keys_like_tables() -> None:
    text = "point = { x = 1, y = { z = 2 }, w.v = 3 }\n"
    positions = locate_toml(text)
    assert positions == {
        ("point",): (1, 1),
        ("point", "x"): (1, 11),
        ("point", "y"): (1, 18),
        ("point", "y", "z"): (1, 24),
        ("point", "w"): (1, 33),
        ("point", "w", "v"): (1, 35),
    }


def test_multi_line_arrays_with_comments_and_inline_tables() -> None:
    text = (
        "deps = [ # the list\n"
        '  "a", # first, [not] an element\n'
        "  # a whole-line comment with ] and ,\n"
        "  [1, 2],\n"
        "  { name = 'b', v = [3] },\n"
        "]\n"
        "after = true\n"
    )
    positions = locate_toml(text)
    assert positions[("deps", 0)] == (2, 3)
    assert positions[("deps", 1)] == (4, 3)
    assert positions[("deps", 1, 1)] == (4, 7)
    assert positions[("deps", 2)] == (5, 3)
    assert positions[("deps", 2, "name")] == (5, 5)
    assert positions[("deps", 2, "v", 0)] == (5, 22)
    assert positions[("after",)] == (7, 1)
    assert len([path for path in positions if path[:1] == ("deps",)]) == 9


@pytest.mark.parametrize(
    "value",
    [
        pytest.param('"] = # { \\" \' \\\\"', id="basic"),
        pytest.param("'] = # { \" \\'", id="literal"),
        pytest.param('"""\n] = # {\n" "" \\""" \\\n  end"""', id="multi-line-basic"),
        pytest.param("'''\n] = # {\n' '' \"\"\" \\'''", id="multi-line-literal"),
        pytest.param('"""ends in quotes"" """', id="basic-quote-before-close"),
        pytest.param('"""x""""', id="basic-four-quote-close"),
        pytest.param('"""x"""""', id="basic-five-quote-close"),
        pytest.param("'''x''''", id="literal-four-quote-close"),
        pytest.param("'''x'''''", id="literal-five-quote-close"),
        pytest.param('""', id="empty-basic"),
        pytest.param('""""""', id="empty-multi-line"),
    ],
)
def test_strings_are_skipped_whatever_they_contain(value: str) -> None:
    text = f"s = {value}\narr = [{value}, {{k = {value}}}, 7] # ]\n[t]\nafter = 1\n"
    document = tomllib.loads(text)
    positions = locate_toml(text)
    assert set(positions) == set(_paths(document))
    assert _at(text, positions[("arr", 2)]).startswith("7] # ]")
    assert _at(text, positions[("arr", 1, "k")]).startswith(f"k = {value}")
    assert _at(text, positions[("t", "after")]).startswith("after = 1")


def test_bare_values_dates_numbers_and_booleans() -> None:
    text = (
        "v = [1979-05-27 07:32:00Z, 1979-05-27T00:32:00.999-07:00, 07:32:00,"
        " 1_000, 0xdead_beef, 6.02e+23, -inf, nan, true, false]\n"
        "d = 1979-05-27 07:32:00 # comment\n"
        "n = 5\n"
    )
    document = tomllib.loads(text)
    positions = locate_toml(text)
    assert set(positions) == set(_paths(document))
    assert _at(text, positions[("v", 1)]).startswith("1979-05-27T00:32")
    assert _at(text, positions[("v", 9)]).startswith("false]")
    assert positions[("n",)] == (3, 1)


def test_unicode_before_array_elements() -> None:
    text = 'a = ["ü", "𝄞𝄞", 3]\n'
    assert locate_toml(text)[("a", 2)] == (1, 17)


def test_scan_stops_at_text_it_cannot_follow() -> None:
    positions = locate_toml("a = 1\nb = ]\nc = 2\n")
    assert ("a",) in positions
    assert ("c",) not in positions


@pytest.mark.parametrize("text", ["[" * 5000, "a = " + "[" * 5000, "a = " + "{b = " * 5000])
def test_deep_nesting_does_not_crash(text: str) -> None:
    assert isinstance(locate_toml(text), dict)


# --- JSON --------------------------------------------------------------------------------------


def test_json_nested_objects_and_arrays() -> None:
    text = '{\n  "a": {"b": [1, {"c": null}],\n  "d\\"q": "x\\"}, ]"},\n  "e": []\n}'
    positions = locate_json(text)
    assert positions == {
        ("a",): (2, 3),
        ("a", "b"): (2, 9),
        ("a", "b", 0): (2, 15),
        ("a", "b", 1): (2, 18),
        ("a", "b", 1, "c"): (2, 19),
        ("a", 'd"q'): (3, 3),
        ("e",): (4, 3),
    }


def test_json_escapes_and_unicode_in_keys_and_columns() -> None:
    text = '{"\\u00e9\\n": ["😀😀", "\\ud83d\\ude00", -1.5e3, true], "é": {"k": false}}'
    positions = locate_json(text)
    assert positions[("é\n",)] == (1, 2)
    assert positions[("é\n", 2)] == (1, 37)
    assert positions[("é",)] == (1, 52)
    assert positions[("é", "k")] == (1, 58)
    assert _at(text, positions[("é", "k")]).startswith('"k": false')


def test_json_duplicate_key_is_located_at_its_last_occurrence_like_json_loads() -> None:
    text = '{"a": 1, "b": 2, "a": [3]}'
    assert json.loads(text) == {"a": [3], "b": 2}
    positions = locate_json(text)
    assert positions[("a",)] == (1, 18)
    assert positions[("a", 0)] == (1, 24)


def test_json_crlf_and_scalar_root() -> None:
    assert locate_json('{\r\n  "a": 1\r\n}') == {("a",): (2, 3)}
    assert locate_json(' "just a string" ') == {}


def test_json_deep_nesting_does_not_crash() -> None:
    assert isinstance(locate_json('{"a": ' * 5000), dict)
    assert isinstance(locate_json("[" * 5000 + "]" * 5000), dict)


# --- position_of -------------------------------------------------------------------------------


def test_position_of_exact_ancestor_and_root() -> None:
    positions = locate_toml("[a]\nb = { c = 1 }\n")
    assert position_of(positions, ("a", "b", "c")) == (2, 7)
    assert position_of(positions, ("a", "b", "missing", 3)) == (2, 1)
    assert position_of(positions, ("a", "zzz")) == (1, 2)
    assert position_of(positions, ("nowhere",)) == (1, 1)
    assert position_of(positions, ()) == (1, 1)


# --- toml_error_position -----------------------------------------------------------------------


def _toml_error(text: str) -> tomllib.TOMLDecodeError:
    with pytest.raises(tomllib.TOMLDecodeError) as info:
        tomllib.loads(text)
    return info.value


def test_toml_error_position_of_a_missing_value() -> None:
    assert toml_error_position(_toml_error("x = 1\n\na = \n")) == (3, 5)


def test_toml_error_position_of_a_string_unterminated_at_end_of_line() -> None:
    assert toml_error_position(_toml_error('x = 1\na = "abc\nb = 2\n')) == (2, 9)


def test_toml_error_position_at_end_of_document_uses_the_text() -> None:
    text = 'x = 1\na = "abc'
    assert toml_error_position(_toml_error(text), text) == (2, 9)
    text = "x = 1\nb = [1,\n  2\n"
    assert toml_error_position(_toml_error(text), text) == (4, 1)


def test_toml_error_position_parses_messages_of_older_pythons() -> None:
    assert toml_error_position(tomllib.TOMLDecodeError("Bad (at line 7, column 12)")) == (7, 12)
    at_end = tomllib.TOMLDecodeError("Unclosed array (at end of document)")
    assert toml_error_position(at_end, "a = [\n1,") == (2, 3)
    assert toml_error_position(at_end) == (1, 1)
    assert toml_error_position(tomllib.TOMLDecodeError("no position")) == (1, 1)


def test_toml_error_position_prefers_lineno_and_colno_attributes() -> None:
    exc = tomllib.TOMLDecodeError("Bad (at line 7, column 12)")
    exc.lineno = 3  # type: ignore[attr-defined]
    exc.colno = 4  # type: ignore[attr-defined]
    assert toml_error_position(exc) == (3, 4)


# --- never crash -------------------------------------------------------------------------------

_SYNTAX = st.text(alphabet="[]{}\"'=.,:#\n\r \t\\abu01-", max_size=80)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=80), _SYNTAX))
def test_any_text_is_scanned_without_crashing(text: str) -> None:
    for located in (locate_toml(text), locate_json(text)):
        for path, (line, col) in located.items():
            assert isinstance(path, tuple)
            assert 1 <= line <= text.count("\n") + 1
            assert col >= 1


# --- JSON property -----------------------------------------------------------------------------

_JSON_DOCS = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(document=_JSON_DOCS, ensure_ascii=st.booleans())
def test_json_every_path_is_located_at_its_key_or_value(document: Any, ensure_ascii: bool) -> None:
    text = json.dumps(document, indent=2, ensure_ascii=ensure_ascii)
    positions = locate_json(text)
    assert set(positions) == set(_paths(document))
    decoder = json.JSONDecoder()
    for path, position in positions.items():
        found, _ = decoder.raw_decode(text, _offset(text, position))
        parent = _value_at(document, path[:-1])
        expected = path[-1] if isinstance(parent, dict) else parent[path[-1]]
        assert found == expected


# --- TOML property -----------------------------------------------------------------------------

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_string(text: str) -> str:
    if "'" not in text and all(char.isprintable() for char in text):
        return f"'{text}'"
    escaped = "".join(
        f"\\{char}"
        if char in '"\\'
        else (f"\\u{ord(char):04X}" if ord(char) < 0x20 or ord(char) == 0x7F else char)
        for char in text
    )
    return f'"{escaped}"'


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_string(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, dict):
        pairs = ", ".join(f"{_toml_key(key)} = {_toml_value(item)}" for key, item in value.items())
        return f"{{{pairs}}}"
    if isinstance(value, list):
        return f"[{', '.join(_toml_value(item) for item in value)}]"
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _is_header_value(value: Any) -> bool:
    return isinstance(value, dict) or _is_table_array(value)


def _write_table(lines: list[str], path: list[str], table: dict[str, Any]) -> None:
    for key, value in table.items():
        if not _is_header_value(value):
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for key, value in table.items():
        name = ".".join(_toml_key(part) for part in [*path, key])
        if isinstance(value, dict):
            lines.append(f"[{name}]")
            _write_table(lines, [*path, key], value)
        elif _is_table_array(value):
            for element in value:
                lines.append(f"[[{name}]]")
                _write_table(lines, [*path, key], element)


def _write_toml(document: dict[str, Any]) -> str:
    lines: list[str] = []
    _write_table(lines, [], document)
    return "\n".join(lines) + "\n"


def _expected_toml(value: Any, path: DocPath, inline: bool) -> Iterator[tuple[DocPath, str]]:
    """Yield each path with the text the writer put at its position."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key), _toml_key(key)
            yield from _expected_toml(item, (*path, key), inline or not _is_header_value(item))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*path, index), _toml_value(item) if inline else "[["
            yield from _expected_toml(item, (*path, index), inline)


_TOML_KEYS = st.from_regex(_BARE_KEY, fullmatch=True) | st.text(max_size=5)
_TOML_VALUES = st.recursive(
    st.integers(-(2**63), 2**63 - 1) | st.text(max_size=8) | st.booleans(),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(_TOML_KEYS, inner, max_size=3)
        | st.lists(st.dictionaries(_TOML_KEYS, inner, max_size=3), min_size=1, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(document=st.dictionaries(_TOML_KEYS, _TOML_VALUES, max_size=4))
def test_toml_every_path_is_located_at_its_key_or_value(document: dict[str, Any]) -> None:
    text = _write_toml(document)
    assert tomllib.loads(text) == document
    positions = locate_toml(text)
    expected = dict(_expected_toml(document, (), inline=False))
    assert set(positions) == set(expected)
    for path, position in positions.items():
        assert _at(text, position).startswith(expected[path]), (path, position)
