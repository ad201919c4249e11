"""Fixture generators of task 26: a school kitchen's recipes, menu, students and stock.

The recipe graph, the menu and the stock are authored here (each anchor case commented);
only the students are filler drawn from the seeded stream, plus the anchor students of
task.toml (records without a ``file``). Stage 2 brings ``inputs/substitutions.json``
(``substitutions``). The edge fixture (``edge_kitchen``) is a small kitchen whose
substitution makes a component cycle.
"""

from __future__ import annotations

from decimal import Decimal

import benchlib

ALLERGENS = [
    "egg",
    "fish",
    "milk",
    "mustard",
    "peanut",
    "sesame",
    "shellfish",
    "soy",
    "tree_nut",
    "wheat",
]

# ingredient_id, name, unit, allergens, may_contain
INGREDIENTS = [
    ("I01", "wheat flour", "kg", "wheat", ""),
    ("I02", "whole milk", "l", "milk", ""),
    ("I03", "butter", "kg", "milk", ""),
    ("I04", "eggs", "each", "egg", ""),
    ("I05", "cheddar cheese", "kg", "milk", ""),
    ("I06", "tomato passata", "l", "", ""),
    ("I07", "chicken breast", "kg", "", ""),
    ("I08", "long grain rice", "kg", "", ""),
    ("I09", "soy sauce", "l", "soy;wheat", ""),
    ("I10", "peanut butter", "kg", "peanut", ""),
    ("I11", "sesame oil", "l", "sesame", ""),
    ("I12", "cod fillet", "kg", "fish", ""),
    # may_contain only: a student avoiding sesame or soy cannot eat anything breaded
    ("I13", "breadcrumbs", "kg", "wheat", "sesame;soy"),
    ("I14", "rolled oats", "kg", "", "wheat"),
    ("I15", "chickpeas", "kg", "", ""),
    ("I16", "tahini", "kg", "sesame", ""),
    ("I17", "olive oil", "l", "", ""),
    ("I18", "onion", "kg", "", ""),
    ("I19", "carrot", "kg", "", ""),
    ("I20", "potato", "kg", "", ""),
    ("I21", "red lentils", "kg", "", ""),
    ("I22", "macaroni", "kg", "wheat", "egg"),
    ("I23", "granola clusters", "kg", "", "peanut;tree_nut"),
    ("I24", "plain yogurt", "kg", "milk", ""),
    ("I25", "apple", "each", "", ""),
    ("I26", "banana", "each", "", ""),
    ("I27", "cooked shrimp", "kg", "shellfish", ""),
    ("I28", "mustard powder", "kg", "mustard", ""),
    ("I29", "corn tortilla", "each", "", "wheat"),
    ("I30", "black beans", "kg", "", ""),
    ("I31", "vegetable stock", "l", "", "soy"),
    ("I32", "gluten-free flour", "kg", "", ""),
    ("I33", "oat drink", "l", "", "wheat"),
    ("I34", "sunflower seed butter", "kg", "", ""),
    ("I35", "egg replacer", "kg", "", "soy"),
    ("I36", "dairy-free spread", "kg", "soy", ""),
    ("I37", "sugar", "kg", "", ""),
    ("I38", "salt", "kg", "", ""),
    ("I39", "cocoa powder", "kg", "", "milk"),
    ("I40", "ground turkey", "kg", "", ""),
]


def recipe(rid: str, name: str, parts: list[tuple[str, str]], may: list[str] | None = None):
    out: dict = {
        "recipe_id": rid,
        "name": name,
        "components": [{"item": item, "quantity": Decimal(q)} for item, q in parts],
    }
    if may is not None:
        out["may_contain"] = may
    return out


