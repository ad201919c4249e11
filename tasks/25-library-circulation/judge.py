# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 25: Library Circulation Reconstruction.

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
    "id": 25,
    "slug": "library-circulation",
    "stages": ["initial", "corrections"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.library_state inputs --as-of 2025-08-31T23:59:59Z --output output",
            "argv": [
                "python",
                "-m",
                "solution.library_state",
                "inputs",
                "--as-of",
                "2025-08-31T23:59:59Z",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 60.0,
        }
    ],
    "outputs": [
        {
            "path": "output/active_loans.csv",
            "format": "csv",
            "header": ["item_id", "patron_id", "checkout_txn", "due_date", "status", "fine"],
            "stage": "initial",
        },
        {
            "path": "output/fines.csv",
            "format": "csv",
            "header": ["patron_id", "overdue_fines", "lost_fees", "waived", "balance"],
            "stage": "initial",
        },
        {"path": "output/notices/", "format": "directory", "header": [], "stage": "initial"},
        {
            "path": "output/correction_effects.csv",
            "format": "csv",
            "header": [
                "patron_id",
                "balance_before",
                "balance_after",
                "loans_added",
                "loans_removed",
            ],
            "stage": "corrections",
        },
    ],
    "expect": [
        {
            "name": "local-day#1",
            "file": "output/fines.csv",
            "level": 4,
            "until": "corrections",
            "where": {"patron_id": "P9001"},
            "equals": {"overdue_fines": "1.25", "balance": "1.25"},
        },
        {
            "name": "open-loan#1",
            "file": "output/active_loans.csv",
            "level": 3,
            "where": {"item_id": "I90002"},
            "equals": {
                "patron_id": "P9002",
                "checkout_txn": "C9000201",
                "due_date": "2025-08-28",
                "status": "on_loan",
                "fine": "4.00",
            },
        },
        {
            "name": "open-loan#2",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P9002"},
            "equals": {"overdue_fines": "4.00", "balance": "4.00"},
        },
        {
            "name": "fine-cap#1",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P9003"},
            "equals": {
                "overdue_fines": "7.00",
                "lost_fees": "0.00",
                "waived": "0.00",
                "balance": "7.00",
            },
        },
        {
            "name": "renewals#1",
            "file": "output/fines.csv",
            "level": 4,
            "until": "corrections",
            "where": {"patron_id": "P9004"},
            "equals": {"overdue_fines": "0.75", "balance": "0.75"},
        },
        {
            "name": "renew-after-return#1",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P9005"},
            "equals": {"balance": "0.00"},
        },
        {
            "name": "renew-after-return#2",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P9006"},
            "equals": {"overdue_fines": "0.75"},
        },
        {
            "name": "renew-while-lost#1",
            "file": "output/active_loans.csv",
            "level": 4,
            "until": "corrections",
            "where": {"item_id": "I90008"},
            "equals": {"due_date": "2025-05-19", "status": "lost", "fine": "2.50"},
        },
        {
            "name": "renew-while-lost#2",
            "file": "output/fines.csv",
            "level": 4,
            "until": "corrections",
            "where": {"patron_id": "P9007"},
            "equals": {"overdue_fines": "2.50", "lost_fees": "35.00", "balance": "37.50"},
        },
        {
            "name": "lost-and-restore#1",
            "file": "output/active_loans.csv",
            "level": 4,
            "where": {"item_id": "I90009"},
            "absent": True,
        },
        {
            "name": "lost-and-restore#2",
            "file": "output/active_loans.csv",
            "level": 4,
            "where": {"item_id": "I90010"},
            "equals": {"status": "lost", "fine": "1.00"},
        },
        {
            "name": "lost-and-restore#3",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P9008"},
            "equals": {"overdue_fines": "2.00", "lost_fees": "30.00", "balance": "32.00"},
        },
        {
            "name": "waivers#1",
            "file": "output/fines.csv",
            "level": 4,
            "until": "corrections",
            "where": {"patron_id": "P9009"},
            "equals": {"overdue_fines": "2.25", "waived": "5.00", "balance": "0.00"},
        },
        {
            "name": "waivers#2",
            "file": "output/fines.csv",
            "level": 4,
            "until": "corrections",
            "where": {"patron_id": "P9010"},
            "equals": {"overdue_fines": "6.00", "waived": "2.50", "balance": "3.50"},
        },
        {
            "name": "stray-return#1",
            "file": "output/active_loans.csv",
            "level": 4,
            "until": "corrections",
            "where": {"item_id": "I90013"},
            "equals": {
                "patron_id": "P9011",
                "checkout_txn": "C9000904",
                "due_date": "2025-09-03",
                "fine": "0.00",
            },
        },
        {
            "name": "double-checkout#1",
            "file": "output/active_loans.csv",
            "level": 4,
            "where": {"item_id": "I90014"},
            "equals": {"patron_id": "P9012", "checkout_txn": "C9001001", "fine": "4.25"},
        },
        {
            "name": "double-checkout#2",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P9013"},
            "equals": {"overdue_fines": "0.00", "balance": "0.00"},
        },
        {
            "name": "ignored-lost-restore#1",
            "file": "output/active_loans.csv",
            "level": 4,
            "where": {"item_id": "I90015"},
            "absent": True,
        },
        {
            "name": "ignored-lost-restore#2",
            "file": "output/active_loans.csv",
            "level": 4,
            "where": {"item_id": "I90016"},
            "equals": {"patron_id": "P9014", "status": "on_loan"},
        },
        {
            "name": "ignored-lost-restore#3",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P9014"},
            "equals": {"lost_fees": "0.00", "balance": "0.00"},
        },
        {
            "name": "return-next-day#1",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P9015"},
            "equals": {"overdue_fines": "0.25"},
        },
        {
            "name": "winter-time#1",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P9016"},
            "equals": {"overdue_fines": "0.50"},
        },
        {
            "name": "correction-targets#1",
            "file": "output/active_loans.csv",
            "level": 4,
            "until": "corrections",
            "where": {"item_id": "I90020"},
            "equals": {"patron_id": "P9017"},
        },
        {
            "name": "corrections#1",
            "file": "output/correction_effects.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"patron_id": "P9001"},
            "equals": {
                "balance_before": "1.25",
                "balance_after": "0.00",
                "loans_added": "",
                "loans_removed": "",
            },
        },
        {
            "name": "corrections#2",
            "file": "output/correction_effects.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"patron_id": "P9004"},
            "equals": {"balance_before": "0.75", "balance_after": "4.25"},
        },
        {
            "name": "corrections#3",
            "file": "output/correction_effects.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"patron_id": "P9007"},
            "equals": {"balance_before": "37.50", "balance_after": "6.00"},
        },
        {
            "name": "corrections#4",
            "file": "output/correction_effects.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"patron_id": "P9010"},
            "equals": {"balance_before": "3.50", "balance_after": "2.50"},
        },
        {
            "name": "corrections#5",
            "file": "output/correction_effects.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"patron_id": "P9011"},
            "equals": {
                "balance_before": "0.00",
                "balance_after": "0.00",
                "loans_added": "",
                "loans_removed": "I90013",
            },
        },
        {
            "name": "corrections#6",
            "file": "output/correction_effects.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"patron_id": "P9017"},
            "equals": {"loans_added": "I90021", "loans_removed": "I90020"},
        },
        {
            "name": "corrections#7",
            "file": "output/correction_effects.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"patron_id": "P0250"},
            "equals": {"loans_added": "I90032", "loans_removed": ""},
        },
        {
            "name": "corrections#8",
            "file": "output/correction_effects.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"patron_id": "P9018"},
            "absent": True,
        },
        {
            "name": "corrections#9",
            "file": "output/correction_effects.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"patron_id": "P9009"},
            "absent": True,
        },
        {
            "name": "corrections#10",
            "file": "output/active_loans.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"item_id": "I90008"},
            "equals": {"due_date": "2025-06-09", "status": "on_loan", "fine": "6.00"},
        },
        {
            "name": "corrections#11",
            "file": "output/active_loans.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"item_id": "I90022"},
            "equals": {"checkout_txn": "X0000003", "due_date": "2025-09-19"},
        },
        {
            "name": "corrections#12",
            "file": "output/fines.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"patron_id": "P9009"},
            "equals": {"overdue_fines": "2.50", "waived": "5.00", "balance": "0.00"},
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/active_loans.csv",
            "level": 4,
            "where": {"item_id": "I77001"},
            "absent": True,
        },
        {
            "name": "edge#2",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P7701"},
            "equals": {"overdue_fines": "0.75", "balance": "0.75"},
        },
        {
            "name": "edge#3",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P7702"},
            "equals": {"overdue_fines": "4.00", "balance": "4.00"},
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)


# region authored: benchsmith keeps these lines when it rebuilds judge.py
@judge.check(level=3)
def core_transformation(run: benchlib.Run) -> None:
    """TODO: the core transformation is substantially correct."""
    benchlib.expect(False, "TODO: write the level-3 checks of this task")


@judge.check(level=4)
def stated_rules(run: benchlib.Run) -> None:
    """TODO: every stated business rule holds on the main fixture."""
    benchlib.expect(False, "TODO: write the level-4 checks of this task")


@judge.edge
def edge_rule(run: benchlib.Run) -> None:
    """TODO: the edge rule holds on the edge fixture."""
    benchlib.expect(False, "TODO: write the edge check of this task")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
