# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 14: Layered Configuration Upgrade.

Usage: python judge.py --workspace WS [--stage N] [--python EXE] [--fixture-cache DIR]

Runs the candidate's commands on a clean main fixture and on the edge fixture, then prints
exactly one JSON verdict (spec section 6). The workspace is only read. With --stage N (a
1-based number or a stage id) it judges the state after stage N with the checks that apply
by then; without it, the final (scored) verdict.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the task and corpus folders

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchlib

TASK = {
    "id": 14,
    "slug": "config-upgrade",
    "stages": ["initial"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.config_upgrade inputs --output output/config.json --report output/report.txt",
            "argv": [
                "python",
                "-m",
                "solution.config_upgrade",
                "inputs",
                "--output",
                "output/config.json",
                "--report",
                "output/report.txt",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 20.0,
        }
    ],
    "outputs": [
        {"path": "output/config.json", "format": "json", "header": [], "stage": "initial"},
        {"path": "output/report.txt", "format": "text", "header": [], "stage": "initial"},
    ],
    "expect": [
        {
            "name": "substitute-after-merge#1",
            "file": "output/config.json",
            "level": 3,
            "path": "paths.data",
            "equals": "/mnt/books/data",
        },
        {
            "name": "substitute-after-merge#2",
            "file": "output/config.json",
            "level": 3,
            "path": "paths.exports",
            "equals": "/mnt/books/data/exports",
        },
        {
            "name": "substitute-after-merge#3",
            "file": "output/config.json",
            "level": 3,
            "path": "logging.file",
            "equals": "/mnt/books/log/tallybook.log",
        },
        {
            "name": "ini-types#1",
            "file": "output/config.json",
            "level": 3,
            "path": "app.debug",
            "equals": False,
        },
        {
            "name": "ini-types#2",
            "file": "output/config.json",
            "level": 3,
            "path": "search.highlight",
            "equals": True,
        },
        {
            "name": "ini-types#3",
            "file": "output/config.json",
            "level": 3,
            "path": "app.legacy_mode",
            "equals": "off",
        },
        {
            "name": "ini-types#4",
            "file": "output/config.json",
            "level": 3,
            "path": "metrics.sample_rate",
            "equals": 0.5,
        },
        {
            "name": "ini-types#5",
            "file": "output/config.json",
            "level": 3,
            "path": "storage.retention_days",
            "equals": -1,
        },
        {
            "name": "ini-types#6",
            "file": "output/report.txt",
            "level": 4,
            "contains": [
                "app.debug = false\n",
                'app.legacy_mode = "off"\n',
                "metrics.sample_rate = 0.5\n",
            ],
        },
        {
            "name": "ini-raw-text#1",
            "file": "output/config.json",
            "level": 3,
            "path": "logging.format",
            "equals": "%(asctime)s %(levelname)s [%(name)s] %(message)s",
        },
        {
            "name": "ini-raw-text#2",
            "file": "output/config.json",
            "level": 3,
            "path": "server.max_connections",
            "equals": 512,
        },
        {
            "name": "ini-raw-text#3",
            "file": "output/config.json",
            "level": 3,
            "path": "server.maxConnections",
            "absent": True,
        },
        {
            "name": "migrate-old-then-new#1",
            "file": "output/config.json",
            "level": 3,
            "path": "server.listen_port",
            "equals": 8443,
        },
        {
            "name": "migrate-old-then-new#2",
            "file": "output/config.json",
            "level": 3,
            "path": "server.port",
            "absent": True,
        },
        {
            "name": "migrate-new-then-old#1",
            "file": "output/config.json",
            "level": 3,
            "path": "mail.from_address",
            "equals": "Ledger Team <ledger-team@example.org>",
        },
        {
            "name": "migrate-new-then-old#2",
            "file": "output/config.json",
            "level": 3,
            "path": "mail.sender",
            "absent": True,
        },
        {
            "name": "both-names-in-one-layer#1",
            "file": "output/config.json",
            "level": 3,
            "path": "server.worker_processes",
            "equals": 0,
        },
        {
            "name": "both-names-in-one-layer#2",
            "file": "output/config.json",
            "level": 3,
            "path": "server.workers",
            "absent": True,
        },
        {
            "name": "renamed-twice#1",
            "file": "output/config.json",
            "level": 3,
            "path": "cache.expiry.seconds",
            "equals": 600,
        },
        {
            "name": "renamed-twice#2",
            "file": "output/config.json",
            "level": 3,
            "path": "cache.ttl_seconds",
            "absent": True,
        },
        {
            "name": "renamed-twice#3",
            "file": "output/config.json",
            "level": 3,
            "path": "cache.ttl",
            "absent": True,
        },
        {
            "name": "section-emptied#1",
            "file": "output/config.json",
            "level": 3,
            "path": "mail.smtp.host",
            "equals": "smtp.example.org",
        },
        {
            "name": "section-emptied#2",
            "file": "output/config.json",
            "level": 3,
            "path": "mail.smtp.port",
            "equals": 25,
        },
        {
            "name": "section-emptied#3",
            "file": "output/config.json",
            "level": 3,
            "path": "mail.smtp.timeout_seconds",
            "equals": 10,
        },
        {
            "name": "object-renamed#1",
            "file": "output/config.json",
            "level": 3,
            "path": "reports.default_currency",
            "equals": "EUR",
        },
        {
            "name": "object-renamed#2",
            "file": "output/config.json",
            "level": 3,
            "path": "reports.decimal_places",
            "equals": 2,
        },
        {
            "name": "object-renamed#3",
            "file": "output/config.json",
            "level": 3,
            "path": "reports.fiscal_year_start",
            "equals": "01-01",
        },
        {
            "name": "object-renamed#4",
            "file": "output/config.json",
            "level": 3,
            "path": "reporting",
            "absent": True,
        },
        {
            "name": "null-deletes#1",
            "file": "output/config.json",
            "level": 3,
            "path": "features.beta_dashboard",
            "absent": True,
        },
        {
            "name": "null-deletes#2",
            "file": "output/config.json",
            "level": 3,
            "path": "plugins.legacy_import",
            "absent": True,
        },
        {
            "name": "null-deletes#3",
            "file": "output/config.json",
            "level": 3,
            "path": "search.synonyms_file",
            "absent": True,
        },
        {
            "name": "null-deletes#4",
            "file": "output/config.json",
            "level": 3,
            "path": "integrations.slack.webhook_url",
            "absent": True,
        },
        {
            "name": "null-deletes#5",
            "file": "output/config.json",
            "level": 3,
            "path": "integrations.slack.channel",
            "equals": "#books",
        },
        {
            "name": "null-deletes#6",
            "file": "output/report.txt",
            "level": 4,
            "not_contains": ["search.synonyms_file", "plugins.legacy_import"],
        },
        {
            "name": "null-migrated#1",
            "file": "output/config.json",
            "level": 3,
            "path": "metrics.statsd.host",
            "absent": True,
        },
        {
            "name": "null-migrated#2",
            "file": "output/config.json",
            "level": 3,
            "path": "metrics.statsd.port",
            "equals": 8125,
        },
        {
            "name": "null-migrated#3",
            "file": "output/config.json",
            "level": 3,
            "path": "metrics.statsd_host",
            "absent": True,
        },
        {
            "name": "lists-replace#1",
            "file": "output/config.json",
            "level": 3,
            "path": "server.allowed_hosts",
            "equals": ["books.example.org"],
        },
        {
            "name": "lists-replace#2",
            "file": "output/config.json",
            "level": 3,
            "path": "server.cors_origins",
            "equals": [],
        },
        {
            "name": "object-replaced#1",
            "file": "output/config.json",
            "level": 3,
            "path": "logging.rotation",
            "equals": False,
        },
        {
            "name": "object-replaced#2",
            "file": "output/report.txt",
            "level": 4,
            "contains": ["\nlogging.rotation\n"],
        },
        {
            "name": "deep-merge#1",
            "file": "output/config.json",
            "level": 3,
            "path": "database.pool.size",
            "equals": 40,
        },
        {
            "name": "deep-merge#2",
            "file": "output/config.json",
            "level": 3,
            "path": "database.pool.overflow",
            "equals": 20,
        },
        {
            "name": "deep-merge#3",
            "file": "output/config.json",
            "level": 3,
            "path": "database.pool.pre_ping",
            "equals": True,
        },
        {
            "name": "lists-substituted#1",
            "file": "output/config.json",
            "level": 3,
            "path": "backup.include",
            "equals": ["/mnt/books/data", "/mnt/books/log", "/mnt/books/data/attachments"],
        },
        {
            "name": "lists-substituted#2",
            "file": "output/config.json",
            "level": 3,
            "path": "backup.targets.1.keep_days",
            "equals": 90,
        },
        {
            "name": "substitute-scalars#1",
            "file": "output/config.json",
            "level": 3,
            "path": "app.public_url",
            "equals": "https://books.example.org:8443/",
        },
        {
            "name": "substitute-scalars#2",
            "file": "output/config.json",
            "level": 3,
            "path": "logging.startup_banner",
            "equals": "Tallybook production (tls=True, sample rate 0.5)",
        },
        {
            "name": "invalid-substitutions#1",
            "file": "output/config.json",
            "level": 4,
            "path": "app.banner",
            "equals": "Welcome to Tallybook (pool ${database.pool})",
        },
        {
            "name": "invalid-substitutions#2",
            "file": "output/config.json",
            "level": 4,
            "path": "notifications.digest_recipients",
            "equals": "${mail.admins}",
        },
        {
            "name": "invalid-substitutions#3",
            "file": "output/config.json",
            "level": 4,
            "path": "paths.user_cache",
            "equals": "${HOME}/.cache/tallybook",
        },
        {
            "name": "invalid-substitutions#4",
            "file": "output/config.json",
            "level": 4,
            "path": "backup.exclude",
            "equals": ["${HOME}/Downloads", "/tmp/tallybook", "${HOME}/.trash"],
        },
        {
            "name": "invalid-substitutions#5",
            "file": "output/config.json",
            "level": 4,
            "path": "app.motd",
            "equals": "Try the new dashboard: ${features.beta_dashboard}",
        },
        {
            "name": "invalid-substitutions#6",
            "file": "output/config.json",
            "level": 3,
            "path": "billing.invoice_number_format",
            "equals": "INV-$YEAR-{seq:05d}",
        },
        {
            "name": "invalid-substitutions#7",
            "file": "output/report.txt",
            "level": 4,
            "contains": [
                "[warnings]\ninvalid substitution ${HOME} in backup.exclude: no such key\ninvalid substitution ${HOME} in paths.user_cache: no such key\ninvalid substitution ${database.pool} in app.banner: refers to an object\ninvalid substitution ${features.beta_dashboard} in app.motd: no such key\ninvalid substitution ${mail.admins} in notifications.digest_recipients: refers to a list\n"
            ],
        },
        {
            "name": "secrets#1",
            "file": "output/config.json",
            "level": 3,
            "path": "database.password_secret",
            "equals": "pg-S1te-7d41c9",
        },
        {
            "name": "secrets#2",
            "file": "output/config.json",
            "level": 3,
            "path": "auth.signing_secret.key",
            "equals": "hs512-4f0c2a9be1d7",
        },
        {
            "name": "secrets#3",
            "file": "output/config.json",
            "level": 3,
            "path": "auth.recovery_codes_secret",
            "equals": ["RC-7Q2M-9XKD", "RC-J4TW-3BNE"],
        },
        {
            "name": "secrets#4",
            "file": "output/report.txt",
            "level": 4,
            "contains": [
                "\ndatabase.password_secret = ***\n",
                "\nauth.signing_secret.key = ***\nauth.signing_secret.key_id = ***\n",
                "\nauth.recovery_codes_secret = ***\n",
                "\nauth.oauth.client_secret = ***\n",
                "\napp.secret_rotation_days = 90\n",
                '\nauth.secret_store = "vault"\n',
            ],
        },
        {
            "name": "secrets#5",
            "file": "output/report.txt",
            "level": 4,
            "not_contains": [
                "pg-S1te-7d41c9",
                "hs512-4f0c2a9be1d7",
                "k-2025-03",
                "RC-7Q2M-9XKD",
                "oauth-Cl13nt-88ab",
            ],
        },
        {
            "name": "unknown-keys#1",
            "file": "output/config.json",
            "level": 3,
            "path": "databse.host",
            "equals": "db.internal.example.org",
        },
        {
            "name": "unknown-keys#2",
            "file": "output/config.json",
            "level": 3,
            "path": "plugins.csv_export.delimiter",
            "equals": ";",
        },
        {
            "name": "unknown-keys#3",
            "file": "output/config.json",
            "level": 3,
            "path": "experimental",
            "absent": True,
        },
        {
            "name": "unknown-keys#4",
            "file": "output/report.txt",
            "level": 4,
            "contains": ["\n[unknown keys]\ndatabse.host\n", "\nplugins.csv_export.delimiter\n"],
        },
        {
            "name": "unknown-keys#5",
            "file": "output/report.txt",
            "level": 4,
            "not_contains": ["experimental"],
        },
        {
            "name": "non-ascii#1",
            "file": "output/config.json",
            "level": 3,
            "path": "app.company_name",
            "equals": "Bücherei Müller & Söhne",
        },
        {
            "name": "non-ascii#2",
            "file": "output/report.txt",
            "level": 4,
            "contains": ['\napp.company_name = "Bücherei Müller & Söhne"\n'],
        },
    ],
    "edge_expect": [
        {"name": "edge#1", "file": None, "level": 4, "exit_code": 2},
        {
            "name": "edge#2",
            "file": None,
            "level": 4,
            "stream": "stderr",
            "contains": ["substitution cycle: urls.api_root -> urls.portal -> urls.api_root\n"],
        },
        {"name": "edge#3", "file": "output/config.json", "level": 4, "absent": True},
        {"name": "edge#4", "file": "output/report.txt", "level": 4, "absent": True},
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import configparser
import csv
import io
import json
import os
import re
import tomllib
from decimal import Decimal
from typing import Any

CONFIG, REPORT = "output/config.json", "output/report.txt"
REF = re.compile(r"\$\{([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\}")
NULL = None  # a JSON null in a flat layer: delete this key and everything under it


# The judge's model is flat: a layer is a dict of dotted key -> setting (or NULL), in file
# order. Objects exist only as prefixes, so emptied objects vanish by themselves.


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(item, dict):
            out.update(flatten(item, prefix + key + "."))
        else:
            out[prefix + key] = item
    return out


def under(key: str, root: str) -> bool:
    return key == root or key.startswith(root + ".")


def ini_flat(text: str) -> dict[str, Any]:
    parser = configparser.RawConfigParser()
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(text)
    out: dict[str, Any] = {}
    for section in parser.sections():
        for key in parser.options(section):
            raw = parser.get(section, key)
            value: Any = raw
            if raw.casefold() in ("true", "false"):
                value = raw.casefold() == "true"
            elif re.fullmatch(r"-?[0-9]+", raw):
                value = int(raw)
            elif re.fullmatch(r"-?[0-9]+[.][0-9]+", raw):
                value = float(raw)
            out[f"{section}.{key}"] = value
    return out


def migrated(layer: dict[str, Any], renames: list[tuple[str, str]]) -> dict[str, Any]:
    layer = dict(layer)
    for old, new in renames:
        moving = {k: v for k, v in layer.items() if under(k, old)}
        if not moving:
            continue
        layer = {k: v for k, v in layer.items() if not under(k, old)}
        if not any(under(k, new) for k in layer):
            layer.update({new + k[len(old) :]: v for k, v in moving.items()})
    return layer


def merged(layers: list[dict[str, Any]]) -> dict[str, Any]:
    config: dict[str, Any] = {}
    for layer in layers:
        for key, value in layer.items():
            # a value replaces what is at its key, below it, and any setting above it
            config = {
                k: v
                for k, v in config.items()
                if not under(k, key) and not (value is not NULL and under(key, k))
            }
            if value is not NULL:
                config[key] = value
    return config


def what_at(config: dict[str, Any], ref: str) -> str:
    """'setting', 'object' or 'missing'."""
    if ref in config:
        return "setting"
    return "object" if any(k.startswith(ref + ".") for k in config) else "missing"


class Expected:
    """TASK.md's configuration and report, recomputed from the pristine inputs."""

    def __init__(self, source: benchlib.Files) -> None:
        renames = [
            (r["old_key"], r["new_key"])
            for r in csv.DictReader(io.StringIO(source.text("inputs/key_migrations.csv")))
        ]
        defaults = migrated(ini_flat(source.text("inputs/defaults.ini")), renames)
        site = flatten(tomllib.loads(source.text("inputs/site.toml")))
        user = flatten(json.loads(source.text("inputs/user.json")))
        runtime = flatten(json.loads(source.text("inputs/runtime.json")))
        layers = [migrated(x, renames) for x in (site, user, runtime)]
        self.config = merged([defaults, *layers])
        self.known = set(defaults)
        self.warnings: set[str] = set()
        self.invalid: set[str] = set()  # settings that keep an invalid placeholder
        self.final = self.substitute()

    def insert(self, owner: str, text: str, done: dict[str, str]) -> str | None:
        """``text`` with its placeholders replaced; None while a string it needs is pending."""
        pending = False

        def one(match: re.Match[str]) -> str:
            nonlocal pending
            ref, kind = match.group(1), what_at(self.config, match.group(1))
            value = self.config.get(ref)
            if kind == "setting" and not isinstance(value, list):
                if not isinstance(value, str):
                    return str(value)
                if ref in done:
                    return done[ref]
                pending = True
                return ""
            reason = {"missing": "no such key", "object": "refers to an object"}.get(
                kind, "refers to a list"
            )
            self.warnings.add(f"invalid substitution {match.group(0)} in {owner}: {reason}")
            self.invalid.add(owner)
            return match.group(0)

        result = REF.sub(one, text)
        return None if pending else result

    def substitute(self) -> dict[str, Any]:
        strings = {k: v for k, v in self.config.items() if isinstance(v, str)}
        done: dict[str, str] = {}
        while len(done) < len(strings):
            progress = False
            for key in sorted(set(strings) - set(done)):
                text = self.insert(key, strings[key], done)
                if text is not None:
                    done[key], progress = text, True
            if not progress:  # never on the main fixture: its placeholders form no cycle
                raise RuntimeError(f"judge: substitution cycle among {sorted(strings)[:5]}")
        final = {}
        for key, value in self.config.items():
            if isinstance(value, str):
                final[key] = done[key]
            elif isinstance(value, list):
                final[key] = [self.insert(key, v, done) if isinstance(v, str) else v for v in value]
            else:
                final[key] = value
        return final

    def report(self) -> dict[str, list[str]]:
        lines = []
        for key in sorted(self.final):
            secret = any(p.endswith("_secret") for p in key.split("."))
            shown = "***" if secret else json.dumps(self.final[key], ensure_ascii=False)
            lines.append(f"{key} = {shown}")
        return {
            "[settings]": lines,
            "[unknown keys]": sorted(k for k in self.final if k not in self.known),
            "[warnings]": sorted(self.warnings),
        }


def expected(run: benchlib.Run) -> Expected:
    if "expected" not in run.memo:
        run.memo["expected"] = Expected(run.source)
    result: Expected = run.memo["expected"]
    return result


def as_json_numbers(value: Any) -> Any:
    """The value as config.json must hold it, floats as Decimal (the way it is read)."""
    return json.loads(json.dumps(value), parse_float=Decimal)


def same(a: Any, b: Any) -> bool:
    """Equal with equal JSON types (1 is not 1.0, True is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def candidate_settings(run: benchlib.Run) -> dict[str, Any]:
    try:
        document = json.loads(run.text(CONFIG), parse_float=Decimal)
    except ValueError as exc:
        raise benchlib.CheckFailed(f"{CONFIG}: not JSON ({exc})") from None
    benchlib.expect(isinstance(document, dict), f"{CONFIG}: not a JSON object")
    return flatten(document)


def compare(run: benchlib.Run, keys: set[str]) -> None:
    got, want = candidate_settings(run), as_json_numbers(expected(run).final)
    wrong = sorted(k for k in keys if k not in got or not same(got[k], want[k]))
    shown = ", ".join(f"{k}: {got.get(k, '<missing>')!r} != {want[k]!r}" for k in wrong[:3])
    benchlib.expect(not wrong, f"{len(wrong)} settings differ: {shown}")


@judge.check(level=3)
def settings_merged(run: benchlib.Run) -> None:
    """Precedence, migrations, deletions and substitutions: every setting is there, nothing
    else, and each (but those keeping an invalid placeholder) has its final value and type."""
    got, want = set(candidate_settings(run)), set(expected(run).final)
    benchlib.expect(not want - got, f"missing settings: {sorted(want - got)[:5]}")
    benchlib.expect(not got - want, f"settings that should not be there: {sorted(got - want)[:5]}")
    compare(run, want - expected(run).invalid)


@judge.check(level=4)
def invalid_substitutions_verbatim(run: benchlib.Run) -> None:
    """A setting with an invalid placeholder keeps it as written; the rest is resolved."""
    compare(run, expected(run).invalid)


def report_sections(run: benchlib.Run) -> dict[str, list[str]]:
    text = run.text(REPORT)
    benchlib.expect(text.endswith("\n"), f"{REPORT}: the last line does not end with a line feed")
    sections: dict[str, list[str]] = {}
    lines = text.split("\n")[:-1]
    for line in lines:
        if line in ("[settings]", "[unknown keys]", "[warnings]"):
            sections[line] = []
        else:
            benchlib.expect(bool(sections), f"{REPORT}: text before [settings]: {line[:60]!r}")
            list(sections.values())[-1].append(line)
    order = ["[settings]", "[unknown keys]", "[warnings]"]
    benchlib.expect_equal(list(sections), order, f"{REPORT} section headers")
    return sections


def section(run: benchlib.Run, name: str) -> None:
    got, want = report_sections(run)[name], expected(run).report()[name]
    extra = [x for x in got if x not in want][:3]
    missing = [x for x in want if x not in got][:3]
    benchlib.expect(got == want, f"{REPORT} {name}: unexpected {extra}, missing {missing}")


@judge.check(level=4)
def report_settings(run: benchlib.Run) -> None:
    """Every final setting, sorted, JSON values, secrets as ***."""
    section(run, "[settings]")


@judge.check(level=4)
def report_unknown_keys(run: benchlib.Run) -> None:
    section(run, "[unknown keys]")


@judge.check(level=4)
def report_warnings(run: benchlib.Run) -> None:
    section(run, "[warnings]")


@judge.edge
def no_file_written(run: benchlib.Run) -> None:
    """After the cycle, output/ holds no file at all (no partial or temporary config)."""
    written = sorted(
        Path(folder, name).relative_to(run.root).as_posix()
        for folder, _dirs, names in os.walk(run.root / "output")
        for name in names
    )
    benchlib.expect(not written, f"files written despite the cycle: {written[:3]}")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
