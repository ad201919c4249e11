"""Fixture generator of task 14: four configuration layers of one Tallybook installation.

``config_layers`` writes the five inputs from one model. The filler is a catalog of about 230
settings (core sections, plugins, jobs, feature flags) that defaults.ini (the 3.x defaults)
declares; site.toml, user.json and runtime.json override seeded subsets of them, sometimes
under their old 3.x names. The anchors of task.toml (records without a ``file``) are merged in
afterwards; a record is one of:

* ``{layer = "defaults", section, key, raw}``: a line of defaults.ini (``raw`` is its text);
* ``{layer = "site" | "user" | "runtime", key, value}``: a value at a dotted key of that
  layer (``null = true`` instead of ``value`` writes a JSON null);
* ``{layer = "migrations", old, new}``: a row of key_migrations.csv.

Filler never touches a key an anchor uses (under its old or new name), never writes ``${``
outside ``paths.*``-based templates, never ends a key with ``_secret`` and never forms a
substitution cycle. Migration rows keep their relative order: anchor rows first come in
declaration order, then the per-plugin and per-job renames.
"""

from __future__ import annotations

import json
import random
from typing import Any

import benchlib

INT, BOOL, STR, FLOAT = "int", "bool", "str", "float"

# section -> [(key, kind, default raw text)]; {plugin}/{job} are filled in below.
CORE: list[tuple[str, list[tuple[str, str, str]]]] = [
    (
        "app",
        [
            ("name", STR, "Tallybook"),
            ("environment", STR, "production"),
            ("timezone", STR, "UTC"),
            ("locale", STR, "en_US"),
            ("currency", STR, "USD"),
            ("page_size", INT, "50"),
            ("upload_limit_mb", INT, "25"),
            ("maintenance_message", STR, "Tallybook is being upgraded, back soon."),
            ("support_email", STR, "support@example.org"),
        ],
    ),
    (
        "server",
        [
            ("host", STR, "0.0.0.0"),
            ("public_host", STR, "localhost"),
            ("request_timeout_seconds", INT, "30"),
            ("keepalive_seconds", INT, "5"),
            ("gzip", BOOL, "true"),
            ("trusted_proxies", STR, "127.0.0.1"),
            ("max_body_kb", INT, "2048"),
            ("static_url", STR, "/static/"),
        ],
    ),
    (
        "database",
        [
            ("engine", STR, "postgresql"),
            ("host", STR, "localhost"),
            ("port", INT, "5432"),
            ("name", STR, "tallybook"),
            ("user", STR, "tallybook"),
            ("connect_timeout_seconds", INT, "10"),
            ("sslmode", STR, "prefer"),
            ("statement_timeout_ms", INT, "60000"),
        ],
    ),
    (
        "database.pool",
        [
            ("size", INT, "10"),
            ("overflow", INT, "5"),
            ("recycle_seconds", INT, "1800"),
            ("pre_ping", BOOL, "true"),
        ],
    ),
    (
        "cache",
        [
            ("backend", STR, "memory"),
            ("max_entries", INT, "10000"),
            ("namespace", STR, "tb"),
        ],
    ),
    (
        "logging",
        [
            ("level", STR, "INFO"),
            ("json", BOOL, "false"),
            ("syslog", BOOL, "false"),
            ("slow_request_ms", INT, "1500"),
        ],
    ),
    ("mail", [("subject_prefix", STR, "[Tallybook]"), ("batch_size", INT, "50")]),
    (
        "auth",
        [
            ("session_lifetime_minutes", INT, "720"),
            ("password_min_length", INT, "12"),
            ("lockout_attempts", INT, "5"),
            ("mfa_required", BOOL, "false"),
            ("remember_me_days", INT, "30"),
        ],
    ),
    (
        "auth.oauth",
        [
            ("provider", STR, "none"),
            ("client_id", STR, "tallybook-web"),
            ("redirect_path", STR, "/oauth/callback"),
            ("scopes", STR, "openid email"),
        ],
    ),
    (
        "storage",
        [
            ("backend", STR, "local"),
            ("bucket", STR, "tallybook-files"),
            ("region", STR, "eu-central-1"),
            ("multipart_threshold_mb", INT, "64"),
        ],
    ),
    (
        "search",
        [
            ("engine", STR, "builtin"),
            ("min_query_length", INT, "3"),
            ("max_results", INT, "50"),
            ("fuzzy", BOOL, "true"),
        ],
    ),
    (
        "metrics",
        [
            ("enabled", BOOL, "true"),
            ("prefix", STR, "tallybook"),
            ("flush_interval_seconds", INT, "10"),
        ],
    ),
    (
        "billing",
        [
            ("payment_terms_days", INT, "30"),
            ("late_fee_percent", FLOAT, "1.5"),
            ("tax_rounding", STR, "per_line"),
            ("dunning_levels", INT, "3"),
        ],
    ),
    ("i18n", [("fallback_locale", STR, "en_US"), ("date_style", STR, "medium")]),
]