# Components are per serving of the recipe; a recipe component counts in its servings.
RECIPES = [
    recipe("S01", "white sauce", [("I03", "0.010"), ("I01", "0.010"), ("I02", "0.080")]),
    # salt: 0.001 per serving of S02, used at 1.5 servings by R03 and 1 by R08: the salt
    # total 0.2085 ends in a half at the fourth decimal (rounding half up)
    recipe("S02", "tomato sauce", [("I06", "0.100"), ("I18", "0.020"), ("I38", "0.001")]),
    recipe("S03", "breaded chicken", [("I07", "0.100"), ("I13", "0.020"), ("I04", "0.200")]),
    # two levels deep: cheese sauce holds the white sauce (milk, wheat) and mustard
    recipe("S04", "cheese sauce", [("S01", "1"), ("I05", "0.020"), ("I28", "0.002")]),
    recipe("S05", "stir-fry sauce", [("I09", "0.010"), ("I11", "0.003"), ("I37", "0.002")]),
    recipe("S06", "pastry", [("I01", "0.060"), ("I03", "0.025"), ("I04", "0.100")]),
    recipe("S07", "hummus", [("I15", "0.050"), ("I16", "0.010"), ("I17", "0.005")]),
    # a recipe-level tag: the topping is made on the line that also toasts sesame
    recipe(
        "S08",
        "granola topping",
        [("I14", "0.030"), ("I23", "0.010"), ("I37", "0.005")],
        may=["sesame"],
    ),
    recipe("S09", "crumb topping", [("I13", "0.015"), ("I03", "0.005")]),
    recipe("S10", "bean filling", [("I30", "0.080"), ("I18", "0.020"), ("I31", "0.030")]),
    recipe("R01", "macaroni cheese", [("I22", "0.090"), ("S04", "1.000")]),
    recipe(
        "R02",
        "chicken stir-fry",
        [("I07", "0.090"), ("I08", "0.080"), ("S05", "1"), ("I19", "0.040")],
    ),
    recipe(
        "R03",
        "tomato lentil soup",
        [("I21", "0.050"), ("S02", "1.5"), ("I19", "0.030"), ("I31", "0.100")],
    ),
    recipe(
        "R04", "breaded chicken and potatoes", [("S03", "1"), ("I20", "0.150"), ("I17", "0.005")]
    ),
    recipe(
        "R05",
        "cod with crumb topping",
        [("I12", "0.110"), ("S09", "1"), ("S01", "0.5"), ("I20", "0.120")],
    ),
    recipe("R06", "hummus wrap", [("S07", "1"), ("I29", "2"), ("I19", "0.030")]),
    recipe("R07", "bean tacos", [("S10", "1"), ("I29", "2"), ("I05", "0.015")]),
    # a diamond, not a cycle: the white sauce twice, directly and inside the cheese sauce;
    # its quantities add up over both paths
    recipe(
        "R08",
        "vegetable pasta bake",
        [("I22", "0.080"), ("S02", "1"), ("S04", "0.5"), ("S01", "0.25")],
    ),
    recipe("R09", "yogurt parfait", [("I24", "0.120"), ("S08", "0.25"), ("I25", "0.5")]),
    recipe("R10", "peanut noodles", [("I22", "0.080"), ("I10", "0.025"), ("S05", "0.5")]),
    recipe(
        "R11",
        "shrimp fried rice",
        [("I27", "0.060"), ("I08", "0.090"), ("I04", "0.5"), ("S05", "1")],
    ),
    recipe(
        "R12",
        "turkey pie",
        [("I40", "0.090"), ("S06", "1"), ("S01", "0.5"), ("I19", "0.020")],
    ),
    recipe(
        "R13",
        "rice and vegetables",
        [("I08", "0.100"), ("I19", "0.050"), ("I18", "0.020"), ("I17", "0.005")],
    ),
    recipe("R14", "baked potato and beans", [("I20", "0.250"), ("I30", "0.060"), ("I06", "0.050")]),
    recipe("R15", "hummus plate", [("S07", "1.5"), ("I25", "1"), ("I19", "0.050")]),
]

# date, option_id, recipe_id, servings (R02 is never on the menu: its sauce is not bought)
MENU = [
    ("2025-09-08", "O01", "R01", 90),
    ("2025-09-08", "O02", "R04", 110),
    ("2025-09-08", "O03", "R13", 40),
    ("2025-09-08", "O04", "R09", 60),
    ("2025-09-09", "O05", "R10", 70),
    ("2025-09-09", "O06", "R03", 85),
    ("2025-09-09", "O07", "R14", 55),
    ("2025-09-09", "O08", "R15", 35),
    ("2025-09-10", "O09", "R01", 95),
    ("2025-09-10", "O10", "R05", 80),
    ("2025-09-10", "O11", "R06", 45),
    ("2025-09-10", "O12", "R13", 30),
    ("2025-09-11", "O13", "R04", 105),
    ("2025-09-11", "O14", "R12", 75),
    ("2025-09-11", "O15", "R07", 65),
    ("2025-09-11", "O16", "R09", 50),
    ("2025-09-12", "O17", "R10", 60),
    ("2025-09-12", "O18", "R11", 70),
    ("2025-09-12", "O19", "R08", 81),
    ("2025-09-12", "O20", "R14", 40),
]

