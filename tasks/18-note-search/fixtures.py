"""Fixture generator of task 18: 8,000 research notes, then 600 new or edited ones.

``notes`` writes ``inputs/notes/`` (8,000 Markdown notes in eight folders) and
``inputs/stopwords.txt``; ``updates`` (stage 2) writes ``inputs/notes-new/`` (600 notes:
new paths and edited existing ones) and ``inputs/deleted.txt``. Both rebuild the same plan
of the collection from the shared stream ``corpus``, so the stage-2 file can be generated
alone.

Filler notes draw their words from a synthetic vocabulary with Zipf weights (plus a few
Unicode words, all composed, NFC), so two filler notes share few words. About 6% of the
notes repeat an earlier body: re-wrapped and re-cased (an exact duplicate), one word
replaced (a near duplicate), or with other punctuation (token sets equal, bodies not). The
named cases are the hand-written notes of ``ANCHOR_NOTES`` and ``UPDATE_NOTES`` (each case
commented); their words never occur in the filler.
"""

from __future__ import annotations

import random
import unicodedata

import benchlib

NOTES = 8000
NEW_NOTES = 600
EDITED = 150
DELETED = 120
FOLDERS = [
    "Field-Notes", "Inbox", "biology", "chemistry", "history", "linguistics", "reading", "travel",
]  # fmt: skip
STOPWORDS = [
    "a", "about", "after", "all", "an", "and", "are", "as", "at", "be", "before", "but", "by",
    "for", "from", "had", "has", "have", "in", "into", "is", "it", "its", "not", "of", "on",
    "or", "our", "over", "so", "than", "that", "the", "their", "then", "there", "these",
    "this", "to", "under", "was", "we", "were", "which", "with",
]  # fmt: skip
# Content words of the query "protocol archive": frequent in the filler (ranks 0 and 7).
FREQUENT = ["protocol", "sample", "measure", "result", "figure", "method", "draft", "archive"]
UNICODE_WORDS = [
    "café", "naïve", "Zürich", "façade", "Ångström", "smörgåsbord", "Øresund", "Ελλάδα",
    "μάθημα", "Москва", "наука", "東京", "データ", "résumé", "Kraków", "São", "Åland", "élan",
]  # fmt: skip
ONSETS = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "st", "pl"]
VOWELS = ["a", "e", "i", "o", "u", "ai", "ou"]
CODAS = ["", "", "n", "r", "s", "l", "m", "x"]

# Words of the hand-written notes (never generated for the filler: checked below).
W = [
    "amber",
    "birch",
    "cedar",
    "delta",
    "ember",
    "flint",
    "garnet",
    "harbor",
    "indigo",
    "jasper",
    "kelp",
    "lichen",
    "meadow",
    "nectar",
    "onyx",
    "pebble",
    "quartz",
    "russet",
    "sorrel",
    "thistle",
    "umber",
    "violet",
    "willow",
    "yarrow",
    "zephyr",
    "acorn",
    "bramble",
    "clover",
    "dune",
    "fjord",
    "glacier",
    "heath",
    "islet",
    "juniper",
    "knoll",
    "lagoon",
    "moss",
    "nettle",
    "oak",
    "peat",
    "quarry",
    "reed",
    "sedge",
    "tundra",
]


def sentences(words: list[str], per: int = 9) -> str:
    """Words as sentences of ``per`` words, capitalized, ending with a period."""
    out = []
    for i in range(0, len(words), per):
        chunk = words[i : i + per]
        out.append(" ".join([chunk[0].capitalize(), *chunk[1:]]) + ".")
    return " ".join(out)


def wrap(text: str, width: int = 72) -> str:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join([*lines, line])


def note(title: str, tags: str, created: str, body: str) -> str:
    return f"Title: {title}\nTags: {tags}\nCreated: {created}\n\n{body}\n"


