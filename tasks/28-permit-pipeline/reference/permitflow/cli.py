"""Command line: ``import``, ``validate`` and ``status``."""

import argparse
from pathlib import Path

from permitflow import checks, db, intake, letters, reports


def main(argv=None):
    parser = argparse.ArgumentParser(prog="permitflow")
    commands = parser.add_subparsers(dest="command", required=True)
    load = commands.add_parser("import", help="load the intake exports into the database")
    load.add_argument("inputs", type=Path)
    load.add_argument("database", type=Path)
    for name in ("validate", "status"):
        command = commands.add_parser(name)
        command.add_argument("database", type=Path)
        command.add_argument("--output", type=Path, required=True)
    args = parser.parse_args(argv)

    if args.command == "import":
        intake.load(args.inputs, args.database)
        return 0
    conn = db.connect(args.database)
    try:
        result = checks.evaluate(conn)
    finally:
        conn.close()
    args.output.mkdir(parents=True, exist_ok=True)
    writers = {"validate": reports.write_all, "status": letters.write_all}
    writers[args.command](args.output, result)
    return 0