PLUGINS = [
    "bank_sync",
    "csv_export",
    "datev_export",
    "dunning",
    "ebics",
    "fx_rates",
    "gobd_archive",
    "legacy_import",
    "mt940_import",
    "ocr_receipts",
    "payroll_bridge",
    "paypal_sync",
    "pdf_invoices",
    "sepa_payments",
    "stripe_sync",
    "vat_returns",
]
JOBS = [
    "nightly_backup",
    "fx_refresh",
    "reminder_mails",
    "bank_poll",
    "index_rebuild",
    "audit_rollup",
    "stale_sessions",
    "invoice_run",
    "archive_month",
    "vacuum",
    "report_digest",
    "quota_check",
]
FEATURES = [
    "advanced_search",
    "api_tokens",
    "audit_trail",
    "batch_edit",
    "budget_planner",
    "cash_basis",
    "cost_centers",
    "custom_fields",
    "dark_mode",
    "document_inbox",
    "dual_control",
    "e_invoicing",
    "expense_claims",
    "fixed_assets",
    "inline_help",
    "inventory",
    "keyboard_shortcuts",
    "mileage_log",
    "multi_currency",
    "new_editor",
    "offline_mode",
    "project_costing",
    "quick_entry",
    "recurring_invoices",
    "saved_views",
    "smart_match",
    "time_tracking",
    "webhooks",
    "xrechnung",
    "zero_inbox",
]
WORDS = [
    "amber",
    "birch",
    "cedar",
    "delta",
    "ember",
    "fjord",
    "grove",
    "harbor",
    "iris",
    "juniper",
    "kestrel",
    "linden",
    "maple",
    "nimbus",
    "orchid",
    "pebble",
    "quartz",
    "raven",
    "sorrel",
    "tundra",
    "umber",
    "vale",
    "willow",
    "yarrow",
    "zephyr",
]
# plausible replacement values of the catalog's string settings
ALTERNATIVES = {
    "app.environment": ["staging", "production-eu"],
    "app.timezone": ["Europe/Berlin", "America/New_York", "Europe/Vienna"],
    "app.locale": ["de_DE", "en_GB", "fr_FR"],
    "app.currency": ["EUR", "CHF", "GBP"],
    "app.maintenance_message": [
        "Wartungsarbeiten, bitte später erneut versuchen.",
        "Back at 06:00 UTC.",
    ],
    "app.support_email": ["help@books.example.org", "it-support@example.org"],
    "server.host": ["127.0.0.1", "::"],
    "server.trusted_proxies": ["10.0.0.0/8", "10.12.0.4"],
    "server.static_url": ["https://cdn.example.org/tallybook/", "/assets/"],
    "database.engine": ["postgresql+psycopg", "postgresql"],
    "database.host": ["db.internal.example.org", "10.12.0.21"],
    "database.name": ["tallybook_prod", "books"],
    "database.user": ["tallybook_app", "books"],
    "database.sslmode": ["require", "verify-full"],
    "cache.backend": ["redis", "memcached"],
    "cache.namespace": ["tb4", "books"],
    "mail.subject_prefix": ["[Books]", "[Buchhaltung]"],
    "auth.oauth.provider": ["keycloak", "azuread", "google"],
    "auth.oauth.client_id": ["tallybook-prod", "books-web"],
    "auth.oauth.redirect_path": ["/auth/callback", "/sso/return"],
    "auth.oauth.scopes": ["openid email profile", "openid"],
    "storage.backend": ["s3", "gcs"],
    "storage.bucket": ["books-example-files", "tb-prod-files"],
    "storage.region": ["eu-west-1", "us-east-2"],
    "search.engine": ["postgres", "meilisearch"],
    "metrics.prefix": ["books", "tallybook.prod"],
    "billing.tax_rounding": ["per_document", "per_line"],
    "i18n.fallback_locale": ["de_DE", "en_GB"],
    "i18n.date_style": ["short", "long"],
}
CRON = ["0 2 * * *", "15 3 * * *", "*/10 * * * *", "0 6 * * 1", "30 1 1 * *", "0 */4 * * *"]
LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR"]