# near-boundary: A holds 25 content words plus the stop words the/of/and; B holds 23 of
# them (A's two words missing from B occur nowhere else, so they are A's rarest) plus the
# stop words a/in/on. Content Jaccard 23/25 = 0.92 exactly: near duplicates; with the stop
# words the sets would differ (Jaccard 23/31); the titles differ too (with the titles 24/28).
NEAR_A = [*W[:23], "saltmarsh", "shingle"]
NEAR_B = W[:23]
# near-miss: 22 of 24 words in common, 22/24 = 0.9167 < 0.92: not duplicates.
MISS_C = [*W[23:45], "scree", "tarn"]
MISS_D = W[23:45]
# multiset: S = 23 words; E = S + {e} with its first word written 8 times, F = S + {f}:
# set Jaccard 23/25 = 0.92 (near), bag Jaccard far below. G = E's words with other
# punctuation: the same token set as E, not the same normalized body.
MULTI_S = [f"{w}wort" for w in W[:23]]
# chain: P = S + {a, b}, Q = S + {b, c}, R = S + {c, d} with |S| = 23: P~Q and Q~R (24/26),
# P and R only 23/27 = 0.85, yet one group (canonical P, the lexically first path).
CHAIN_S = [f"{w}leaf" for w in W[5:28]]


def lantern_body(case: int) -> str:
    words = [
        "the",
        "lanternfish",
        "rise",
        "at",
        "dusk",
        "and",
        "sink",
        "before",
        "dawn",
        "we",
        "logged",
        "their",
        "migration",
        "over",
        "three",
        "nights",
        "with",
        "the",
        "echo",
        "sounder",
        "and",
        "a",
        "plankton",
        "net",
        "the",
        "lanternfish",
        "layer",
        "moved",
        "forty",
        "metres",
        "salps",
        "krill",
        "and",
        "copepods",
        "followed",
        "the",
        "same",
        "rhythm",
        "while",
        "squid",
        "hunted",
        "below",
        "the",
        "scattering",
        "layer",
        "at",
        "noon",
    ]
    text = sentences(words, 11)
    if case == 1:  # re-cased and re-wrapped, extra spaces: an exact duplicate
        return wrap(text.upper(), 40).replace(" AND ", "  AND  ")
    if case == 2:  # other line breaks: an exact duplicate
        return wrap(text, 30)
    if case == 3:  # "sounder" replaced: a near duplicate (Jaccard 28/30)
        return wrap(text.replace("sounder", "transducer"))
    return wrap(text)


