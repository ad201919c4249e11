"""Command line of permitflow.

python -m permitflow import INPUTS DATABASE
python -m permitflow validate DATABASE --output FOLDER
"""

import argparse
from pathlib import Path

from permitflow import checks, db, intake, reports


def main(argv=None):
    parser = argparse.ArgumentParser(prog="permitflow", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    load = commands.add_parser("import", help="load the intake exports into the database")
    load.add_argument("inputs", type=Path, help="the inputs folder")
    load.add_argument("database", type=Path, help="the SQLite database to write")

    validate = commands.add_parser("validate", help="check every application")
    validate.add_argument("database", type=Path)
    validate.add_argument("--output", type=Path, required=True)

    args = parser.parse_args(argv)
    if args.command == "import":
        conn = db.connect(args.database)
        try:
            count = intake.load_all(conn, args.inputs)
        finally:
            conn.close()
        print(f"imported {count} applications")
        return 0

    conn = db.connect(args.database)
    try:
        issues, fees = checks.run(conn)
        args.output.mkdir(parents=True, exist_ok=True)
        reports.write_applications(args.output / "applications.csv", db.applications(conn))
        reports.write_issues(args.output / "validation_issues.csv", issues)
        reports.write_fees(args.output / "fees.csv", fees)
    finally:
        conn.close()
    return 0