def _catalog() -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Every filler section of defaults.ini with its keys: (key, kind, raw default)."""
    sections = [(name, list(keys)) for name, keys in CORE]
    for plugin in PLUGINS:
        sections.append((f"plugins.{plugin}", [
            ("enabled", BOOL, "false"), ("timeout", INT, "30"), ("priority", INT, "50"),
            ("cache_dir", STR, f"${{paths.cache}}/{plugin}"),
        ]))  # fmt: skip
    for job in JOBS:
        sections.append((f"jobs.{job}", [
            ("cron", STR, "0 3 * * *"), ("enabled", BOOL, "true"),
            ("timeout_seconds", INT, "900"), ("output", STR, f"${{paths.exports}}/{job}"),
        ]))  # fmt: skip
    sections.append(("features", [(f, BOOL, "false") for f in FEATURES]))
    return sections


def _migrations() -> list[tuple[str, str]]:
    """Filler migration rows: the 3.x plugin and job renames."""
    rows = [(f"plugins.{p}.timeout", f"plugins.{p}.timeout_seconds") for p in PLUGINS]
    rows += [(f"jobs.{j}.cron", f"jobs.{j}.schedule") for j in JOBS]
    return rows


def _typed(kind: str, raw: str) -> Any:
    if kind == INT:
        return int(raw)
    if kind == FLOAT:
        return float(raw)
    if kind == BOOL:
        return raw.lower() == "true"
    return raw


def _new_value(rng: random.Random, key: str, kind: str, old: Any) -> Any:
    """A plausible different value of the same kind."""
    if kind == BOOL:
        return not old
    if kind == INT:
        while (value := max(1, int(old * rng.choice((0.5, 2, 3, 0.25, 1.5))))) == old:
            old += 1
        return value
    if kind == FLOAT:
        return rng.choice((0.5, 2.0, 2.5, 0.75))
    if key.endswith("cron"):
        return rng.choice([c for c in CRON if c != old])
    if key.endswith("level"):
        return rng.choice([c for c in LEVELS if c != old])
    if key in ALTERNATIVES:
        return rng.choice([v for v in ALTERNATIVES[key] if v != old])
    return f"{old}_{rng.choice(WORDS)}"  # a plugin cache folder or a job's output folder


def _set(tree: dict[str, Any], key: str, value: Any) -> None:
    *parents, last = key.split(".")
    node = tree
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value


def _anchor_records(ctx: benchlib.SeedContext) -> list[dict[str, Any]]:
    return [r for name in ctx.anchors for r in ctx.anchor(name)]  # declaration order


def _anchor_keys(records: list[dict[str, Any]]) -> set[str]:
    """Every dotted key an anchor touches, old and new names, and their sections."""
    keys = set()
    for record in records:
        if record["layer"] == "defaults":
            keys.add(f"{record['section']}.{record['key']}")
        elif record["layer"] == "migrations":
            keys |= {record["old"], record["new"]}
        else:
            keys.add(record["key"])
    return keys


def _protected(key: str, anchored: set[str]) -> bool:
    """Whether filler must leave ``key`` alone (an anchor or a prefix of one uses it)."""
    return key.startswith("paths.") or any(
        a == key or a.startswith(key + ".") or key.startswith(a + ".") for a in sorted(anchored)
    )


def model(ctx: benchlib.SeedContext) -> dict[str, Any]:
    """The five inputs: INI sections, three layer trees and the migration rows."""
    rng = ctx.stream("layers")
    records = _anchor_records(ctx)
    anchored = _anchor_keys(records)
    catalog = _catalog()
    renames = dict(_migrations())

    # defaults.ini: the catalog plus anchor lines (an anchor line replaces a catalog line)
    ini: dict[str, dict[str, str]] = {}
    kinds: dict[str, str] = {}
    for section, keys in catalog:
        for key, kind, raw in keys:
            ini.setdefault(section, {})[key] = raw
            kinds[f"{section}.{key}"] = kind
    for record in records:
        if record["layer"] == "defaults":
            ini.setdefault(record["section"], {})[record["key"]] = record["raw"]

    layers: dict[str, dict[str, Any]] = {"site": {}, "user": {}, "runtime": {}}
    shares = {"site": 0.25, "user": 0.08, "runtime": 0.04}
    for layer, share in shares.items():
        for section, keys in catalog:
            for key, kind, raw in keys:
                dotted = f"{section}.{key}"
                if _protected(dotted, anchored) or rng.random() >= share:
                    continue
                value = _new_value(rng, dotted, kind, _typed(kind, raw))
                new = renames.get(dotted)
                # runtime.json is written by 4.0 (new names), user.json by 3.x (old names),
                # site.toml was updated halfway
                fresh = layer == "runtime" or (layer == "site" and rng.random() < 0.5)
                name = new if new and fresh else dotted
                _set(layers[layer], name, value)

    # filler deletions and plugin-specific keys unknown to the defaults
    flags = [f for f in FEATURES if not _protected(f"features.{f}", anchored)]
    for flag in rng.sample(flags, 2):
        layers["user"].setdefault("features", {})[flag] = None
    for plugin in rng.sample([p for p in PLUGINS if p != "legacy_import"], 3):
        _set(layers["site"], f"plugins.{plugin}.retries", rng.randint(2, 6))
    _set(layers["runtime"], f"jobs.{rng.choice(JOBS)}.enabled", None)

    migrations: list[tuple[str, str]] = []
    for record in records:
        if record["layer"] == "migrations":
            migrations.append((record["old"], record["new"]))
        elif record["layer"] in layers:
            value = None if record.get("null") else record["value"]
            _set(layers[record["layer"]], record["key"], value)
    migrations += _migrations()
    return {"ini": ini, **layers, "migrations": migrations}


# ---------------------------------------------------------------------------------------------
# writers
# ---------------------------------------------------------------------------------------------


def _ini_text(ini: dict[str, dict[str, str]]) -> str:
    lines = [
        "; Tallybook 3.x -- default settings shipped with the package.",
        "; Do not edit: override them in site.toml, user.json or runtime.json.",
        "",
    ]
    for section, keys in ini.items():
        lines.append(f"[{section}]")
        lines += [f"{key} = {raw}".rstrip() for key, raw in keys.items()]
        lines.append("")
    return "\n".join(lines)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    inner = ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items())
    return "{ " + inner + " }"


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _toml_tables(tree: dict[str, Any], path: list[str], out: list[str]) -> None:
    scalars = [(k, v) for k, v in tree.items() if not isinstance(v, dict) and not _is_table_list(v)]
    if scalars and path:
        out.append(f"[{'.'.join(path)}]")
    out += [f"{k} = {_toml_value(v)}" for k, v in scalars]
    if scalars:
        out.append("")
    for key, value in tree.items():
        if isinstance(value, dict):
            _toml_tables(value, [*path, key], out)
        elif _is_table_list(value):
            for item in value:
                out.append(f"[[{'.'.join([*path, key])}]]")
                out += [f"{k} = {_toml_value(v)}" for k, v in item.items()]
                out.append("")


def _toml_text(tree: dict[str, Any]) -> str:
    out = ["# Site settings of the Tallybook installation at books.example.org.", ""]
    _toml_tables(tree, [], out)
    return "\n".join(out)


def _json_text(tree: dict[str, Any]) -> str:
    return json.dumps(tree, indent=2, ensure_ascii=False) + "\n"


def config_layers(ctx: benchlib.SeedContext) -> None:
    """inputs/: defaults.ini, site.toml, user.json, runtime.json and key_migrations.csv."""
    data = model(ctx)
    ctx.write_text("inputs/defaults.ini", _ini_text(data["ini"]))
    ctx.write_text("inputs/site.toml", _toml_text(data["site"]))
    ctx.write_text("inputs/user.json", _json_text(data["user"]))
    ctx.write_text("inputs/runtime.json", _json_text(data["runtime"]))
    rows = [{"old_key": old, "new_key": new} for old, new in data["migrations"]]
    ctx.write_csv("inputs/key_migrations.csv", ["old_key", "new_key"], rows)