# The hand-written notes of the main fixture: path -> (title, tags, created, body).
ANCHOR_NOTES: dict[str, tuple[str, str, str, str]] = {
    # exact-group: one body re-cased, re-spaced and re-wrapped in three folders, plus a near
    # copy. The canonical is Field-Notes/... (upper case sorts before lower case), although
    # reading/... was created first. Same title and lanternfish count: a four-way score tie.
    "reading/n9012-lanternfish.md": (
        "Lanternfish migration",
        "ocean, acoustics",
        "2023-01-05",
        lantern_body(0),
    ),
    "Field-Notes/n9101-lanternfish.md": (
        "Lanternfish migration",
        "ocean",
        "2024-06-01",
        lantern_body(1),
    ),
    "travel/n9003-lanternfish.md": (
        "Lanternfish migration",
        "ocean, trip",
        "2023-08-19",
        lantern_body(2),
    ),
    "linguistics/n9005-lanternfish.md": (
        "Lanternfish migration",
        "ocean",
        "2023-09-30",
        lantern_body(3),
    ),
    # near-boundary (see NEAR_A): canonical biology/..., chemistry/... is its near duplicate.
    "chemistry/n9020-basalt.md": (
        "Basalt columns",
        "geology",
        "2022-03-14",
        wrap(sentences(["the", "of", "and", *NEAR_A])),
    ),
    "biology/n9021-basalt.md": (
        "Basalt survey",
        "geology",
        "2022-04-02",
        wrap(sentences(["a", "in", "on", *NEAR_B])),
    ),
    # near-miss (see MISS_C): no duplicate row.
    "history/n9030-heron.md": ("Heron colony", "birds", "2021-05-11", wrap(sentences(MISS_C))),
    "history/n9031-heron.md": ("Heron colony", "birds", "2021-05-12", wrap(sentences(MISS_D))),
    # multiset (see MULTI_S): canonical Inbox/n9041 (F); E and G are its near duplicates.
    "linguistics/n9040-quill.md": (
        "Quill inks",
        "writing",
        "2020-02-02",
        wrap(sentences([MULTI_S[0]] * 7 + [*MULTI_S, "gallwort"])),
    ),
    "Inbox/n9041-quill.md": (
        "Quill inks",
        "writing",
        "2020-02-03",
        wrap(sentences([*MULTI_S, "inkwort"])),
    ),
    "travel/n9042-quill.md": (
        "Quill inks",
        "writing",
        "2020-02-04",
        wrap(sentences([MULTI_S[0]] * 7 + [*MULTI_S, "gallwort"]).replace(".", "!")),
    ),
    # chain (see CHAIN_S): P = biology/n9050, Q = travel/n9051, R = reading/n9052.
    "biology/n9050-fern.md": (
        "Fern spores",
        "botany",
        "2024-01-10",
        wrap(sentences([*CHAIN_S, "alphafrond", "betafrond"])),
    ),
    "travel/n9051-fern.md": (
        "Fern spores",
        "botany",
        "2024-01-11",
        wrap(sentences([*CHAIN_S, "betafrond", "gammafrond"])),
    ),
    "reading/n9052-fern.md": (
        "Fern spores",
        "botany",
        "2024-01-12",
        wrap(sentences([*CHAIN_S, "gammafrond", "deltafrond"])),
    ),
    # title weight: count = body + 2 x title. marmalade counts 2 (title only), 2 (body
    # twice), 3 (title + body), 3 (body three times), 1 (body once).
    "reading/n9060-marmalade.md": (
        "Marmalade notes",
        "kitchen",
        "2022-11-01",
        "Seville oranges boil for two hours with sugar and lemon peel.",
    ),
    "biology/n9061-citrus.md": (
        "Citrus pectin",
        "kitchen",
        "2022-11-02",
        "Pectin sets the marmalade; bitter marmalade needs more pectin than sweet jam.",
    ),
    "history/n9062-marmalade.md": (
        "Seville marmalade",
        "kitchen, history",
        "2022-11-03",
        "The Dundee story of marmalade is a legend, not a record.",
    ),
    "Field-Notes/n9063-jars.md": (
        "Jar inventory",
        "kitchen",
        "2022-11-04",
        "Marmalade jars: twelve. MARMALADE labels: ten. marmalade lids: eight.",
    ),
    "travel/n9064-breakfast.md": (
        "Breakfast in Oxford",
        "trip",
        "2022-11-05",
        "Toast with marmalade at the station cafe.",
    ),
    # Unicode tokens: Straßenbahn casefolds to strassenbahn (lower() keeps ß); ﬁ (U+FB01)
    # and fullwidth letters are NFKC-equal to fi and ASCII; tram_stop is two tokens (the
    # underscore is no letter); field-work is two tokens.
    "travel/n9070-tram.md": (
        "Tram lines",
        "transport",
        "2023-03-03",
        "The Straßenbahn to Grünau leaves from the tram_stop by the bridge; the\n"
        "Straßenbahn runs every ten minutes.",
    ),
    "history/n9071-tram.md": (
        "Old depots",
        "transport, history",
        "2023-03-04",
        "STRASSENBAHN depots of 1910, found during fieldwork in the city archive.",
    ),
    "Field-Notes/n9072-survey.md": (
        "Ｆｉｅｌｄｗｏｒｋ log",
        "survey",
        "2023-03-05",
        "Day three of fieldwork: rain, then sun.",
    ),
    "reading/n9073-methods.md": (
        "Methods reading list",
        "survey",
        "2023-03-06",
        "Chapter two covers \ufb01eldwork ethics and consent.",
    ),
    "biology/n9074-plots.md": (
        "Plot design",
        "survey",
        "2023-03-07",
        "Our field-work plots sit under the tram line near Grünau.",
    ),
}

