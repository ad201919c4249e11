# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 26: School Meal Allergen and Stock Plan.

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
    "id": 26,
    "slug": "meal-allergens",
    "stages": ["initial", "substitutions"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.meal_plan inputs --output output",
            "argv": ["python", "-m", "solution.meal_plan", "inputs", "--output", "output"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 20.0,
        }
    ],
    "outputs": [
        {
            "path": "output/eligibility.csv",
            "format": "csv",
            "header": ["student_id", "date", "option_id", "recipe_id", "eligible", "conflicts"],
            "stage": "initial",
        },
        {
            "path": "output/safe_options.csv",
            "format": "csv",
            "header": ["student_id", "date", "safe_count", "safe_options"],
            "stage": "initial",
        },
        {
            "path": "output/purchase_list.csv",
            "format": "csv",
            "header": [
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
            "stage": "initial",
        },
        {
            "path": "output/errors.csv",
            "format": "csv",
            "header": ["date", "option_id", "recipe_id", "error", "cycle"],
            "stage": "initial",
        },
        {
            "path": "output/substitution_impacts.csv",
            "format": "csv",
            "header": ["student_id", "date", "option_id", "before", "after"],
            "stage": "substitutions",
        },
    ],
    "expect": [
        {
            "name": "students#1",
            "file": "output/eligibility.csv",
            "level": 4,
            "where": {"student_id": "ST901", "option_id": "O02"},
            "equals": {"eligible": "no", "conflicts": "soy"},
        },
        {
            "name": "students#2",
            "file": "output/eligibility.csv",
            "level": 3,
            "where": {"student_id": "ST901", "option_id": "O01"},
            "equals": {"eligible": "yes", "conflicts": ""},
        },
        {
            "name": "students#3",
            "file": "output/eligibility.csv",
            "level": 4,
            "where": {"student_id": "ST902", "option_id": "O04"},
            "equals": {"eligible": "no", "conflicts": "sesame"},
        },
        {
            "name": "students#4",
            "file": "output/eligibility.csv",
            "level": 3,
            "where": {"student_id": "ST903", "option_id": "O01"},
            "equals": {"eligible": "no", "conflicts": "mustard"},
        },
        {
            "name": "students#5",
            "file": "output/eligibility.csv",
            "level": 4,
            "where": {"student_id": "ST904", "option_id": "O01"},
            "equals": {"eligible": "no", "conflicts": "milk;wheat"},
        },
        {
            "name": "students#6",
            "file": "output/safe_options.csv",
            "level": 4,
            "where": {"student_id": "ST904", "date": "2025-09-11"},
            "equals": {"safe_count": "0", "safe_options": ""},
        },
        {
            "name": "students#7",
            "file": "output/safe_options.csv",
            "level": 4,
            "where": {"student_id": "ST904", "date": "2025-09-08"},
            "equals": {"safe_count": "1", "safe_options": "O03"},
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/errors.csv",
            "level": 4,
            "stage": "substitutions",
            "where": {"option_id": "O3"},
            "equals": {"recipe_id": "ER1", "error": "component_cycle", "cycle": "ES1>ES2>ES1"},
        },
        {
            "name": "edge#2",
            "file": "output/errors.csv",
            "level": 4,
            "stage": "substitutions",
            "where": {"option_id": "O5"},
            "equals": {"recipe_id": "ER3", "cycle": "ES2>ES1>ES2"},
        },
        {
            "name": "edge#3",
            "file": "output/eligibility.csv",
            "level": 4,
            "where": {"student_id": "SE1", "option_id": "O1"},
            "equals": {"eligible": "yes"},
        },
        {
            "name": "edge#4",
            "file": "output/safe_options.csv",
            "level": 4,
            "stage": "substitutions",
            "where": {"student_id": "SE1", "date": "2025-09-10"},
            "equals": {"safe_count": "1", "safe_options": "O4"},
        },
        {
            "name": "edge#5",
            "file": "output/substitution_impacts.csv",
            "level": 4,
            "stage": "substitutions",
            "where": {"student_id": "SE2", "option_id": "O3"},
            "equals": {"before": "no", "after": "unknown"},
        },
        {
            "name": "edge#6",
            "file": "output/substitution_impacts.csv",
            "level": 4,
            "stage": "substitutions",
            "where": {"option_id": "O5"},
            "count": 3,
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
from fractions import Fraction

ELIGIBILITY = "output/eligibility.csv"
SAFE = "output/safe_options.csv"
PURCHASES = "output/purchase_list.csv"
ERRORS = "output/errors.csv"
IMPACTS = "output/substitution_impacts.csv"
SUBSTITUTIONS = "inputs/substitutions.json"


def number(value: object) -> Fraction:
    return Fraction(str(value))


def written(value: Fraction, places: int) -> str:
    """A non-negative fraction with `places` decimals, rounded half up."""
    scaled = value * 10**places
    whole = scaled.numerator // scaled.denominator
    if scaled - whole >= Fraction(1, 2):
        whole += 1
    text = str(whole).rjust(places + 1, "0")
    return f"{text[:-places]}.{text[-places:]}"


def tag_set(text: str) -> frozenset[str]:
    return frozenset(t.strip().casefold() for t in text.split(";") if t.strip())


class Kitchen:
    """TASK.md and the stage-2 message recomputed from the pristine inputs, in fractions."""

    def __init__(self, source: benchlib.Files, substituted: bool) -> None:
        self.ingredients = source.csv("inputs/ingredients.csv")
        self.units = {r["ingredient_id"]: r["unit"] for r in self.ingredients}
        self.tags = {
            r["ingredient_id"]: tag_set(r["allergens"]) | tag_set(r["may_contain"])
            for r in self.ingredients
        }
        recipes = list(source.json("inputs/recipes.json")["recipes"])
        self.swaps: dict[str, list[tuple[str, str, Fraction]]] = {}
        if substituted and source.exists(SUBSTITUTIONS):
            extra = source.json(SUBSTITUTIONS)
            recipes.extend(extra.get("new_recipes", []))
            for s in extra.get("substitutions", []):
                self.swaps.setdefault(s["replace"], []).append(
                    (s["effective_date"], s["with"], number(s["factor"]))
                )
        self.parts = {
            r["recipe_id"]: [(c["item"], number(c["quantity"])) for c in r["components"]]
            for r in recipes
        }
        for r in recipes:
            self.tags[r["recipe_id"]] = frozenset(t.casefold() for t in r.get("may_contain", []))
        self.menu = sorted(source.csv("inputs/menu.csv"), key=lambda r: (r["date"], r["option_id"]))
        self.students = sorted(source.csv("inputs/students.csv"), key=lambda r: r["student_id"])
        # option_id -> (per-serving amounts, tags) or the cycle text
        self.options: dict[str, tuple[dict[str, Fraction], frozenset[str]] | str] = {}
        for row in self.menu:
            self.options[row["option_id"]] = self.expand(row["recipe_id"], row["date"])

    def swap(self, item: str, day: str) -> tuple[str, Fraction]:
        live = sorted(s for s in self.swaps.get(item, []) if s[0] <= day)
        return (live[-1][1], live[-1][2]) if live else (item, Fraction(1))

    def expand(self, recipe_id: str, day: str) -> tuple[dict[str, Fraction], frozenset[str]] | str:
        amounts: dict[str, Fraction] = {}
        seen: set[str] = set()
        # an explicit stack of (item, quantity, path of recipes above it), depth first
        stack: list[tuple[str, Fraction, tuple[str, ...]]] = [(recipe_id, Fraction(1), ())]
        while stack:
            item, qty, path = stack.pop()
            seen.add(item)
            if item not in self.parts:
                amounts[item] = amounts.get(item, Fraction(0)) + qty
                continue
            if item in path:
                return ">".join((*path[path.index(item) :], item))
            children = []
            for child, per in self.parts[item]:
                child, factor = self.swap(child, day)
                children.append((child, qty * per * factor, (*path, item)))
            stack.extend(reversed(children))
        found = frozenset().union(*(self.tags[i] for i in seen))
        return amounts, found

    def eligibility(self) -> dict[tuple[str, str, str], tuple[str, str, str]]:
        table = {}
        for student in self.students:
            avoid = tag_set(student["restrictions"])
            for row in self.menu:
                key = (student["student_id"], row["date"], row["option_id"])
                resolved = self.options[row["option_id"]]
                if isinstance(resolved, str):
                    table[key] = (row["recipe_id"], "unknown", "")
                else:
                    clash = ";".join(sorted(avoid & resolved[1]))
                    table[key] = (row["recipe_id"], "no" if clash else "yes", clash)
        return table

    def eligibility_rows(self) -> list[tuple[str, ...]]:
        return [(*k, *v) for k, v in sorted(self.eligibility().items())]

    def safe_rows(self) -> list[tuple[str, ...]]:
        table = self.eligibility()
        dates = sorted({r["date"] for r in self.menu})
        rows = []
        for student in self.students:
            for day in dates:
                safe = sorted(
                    r["option_id"]
                    for r in self.menu
                    if r["date"] == day
                    and table[student["student_id"], day, r["option_id"]][1] == "yes"
                )
                rows.append((student["student_id"], day, str(len(safe)), ";".join(safe)))
        return rows

    def required(self) -> dict[str, Fraction]:
        total = {i: Fraction(0) for i in self.units}
        for row in self.menu:
            resolved = self.options[row["option_id"]]
            if not isinstance(resolved, str):
                for item, qty in resolved[0].items():
                    total[item] += qty * int(row["servings"])
        return total

    def purchase_rows(self, source: benchlib.Files) -> list[tuple[str, ...]]:
        stock = {
            r["ingredient_id"]: number(r["on_hand"]) for r in source.csv("inputs/inventory.csv")
        }
        packs = {r["ingredient_id"]: r for r in source.csv("inputs/packs.csv")}
        rows = []
        for item, need in sorted(self.required().items()):
            on_hand = stock.get(item, Fraction(0))
            short = max(Fraction(0), need - on_hand)
            size = number(packs[item]["pack_size"])
            count = -((-short) // size)
            rows.append(
                (
                    item,
                    self.units[item],
                    written(need, 3),
                    written(on_hand, 3),
                    written(short, 3),
                    written(size, 3),
                    str(count),
                    written(count * size, 3),
                    written(count * number(packs[item]["pack_price"]), 2),
                )
            )
        return rows

    def error_rows(self) -> list[tuple[str, ...]]:
        return [
            (
                r["date"],
                r["option_id"],
                r["recipe_id"],
                "component_cycle",
                self.options[r["option_id"]],
            )
            for r in self.menu
            if isinstance(self.options[r["option_id"]], str)
        ]


def kitchen(run: benchlib.Run, substituted: bool = True) -> Kitchen:
    key = f"kitchen-{substituted}"
    if key not in run.memo:
        run.memo[key] = Kitchen(run.source, substituted)
    return run.memo[key]


def impact_rows(run: benchlib.Run) -> list[tuple[str, ...]]:
    before = kitchen(run, False).eligibility()
    after = kitchen(run).eligibility()
    return [(*k, before[k][1], after[k][1]) for k in sorted(after) if before[k][1] != after[k][1]]


def rows(run: benchlib.Run, path: str, *names: str) -> list[tuple[str, ...]]:
    return [tuple(r[n] for n in names) for r in run.csv(path)]


def compare(got: list[tuple[str, ...]], want: list[tuple[str, ...]], what: str) -> None:
    benchlib.expect_equal(len(got), len(want), f"{what}: row count")
    for have, wanted in zip(got, want, strict=True):
        benchlib.expect_equal(have, wanted, f"{what}: row {wanted[:3]}")


def either(run: benchlib.Run, got: list, make, what: str) -> None:
    """Level 3: right as of stage 1 (no substitution applied) or as of the final stage."""
    options = [make(kitchen(run, False)), make(kitchen(run))]
    benchlib.expect(
        got in options, f"{what}: matches neither the plan with nor without substitutions"
    )


ELIGIBILITY_COLUMNS = ("student_id", "date", "option_id", "recipe_id", "eligible", "conflicts")
PURCHASE_COLUMNS = (
    "ingredient_id",
    "unit",
    "required_qty",
    "on_hand",
    "shortfall_qty",
    "pack_size",
    "packs",
    "purchase_qty",
    "cost",
)


@judge.check(level=3)
def every_student_and_option(run: benchlib.Run) -> None:
    """One eligibility row per student and option, one safe-options row per student and day."""
    got = rows(run, ELIGIBILITY, *ELIGIBILITY_COLUMNS[:4])
    compare(got, [r[:4] for r in kitchen(run).eligibility_rows()], "eligibility.csv keys")
    got = rows(run, SAFE, "student_id", "date")
    compare(got, [r[:2] for r in kitchen(run).safe_rows()], "safe_options.csv keys")


@judge.check(level=3)
def recipe_graph_resolves(run: benchlib.Run) -> None:
    """Nested quantities: required_qty of every ingredient (with or without substitutions)."""
    got = rows(run, PURCHASES, "ingredient_id", "unit", "required_qty")
    either(run, got, lambda k: [r[:3] for r in k.purchase_rows(run.source)], "required_qty")


@judge.check(level=3)
def eligibility_plausible(run: benchlib.Run) -> None:
    """The eligible column (with or without substitutions)."""
    got = rows(run, ELIGIBILITY, "eligible")
    either(run, got, lambda k: [(r[4],) for r in k.eligibility_rows()], "eligible")


@judge.check(level=4)
def allergen_propagation(run: benchlib.Run) -> None:
    """Every eligibility row: contains and may_contain tags at any depth, restrictions."""
    got = rows(run, ELIGIBILITY, *ELIGIBILITY_COLUMNS)
    compare(got, kitchen(run).eligibility_rows(), "eligibility.csv")


@judge.check(level=4)
def safe_options_exact(run: benchlib.Run) -> None:
    """Every student and day: the count and the list of safe options."""
    got = rows(run, SAFE, "student_id", "date", "safe_count", "safe_options")
    compare(got, kitchen(run).safe_rows(), "safe_options.csv")


@judge.check(level=4)
def stock_and_packs(run: benchlib.Run) -> None:
    """Every purchase row: exact shortfall, packs rounded up, quantities and costs written."""
    got = rows(run, PURCHASES, *PURCHASE_COLUMNS)
    compare(got, kitchen(run).purchase_rows(run.source), "purchase_list.csv")


@judge.check(level=4)
def no_errors_reported(run: benchlib.Run) -> None:
    """errors.csv lists exactly the options that cannot be resolved (none on the main week)."""
    got = rows(run, ERRORS, "date", "option_id", "recipe_id", "error", "cycle")
    compare(got, kitchen(run).error_rows(), "errors.csv")


@judge.check(level=4, stage="substitutions")
def exact_changed_eligibility(run: benchlib.Run) -> None:
    """substitution_impacts.csv: exactly the eligibility cells the substitutions change."""
    got = rows(run, IMPACTS, "student_id", "date", "option_id", "before", "after")
    compare(got, impact_rows(run), "substitution_impacts.csv")


def edge_plan(run: benchlib.Run, k: Kitchen) -> list[list[tuple[str, ...]]]:
    return [k.error_rows(), k.eligibility_rows(), k.safe_rows(), k.purchase_rows(run.source)]


@judge.edge
def cycle_reported_and_skipped(run: benchlib.Run) -> None:
    """The whole edge plan: cycles reported, those options unknown, never safe, never bought.

    The edge fixture has no stages: after stage 1 a plan that ignores the substitutions is
    accepted too (the stage-2 expectations of task.toml then demand the cycles).
    """
    got = [
        rows(run, ERRORS, "date", "option_id", "recipe_id", "error", "cycle"),
        rows(run, ELIGIBILITY, *ELIGIBILITY_COLUMNS),
        rows(run, SAFE, "student_id", "date", "safe_count", "safe_options"),
        rows(run, PURCHASES, *PURCHASE_COLUMNS),
    ]
    plain = edge_plan(run, kitchen(run, False))
    if got == plain:
        benchlib.expect_equal(got, plain, "the edge plan without substitutions")
        return
    names = ["errors.csv", "eligibility.csv", "safe_options.csv", "purchase_list.csv"]
    for have, want, name in zip(got, edge_plan(run, kitchen(run)), names, strict=True):
        compare(have, want, name)
    benchlib.expect(len(got[0]) > 0, "the edge kitchen has a cycle")
    if run.files.exists(IMPACTS):  # a stage-2 output: its presence is a stage-2 expectation
        got_impacts = rows(run, IMPACTS, "student_id", "date", "option_id", "before", "after")
        compare(got_impacts, impact_rows(run), "substitution_impacts.csv")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
