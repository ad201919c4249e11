"""Reading inputs/accounts.json."""

from __future__ import annotations

import json
from pathlib import Path

from budgetdesk.models import Account


def load_accounts(path: str | Path) -> list[Account]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return [
        Account(a["id"], a["name"], a["dialect"], tuple(a["statements"])) for a in data["accounts"]
    ]
