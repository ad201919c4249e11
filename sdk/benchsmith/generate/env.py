"""The one jinja2 environment and the filters that embed author data safely.

Author strings never reach generated Python by string pasting: :func:`pyliteral` emits
``repr`` of checked plain values and verifies the text evaluates back to the same value.
"""

from __future__ import annotations

import ast
import math
from functools import cache
from typing import Any

import jinja2

from benchsmith import resources
from benchsmith.errors import BuildError

GENERATED_HEADER = "generated from task.toml by benchsmith -- do not edit"
JUDGE_HEADER = "generated from task.toml by benchsmith -- edit only the authored region"
REGION_START = "# region authored: benchsmith keeps these lines when it rebuilds judge.py"
REGION_END = "# endregion authored"


def _check_plain(value: Any, where: str = "value") -> None:
    """Raise BuildError unless ``value`` is built from plain literal types only."""
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise BuildError(f"{where}: {value!r} cannot be embedded as a Python literal")
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check_plain(item, f"{where}[{index}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise BuildError(f"{where}: key {key!r} is not a string")
            _check_plain(item, f"{where}.{key}")
        return
    raise BuildError(f"{where}: {type(value).__name__} cannot be embedded as a Python literal")


def pyliteral(value: Any) -> str:
    """Return Python source that evaluates to ``value`` (a checked plain value).

    Raises:
        BuildError: When ``value`` holds anything but None, bool, int, finite float, str,
            and lists/tuples/str-keyed dicts of them, or fails the round trip.
    """
    _check_plain(value)
    text = repr(value)
    if ast.literal_eval(text) != value:
        raise BuildError(f"literal round trip failed for {text[:80]}")
    return text


def pystring(value: str) -> str:
    """Return ``value`` made safe inside a one-line triple-quoted docstring."""
    return "".join(_docstring_char(ch) for ch in value)


def _docstring_char(ch: str) -> str:
    if ch in ('"', "\\"):
        return "\\" + ch
    return ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")


@cache
def environment() -> jinja2.Environment:
    """Return the shared environment (StrictUndefined, trailing newlines kept)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(resources.data_dir("templates") / "generate"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["pyliteral"] = pyliteral
    env.filters["pystring"] = pystring
    return env


def render(template: str, **context: Any) -> str:
    """Render ``templates/generate/<template>``; template errors become BuildError."""
    try:
        return environment().get_template(template).render(**context)
    except jinja2.TemplateError as exc:
        raise BuildError(f"template {template}: {exc}") from exc
