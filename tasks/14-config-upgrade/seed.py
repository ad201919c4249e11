# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 14: Layered Configuration Upgrade.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 14;
anchor records sit at fixed positions. The output is byte-identical across runs, TZ, locale,
PYTHONHASHSEED, umask and working directory.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the task and corpus folders

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import benchlib

TASK = {
    "id": 14,
    "seed": 20260845,
    "stages": ["initial"],
    "files": [
        {
            "path": "inputs",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "config_layers",
            "stage": "initial",
            "writes": [
                "inputs/defaults.ini",
                "inputs/site.toml",
                "inputs/user.json",
                "inputs/runtime.json",
                "inputs/key_migrations.csv",
            ],
        }
    ],
    "edge_files": [],
    "anchors": {
        "substitute-after-merge": [
            {"layer": "defaults", "section": "paths", "key": "root", "raw": "/srv/tallybook"},
            {"layer": "defaults", "section": "paths", "key": "data", "raw": "${paths.root}/data"},
            {"layer": "defaults", "section": "paths", "key": "logs", "raw": "${paths.root}/log"},
            {"layer": "defaults", "section": "paths", "key": "cache", "raw": "${paths.root}/cache"},
            {
                "layer": "defaults",
                "section": "paths",
                "key": "exports",
                "raw": "${paths.data}/exports",
            },
            {
                "layer": "defaults",
                "section": "paths",
                "key": "attachments",
                "raw": "${paths.data}/attachments",
            },
            {"layer": "defaults", "section": "paths", "key": "tmp", "raw": "/tmp/tallybook"},
            {
                "layer": "defaults",
                "section": "logging",
                "key": "file",
                "raw": "${paths.logs}/tallybook.log",
            },
            {"layer": "runtime", "key": "paths.root", "value": "/mnt/books"},
        ],
        "ini-types": [
            {"layer": "defaults", "section": "app", "key": "debug", "raw": "False"},
            {"layer": "defaults", "section": "search", "key": "highlight", "raw": "True"},
            {"layer": "defaults", "section": "app", "key": "legacy_mode", "raw": "off"},
            {"layer": "defaults", "section": "metrics", "key": "sample_rate", "raw": "0.5"},
            {"layer": "defaults", "section": "storage", "key": "retention_days", "raw": "-1"},
        ],
        "ini-raw-text": [
            {
                "layer": "defaults",
                "section": "logging",
                "key": "format",
                "raw": "%(asctime)s %(levelname)s [%(name)s] %(message)s",
            },
            {"layer": "defaults", "section": "server", "key": "maxConnections", "raw": "512"},
            {
                "layer": "migrations",
                "old": "server.maxConnections",
                "new": "server.max_connections",
            },
        ],
        "migrate-old-then-new": [
            {"layer": "defaults", "section": "server", "key": "port", "raw": "8080"},
            {"layer": "migrations", "old": "server.port", "new": "server.listen_port"},
            {"layer": "site", "key": "server.listen_port", "value": 8443},
        ],
        "migrate-new-then-old": [
            {
                "layer": "defaults",
                "section": "mail",
                "key": "sender",
                "raw": "Tallybook <books@example.org>",
            },
            {"layer": "migrations", "old": "mail.sender", "new": "mail.from_address"},
            {
                "layer": "site",
                "key": "mail.from_address",
                "value": "Tallybook Books <books@tallybook.example.org>",
            },
            {
                "layer": "user",
                "key": "mail.sender",
                "value": "Ledger Team <ledger-team@example.org>",
            },
        ],
        "both-names-in-one-layer": [
            {"layer": "defaults", "section": "server", "key": "workers", "raw": "4"},
            {"layer": "migrations", "old": "server.workers", "new": "server.worker_processes"},
            {"layer": "runtime", "key": "server.workers", "value": 16},
            {"layer": "runtime", "key": "server.worker_processes", "value": 0},
        ],
        "renamed-twice": [
            {"layer": "defaults", "section": "cache", "key": "ttl", "raw": "300"},
            {"layer": "migrations", "old": "cache.ttl", "new": "cache.ttl_seconds"},
            {"layer": "migrations", "old": "cache.ttl_seconds", "new": "cache.expiry.seconds"},
            {"layer": "site", "key": "cache.ttl_seconds", "value": 600},
        ],
        "section-emptied": [
            {"layer": "defaults", "section": "smtp", "key": "host", "raw": "localhost"},
            {"layer": "defaults", "section": "smtp", "key": "port", "raw": "25"},
            {"layer": "defaults", "section": "smtp", "key": "starttls", "raw": "false"},
            {"layer": "defaults", "section": "smtp", "key": "timeout", "raw": "10"},
            {"layer": "migrations", "old": "smtp.host", "new": "mail.smtp.host"},
            {"layer": "migrations", "old": "smtp.port", "new": "mail.smtp.port"},
            {"layer": "migrations", "old": "smtp.starttls", "new": "mail.smtp.starttls"},
            {"layer": "migrations", "old": "smtp.timeout", "new": "mail.smtp.timeout_seconds"},
            {"layer": "site", "key": "mail.smtp.host", "value": "smtp.example.org"},
            {"layer": "site", "key": "mail.smtp.starttls", "value": True},
        ],
        "object-renamed": [
            {"layer": "defaults", "section": "reporting", "key": "default_currency", "raw": "USD"},
            {
                "layer": "defaults",
                "section": "reporting",
                "key": "fiscal_year_start",
                "raw": "01-01",
            },
            {"layer": "defaults", "section": "reporting", "key": "decimal_places", "raw": "2"},
            {"layer": "migrations", "old": "reporting", "new": "reports"},
            {"layer": "user", "key": "reporting.default_currency", "value": "EUR"},
        ],
        "null-deletes": [
            {"layer": "defaults", "section": "features", "key": "beta_dashboard", "raw": "true"},
            {"layer": "user", "key": "features.beta_dashboard", "null": True},
            {"layer": "runtime", "key": "plugins.legacy_import", "null": True},
            {"layer": "user", "key": "search.synonyms_file", "null": True},
            {"layer": "user", "key": "integrations.slack.channel", "value": "#books"},
            {"layer": "user", "key": "integrations.slack.webhook_url", "null": True},
        ],
        "null-migrated": [
            {"layer": "defaults", "section": "metrics", "key": "statsd_host", "raw": "127.0.0.1"},
            {"layer": "defaults", "section": "metrics", "key": "statsd_port", "raw": "8125"},
            {"layer": "migrations", "old": "metrics.statsd_host", "new": "metrics.statsd.host"},
            {"layer": "migrations", "old": "metrics.statsd_port", "new": "metrics.statsd.port"},
            {"layer": "site", "key": "metrics.statsd.host", "value": "statsd.internal.example.org"},
            {"layer": "runtime", "key": "metrics.statsd_host", "null": True},
        ],
        "lists-replace": [
            {"layer": "defaults", "section": "server", "key": "allowed_hosts", "raw": "localhost"},
            {
                "layer": "site",
                "key": "server.allowed_hosts",
                "value": ["books.example.org", "books.internal.example.org"],
            },
            {"layer": "user", "key": "server.allowed_hosts", "value": ["books.example.org"]},
            {"layer": "defaults", "section": "server", "key": "cors_origins", "raw": ""},
            {
                "layer": "site",
                "key": "server.cors_origins",
                "value": ["https://books.example.org", "https://admin.example.org"],
            },
            {"layer": "runtime", "key": "server.cors_origins", "value": []},
        ],
        "object-replaced": [
            {
                "layer": "defaults",
                "section": "logging.rotation",
                "key": "max_bytes",
                "raw": "10485760",
            },
            {"layer": "defaults", "section": "logging.rotation", "key": "backups", "raw": "7"},
            {"layer": "user", "key": "logging.rotation", "value": False},
        ],
        "deep-merge": [
            {"layer": "defaults", "section": "database.pool", "key": "size", "raw": "10"},
            {"layer": "defaults", "section": "database.pool", "key": "overflow", "raw": "5"},
            {"layer": "defaults", "section": "database.pool", "key": "pre_ping", "raw": "true"},
            {"layer": "site", "key": "database.pool.overflow", "value": 20},
            {"layer": "runtime", "key": "database.pool.size", "value": 40},
        ],
        "lists-substituted": [
            {"layer": "defaults", "section": "backup", "key": "include", "raw": "${paths.data}"},
            {"layer": "defaults", "section": "backup", "key": "targets", "raw": "local"},
            {
                "layer": "site",
                "key": "backup.include",
                "value": ["${paths.data}", "${paths.logs}", "${paths.attachments}"],
            },
            {
                "layer": "site",
                "key": "backup.targets",
                "value": [
                    {"name": "nas", "path": "/mnt/nas/tallybook", "keep_days": 14},
                    {"name": "offsite", "path": "s3://tb-backup/books", "keep_days": 90},
                ],
            },
        ],
        "substitute-scalars": [
            {"layer": "defaults", "section": "app", "key": "environment", "raw": "production"},
            {
                "layer": "defaults",
                "section": "app",
                "key": "public_url",
                "raw": "http://localhost:8080/",
            },
            {
                "layer": "site",
                "key": "app.public_url",
                "value": "https://${server.public_host}:${server.listen_port}/",
            },
            {"layer": "site", "key": "server.public_host", "value": "books.example.org"},
            {
                "layer": "defaults",
                "section": "logging",
                "key": "startup_banner",
                "raw": "Tallybook starting",
            },
            {
                "layer": "user",
                "key": "logging.startup_banner",
                "value": "Tallybook ${app.environment} (tls=${mail.smtp.starttls}, sample rate ${metrics.sample_rate})",
            },
        ],
        "invalid-substitutions": [
            {"layer": "defaults", "section": "app", "key": "name", "raw": "Tallybook"},
            {
                "layer": "defaults",
                "section": "app",
                "key": "banner",
                "raw": "Welcome to ${app.name}",
            },
            {
                "layer": "site",
                "key": "app.banner",
                "value": "Welcome to ${app.name} (pool ${database.pool})",
            },
            {"layer": "defaults", "section": "mail", "key": "admins", "raw": "root@localhost"},
            {
                "layer": "site",
                "key": "mail.admins",
                "value": ["ana@example.org", "ben@example.org"],
            },
            {
                "layer": "defaults",
                "section": "notifications",
                "key": "digest_recipients",
                "raw": "${mail.admins}",
            },
            {
                "layer": "defaults",
                "section": "paths",
                "key": "user_cache",
                "raw": "${HOME}/.cache/tallybook",
            },
            {"layer": "defaults", "section": "backup", "key": "exclude", "raw": ""},
            {
                "layer": "site",
                "key": "backup.exclude",
                "value": ["${HOME}/Downloads", "${paths.tmp}", "${HOME}/.trash"],
            },
            {"layer": "defaults", "section": "app", "key": "motd", "raw": ""},
            {
                "layer": "user",
                "key": "app.motd",
                "value": "Try the new dashboard: ${features.beta_dashboard}",
            },
            {
                "layer": "defaults",
                "section": "billing",
                "key": "invoice_number_format",
                "raw": "INV-$YEAR-{seq:05d}",
            },
        ],
        "secrets": [
            {
                "layer": "defaults",
                "section": "database",
                "key": "password_secret",
                "raw": "change-me",
            },
            {"layer": "site", "key": "database.password_secret", "value": "pg-S1te-7d41c9"},
            {"layer": "defaults", "section": "auth.signing_secret", "key": "key_id", "raw": "dev"},
            {
                "layer": "defaults",
                "section": "auth.signing_secret",
                "key": "key",
                "raw": "dev-signing-key",
            },
            {"layer": "user", "key": "auth.signing_secret.key_id", "value": "k-2025-03"},
            {"layer": "user", "key": "auth.signing_secret.key", "value": "hs512-4f0c2a9be1d7"},
            {"layer": "defaults", "section": "auth", "key": "recovery_codes_secret", "raw": ""},
            {
                "layer": "runtime",
                "key": "auth.recovery_codes_secret",
                "value": ["RC-7Q2M-9XKD", "RC-J4TW-3BNE"],
            },
            {"layer": "defaults", "section": "auth.oauth", "key": "client_secret", "raw": ""},
            {"layer": "user", "key": "auth.oauth.client_secret", "value": "oauth-Cl13nt-88ab"},
            {"layer": "defaults", "section": "app", "key": "secret_rotation_days", "raw": "90"},
            {"layer": "defaults", "section": "auth", "key": "secret_store", "raw": "file"},
            {"layer": "site", "key": "auth.secret_store", "value": "vault"},
        ],
        "unknown-keys": [
            {"layer": "user", "key": "databse.host", "value": "db.internal.example.org"},
            {"layer": "site", "key": "plugins.csv_export.delimiter", "value": ";"},
            {"layer": "user", "key": "experimental.ledger_v2", "value": True},
            {"layer": "runtime", "key": "experimental", "null": True},
        ],
        "non-ascii": [
            {
                "layer": "defaults",
                "section": "app",
                "key": "company_name",
                "raw": "Bücherei Müller & Söhne",
            }
        ],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
