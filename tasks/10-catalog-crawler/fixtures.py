"""Fixture generators of task 10: the supplier's web catalog that catalog_server.py serves.

``inputs/catalog_site.json`` is the site's content: ``{"pages": [...]}``, each page an object
with ``target`` (the request target it answers), ``origin`` (``catalog``: served on any
origin; ``mirror``: only through the partner origin), ``kind`` (``listing`` for a catalog
page; ``preview`` for a page nothing in a pagination nav links to), ``title``, ``nav`` (the
pagination links, ``[rel, href, text]``, href null for the current page; ``{origin}`` and
``{mirror}`` in an href stand for the two origins' URLs), ``rows`` (``sku``, ``name_html`` as
the supplier's CMS stores it, ``price`` without separators, ``currency``, ``stock``,
``revision``) and ``script`` (the page's trailing ``<script>`` text, or null).

The main catalog has 40 listing pages reached from ``/catalog?page=1`` by ``next`` links and a
numbered window, in varied but equivalent spellings; page 40's ``next`` and some ``Last``
links leave for the partner origin. The authored cases (``ANCHORS``) are commented where they
are placed. The edge catalog (``edge_catalog``) is three pages whose ``next`` links are
relative, in other folders, with an encoded ampersand.
"""

from __future__ import annotations

import benchlib

PAGES = 40
ROWS_PER_PAGE = 11
FAMILIES = ["BR", "CG", "HB", "HG", "NT", "PN", "RV", "SC", "SP", "WS"]
NOUNS = {
    "BR": ["Angle bracket", "Shelf bracket", "Corner brace", "Café table bracket"],
    "CG": ["Cable gland", "Cable tie", "Grommet", "Strain relief"],
    "HB": ["Hex bolt", "Carriage bolt", "Flange bolt", "Eye bolt"],
    "HG": ["Butt hinge", "Piano hinge", "Gate hinge", "Concealed hinge"],
    "NT": ["Hex nut", "Wing nut", "Lock nut", "Cap nut"],
    "PN": ["Dowel pin", "Split pin", "Clevis pin", "Roll pin"],
    "RV": ["Pop rivet", "Blind rivet", "Solid rivet", "Drive rivet"],
    "SC": ["Wood screw", "Machine screw", "Self-tapping screw", "Décor screw"],
    "SP": ["Compression spring", "Extension spring", "Torsion spring", "Gas strut"],
    "WS": ["Flat washer", "Spring washer", "Fender washer", "Sealing washer"],
}
SIZES = ["M4", "M5", "M6", "M8", "M10", "M12", "½″", "¾″", "3⁄8″", "6 mm", "10 mm"]
FINISHES = ["zinc", "stainless", "brass", "black oxide", "galvanised", "nylon", "A2 – marine"]
EXTRAS = ["", "", "", " × 40", " × 100", " (90°)", " & washer", " “heavy duty”", " – 5 pack"]
CURRENCIES = ["EUR", "EUR", "EUR", "USD", "GBP"]
NAMED = {
    "&": "amp",
    "<": "lt",
    ">": "gt",
    '"': "quot",
    "é": "eacute",
    "×": "times",
    "½": "frac12",
    "¾": "frac34",
    "°": "deg",
    "–": "ndash",
    "“": "ldquo",
    "”": "rdquo",
    "″": "Prime",
    "’": "rsquo",
    "⁄": "frasl",
}

