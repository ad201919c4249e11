"""The command line of budgetdesk: one subcommand per job, each on one database."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from budgetdesk import db, export, importer, migrations, report, splits
from budgetdesk.accounts import load_accounts


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="budgetdesk", description="Household budgeting.")
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("import", help="import bank statements into the database")
    run.add_argument("database")
    run.add_argument("accounts", help="accounts.json")
    run.add_argument("statements", help="the folder of statement files")

    run = commands.add_parser("report", help="write the budget report of one month")
    run.add_argument("database")
    run.add_argument("--month", required=True, help="YYYY-MM")
    run.add_argument("--output", required=True)

    run = commands.add_parser("migrate", help="upgrade the database to schema version 2")
    run.add_argument("database")

    run = commands.add_parser("splits", help="apply a file of split transactions")
    run.add_argument("database")
    run.add_argument("splits", help="splits.csv")
    run.add_argument("--errors", required=True, help="where to write the split report")

    run = commands.add_parser("export", help="export every transaction")
    run.add_argument("database")
    run.add_argument("--format", required=True, choices=["csv", "json"])
    run.add_argument("--output", required=True)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    with db.connect(args.database) as conn:
        if args.command == "import":
            added = importer.import_statements(
                conn, load_accounts(args.accounts), Path(args.statements)
            )
            print(f"imported {added} new transactions")
        elif args.command == "report":
            write_json(Path(args.output), report.monthly_report(conn, args.month))
        elif args.command == "migrate":
            migrations.migrate(conn)
        elif args.command == "splits":
            write_json(Path(args.errors), splits.apply_splits(conn, Path(args.splits)))
        else:
            export.write_export(conn, args.format, Path(args.output))
    return 0


def write_json(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
