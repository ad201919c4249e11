# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 17: Contract Clause Index and Comparison.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 17;
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
    "id": 17,
    "seed": 20260848,
    "stages": ["initial", "review", "late"],
    "files": [
        {
            "path": "inputs/contracts",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "contracts",
            "stage": "initial",
            "writes": ["inputs/contracts", "inputs/clause_aliases.json"],
        },
        {
            "path": "inputs/review_set.csv",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "review_set",
            "stage": "review",
            "writes": ["inputs/review_set.csv"],
        },
        {
            "path": "inputs/contracts-late",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "late_contracts",
            "stage": "late",
            "writes": ["inputs/contracts-late"],
        },
    ],
    "edge_files": [
        {
            "path": "inputs/contracts",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "edge_contracts",
            "stage": "initial",
            "writes": [
                "inputs/contracts",
                "inputs/contracts-late",
                "inputs/clause_aliases.json",
                "inputs/review_set.csv",
            ],
        }
    ],
    "anchors": {
        "caps-liability": [
            {
                "contract": "VA-1392",
                "clause": "liability_cap",
                "heading": "11. LIMITATION OF LIABILITY",
                "body": "IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR INDIRECT OR CONSEQUENTIAL DAMAGES. EACH PARTY'S TOTAL LIABILITY UNDER THIS AGREEMENT SHALL NOT EXCEED TWELVE (12) MONTHS OF FEES PAID OR PAYABLE.",
            }
        ],
        "amount-format": [
            {
                "contract": "VA-4479",
                "clause": "liability_cap",
                "body": "Each party's aggregate liability arising out of this Agreement shall not exceed $2,500,000 in total.",
            },
            {
                "contract": "VA-2810",
                "clause": "liability_cap",
                "body": "In no event shall either party's total liability exceed $750,000.50 for all claims in any contract year.",
            },
        ],
        "notice-after-days": [
            {
                "contract": "VA-5902",
                "clause": "termination_notice_days",
                "body": "Either party may terminate this Agreement upon sixty (60) days' prior written notice to the other party.",
            }
        ],
        "notices-plural": [
            {
                "contract": "VA-2291",
                "clause": "termination_notice_days",
                "body": "All notices of termination must be in writing and signed by an authorised officer. Either party may terminate this Agreement for convenience by giving notice of not less than thirty (30) days.",
            }
        ],
        "retained-word": [
            {
                "contract": "VA-3871",
                "clause": "data_retention_days",
                "body": "Backups of Customer Data are retained for 35 days in encrypted form. Vendor shall retain Customer Data for no longer than ninety (90) days after termination.",
            }
        ],
        "law-wrapped": [
            {
                "contract": "VA-1184",
                "clause": "governing_law",
                "body": "This Agreement is governed by the laws of the State of|    New York, without regard to its conflict of laws rules.",
            }
        ],
        "law-construed": [
            {
                "contract": "VA-6904",
                "clause": "governing_law",
                "body": "This Agreement is governed by and construed in accordance with the laws of the State of Texas.",
            }
        ],
        "renew-no": [
            {
                "contract": "VA-3055",
                "clause": "auto_renewal",
                "body": "This Agreement does not automatically renew. Any extension of the Term requires an amendment signed by both parties.",
            }
        ],
        "statement-next-page": [
            {
                "contract": "VA-6317",
                "clause": "data_retention_days",
                "body": "Vendor's obligations for Customer Data after termination are as follows:|Vendor shall retain Customer Data for sixty (60) days after termination.",
                "page_break_after": 1,
            }
        ],
        "unrecognized-heading": [
            {
                "contract": "VA-2568",
                "clause": "termination_notice_days",
                "body": "Either party may terminate this Agreement for convenience by giving written notice of at least 90 days to the other party.",
                "then": "14A. TRANSITION ASSISTANCE",
            }
        ],
        "exhibit-second-clause": [
            {
                "contract": "VA-4023",
                "clause": "data_retention_days",
                "body": "Vendor's obligations for Customer Data are set out in the Data Processing Terms of Exhibit C.",
                "exhibit_body": "Vendor shall retain Customer Data for one hundred eighty (180) days after the end of the Services.",
            }
        ],
        "two-statements": [
            {
                "contract": "VA-5230",
                "clause": "termination_notice_days",
                "body": "Either party may terminate this Agreement for convenience on notice of 45 days. Vendor may terminate for non-payment on notice of 10 days.",
            }
        ],
        "no-heading": [
            {
                "contract": "VA-7044",
                "clause": "governing_law",
                "absent": True,
                "decoy_in": "notices",
                "decoy": "Notices to Vendor's Canadian branch are governed by the laws of the Province of Ontario.",
            }
        ],
        "heading-styles": [
            {
                "contract": "VA-1733",
                "clause": "governing_law",
                "heading": "Section 9. Choice of Law.",
                "body": "This Agreement is governed by the laws of England and Wales, and the courts of London have jurisdiction.",
            },
            {
                "contract": "VA-1733",
                "clause": "termination_notice_days",
                "heading": "ARTICLE 14   TERMINATION",
                "body": "Customer may terminate this Agreement at any time by notice to the Vendor of not less than 120 days.",
            },
            {
                "contract": "VA-1733",
                "clause": "data_retention_days",
                "heading": "  7.2.1 Record Retention:",
                "body": "Vendor may retain Customer Data for up to 30 days to support the exit plan.",
            },
            {
                "contract": "VA-1733",
                "clause": "liability_cap",
                "heading": "LIMITATION  OF   LIABILITY",
                "body": "Each party's aggregate liability arising out of this Agreement shall not exceed $500,000 in total.",
            },
        ],
        "alias-sentence": [
            {
                "contract": "VA-2046",
                "clause": "auto_renewal",
                "body": "The Initial Term is two years. Thereafter the Agreement renews for 24 months at a time.",
                "tail": "Renewal pricing follows the rate card in Exhibit A and is reviewed each year by the parties.",
            }
        ],
        "casefold-heading": [
            {
                "contract": "VA-5488",
                "clause": "governing_law",
                "body": "This Agreement is governed by the laws of the Federal Republic of Germany, excluding the UN Sales Convention.",
                "then": "15. MASSGEBLICHE SPRACHE",
            },
            {
                "contract": "VA-6022",
                "clause": "governing_law",
                "body": "This Agreement is governed by the laws of the Federal Republic of Germany; the courts of Munich have jurisdiction.",
                "then": "16. Maßgebliche Sprache",
            },
        ],
        "jurisdiction-line-end": [
            {
                "contract": "VA-5714",
                "clause": "governing_law",
                "body": "This Agreement is governed by the laws of Victoria|(Australia), and the courts of Melbourne have exclusive jurisdiction.",
            }
        ],
        "first-of-two-forms": [
            {
                "contract": "VA-3342",
                "clause": "auto_renewal",
                "body": "This Agreement renews for twenty-four (24) months unless terminated; an Order Form placed under it does not automatically renew.",
            },
            {
                "contract": "VA-3342",
                "clause": "liability_cap",
                "body": "Each party's aggregate liability shall not exceed $1,000,000, or, for claims under the data protection terms, twenty-four (24) months of fees.",
            },
        ],
        "blank-tail": [
            {
                "contract": "VA-5714",
                "clause": "auto_renewal",
                "body": "This Agreement automatically renews for 6 months at the end of each term.|      |   ",
            }
        ],
        "review-set": [
            {
                "contract": "VA-1184",
                "contact": "legal@northwind.example",
                "renewal": "12",
                "liability": "usd:1000000",
                "law": "keep",
            },
            {
                "contract": "VA-1392",
                "contact": "contracts@brightwater.example",
                "renewal": "12",
                "liability": "keep",
                "law": "the State of New York",
            },
            {
                "contract": "VA-1520",
                "contact": "sales@kestrel.example",
                "renewal": "12",
                "liability": "usd:1000000",
                "law": "the State of New York",
            },
            {
                "contract": "VA-1733",
                "contact": "recht@mueller-dt.example",
                "renewal": "12",
                "liability": "keep",
                "law": "keep",
            },
            {
                "contract": "VA-2046",
                "contact": "legal@lumiere.example",
                "renewal": "keep",
                "liability": "usd:1000000",
                "law": "the State of New York",
            },
            {
                "contract": "VA-2291",
                "contact": "ops@bluefin.example",
                "renewal": "12",
                "liability": "fees_months:12",
                "law": "the State of New York",
            },
            {
                "contract": "VA-2568",
                "contact": "fm@oakridge.example",
                "renewal": "24",
                "liability": "fees_months:12",
                "law": "the State of New York",
            },
            {
                "contract": "VA-2810",
                "contact": "legal@zephyr.example",
                "renewal": "24",
                "liability": "keep",
                "law": "the State of Delaware",
            },
            {
                "contract": "VA-3055",
                "contact": "info@angstrom.example",
                "renewal": "keep",
                "liability": "fees_months:12",
                "law": "the State of Delaware",
            },
            {
                "contract": "VA-3342",
                "contact": "print@cobalt.example",
                "renewal": "keep",
                "liability": "keep",
                "law": "the Province of Ontario",
            },
            {
                "contract": "VA-3617",
                "contact": "legal@harrow.example",
                "renewal": "6",
                "liability": "usd:500000",
                "law": "the State of Delaware",
            },
            {
                "contract": "VA-4023",
                "contact": "accounts@lumen.example",
                "renewal": "6",
                "liability": "usd:500000",
                "law": "the State of Delaware",
            },
            {
                "contract": "VA-4479",
                "contact": "events@pinecrest.example",
                "renewal": "6",
                "liability": "keep",
                "law": "England and Wales",
            },
            {
                "contract": "VA-4856",
                "contact": "legal@quayside.example",
                "renewal": "no",
                "liability": "usd:2500000",
                "law": "England and Wales",
            },
            {
                "contract": "VA-5230",
                "contact": "people@redwood.example",
                "renewal": "no",
                "liability": "fees_months:24",
                "law": "England and Wales",
            },
            {
                "contract": "VA-5714",
                "contact": "pm@saffron.example",
                "renewal": "keep",
                "liability": "fees_months:24",
                "law": "keep",
            },
            {
                "contract": "VA-6188",
                "contact": "legal@tidewater.example",
                "renewal": "unsupported",
                "liability": "usd:250000",
                "law": "Victoria",
            },
            {
                "contract": "VA-6640",
                "contact": "studio@umbra.example",
                "renewal": "absent",
                "liability": "unsupported",
                "law": "the Province of Ontario",
            },
        ],
        "late-wrapped": [
            {
                "contract": "VA-8120",
                "clause": "liability_cap",
                "heading": "11. LIMITATION OF|    LIABILITY",
                "body": "Each party's aggregate liability arising out of this Agreement shall not exceed $3,000,000 in total.",
            },
            {
                "contract": "VA-8120",
                "clause": "termination_notice_days",
                "body": "Either party may terminate this Agreement for convenience by giving written notice of at least 60 days to the other party.",
                "then": "15. CONFIDENTIAL|    INFORMATION",
            },
            {
                "contract": "VA-8120",
                "clause": "governing_law",
                "heading": "Section 16. Governing|    Law.",
                "body": "This Agreement is governed by the laws of Ireland.",
            },
        ],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