# Authored listings: (page, sku, name_html, price, currency, stock, revision). Page 0 is the
# partner's clearance page (mirror origin), page -1 the preview page only a script links to.
ANCHORS = [
    # numeric revisions: 10 beats 9 (text order says 9), 12 beats 8 listed later
    (4, "SC-77", "Wood screw 4 &times; 30 zinc", "3.10", "EUR", 900, 9),
    (33, "SC-77", "Wood screw 4 &times; 30 zinc, <b>new</b> head", "3.25", "EUR", 1150, 10),
    (6, "SC-78", "Wood screw 5 &times; 50 stainless", "4.80", "EUR", 0, 12),
    (21, "SC-78", "Wood screw 5 &times; 50 stainless", "4.20", "EUR", 300, 8),
    # the same SKU twice on one page, the higher revision first
    (12, "WS-310", "Fender washer M10 galvanised", "0.45", "USD", 2500, 5),
    (12, "WS-310", "Fender washer M10 galv.", "0.40", "USD", 2700, 2),
    # three listings; the highest in the middle
    (9, "HG-64", "Gate hinge 150 mm black", "18.90", "GBP", 40, 3),
    (18, "HG-64", "Gate hinge 150&#8239;mm black &ndash; pair", "21.50", "GBP", 25, 7),
    (37, "HG-64", "Gate hinge 150 mm black", "19.90", "GBP", 35, 6),
    # on the last page; the partner's clearance page lists it with a higher revision
    (40, "BR-505", "Shelf bracket 250 mm white", "6.40", "EUR", 120, 3),
    (0, "BR-505", "Shelf bracket 250 mm white &ndash; clearance", "2.00", "EUR", 12, 9),
    (0, "BR-9001", "Corner brace assorted &amp; mixed", "1.00", "EUR", 8, 1),
    # only the preview page (linked from a script) lists these
    (-1, "NT-4040", "Cap nut M8 chrome (preview)", "0.95", "EUR", 0, 1),
    (-1, "HB-142", "Hex bolt M8 &times; 40 preview", "9.99", "EUR", 1, 99),
    # entities: named, decimal, hex, and markup nested in the cell
    (
        2,
        "BR-18",
        "Caf&eacute; table bracket &#8211; 90&deg; &amp; &#x201C;heavy&#x201D;",
        "12.75",
        "EUR",
        64,
        1,
    ),
    (3, "HB-142", "Hex bolt <em>M8</em> &times; 40 &lt;A2&gt;", "1249.00", "EUR", 6, 2),
    (
        5,
        "HB-15",
        'Hex bolt M6 &#xBD;&quot; <span class="note">zinc</span> plated',
        "0.35",
        "EUR",
        10000,
        1,
    ),
    (7, "HB-1420", "Eye bolt M12 &rsquo;galvanised&rsquo;", "12480.50", "USD", 2, 4),
    # a script inside the name cell is not part of the name
    (
        11,
        "CG-9",
        'Cable gland PG9<script>track("CG-9", "impression")</script>',
        "1.15",
        "EUR",
        75,
        1,
    ),
    (
        26,
        "CG-12",
        'Cable gland PG11 <script>var s = "<b>sale</b>";</script>IP68',
        "1.45",
        "EUR",
        60,
        2,
    ),
    # the 17th request (page 17 when crawled in order) holds the highest revision
    (2, "PN-1700", "Split pin 3 &times; 40", "0.12", "EUR", 4000, 2),
    (17, "PN-1700", "Split pin 3 &times; 40 stainless", "0.18", "EUR", 3500, 4),
]

# A quick-view template and a prefetch of the preview page, in the page's script: markup
# and links inside a script are not content.
SCRIPT = (
    '\n  var quickView = \'<tr class="product"><td class="sku">NT-4040</td>'
    '<td class="name">Cap nut M8 chrome</td><td class="price"><span class="amount">0.95'
    '</span> <span class="currency">EUR</span></td><td class="stock">0</td>'
    '<td class="revision">1</td></tr>\';\n'
    '  var upcoming = \'<nav class="pagination"><a rel="next" '
    'href="/catalog/preview?page=41">Next</a></nav>\';\n'
    '  if (window.fetch) { fetch("/catalog/preview?page=41"); }\n'
)


def encode(text: str, rng) -> str:
    """HTML for ``text``: markup characters as entities, others in varied entity forms."""
    out = []
    for char in text:
        named = NAMED.get(char)
        if char in "&<>":
            out.append(f"&{named};")
        elif named is None:
            out.append(char)
        else:
            form = rng.randrange(4)
            out.append(
                [f"&{named};", f"&#{ord(char)};", f"&#x{ord(char):X};", char][form]
                if char != '"'
                else ["&quot;", "&#34;", "&#x22;", "&quot;"][form]
            )
    return "".join(out)


def filler_row(rng, sku: str) -> dict:
    family = sku.split("-")[0]
    name = f"{rng.choice(NOUNS[family])} {rng.choice(SIZES)} {rng.choice(FINISHES)}"
    name += rng.choice(EXTRAS)
    html = encode(name, rng)
    if rng.random() < 0.12:
        first, _, rest = html.partition(" ")
        html = f"{first} <em>{rest}</em>" if rest else html
    elif rng.random() < 0.08:
        html = f"\n      {html}\n    "
    cents = rng.choice([rng.randint(5, 999), rng.randint(100, 9999), rng.randint(1000, 250000)])
    return {
        "sku": sku,
        "name_html": html,
        "price": f"{cents // 100}.{cents % 100:02d}",
        "currency": rng.choice(CURRENCIES),
        "stock": rng.choice([0, rng.randint(1, 50), rng.randint(50, 5000)]),
        "revision": rng.randint(1, 6),
    }


def anchor_row(entry: tuple) -> dict:
    _, sku, html, price, currency, stock, revision = entry
    return {
        "sku": sku,
        "name_html": html,
        "price": price,
        "currency": currency,
        "stock": stock,
        "revision": revision,
    }


def spelling(rng, number: int) -> str:
    """One of the equivalent hrefs of listing page ``number`` (from a listing page)."""
    forms = [
        f"?page={number}",
        f"/catalog?page={number}",
        f"catalog?page={number}",
        f"./catalog?page={number}",
        f"{{origin}}/catalog?page={number}",
    ]
    return rng.choice(forms)