# ingredient_id: (on_hand, pack_size, pack_price)
STOCK = {
    "I01": ("4.000", "10.000", "8.40"),
    "I02": ("20.000", "4.000", "3.96"),
    "I03": ("1.500", "1.000", "7.20"),
    "I04": ("60.000", "30.000", "9.90"),
    "I05": ("2.000", "2.500", "21.75"),
    "I06": ("10.000", "5.000", "6.10"),
    "I07": ("5.000", "5.000", "42.50"),
    "I08": ("12.000", "10.000", "14.00"),
    "I09": ("1.000", "1.000", "4.35"),
    "I10": ("0.000", "1.000", "6.80"),
    "I11": ("0.500", "0.500", "5.25"),
    # cod is missing from inventory.csv: nothing in stock
    "I12": (None, "3.000", "38.40"),
    "I13": ("2.000", "1.000", "3.10"),
    "I14": ("0.000", "2.000", "4.60"),
    "I15": ("1.000", "2.500", "7.45"),
    "I16": ("0.000", "0.500", "4.90"),
    "I17": ("5.000", "5.000", "27.50"),
    "I18": ("3.000", "5.000", "4.25"),
    "I19": ("4.000", "5.000", "3.80"),
    "I20": ("40.000", "12.500", "9.75"),
    "I21": ("0.000", "2.000", "5.20"),
    "I22": ("8.000", "5.000", "9.50"),
    "I23": ("1.000", "1.000", "8.90"),
    "I24": ("2.000", "5.000", "11.25"),
    "I25": ("40.000", "50.000", "16.00"),
    "I26": ("30.000", "40.000", "9.60"),
    "I27": ("0.000", "2.000", "24.80"),
    "I28": ("0.500", "0.250", "3.70"),
    "I29": ("100.000", "48.000", "7.68"),
    "I30": ("2.000", "2.500", "6.25"),
    "I31": ("5.000", "5.000", "6.50"),
    "I32": ("0.000", "2.000", "5.60"),
    "I33": ("0.000", "1.000", "1.95"),
    "I34": ("0.000", "1.000", "9.40"),
    "I35": ("0.000", "0.500", "6.30"),
    "I36": ("0.000", "1.000", "6.10"),
    # sugar: enough in stage 1 (0.4075); stage 2's seed spread makes it 0.4375, half a gram
    # short: one pack, the shortfall written 0.001 (half up)
    "I37": ("0.437", "1.000", "1.20"),
    # salt: the exact need 0.2085 (written 0.209) is above the 0.208 on hand: one pack
    "I38": ("0.208", "0.500", "0.65"),
    "I39": ("0.500", "0.500", "4.20"),
    "I40": ("2.000", "2.500", "17.50"),
}

SUBSTITUTIONS = {
    "new_recipes": [
        # a new component recipe, with its own recipe-level tag
        recipe(
            "S12",
            "seed and oat spread",
            [("I34", "0.020"), ("I14", "0.005"), ("I37", "0.0005")],
            may=["tree_nut"],
        ),
        recipe("S13", "oat and seed crumb", [("I14", "0.012"), ("I16", "0.004"), ("I17", "0.002")]),
    ],
    "substitutions": [
        # dairy-free white sauce from Wednesday (inclusive): O09, O10, O14, O19 change
        {"effective_date": "2025-09-10", "replace": "I02", "with": "I33", "factor": Decimal("1")},
        {"effective_date": "2025-09-10", "replace": "I03", "with": "I36", "factor": Decimal("1")},
        # peanut butter: sunflower seed butter from Tuesday, the new spread from Friday on
        # (on Friday the latest date wins, although it is listed last)
        {"effective_date": "2025-09-09", "replace": "I10", "with": "I34", "factor": Decimal("1")},
        {"effective_date": "2025-09-12", "replace": "I10", "with": "S12", "factor": Decimal("40")},
        # eggs (each) become egg replacer (kg) from Thursday, a stronger dose from Friday
        # (on Friday the latest date wins, although it is listed first)
        {
            "effective_date": "2025-09-12",
            "replace": "I04",
            "with": "I35",
            "factor": Decimal("0.02"),
        },
        {
            "effective_date": "2025-09-11",
            "replace": "I04",
            "with": "I35",
            "factor": Decimal("0.015"),
        },
        # breadcrumbs become a new crumb recipe from Thursday
        {"effective_date": "2025-09-11", "replace": "I13", "with": "S13", "factor": Decimal("50")},
        # after the planned week: changes nothing
        {"effective_date": "2025-09-15", "replace": "I22", "with": "I32", "factor": Decimal("1")},
    ],
}


def _write_kitchen(ctx: benchlib.SeedContext, ingredients, recipes, menu, stock) -> None:
    ctx.write_csv(
        "inputs/ingredients.csv",
        ["ingredient_id", "name", "unit", "allergens", "may_contain"],
        [
            dict(zip(["ingredient_id", "name", "unit", "allergens", "may_contain"], r, strict=True))
            for r in ingredients
        ],
    )
    ctx.write_json("inputs/recipes.json", {"recipes": recipes})
    ctx.write_csv(
        "inputs/menu.csv",
        ["date", "option_id", "recipe_id", "servings"],
        [dict(zip(["date", "option_id", "recipe_id", "servings"], r, strict=True)) for r in menu],
    )
    ctx.write_csv(
        "inputs/inventory.csv",
        ["ingredient_id", "on_hand"],
        [{"ingredient_id": k, "on_hand": v[0]} for k, v in sorted(stock.items()) if v[0]],
    )
    ctx.write_csv(
        "inputs/packs.csv",
        ["ingredient_id", "pack_size", "pack_price"],
        [
            {"ingredient_id": k, "pack_size": v[1], "pack_price": v[2]}
            for k, v in sorted(stock.items())
        ],
    )