# Stage 2: edited notes (existing paths, new bodies) and new notes. travel/n9064 now
# mentions marmalade four times (count 4: first); Inbox/n9080 is new (title + body: 3);
# Field-Notes/n9063 is deleted (deleted.txt). travel/n9003 no longer mentions lanternfish,
# which breaks the four-way tie; Field-Notes/n9101 is deleted: the tie keeps two notes.
UPDATE_NOTES: dict[str, tuple[str, str, str, str]] = {
    "travel/n9064-breakfast.md": (
        "Breakfast in Oxford",
        "trip",
        "2022-11-05",
        "Toast with marmalade, marmalade cake, marmalade tart and a marmalade shop.",
    ),
    "Inbox/n9080-marmalade.md": (
        "Marmalade recipe",
        "kitchen",
        "2025-01-20",
        "Three pounds of oranges make ten jars of marmalade.",
    ),
    "travel/n9003-lanternfish.md": (
        "Echo sounder trip",
        "ocean, trip",
        "2023-08-19",
        "We tested the echo sounder in the harbour; nothing to report.",
    ),
    "history/n9071-tram.md": (
        "Old depots",
        "transport, history",
        "2023-03-04",
        "Depots of 1910, listed in the city archive.",
    ),
}
DELETED_ANCHORS = ["Field-Notes/n9063-jars.md", "Field-Notes/n9101-lanternfish.md"]


def vocabulary(rng: random.Random) -> list[str]:
    reserved = set(W) | {w.casefold() for w in ANCHOR_WORDS} | set(STOPWORDS)
    words: list[str] = list(FREQUENT)
    seen = set(words) | reserved
    while len(words) < 4000:
        word = "".join(
            rng.choice(ONSETS) + rng.choice(VOWELS) for _ in range(rng.choice([2, 2, 3]))
        ) + rng.choice(CODAS)
        if word not in seen:
            seen.add(word)
            words.append(word)
    for i, word in enumerate(UNICODE_WORDS):  # mid ranks
        words.insert(60 + 37 * i, word)
    return words


ANCHOR_WORDS = [
    "lanternfish", "marmalade", "strassenbahn", "straßenbahn", "fieldwork", "tram", "zyxwvut",
    "transducer", "saltmarsh", "shingle", "scree", "tarn", "gallwort", "inkwort", "alphafrond",
    "betafrond", "gammafrond", "deltafrond", "sounder", "seville", "pectin", "dundee",
]  # fmt: skip


