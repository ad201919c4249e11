"""Where benchsmith's data files live.

In a source checkout (and an editable install) the schemas and templates are the top-level
``schemas/`` and ``templates/`` folders; a wheel carries copies under ``benchsmith/_data/``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Return the folder holding ``name`` (``"schemas"`` or ``"templates"``)."""
    bundled = _PACKAGE / "_data" / name
    return bundled if bundled.is_dir() else _PACKAGE.parent.parent / name


def runtime_source() -> Path:
    """Return the one source of the stdlib runtime copied into every corpus as benchlib.py."""
    return _PACKAGE / "runtime" / "benchlib.py"


@cache
def schema(name: str) -> dict[str, Any]:
    """Return the parsed JSON Schema ``schemas/<name>.schema.json``."""
    path = data_dir("schemas") / f"{name}.schema.json"
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded
