"""School meal allergen and stock plan (reference solution).

python -m solution.meal_plan INPUTS --output DIR
"""

from __future__ import annotations

import argparse
import csv
import json
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from pathlib import Path

Q3 = Decimal("0.001")
Q2 = Decimal("0.01")


class Cycle(Exception):
    def __init__(self, path: list[str]) -> None:
        super().__init__(">".join(path))
        self.path = path


def tags(text: str) -> set[str]:
    cleaned = (t.strip().lower() for t in text.split(";"))
    return {t for t in cleaned if t}


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def write_csv(path: Path, header: list[str], rows: list[list[object]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def fmt(value: Decimal, places: Decimal = Q3) -> str:
    return str(value.quantize(places, rounding=ROUND_HALF_UP))


class Kitchen:
    def __init__(self, inputs: Path, with_substitutions: bool) -> None:
        self.ingredients = {r["ingredient_id"]: r for r in read_csv(inputs / "ingredients.csv")}
        self.tags: dict[str, set[str]] = {
            i: tags(r["allergens"]) | tags(r["may_contain"]) for i, r in self.ingredients.items()
        }
        data = json.loads(
            (inputs / "recipes.json").read_text(encoding="utf-8"), parse_float=Decimal
        )
        recipes = list(data["recipes"])
        self.subs: list[dict] = []
        extra = inputs / "substitutions.json"
        if with_substitutions and extra.exists():
            more = json.loads(extra.read_text(encoding="utf-8"), parse_float=Decimal)
            recipes += more.get("new_recipes", [])
            self.subs = more.get("substitutions", [])
        self.recipes = {r["recipe_id"]: r for r in recipes}
        for rid, r in self.recipes.items():
            self.tags[rid] = set(r.get("may_contain", []))

    def substitute(self, item: str, day: str) -> tuple[str, Decimal]:
        live = [s for s in self.subs if s["replace"] == item and s["effective_date"] <= day]
        best = max(live, key=lambda s: s["effective_date"], default=None)
        if best is None:
            return item, Decimal(1)
        return best["with"], Decimal(str(best["factor"]))

    def resolve(self, recipe_id: str, day: str) -> tuple[dict[str, Decimal], set[str]]:
        """Base quantities per serving and the allergen tags of one recipe on one day."""
        amounts: dict[str, Decimal] = {}
        found: set[str] = set()

        def walk(item: str, qty: Decimal, path: list[str]) -> None:
            found.update(self.tags[item])
            if item in self.ingredients:
                amounts[item] = amounts.get(item, Decimal(0)) + qty
                return
            if item in path:
                raise Cycle([*path[path.index(item) :], item])
            for part in self.recipes[item]["components"]:
                child, factor = self.substitute(part["item"], day)
                walk(child, qty * Decimal(str(part["quantity"])) * factor, [*path, item])

        walk(recipe_id, Decimal(1), [])
        return amounts, found


def plan(inputs: Path, with_substitutions: bool) -> dict:
    kitchen = Kitchen(inputs, with_substitutions)
    menu = read_csv(inputs / "menu.csv")
    students = read_csv(inputs / "students.csv")
    required = dict.fromkeys(kitchen.ingredients, Decimal(0))
    options = []
    errors = []
    for row in sorted(menu, key=lambda r: (r["date"], r["option_id"])):
        try:
            amounts, found = kitchen.resolve(row["recipe_id"], row["date"])
        except Cycle as cycle:
            errors.append(
                [row["date"], row["option_id"], row["recipe_id"], "component_cycle", str(cycle)]
            )
            options.append((row, None))
            continue
        servings = Decimal(row["servings"])
        for item, qty in amounts.items():
            required[item] += qty * servings
        options.append((row, found))
    eligibility = {}
    for student in students:
        avoid = tags(student["restrictions"])
        for row, found in options:
            key = (student["student_id"], row["date"], row["option_id"])
            if found is None:
                eligibility[key] = ("unknown", "", row["recipe_id"])
            else:
                clash = sorted(avoid & found)
                eligibility[key] = ("no" if clash else "yes", ";".join(clash), row["recipe_id"])
    return {"kitchen": kitchen, "required": required, "errors": errors, "eligibility": eligibility}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    out: Path = args.output
    out.mkdir(parents=True, exist_ok=True)
    final = plan(args.inputs, True)

    eligibility = final["eligibility"]
    write_csv(
        out / "eligibility.csv",
        ["student_id", "date", "option_id", "recipe_id", "eligible", "conflicts"],
        [[*key, v[2], v[0], v[1]] for key, v in sorted(eligibility.items())],
    )
    days: dict[tuple[str, str], list[str]] = {}
    for (student, day, option), value in eligibility.items():
        safe = days.setdefault((student, day), [])
        if value[0] == "yes":
            safe.append(option)
    write_csv(
        out / "safe_options.csv",
        ["student_id", "date", "safe_count", "safe_options"],
        [[s, d, len(o), ";".join(o)] for (s, d), o in sorted(days.items())],
    )

    stock = {
        r["ingredient_id"]: Decimal(r["on_hand"]) for r in read_csv(args.inputs / "inventory.csv")
    }
    packs = {r["ingredient_id"]: r for r in read_csv(args.inputs / "packs.csv")}
    rows = []
    for item in sorted(final["kitchen"].ingredients):
        need = final["required"][item]
        on_hand = stock.get(item, Decimal(0))
        short = max(Decimal(0), need - on_hand)
        size = Decimal(packs[item]["pack_size"])
        count = (short / size).to_integral_value(rounding=ROUND_CEILING)
        rows.append(
            [
                item,
                final["kitchen"].ingredients[item]["unit"],
                fmt(need),
                fmt(on_hand),
                fmt(short),
                fmt(size),
                int(count),
                fmt(count * size),
                fmt(count * Decimal(packs[item]["pack_price"]), Q2),
            ]
        )
    write_csv(
        out / "purchase_list.csv",
        [
            "ingredient_id",
            "unit",
            "required_qty",
            "on_hand",
            "shortfall_qty",
            "pack_size",
            "packs",
            "purchase_qty",
            "cost",
        ],
        rows,
    )
    write_csv(
        out / "errors.csv", ["date", "option_id", "recipe_id", "error", "cycle"], final["errors"]
    )

    if (args.inputs / "substitutions.json").exists():
        before = plan(args.inputs, False)["eligibility"]
        changes = [
            [*key, before[key][0], value[0]]
            for key, value in sorted(eligibility.items())
            if before[key][0] != value[0]
        ]
        write_csv(
            out / "substitution_impacts.csv",
            ["student_id", "date", "option_id", "before", "after"],
            changes,
        )


if __name__ == "__main__":
    main()