class Plan:
    """The collection: every stage-1 note, and the stage-2 changes, from stream ``corpus``."""

    def __init__(self, ctx: benchlib.SeedContext) -> None:
        rng = ctx.stream("corpus")
        self.rng = rng
        self.vocab = vocabulary(rng)
        self.weights: list[float] = []
        total = 0.0
        for rank in range(len(self.vocab)):
            total += 1.0 / (rank + 8)
            self.weights.append(total)
        self.notes: dict[str, str] = {}
        bodies: list[str] = []
        for i in range(1, NOTES - len(ANCHOR_NOTES) + 1):
            path = self.path(i)
            if bodies and rng.random() < 0.06:
                body = self.variant(rng.choice(bodies))
            else:
                body = self.body()
                bodies.append(body)
            self.notes[path] = note(self.title(), self.tags(), self.created(), body)
        for path, fields in ANCHOR_NOTES.items():
            self.notes[path] = note(*fields)
        filler = sorted(p for p in self.notes if p not in ANCHOR_NOTES)
        picked = rng.sample(filler, EDITED + DELETED - len(DELETED_ANCHORS))
        self.deleted = sorted([*picked[EDITED:], *DELETED_ANCHORS])
        self.new: dict[str, str] = {}
        for path in picked[:EDITED]:
            body = self.body() if rng.random() < 0.7 else self.variant(bodies[0])
            self.new[path] = note(self.title(), self.tags(), self.created(), body)
        for i in range(NOTES + 1, NOTES + 1 + NEW_NOTES - EDITED - len(UPDATE_NOTES)):
            self.new[self.path(i)] = note(self.title(), self.tags(), self.created(), self.body())
        for path, fields in UPDATE_NOTES.items():
            self.new[path] = note(*fields)

    def path(self, i: int) -> str:
        rng = self.rng
        return f"{rng.choice(FOLDERS)}/n{i}-{rng.choice(self.vocab[100:600]).casefold()}.md"

    def words(self, k: int) -> list[str]:
        return self.rng.choices(self.vocab, cum_weights=self.weights, k=k)

    def body(self) -> str:
        rng = self.rng
        content = self.words(rng.randint(28, 48))
        words = [rng.choice(STOPWORDS) if rng.random() < 0.3 else w for w in content]
        return wrap(sentences(words, rng.randint(7, 12)), rng.choice([60, 72, 80]))

    def variant(self, body: str) -> str:
        rng = self.rng
        kind = rng.random()
        if kind < 0.5:  # re-cased, re-wrapped: exact
            text = " ".join(body.split())
            return wrap(text.upper() if rng.random() < 0.5 else text.lower(), rng.choice([50, 66]))
        if kind < 0.8:  # one word replaced: near (or not, for a short body)
            words = body.split(" ")
            words[rng.randrange(len(words))] = self.words(1)[0]
            return " ".join(words)
        return body.replace(".", ";").replace(",", "")  # punctuation: same tokens

    def title(self) -> str:
        return " ".join(w.capitalize() for w in self.words(self.rng.randint(2, 5)))

    def tags(self) -> str:
        return ", ".join(sorted(set(self.rng.sample(self.vocab[:200], self.rng.randint(1, 3)))))

    def created(self) -> str:
        rng = self.rng
        return f"{rng.randint(2018, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def write_tree(ctx: benchlib.SeedContext, folder: str, files: dict[str, str]) -> None:
    """Write many small notes at once (seed_main fixes every mode afterwards)."""
    root = ctx.target(folder)
    for sub in sorted({p.rpartition("/")[0] for p in files}):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for path in sorted(files):
        (root / path).write_bytes(files[path].encode("utf-8"))


def notes(ctx: benchlib.SeedContext) -> None:
    plan = Plan(ctx)
    write_tree(ctx, "inputs/notes", plan.notes)
    ctx.write_text("inputs/stopwords.txt", "\n".join(STOPWORDS) + "\n")


def updates(ctx: benchlib.SeedContext) -> None:
    plan = Plan(ctx)
    write_tree(ctx, "inputs/notes-new", plan.new)
    ctx.write_text("inputs/deleted.txt", "\n".join(plan.deleted) + "\n")


CAFE = (
    "Le café du coin sert un thé glacé et une crème brûlée; la façade naïve donne sur "
    "la rivière. Noté pendant la réunion du comité à Besançon."
)


def edge_notes(ctx: benchlib.SeedContext) -> None:
    """The edge: one body composed (NFC) and decomposed (NFD); two unrelated notes."""
    composed = unicodedata.normalize("NFC", CAFE)
    decomposed = unicodedata.normalize("NFD", CAFE)
    assert composed != decomposed
    edge = {
        "archive/cafe-decomposed.md": note("Café du coin", "paris", "2024-05-02", wrap(decomposed)),
        "zettel/cafe-composed.md": note("Le café", "paris", "2024-05-01", wrap(composed, 60)),
        "archive/kelp.md": note(
            "Kelp forest", "ocean", "2024-05-03", "Kelp grows fast in cold water."
        ),
        "zettel/river.md": note(
            "River survey", "field", "2024-05-04", "The river rose after the storm."
        ),
    }
    for path, text in sorted(edge.items()):
        ctx.write_text(f"inputs/notes/{path}", text)
    ctx.write_text("inputs/stopwords.txt", "\n".join(STOPWORDS) + "\n")
    ctx.write_text(
        "inputs/notes-new/zettel/river.md",
        note("River survey", "field", "2024-05-04", "The river fell again; marmalade picnic."),
    )
    ctx.write_text("inputs/deleted.txt", "archive/kelp.md\n")
