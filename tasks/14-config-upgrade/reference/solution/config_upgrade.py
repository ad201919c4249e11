"""Merge Tallybook's four configuration layers into the version 4 configuration (reference).

python -m solution.config_upgrade INPUTS --output CONFIG.json --report REPORT.txt
"""

from __future__ import annotations

import argparse
import configparser
import csv
import json
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

PLACEHOLDER = re.compile(r"\$\{([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\}")
INTEGER = re.compile(r"-?[0-9]+")
FLOAT = re.compile(r"-?[0-9]+\.[0-9]+")
DELETE = object()  # a JSON null: delete this key when merging


class Cycle(Exception):
    """Substitutions that refer back to themselves."""

    def __init__(self, keys: list[str]) -> None:
        super().__init__(" -> ".join(keys))
        self.keys = keys


def ini_value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if INTEGER.fullmatch(text):
        return int(text)
    if FLOAT.fullmatch(text):
        return float(text)
    return text


def read_defaults(path: Path) -> dict[str, Any]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path, encoding="utf-8")
    tree: dict[str, Any] = {}
    for section in parser.sections():
        node = tree
        for part in section.split("."):
            node = node.setdefault(part, {})
        for key, text in parser.items(section):
            node[key] = ini_value(text)
    return tree


def read_json(path: Path) -> dict[str, Any]:
    def nulls(value: Any) -> Any:
        if value is None:
            return DELETE
        if isinstance(value, dict):
            return {k: nulls(v) for k, v in value.items()}
        return value

    return nulls(json.loads(path.read_text(encoding="utf-8")))


def lookup(tree: dict[str, Any], key: str) -> tuple[bool, Any]:
    node: Any = tree
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    return True, node


def remove(tree: dict[str, Any], key: str) -> None:
    *parents, last = key.split(".")
    for part in parents:
        tree = tree[part]
    del tree[last]


def place(tree: dict[str, Any], key: str, value: Any) -> None:
    *parents, last = key.split(".")
    node = tree
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value


def migrate(layer: dict[str, Any], rows: list[tuple[str, str]]) -> dict[str, Any]:
    for old, new in rows:
        found, value = lookup(layer, old)
        if not found:
            continue
        remove(layer, old)
        if not lookup(layer, new)[0]:
            place(layer, new, value)
    return layer


def merge(base: dict[str, Any], layer: dict[str, Any]) -> dict[str, Any]:
    for key, value in layer.items():
        if value is DELETE:
            base.pop(key, None)
        elif isinstance(value, dict) and isinstance(base.get(key), dict):
            merge(base[key], value)
        else:
            base[key] = strip_deletes(value)
    return base


def strip_deletes(value: Any) -> Any:
    """A value a layer adds where nothing was: its nulls delete nothing."""
    if isinstance(value, dict):
        return {k: strip_deletes(v) for k, v in value.items() if v is not DELETE}
    return value


def settings(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted key -> every non-object value."""
    found: dict[str, Any] = {}
    for key, value in tree.items():
        dotted = prefix + key
        if isinstance(value, dict):
            found.update(settings(value, dotted + "."))
        else:
            found[dotted] = value
    return found


class Resolver:
    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.active: list[str] = []
        self.warnings: set[str] = set()

    def setting(self, key: str) -> str:
        """The final text of the string setting ``key``."""
        if key in self.active:
            cycle = self.active[self.active.index(key) :]
            start = cycle.index(min(cycle))
            cycle = cycle[start:] + cycle[:start]
            raise Cycle([*cycle, cycle[0]])
        self.active.append(key)
        text = self.text(lookup(self.config, key)[1], key)
        self.active.pop()
        return text

    def text(self, value: str, owner: str) -> str:
        def replace(match: re.Match[str]) -> str:
            ref = match.group(1)
            found, target = lookup(self.config, ref)
            reason = ""
            if not found:
                reason = "no such key"
            elif isinstance(target, dict):
                reason = "refers to an object"
            elif isinstance(target, list):
                reason = "refers to a list"
            if reason:
                self.warnings.add(f"invalid substitution {match.group(0)} in {owner}: {reason}")
                return match.group(0)
            if isinstance(target, str):
                return self.setting(ref)
            return str(target)

        return PLACEHOLDER.sub(replace, value)

    def value(self, key: str, value: Any) -> Any:
        if isinstance(value, str):
            return self.setting(key)
        if isinstance(value, list):
            return [self.text(v, key) if isinstance(v, str) else v for v in value]
        return value


def resolve(config: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    resolver = Resolver(config)
    final: dict[str, Any] = {}
    for key, value in settings(config).items():
        place(final, key, resolver.value(key, value))
    return final, sorted(resolver.warnings)


def secret(key: str) -> bool:
    return any(part.endswith("_secret") for part in key.split("."))


def report(final: dict[str, Any], known: set[str], warnings: list[str]) -> str:
    values = settings(final)
    lines = ["[settings]"]
    for key in sorted(values):
        shown = "***" if secret(key) else json.dumps(values[key], ensure_ascii=False)
        lines.append(f"{key} = {shown}")
    lines.append("[unknown keys]")
    lines += [key for key in sorted(values) if key not in known]
    lines.append("[warnings]")
    lines += warnings
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--report", type=Path, required=True)
    args = parser.parse_args()

    with open(args.inputs / "key_migrations.csv", newline="", encoding="utf-8") as stream:
        rows = [(r["old_key"], r["new_key"]) for r in csv.DictReader(stream)]
    defaults = migrate(read_defaults(args.inputs / "defaults.ini"), rows)
    known = set(settings(defaults))
    site = tomllib.loads((args.inputs / "site.toml").read_text(encoding="utf-8"))
    config: dict[str, Any] = {}
    for layer in (
        defaults,
        migrate(site, rows),
        migrate(read_json(args.inputs / "user.json"), rows),
        migrate(read_json(args.inputs / "runtime.json"), rows),
    ):
        merge(config, layer)
    try:
        final, warnings = resolve(config)
    except Cycle as cycle:
        print(f"substitution cycle: {cycle}", file=sys.stderr)
        return 2
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(final, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(report(final, known, warnings), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
