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


def package_dir() -> Path:
    """Return the folder of the installed ``benchsmith`` package (without importing it)."""
    return _PACKAGE


def data_dir(name: str) -> Path:
    """Return the folder holding ``name`` (``"schemas"`` or ``"templates"``)."""
    bundled = _PACKAGE / "_data" / name
    return bundled if bundled.is_dir() else _PACKAGE.parent.parent / name


RUNTIME_FILES = ("benchlib.py", "run.py")
"""The stdlib runtime files copied into every corpus root: the judge and seed runtime, and the
lean runner (the runner core ``benchsmith run`` shares)."""


def runtime_source(name: str = "benchlib.py") -> Path:
    """Return the one source of the runtime file ``name`` (one of :data:`RUNTIME_FILES`)."""
    if name not in RUNTIME_FILES:
        raise ValueError(f"no runtime file {name!r}")
    return _PACKAGE / "runtime" / name


@cache
def schema(name: str) -> dict[str, Any]:
    """Return the parsed JSON Schema ``schemas/<name>.schema.json``."""
    path = data_dir("schemas") / f"{name}.schema.json"
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def schema_validator(name: str) -> Any:
    """A 2020-12 validator of ``schemas/<name>.schema.json`` that resolves references into
    the other schemas (``lean-run-record`` refers to ``run-record``'s definitions)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    documents = [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(data_dir("schemas").glob("*.schema.json"))
    ]
    registry: Registry[Any] = Registry().with_resources(
        (d["$id"], Resource.from_contents(d)) for d in documents if "$id" in d
    )
    return Draft202012Validator(schema(name), registry=registry)