def kitchen(ctx: benchlib.SeedContext) -> None:
    """The stage-1 inputs: ingredients, recipes, menu, students, inventory, packs."""
    rng = ctx.rng
    ingredients = list(INGREDIENTS)
    rng.shuffle(ingredients)  # the export lists ingredients in no particular order
    _write_kitchen(ctx, ingredients, RECIPES, MENU, STOCK)
    anchors = ctx.anchor("students")
    students = []
    weights = [3, 1, 4, 1, 4, 2, 1, 2, 2, 3]
    for n in range(1, 81):
        count = rng.choices([0, 1, 2, 3], weights=[5, 8, 5, 2])[0]
        picked = set()
        while len(picked) < count:
            picked.add(rng.choices(ALLERGENS, weights=weights)[0])
        tags = sorted(picked)
        rng.shuffle(tags)
        # the way the office types them: any case, spaces around the separator
        written = [t.capitalize() if rng.random() < 0.3 else t for t in tags]
        sep = rng.choice([";", "; "])
        students.append(
            {
                "student_id": f"ST{n:03d}",
                "grade": rng.randint(1, 6),
                "restrictions": sep.join(written),
            }
        )
    for i, record in enumerate(anchors):
        students.insert(7 + 9 * i, record)
    ctx.write_csv("inputs/students.csv", ["student_id", "grade", "restrictions"], students)


def substitutions(ctx: benchlib.SeedContext) -> None:
    """Stage 2: inputs/substitutions.json."""
    ctx.write_json("inputs/substitutions.json", SUBSTITUTIONS)


EDGE_INGREDIENTS = [
    ("E01", "bread flour", "kg", "wheat", ""),
    ("E02", "milk", "l", "milk", ""),
    ("E03", "jasmine rice", "kg", "", ""),
    ("E04", "sesame seeds", "kg", "sesame", ""),
    ("E05", "carrot", "kg", "", ""),
]
EDGE_RECIPES = [
    recipe("ES1", "soft dough", [("E01", "0.100"), ("E02", "0.050")]),
    recipe("ER1", "sesame flatbread", [("ES1", "1"), ("E04", "0.005")]),
    recipe("ER2", "rice bowl", [("E03", "0.150"), ("E05", "0.040")]),
    recipe("ER3", "carrot soup", [("E05", "0.200"), ("E02", "0.020")]),
]
EDGE_MENU = [  # not in date order: errors.csv is sorted by date, then option_id
    ("2025-09-10", "O5", "ER3", 15),
    ("2025-09-09", "O1", "ER1", 20),
    ("2025-09-10", "O3", "ER1", 25),
    ("2025-09-09", "O2", "ER3", 10),
    ("2025-09-10", "O4", "ER2", 30),
]
EDGE_STOCK = {
    "E01": ("1.000", "2.000", "2.40"),
    "E02": ("0.500", "1.000", "1.10"),
    "E03": ("2.000", "5.000", "9.00"),
    "E04": ("0.000", "0.250", "2.20"),
    "E05": ("1.000", "2.000", "1.80"),
}
EDGE_SUBSTITUTIONS = {
    "new_recipes": [
        # milk becomes the house blend, itself made with the soft dough (which holds milk): from
        # Wednesday ER1 meets ES1>ES2>ES1 and ER3 ES2>ES1>ES2; ER2 (no milk) is planned
        recipe("ES2", "house blend", [("ES1", "0.5"), ("E05", "0.010")]),
    ],
    "substitutions": [
        {"effective_date": "2025-09-10", "replace": "E02", "with": "ES2", "factor": Decimal("10")},
    ],
}


def edge_kitchen(ctx: benchlib.SeedContext) -> None:
    """The edge: a substitution turns the soft dough into a component cycle."""
    _write_kitchen(ctx, EDGE_INGREDIENTS, EDGE_RECIPES, EDGE_MENU, EDGE_STOCK)
    ctx.write_csv(
        "inputs/students.csv",
        ["student_id", "grade", "restrictions"],
        [
            {"student_id": "SE1", "grade": 2, "restrictions": ""},
            {"student_id": "SE2", "grade": 3, "restrictions": "Milk"},
            {"student_id": "SE3", "grade": 4, "restrictions": "sesame; wheat"},
        ],
    )
    ctx.write_json("inputs/substitutions.json", EDGE_SUBSTITUTIONS)