def nav_of(rng, number: int) -> list[list[str]]:
    nav = []
    if number > 1:
        nav.append(["", spelling(rng, 1), "« First"])
        nav.append(["prev", spelling(rng, number - 1), "‹ Prev"])
    for other in range(max(1, number - 2), min(PAGES, number + 2) + 1):
        if other != number:
            nav.append(["", spelling(rng, other), str(other)])
        else:  # the current page: an <a> without href
            nav.append(["", None, str(other)])
    if number < PAGES:
        nav.append(["next", spelling(rng, number + 1), "Next ›"])
        last = "{mirror}/catalog?page=40" if number % 7 == 3 else spelling(rng, PAGES)
        nav.append(["", last, "Last »"])
    else:
        nav.append(["next", "{mirror}/clearance?page=1", "Partner clearance ›"])
    return nav


def catalog_site(ctx: benchlib.SeedContext) -> None:
    """The main catalog: 40 listing pages, the partner's clearance page, a preview page."""
    rng = ctx.rng
    taken = {entry[1] for entry in ANCHORS}
    pages: dict[int, list[dict]] = {n: [] for n in range(-1, PAGES + 1)}
    for number in range(1, PAGES + 1):
        for _ in range(ROWS_PER_PAGE):
            while True:
                sku = f"{rng.choice(FAMILIES)}-{rng.randint(1, 9999)}"
                if sku not in taken:
                    break
            taken.add(sku)
            pages[number].append(filler_row(rng, sku))
    # 36 filler SKUs are listed again on another page, with another revision
    listed = [(n, row) for n in range(1, PAGES + 1) for row in pages[n]]
    for number, row in rng.sample(listed, 36):
        again = dict(filler_row(rng, row["sku"]))
        again["revision"] = row["revision"] + rng.choice([-1, 1]) * rng.randint(1, 9)
        if again["revision"] < 1:
            again["revision"] = row["revision"] + 11
        other = rng.choice([n for n in range(1, PAGES + 1) if n != number])
        pages[other].insert(rng.randint(0, len(pages[other])), again)
    for entry in ANCHORS:
        rows = pages[entry[0]]
        rows.insert(rng.randint(0, len(rows)), anchor_row(entry))
    # keep WS-310's higher revision first on its page
    ws = [row for row in pages[12] if row["sku"] == "WS-310"]
    if ws[0]["revision"] < ws[1]["revision"]:
        first, second = (pages[12].index(row) for row in ws)
        pages[12][first], pages[12][second] = ws[1], ws[0]
    site = []
    for number in range(1, PAGES + 1):
        site.append(
            {
                "target": f"/catalog?page={number}",
                "origin": "catalog",
                "kind": "listing",
                "title": f"Catalog page {number} of {PAGES}",
                "nav": nav_of(rng, number),
                "rows": pages[number],
                "script": SCRIPT if number % 8 == 0 else None,
            }
        )
    site.append(
        {
            "target": "/clearance?page=1",
            "origin": "mirror",
            "kind": "listing",
            "title": "Partner clearance",
            "nav": [["prev", "{mirror}/clearance?page=1", "‹ Prev"]],
            "rows": pages[0],
            "script": None,
        }
    )
    site.append(
        {
            "target": "/catalog/preview?page=41",
            "origin": "catalog",
            "kind": "preview",
            "title": "Coming soon",
            "nav": [["prev", "/catalog?page=40", "‹ Prev"]],
            "rows": pages[-1],
            "script": None,
        }
    )
    ctx.write_json("inputs/catalog_site.json", {"pages": site})


EDGE_ROWS = [
    [("BX-1", "Ball bearing 608 &amp; shield", "2.40", "EUR", 300, 1)],
    [("BX-2", "Bearing puller &ndash; small", "31.00", "EUR", 4, 2)],
    [("BX-3", "Bearing grease 400&#8239;g", "7.90", "EUR", 55, 1)],
]


def edge_catalog(ctx: benchlib.SeedContext) -> None:
    """Three pages chained by relative next links with an encoded ampersand."""
    targets = ["/catalog?page=1", "/aisles/bearings?page=2&per=4", "/aisles/bearings?page=3&per=4"]
    hrefs = ["aisles/bearings?page=2&amp;per=4", "bearings?page=3&amp;per=4", None]
    site = []
    for index, target in enumerate(targets):
        nav = [["next", hrefs[index], "Next ›"]] if hrefs[index] else []
        if index:
            nav.insert(0, ["prev", "/catalog?page=1", "« First"])
        rows = [anchor_row((0, *entry)) for entry in EDGE_ROWS[index]]
        site.append(
            {
                "target": target,
                "origin": "catalog",
                "kind": "listing",
                "title": f"Bearings page {index + 1}",
                "nav": nav,
                "rows": rows,
                "script": None,
            }
        )
    ctx.write_json("inputs/catalog_site.json", {"pages": site})
