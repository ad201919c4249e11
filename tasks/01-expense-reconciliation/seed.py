# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 1: Household Expense Reconciliation.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 1;
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
    "id": 1,
    "seed": 20260832,
    "stages": ["initial"],
    "files": [
        {
            "path": "inputs/bank.csv",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "bank_csv",
            "stage": "initial",
            "writes": ["inputs/bank.csv"],
        },
        {
            "path": "inputs/receipts.json",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "receipts_json",
            "stage": "initial",
            "writes": ["inputs/receipts.json"],
        },
    ],
    "edge_files": [],
    "anchors": {
        "refund-in-category": [
            {
                "transaction_id": "TXK4Q9W2MA",
                "posted_date": "2025-02-11",
                "description": "GREEN LEAF MARKET #0412 PORTLAND OR",
                "amount": "-23.10",
            },
            {
                "receipt_id": "R26115",
                "merchant": "Green Leaf Market",
                "paid_date": "2025-02-11",
                "total": "23.10",
            },
            {
                "transaction_id": "TXV7E2K5HN",
                "posted_date": "2025-02-18",
                "description": "GREEN LEAF MARKET #0412 REFUND",
                "amount": "23.10",
            },
            {
                "receipt_id": "R27904",
                "merchant": "Green Leaf Market",
                "paid_date": "2025-02-18",
                "total": "23.10",
            },
        ],
        "refund-without-category": [
            {
                "transaction_id": "TXP8D3N6RB",
                "posted_date": "2025-03-06",
                "description": "MERCHANDISE RETURN CREDIT",
                "amount": "41.99",
            }
        ],
        "transfer": [
            {
                "transaction_id": "TXW2H7C9LD",
                "posted_date": "2025-01-27",
                "description": "ONLINE TRANSFER TO SAVINGS XXXX4821",
                "amount": "-1200.00",
            }
        ],
        "adjacent-same-value": [
            {
                "transaction_id": "TXF6R3T8JE",
                "posted_date": "2025-03-10",
                "description": "SWEET CRUMB BAKERY",
                "amount": "-14.25",
            },
            {
                "transaction_id": "TXB9V4X2NC",
                "posted_date": "2025-03-11",
                "description": "SWEET CRUMB BAKERY",
                "amount": "-14.25",
            },
            {
                "receipt_id": "R40562",
                "merchant": "Sweet Crumb Bakery",
                "paid_date": "2025-03-10",
                "total": "14.25",
            },
            {
                "receipt_id": "R47310",
                "merchant": "Sweet Crumb Bakery",
                "paid_date": "2025-03-11",
                "total": "14.25",
            },
        ],
        "one-receipt-two-coffees": [
            {
                "transaction_id": "TXM3K8P5QF",
                "posted_date": "2025-01-22",
                "description": "BLUE BOTTLE COFFEE",
                "amount": "-5.40",
            },
            {
                "transaction_id": "TXZ5N2J7WG",
                "posted_date": "2025-01-22",
                "description": "BLUE BOTTLE COFFEE",
                "amount": "-5.40",
            },
            {
                "receipt_id": "R22871",
                "merchant": "Blue Bottle Coffee Co.",
                "paid_date": "2025-01-22",
                "total": "5.40",
            },
        ],
        "cash-receipt": [
            {
                "transaction_id": "TXH7C4L9SP",
                "posted_date": "2025-02-15",
                "description": "CITY PARKING  GARAGE 22",
                "amount": "-18.00",
            },
            {
                "receipt_id": "R35094",
                "merchant": "Riverside Farmers Market",
                "paid_date": "2025-02-15",
                "total": "18.00",
            },
        ],
        "merchant-punctuation": [
            {
                "transaction_id": "TXD2W8F5HT",
                "posted_date": "2025-01-09",
                "description": "TRADER JOES #552 PORTLAND OR",
                "amount": "-67.43",
            },
            {
                "receipt_id": "R19027",
                "merchant": "Trader Joe's",
                "paid_date": "2025-01-08",
                "total": "67.43",
            },
            {
                "transaction_id": "TXR6G3M9KU",
                "posted_date": "2025-02-21",
                "description": "JOE'S PIZZA",
                "amount": "-31.80",
            },
            {
                "receipt_id": "R36641",
                "merchant": "Joes Pizza & Pasta",
                "paid_date": "2025-02-21",
                "total": "31.80",
            },
        ],
        "unicode-forms": [
            {
                "transaction_id": "TXJ9Q2V6NY",
                "posted_date": "2025-03-03",
                "description": "MUJI SEATTLE WA",
                "amount": "-32.50",
            },
            {
                "receipt_id": "R51388",
                "merchant": "ＭＵＪＩ",
                "paid_date": "2025-03-02",
                "total": "32.50",
            },
            {
                "transaction_id": "TXS4B7K2XZ",
                "posted_date": "2025-01-14",
                "description": "ＵＢＥＲ\u3000＊ＴＲＩＰ",
                "amount": "-23.65",
            },
            {
                "receipt_id": "R17755",
                "merchant": "Uber",
                "paid_date": "2025-01-13",
                "total": "23.65",
            },
            {
                "transaction_id": "TXE8H5R3WA",
                "posted_date": "2025-02-26",
                "description": "CAFÉ LUNA",
                "amount": "-27.90",
            },
            {
                "receipt_id": "R39120",
                "merchant": "Café Luna",
                "paid_date": "2025-02-26",
                "total": "27.90",
            },
        ],
        "first-pattern-wins": [
            {
                "transaction_id": "TXN3F8D2LB",
                "posted_date": "2025-02-03",
                "description": "AMAZON FRESH*RT4Y7",
                "amount": "-86.12",
            }
        ],
        "date-window": [
            {
                "transaction_id": "TXU7L4C8PG",
                "posted_date": "2025-01-20",
                "description": "IKEA PORTLAND",
                "amount": "-212.40",
            },
            {
                "receipt_id": "R15530",
                "merchant": "IKEA",
                "paid_date": "2025-01-18",
                "total": "212.40",
            },
            {
                "transaction_id": "TXA5T9H3MJ",
                "posted_date": "2025-03-24",
                "description": "HOME DEPOT #4417",
                "amount": "-88.06",
            },
            {
                "receipt_id": "R58409",
                "merchant": "Home Depot",
                "paid_date": "2025-03-21",
                "total": "88.06",
            },
        ],
        "duplicate-scan": [
            {
                "transaction_id": "TXC8M2W6RD",
                "posted_date": "2025-02-11",
                "description": "SAFEWAY #1187 PORTLAND OR",
                "amount": "-54.78",
            },
            {
                "receipt_id": "R33207",
                "merchant": "SAFEWAY",
                "paid_date": "2025-02-10",
                "total": "54.78",
            },
            {
                "receipt_id": "R33016",
                "merchant": "SAFEWAY",
                "paid_date": "2025-02-10",
                "total": "54.78",
            },
        ],
        "currency": [
            {
                "transaction_id": "TXG3P7N4KE",
                "posted_date": "2025-02-10",
                "description": "TIM HORTONS #3321 BLAINE WA",
                "amount": "-6.45",
            },
            {
                "receipt_id": "R30288",
                "merchant": "Tim Hortons",
                "paid_date": "2025-02-09",
                "total": "6.45",
                "currency": "CAD",
            },
            {
                "receipt_id": "R30951",
                "merchant": "Tim Hortons",
                "paid_date": "2025-02-09",
                "total": "6.45",
            },
        ],
        "sharp-s": [
            {
                "transaction_id": "TXQ5W8E3RF",
                "posted_date": "2025-02-22",
                "description": "GROSSE BACKSTUBE PORTLAND OR",
                "amount": "-16.80",
            },
            {
                "receipt_id": "R38254",
                "merchant": "Große Backstube",
                "paid_date": "2025-02-22",
                "total": "16.80",
            },
        ],
        "ampersand-gap": [
            {
                "transaction_id": "TXY3C6V9BM",
                "posted_date": "2025-03-13",
                "description": "BARNES NOBLE #2231",
                "amount": "-38.47",
            },
            {
                "receipt_id": "R56017",
                "merchant": "Barnes & Noble",
                "paid_date": "2025-03-12",
                "total": "38.47",
            },
        ],
        "spaces-kept": [
            {
                "transaction_id": "TXL2N7D4WC",
                "posted_date": "2025-01-30",
                "description": "SMARTSUPPLY.COM",
                "amount": "-44.19",
            },
            {
                "receipt_id": "R22409",
                "merchant": "Art Supply",
                "paid_date": "2025-01-30",
                "total": "44.19",
            },
        ],
        "micro-deposits": [
            {
                "transaction_id": "TXK7M3B8QE",
                "posted_date": "2025-01-06",
                "description": "VENMO VERIFICATION DEPOSIT",
                "amount": "0.32",
            },
            {
                "transaction_id": "TXH4R9F2ND",
                "posted_date": "2025-01-06",
                "description": "VENMO VERIFICATION DEPOSIT",
                "amount": "0.45",
            },
            {
                "transaction_id": "TXW6P2J5LA",
                "posted_date": "2025-01-07",
                "description": "VENMO VERIFICATION WITHDRAWAL",
                "amount": "-0.77",
            },
        ],
        "returned-in-full": [
            {
                "transaction_id": "TXZ8G4K6SU",
                "posted_date": "2025-03-05",
                "description": "PATAGONIA PORTLAND OR",
                "amount": "-129.00",
            },
            {
                "receipt_id": "R52816",
                "merchant": "Patagonia",
                "paid_date": "2025-03-05",
                "total": "129.00",
            },
            {
                "transaction_id": "TXC3J9T5HY",
                "posted_date": "2025-03-19",
                "description": "PATAGONIA PORTLAND OR REFUND",
                "amount": "129.00",
            },
        ],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
