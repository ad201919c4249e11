"""Fee and document rules, before and after the ordinance amendment (ORDINANCE.md)."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def fee_of(app, fees):
    row = fees[app["permit_type"]]
    fee = Decimal(row["base_fee"]) + Decimal(row["per_1000"]) * Decimal(app["valuation"]) / 1000
    return max(fee.quantize(CENT, ROUND_HALF_UP), Decimal(row["minimum_fee"]))


def rule_sets(data):
    """(fees, required documents) before and after the ordinance, and its effective date."""
    old = (data["fees"], data["required"])
    update = data.get("ordinance")
    if update is None:
        return old, old, None
    fees = dict(data["fees"])
    for row in update["fees"]:
        fees[row["permit_type"]] = row
    return old, (fees, {**data["required"], **update["documents"]}), update["effective_date"]
