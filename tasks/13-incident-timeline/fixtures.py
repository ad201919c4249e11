"""Fixture generators of task 13: two days of logs of a small web shop around an incident.

One simulation drives every file: the access logs of two gateway instances, the application
logs of ``orders``, ``billing`` and ``catalog``, the deployment log and the database log. It
runs hour by hour, each hour from its own stream ``random.Random(f"{seed}/hour/{n}")``, so the
stage-2 database batch (``db-extra.log.gz``) and the stage-4 monitor replay re-simulate only
the incident hour and get exactly the lines the main logs would hold.

Times are simulated as true UTC milliseconds; every service stamps its lines with its own
clock, ``logged = true + offset``, using the offsets of the stage-3 file
``stages/clock-offsets/inputs/clock_offsets.json`` (read from the task folder, so the file the
agent receives and the fixture never disagree).

The incident itself comes from the anchors of task.toml (records without a ``file``):
``schema-drop`` (the release that drops a column), ``first-failure`` (the first request that
fails), ``hotfix`` (the release that adds the column back), ``upstream-timeouts`` (unrelated
gateway 504s inside the window, one straddling its end) and ``window-edges`` (records whose
clock offset moves them across a window boundary).
"""

from __future__ import annotations

import datetime as dt
import json
import random
from bisect import bisect_left, bisect_right
from math import floor
from operator import itemgetter
from typing import Any

import benchlib

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
HOUR = 3_600_000
MINUTE = 60_000
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def ms(text: str) -> int:
    """Epoch milliseconds of an ISO timestamp with Z."""
    moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return (moment - EPOCH) // dt.timedelta(milliseconds=1)


START = ms("2025-04-16T06:00:00.000Z")
HOURS = 48
INCIDENT_HOUR = (ms("2025-04-17T14:00:00.000Z") - START) // HOUR
QUIET = (ms("2025-04-17T13:50:00.000Z"), ms("2025-04-17T14:31:00.000Z"))  # no random 5xx
DB_GAP = (ms("2025-04-17T14:03:00.000Z"), ms("2025-04-17T14:11:00.000Z"))  # db clock
REPLAY = (ms("2025-04-17T14:03:30.000Z"), ms("2025-04-17T14:24:30.000Z"))  # true time

# Log files, rotated when the writing service's clock passes a threshold (None: last file).
ROTATION: dict[str, list[tuple[str, int | None]]] = {
    "gw-a": [
        ("inputs/logs/gateway/gw-a.access.log.2.gz", ms("2025-04-17T02:00:00.000Z")),
        ("inputs/logs/gateway/gw-a.access.log.1.gz", ms("2025-04-17T14:12:37.500Z")),
        ("inputs/logs/gateway/gw-a.access.log", None),
    ],
    "gw-b": [
        ("inputs/logs/gateway/gw-b.access.log.1.gz", ms("2025-04-17T17:45:00.000Z")),
        ("inputs/logs/gateway/gw-b.access.log", None),
    ],
    "orders": [
        ("inputs/logs/app/orders.log.1.gz", ms("2025-04-17T14:08:21.000Z")),
        ("inputs/logs/app/orders.log", None),
    ],
    "billing": [
        ("inputs/logs/app/billing.log.1.gz", ms("2025-04-17T22:00:00.000Z")),
        ("inputs/logs/app/billing.log", None),
    ],
    "catalog": [("inputs/logs/app/catalog.log.gz", None)],
    "deploy": [("inputs/logs/deploy/deploy.log", None)],
    "db": [
        ("inputs/logs/db/postgresql-2025-04-16.log.gz", ms("2025-04-17T00:00:00.000Z")),
        ("inputs/logs/db/postgresql-2025-04-17.log.gz", ms("2025-04-18T00:00:00.000Z")),
        ("inputs/logs/db/postgresql-2025-04-18.log", None),
    ],
}
STREAMS = tuple(ROTATION)
SERVICE = {"gw-a": "gateway", "gw-b": "gateway"}  # stream -> service whose clock it uses

# Requests per second by UTC hour of day (a European shop: busy afternoons, quiet nights).
RATE = (
    1.2,
    0.9,
    0.8,
    0.8,
    0.9,
    1.3,
    2.1,
    3.1,
    4.2,
    4.9,
    5.3,
    5.6,
    5.9,
    6.0,
    6.1,
    6.0,
    5.9,
    6.0,
    6.4,
    6.5,
    5.7,
    4.4,
    2.9,
    1.8,
)

# (method, path template, app service, weight, fails when the column is gone, OK status)
ENDPOINTS = [
    ("GET", "/api/catalog/items?page={n}", "catalog", 20, False, 200),
    ("GET", "/api/catalog/items/{sku}", "catalog", 25, False, 200),
    ("GET", "/api/search?q={q}", "catalog", 10, False, 200),
    ("GET", "/api/cart", "orders", 10, False, 200),
    ("POST", "/api/cart/items", "orders", 7, False, 201),
    ("POST", "/api/checkout", "orders", 6, True, 201),
    ("GET", "/api/orders/{order}", "orders", 7, True, 200),
    ("POST", "/api/payments", "billing", 5, False, 201),
    ("GET", "/api/invoices/{invoice}", "billing", 5, False, 200),
    ("GET", "/healthz", None, 5, False, 200),
]
CLIENT_ERRORS = {"GET": (404, 404, 404, 401), "POST": (400, 422, 401, 409)}
SERVER_ERROR = {  # background failures outside the quiet period
    "orders": (500, "InventoryLockTimeout", "lock wait timeout on inventory row"),
    "billing": (502, "PaymentProviderTimeout", "provider did not answer within 10s"),
    "catalog": (503, "SearchBackendUnavailable", "search cluster returned 503"),
}
SOFT_ERROR = {  # application errors of requests that still succeed
    "orders": ("PromoServiceError", "promo lookup failed; continuing without discount"),
    "billing": ("PaymentRetry", "card network timeout; retried once"),
    "catalog": ("CacheWriteFailed", "redis SET timed out after 50ms"),
}
WORDS = (
    "lamp",
    "desk",
    "chair",
    "kettle",
    "rug",
    "mug",
    "shelf",
    "sofa",
    "vase",
    "clock",
    "towel",
    "pillow",
    "mirror",
    "basket",
    "candle",
    "plant",
)
AGENTS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/123.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Version/17.4 Safari/605.1",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
    "Mozilla/5.0 (X11; Linux x86_64; rv:124.0) Gecko/20100101 Firefox/124.0",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/123.0 Mobile Safari/537.36",
    "shop-app/4.2.1 (Android 14)",
    "shop-app/4.2.0 (iOS 17.4)",
    "curl/8.5.0",
)
DB_USERS = ("orders", "billing", "catalog", "reporting")
TABLES = ("orders", "order_items", "customers", "invoices", "payments", "products", "carts")

# Deployments that are not anchors: (start, target, release, schema operation or "").
DEPLOYS = [
    ("2025-04-16T09:10:00.000Z", "catalog", "2025.04.16.1", ""),
    (
        "2025-04-16T10:20:00.000Z",
        "billing",
        "2025.04.16.2",
        "ALTER TABLE invoices DROP COLUMN legacy_flag",
    ),
    ("2025-04-16T16:40:00.000Z", "catalog", "2025.04.16.3", ""),
    ("2025-04-17T08:15:00.000Z", "billing", "2025.04.17.1", ""),
    (
        "2025-04-17T11:02:00.000Z",
        "orders",
        "2025.04.17.2",
        "CREATE INDEX orders_created_at_idx ON orders (created_at)",
    ),
    (
        "2025-04-17T14:22:30.000Z",
        "catalog",
        "2025.04.17.5",
        "ALTER TABLE products DROP COLUMN legacy_rank",
    ),
    ("2025-04-17T20:10:00.000Z", "billing", "2025.04.17.6", ""),
    ("2025-04-18T03:00:00.000Z", "catalog", "2025.04.18.1", ""),
]
FIRST_RELEASE = {"orders": "2025.04.15.4", "billing": "2025.04.15.2", "catalog": "2025.04.14.1"}
HEALTH_PHASE = {"orders": 59_050, "billing": 20_000, "catalog": 40_000}  # ms into each minute
# The billing release of 2025-04-16 dropped invoices.legacy_flag: three invoice requests fail
# right after it, one old-invoice request still fails on it during the incident (inside the
# monitor's 90-second window: a different column), and the hourly invoice export keeps
# failing on it (no request ID).
LEGACY_FAILURES = (
    "2025-04-16T10:20:41.318Z",
    "2025-04-16T10:20:55.902Z",
    "2025-04-16T10:21:09.047Z",
    "2025-04-17T14:05:20.512Z",
)
LEGACY_EXPORT_FROM = ms("2025-04-16T11:00:00.000Z")


# ---------------------------------------------------------------------------------------------
# clocks: per-format timestamp text, cached per minute
# ---------------------------------------------------------------------------------------------

# Texts the hot emitters look up rather than format (formatting an int costs more than a
# look-up): "000" to "999", the numbers below 10,000 (status, size, response time), and the
# 60,000 ":SS.mmm" (or ":SS,mmm") texts of a minute, by the separator of the milliseconds.
MILLIS = tuple(f"{k:03d}" for k in range(1000))
NUMBERS = tuple(str(k) for k in range(10_000))
SECONDS = {
    dot: tuple(head + milli for head in [f":{s:02d}{dot}" for s in range(60)] for milli in MILLIS)
    for dot in ".,"
}


class Clock(dict[int, str]):
    """Timestamps of one log format and zone (locale-independent), cached per minute.

    ``clock.text(moment)`` formats epoch milliseconds as head + seconds + tail: the dict maps
    a minute (epoch milliseconds // MINUTE) to its head (date, hour and minute; ``__missing__``
    fills it in), ``seconds`` holds the texts of the milliseconds within a minute and ``tail``
    the zone. The hot emitters of Hour write the same three pieces inline.
    """

    def __init__(self, kind: str, zone_minutes: int) -> None:
        super().__init__()
        self.kind = kind
        self.shift = dt.timedelta(minutes=zone_minutes)
        sign = "+" if zone_minutes >= 0 else "-"
        zone = f"{sign}{abs(zone_minutes) // 60:02d}{abs(zone_minutes) % 60:02d}"
        self.tail = {"access": f" {zone}", "app": zone, "deploy": "Z", "db": " UTC"}[kind]
        self.seconds = SECONDS["," if kind == "app" else "."]

    def __missing__(self, minute: int) -> str:
        d = EPOCH + dt.timedelta(minutes=minute) + self.shift
        if self.kind == "access":
            head = f"{d.day:02d}/{MONTHS[d.month - 1]}/{d.year}:{d.hour:02d}:{d.minute:02d}"
        else:
            sep = "T" if self.kind == "deploy" else " "
            head = f"{d.year}-{d.month:02d}-{d.day:02d}{sep}{d.hour:02d}:{d.minute:02d}"
        self[minute] = head
        return head

    def text(self, moment: int) -> str:
        """The timestamp of epoch milliseconds ``moment``."""
        return f"{self[moment // MINUTE]}{self.seconds[moment % MINUTE]}{self.tail}"


# ---------------------------------------------------------------------------------------------
# the world: anchors, offsets, releases, deployments
# ---------------------------------------------------------------------------------------------


class World:
    """Everything the hours share: anchors, clock offsets, release history, deploy events."""

    def __init__(self, ctx: benchlib.SeedContext) -> None:
        self.seed = ctx.seed
        offsets_file = ctx.task_dir / "stages/clock-offsets/inputs/clock_offsets.json"
        self.offset: dict[str, int] = json.loads(offsets_file.read_text(encoding="utf-8"))[
            "offsets_ms"
        ]
        for stream, service in SERVICE.items():
            self.offset[stream] = self.offset[service]
        for stream in ("orders", "billing", "catalog", "deploy", "db"):
            self.offset.setdefault(stream, 0)
        self.drop = ctx.anchor("schema-drop")[0]
        self.first = ctx.anchor("first-failure")[0]
        self.fix = ctx.anchor("hotfix")[0]
        self.timeouts = ctx.anchor("upstream-timeouts")
        self.edges = ctx.anchor("window-edges")
        self.decoy = ctx.anchor("legacy-decoy")[0]
        self.monitor_edges = ctx.anchor("monitor-edges")
        self.fail_from = ms(self.first["response_at"]) + 90  # random failures start after it
        self.fail_until = ms(self.fix["failures_until"])
        self.deploy_events: list[tuple[int, str]] = []  # (true ms, JSON line without ts)
        self.releases: dict[str, tuple[list[int], list[str]]] = {}
        self._plan_deploys()

    def _plan_deploys(self) -> None:
        plans = [(ms(s), t, r, op, None) for s, t, r, op in DEPLOYS]
        for anchor in (self.drop, self.fix):
            plans.append(
                (
                    ms(anchor["deploy_start"]),
                    anchor["target"],
                    anchor["release"],
                    anchor["operation"],
                    anchor,
                )
            )
        history: dict[str, list[tuple[int, str]]] = {
            t: [(0, r)] for t, r in sorted(FIRST_RELEASE.items())
        }
        for start, target, release, operation, anchor in sorted(plans, key=itemgetter(0)):
            events = [(start, "info", "DEPLOY_START", f"rolling deploy of {target} started", "")]
            schema_at = ms(anchor["schema_at"]) if anchor else start + 12_400
            done = ms(anchor["done_at"]) if anchor else start + 47_000
            if operation:
                events.append((schema_at, "info", "SCHEMA_CHANGE", "migration applied", operation))
            for k in range(3):
                ready = schema_at + 4_000 + k * 6_100 if operation else start + 15_000 + k * 9_000
                events.append((ready, "info", "INSTANCE_READY", f"instance {k + 1}/3 ready", ""))
            events.append((done, "info", "DEPLOY_DONE", f"{target} now runs {release}", ""))
            for moment, level, event, msg, op in events:
                record = {"level": level, "target": target, "release": release, "event": event}
                if op:
                    record["operation"] = op
                record["msg"] = msg
                self.deploy_events.append((moment, json.dumps(record, separators=(",", ":"))))
            history[target].append((done, release))
        self.deploy_events.sort(key=itemgetter(0))
        for target, changes in history.items():
            self.releases[target] = ([c[0] for c in changes], [c[1] for c in changes])

    def release(self, target: str, moment: int) -> str:
        """The release ``target`` runs at true time ``moment``."""
        times, names = self.releases[target]
        return names[bisect_right(times, moment) - 1]


# ---------------------------------------------------------------------------------------------
# one simulated hour
# ---------------------------------------------------------------------------------------------


class Hour:
    """The lines of every stream during one hour: (logged ms, true ms, text) per stream."""

    def __init__(self, world: World, n: int) -> None:
        self.world, self.n = world, n
        self.t0 = START + n * HOUR
        self.rng = random.Random(f"{world.seed}/hour/{n}")
        self.rand = self.rng.random
        self.lines: dict[str, list[tuple[int, int, str]]] = {s: [] for s in STREAMS}
        off = world.offset
        self.off = off
        self.clock = {
            "gw-a": Clock("access", 0),
            "gw-b": Clock("access", 120),
            "orders": Clock("app", 120),
            "billing": Clock("app", 0),
            "catalog": Clock("app", 0),
            "deploy": Clock("deploy", 0),
            "db": Clock("db", 0),
        }
        self.ips = [
            f"10.{self.between(16, 31)}.{self.between(0, 255)}.{self.between(1, 254)}"
            for _ in range(300)
        ]
        self.pids = [str(self.between(20_000, 39_999)) for _ in range(40)]
        self.threads = [f"[worker-{k}]" for k in range(1, 9)]
        self.paths = [self._paths(template) for _, template, *_ in ENDPOINTS]
        weights = [e[3] for e in ENDPOINTS]
        self.cumulative = [sum(weights[: k + 1]) for k in range(len(weights))]

    def _paths(self, template: str) -> list[str]:
        if "{" not in template:
            return [template]
        return [
            template.format(
                n=self.between(1, 40),
                sku=f"SKU-{self.between(10_000, 99_999)}",
                q=f"{self.any_of(WORDS)}+{self.any_of(WORDS)}",
                order=f"O-{self.between(100_000, 999_999)}",
                invoice=f"INV-{self.between(20_000, 89_999)}",
            )
            for _ in range(60)
        ]

    # floor(x) equals int(x) for x >= 0 and costs less to call (int is a type).

    def between(self, low: int, high: int) -> int:
        """A uniform integer in [low, high] (cheaper than randint)."""
        return low + floor(self.rand() * (high - low + 1))

    def any_of(self, options: Any) -> Any:
        """A uniform choice (cheaper than choice)."""
        return options[floor(self.rand() * len(options))]

    # -- emitters ------------------------------------------------------------------------------
    # access() and app() write about 1.4 million lines: they inline Clock.text, any_of and
    # between (``low + floor(rand() * (high - low + 1))``), drawing the same numbers in the
    # same order, and take small numbers from NUMBERS.

    def access(
        self, stream: str, true: int, request: tuple[str, str], status: int, rid: str, rt: int
    ) -> None:
        logged = true + self.off[stream]
        rand, clock, ips = self.rand, self.clock[stream], self.ips
        size = 180 + floor(rand() * 8_821) if status < 400 else 90 + floor(rand() * 311)
        line = (
            f"{ips[floor(rand() * len(ips))]} - - "
            f"[{clock[logged // MINUTE]}{clock.seconds[logged % MINUTE]}{clock.tail}] "
            f'"{request[0]} {request[1]} HTTP/1.1" {NUMBERS[status]} {NUMBERS[size]} "-" '
            f'"{AGENTS[floor(rand() * len(AGENTS))]}" '
            f"rid={rid} rt={NUMBERS[rt // 1000]}.{MILLIS[rt % 1000]}"
        )
        self.lines[stream].append((logged, true, line))

    def app(
        self, service: str, true: int, level: str, thread: str, rid: str, event: str, msg: str
    ) -> None:
        logged = true + self.off[service]
        clock = self.clock[service]
        times, names = self.world.releases[service]  # World.release, inline
        line = (
            f"{clock[logged // MINUTE]}{clock.seconds[logged % MINUTE]}{clock.tail} "
            f"{level} {service} {thread} req={rid} rel={names[bisect_right(times, true) - 1]} "
            f"event={event} msg={msg}"
        )
        self.lines[service].append((logged, true, line))

    def db(self, true: int, level: str, code: str, text: str, rid: str = "", rel: str = "") -> None:
        logged = true + self.off["db"]
        ids = (f" req={rid}" if rid else "") + (f" rel={rel}" if rel else "")
        pad = " " if level == "WARNING" else "  "
        head = f"{self.clock['db'].text(logged)} [{self.any_of(self.pids)}] {level}:{pad}"
        line = f"{head}code={code}{ids} {text}"
        self.lines["db"].append((logged, true, line))

    def deploy(self, true: int, body: str) -> None:
        logged = true + self.off["deploy"]
        line = f'{{"ts":"{self.clock["deploy"].text(logged)}",{body}'
        self.lines["deploy"].append((logged, true, line))

    # -- simulation ----------------------------------------------------------------------------

    def simulate(self) -> Hour:
        self.requests()
        self.background()
        self.deployments()
        if self.n == INCIDENT_HOUR:
            self.incident_extras()
        for lines in self.lines.values():
            lines.sort(key=itemgetter(0))
        return self

    def requests(self) -> None:
        rng, world = self.rng, self.world
        rate = RATE[(6 + self.n) % 24] / 1000.0  # per ms
        # Once per request, any_of and between are inline (the same draws, see the emitters).
        expo, rand, bits, pick = rng.expovariate, rng.random, rng.getrandbits, self.any_of
        access, app = self.access, self.app
        cumulative, total = self.cumulative, self.cumulative[-1]
        paths, threads = self.paths, self.threads
        quiet_from, quiet_to = QUIET
        fail_from, fail_until = world.fail_from, world.fail_until
        legacy = sorted(ms(t) for t in LEGACY_FAILURES if self.t0 <= ms(t) < self.t0 + HOUR)
        end = self.t0 + HOUR - 1_600
        moment = self.t0 + 2_000
        while True:
            moment += floor(expo(rate)) + 1
            if legacy and moment >= legacy[0]:
                self.legacy_failure(legacy.pop(0))
            if moment >= end:
                break
            index = bisect_right(cumulative, rand() * total)
            method, _, service, _, fragile, ok = ENDPOINTS[index]
            options = paths[index]
            request = (method, options[floor(rand() * len(options))])
            rid = bits(48).to_bytes(6).hex()  # f"{bits(48):012x}", faster
            stream = "gw-a" if rand() < 0.5 else "gw-b"
            rt = floor(expo(1 / 45.0)) + 3
            if rt > 1_500:
                rt = 1_500
            roll = rand()
            if service is None:
                access(stream, moment, request, 200, rid, rt)
                continue
            thread = threads[floor(rand() * len(threads))]
            if fragile and fail_from <= moment <= fail_until:
                self.incident_failure(stream, moment, request, service, rid, rt, thread)
            elif roll < 0.025:
                status = pick(CLIENT_ERRORS[method])
                self.access(stream, moment, request, status, rid, rt)
                done = moment - self.between(1, 4)
                self.app(
                    service,
                    done,
                    "WARN",
                    thread,
                    rid,
                    "REQUEST_DONE",
                    f"status={status} dur_ms={rt - 1}",
                )
            elif roll < 0.0257 and not quiet_from <= moment < quiet_to:
                status, event, text = SERVER_ERROR[service]
                failed_at = moment - self.between(5, max(6, rt - 1))
                self.app(service, failed_at, "ERROR", thread, rid, event, text)
                self.app(
                    service,
                    moment - 1,
                    "ERROR",
                    thread,
                    rid,
                    "REQUEST_DONE",
                    f"status={status} dur_ms={rt - 1}",
                )
                self.access(stream, moment, request, status, rid, rt)
            else:
                if roll > 0.994:
                    event, text = SOFT_ERROR[service]
                    self.app(
                        service,
                        moment - self.between(3, max(4, rt - 1)),
                        "ERROR",
                        thread,
                        rid,
                        event,
                        text,
                    )
                elif service != "catalog" and roll > 0.92:
                    self.db(
                        moment - self.between(2, max(3, rt - 1)),
                        "LOG",
                        "SLOW_QUERY",
                        f"duration: {self.between(500, 4_000)}.{self.between(0, 9)} ms "
                        f"statement: SELECT * FROM {pick(TABLES)} WHERE id = $1",
                        rid,
                    )
                elif service != "catalog" and roll > 0.9197:
                    self.db(
                        moment - self.between(2, max(3, rt - 1)),
                        "ERROR",
                        "DEADLOCK_DETECTED",
                        "deadlock detected; transaction retried",
                        rid,
                    )
                app(
                    service,
                    moment - 1 - floor(rand() * 3),
                    "INFO",
                    thread,
                    rid,
                    "REQUEST_DONE",
                    f"status={NUMBERS[ok]} dur_ms={NUMBERS[rt - 1]}",
                )
                access(stream, moment, request, ok, rid, rt)

    def incident_failure(
        self,
        stream: str,
        moment: int,
        request: tuple[str, str],
        service: str,
        rid: str,
        rt: int,
        thread: str,
        error_at: int = 0,
        column: str = "",
    ) -> None:
        """A request that reads a dropped column (default: the incident's): app and db
        errors, then a 500."""
        rng = self.rng
        column = column or self.world.drop["column"]
        first = error_at or moment - self.between(30, 80)
        attempts = [first]
        if not error_at and rng.random() < 0.25:
            attempts.append(first + self.between(3, 20))
        for at in attempts:
            self.db(at - 1, "ERROR", "UNDEFINED_COLUMN", f'column "{column}" does not exist', rid)
            self.app(
                service,
                at,
                "ERROR",
                thread,
                rid,
                "UndefinedColumn",
                f'column "{column}" does not exist',
            )
        self.app(
            service,
            moment - 2,
            "ERROR",
            thread,
            rid,
            "REQUEST_DONE",
            f"status=500 dur_ms={max(rt, moment - first + 5) - 1}",
        )
        self.access(stream, moment, request, 500, rid, max(rt, moment - first + 5))

    def legacy_failure(self, moment: int) -> None:
        """An invoice request that still reads the column dropped on 2025-04-16."""
        rng = self.rng
        rid = f"{rng.getrandbits(48):012x}"
        request = ("GET", self.any_of(self.paths[8]))
        first = moment - self.between(30, 80)
        self.db(first - 1, "ERROR", "UNDEFINED_COLUMN", 'column "legacy_flag" does not exist', rid)
        self.app(
            "billing",
            first,
            "ERROR",
            "[worker-2]",
            rid,
            "UndefinedColumn",
            'column "legacy_flag" does not exist',
        )
        self.app(
            "billing",
            moment - 2,
            "ERROR",
            "[worker-2]",
            rid,
            "REQUEST_DONE",
            f"status=500 dur_ms={moment - first + 3}",
        )
        self.access("gw-a", moment, request, 500, rid, moment - first + 5)

    def background(self) -> None:
        t0 = self.t0
        for service in ("orders", "billing", "catalog"):
            phase = self.between(0, 9_999)
            for k in range(360):
                moment = t0 + phase + k * 10_000
                stats = f"queue_depth={self.between(0, 9)} heap_mb={self.between(380, 520)}"
                self.app(service, moment, "INFO", "[main]", "-", "HEARTBEAT", stats)
        export = t0 + 5 * MINUTE + 10_000
        if export >= LEGACY_EXPORT_FROM:
            self.db(export - 4, "ERROR", "UNDEFINED_COLUMN", 'column "legacy_flag" does not exist')
            self.app(
                "billing",
                export,
                "ERROR",
                "[export]",
                "-",
                "UndefinedColumn",
                'column "legacy_flag" does not exist',
            )
        else:
            self.app(
                "billing",
                export,
                "INFO",
                "[export]",
                "-",
                "INVOICE_EXPORT",
                f"exported {self.between(40, 90)} invoices",
            )
        moment = t0 + self.between(0, 2_000)
        while moment < t0 + HOUR - 1_000:
            user = self.any_of(DB_USERS)
            self.db(
                moment,
                "LOG",
                "CONNECTION_AUTHORIZED",
                f"connection authorized: user={user} database=shop",
            )
            moment += self.between(800, 3_200)
        for k in range(12):
            self.db(
                t0 + k * 5 * MINUTE + 30_000 + self.between(0, 999),
                "LOG",
                "CHECKPOINT",
                f"checkpoint complete: wrote {self.between(200, 4_000)} buffers",
            )
        for k in range(40):
            self.db(
                t0 + k * 90_000 + self.between(0, 30_000),
                "LOG",
                "AUTOVACUUM",
                f'automatic vacuum of table "shop.public.{self.any_of(TABLES)}"',
            )
        if self.rand() < 0.3:
            self.db(
                t0 + self.between(60_000, HOUR - 60_000),
                "FATAL",
                "CONNECTION_LOST",
                "terminating connection due to idle-in-transaction timeout",
            )

    def deployments(self) -> None:
        world, t0 = self.world, self.t0
        first, last = world.fail_from, world.fail_until
        for target, phase in HEALTH_PHASE.items():
            for minute in range(60):
                moment = t0 + minute * MINUTE + phase
                release = world.release(target, moment)
                level, msg = "info", "3/3 instances healthy"
                if target == "orders" and first <= moment <= last + 30_000:
                    level, msg = "warn", "3/3 instances up; error rate above 5%"
                body = json.dumps(
                    {
                        "level": level,
                        "target": target,
                        "release": release,
                        "event": "HEALTH_CHECK",
                        "msg": msg,
                    },
                    separators=(",", ":"),
                )
                self.deploy(moment, body[1:])
        times = [e[0] for e in world.deploy_events]
        lo = bisect_left(times, t0)
        hi = bisect_left(times, t0 + HOUR)
        for moment, record in world.deploy_events[lo:hi]:
            self.deploy(moment, record[1:])
            if '"event":"SCHEMA_CHANGE"' in record:
                release = json.loads(record)["release"]
                statement = json.loads(record)["operation"]
                applied = moment + 600
                if self.world.drop["release"] == release:
                    applied = ms(self.world.drop["applied_at"])
                self.db(applied, "LOG", "SCHEMA_APPLIED", f"statement: {statement}", rel=release)

    def incident_extras(self) -> None:
        """The anchored records of the incident hour."""
        world, first = self.world, self.world.first
        response = ms(first["response_at"])
        self.incident_failure(
            first["instance"],
            response,
            (first["method"], first["path"]),
            "orders",
            first["request_id"],
            response - ms(first["error_at"]) + 12,
            "[worker-5]",
            error_at=ms(first["error_at"]),
        )
        for item in world.timeouts:
            moment, stream = ms(item["response_at"]), item["instance"]
            rid = item["request_id"]
            self.app(
                "catalog",
                moment - 20,
                "ERROR",
                "[worker-7]",
                rid,
                "UpstreamTimeout",
                "search backend did not answer within 30s",
            )
            aborted = ms(item["aborted_at"]) if "aborted_at" in item else moment + 700
            self.app(
                "catalog",
                aborted,
                "WARN",
                "[worker-7]",
                rid,
                "REQUEST_ABORTED",
                "client connection closed by gateway",
            )
            self.access(stream, moment, ("GET", item["path"]), 504, rid, 30_000)
        for item in world.edges:
            moment = ms(item["true_at"])
            if item["kind"] == "db":
                self.db(moment, item["level"], item["code"], item["text"])
        self.legacy_decoy()
        for item in world.monitor_edges:
            error_at = ms(item["error_at"])
            if item["kind"] == "failure":
                response = ms(item["response_at"])
                self.incident_failure(
                    item["instance"],
                    response,
                    (item["method"], item["path"]),
                    "orders",
                    item["request_id"],
                    response - error_at + 12,
                    "[worker-6]",
                    error_at=error_at,
                )
            else:  # a background job's error: no request ID
                column = world.drop["column"]
                message = f'column "{column}" does not exist'
                self.app(
                    "orders", error_at, "ERROR", "[scheduler]", "-", "UndefinedColumn", message
                )
        self.check_anchors()

    def legacy_decoy(self) -> None:
        """The anchored invoice request that fails on legacy_flag just before the incident."""
        decoy = self.world.decoy
        error_at, response = ms(decoy["error_at"]), ms(decoy["response_at"])
        self.incident_failure(
            decoy["instance"],
            response,
            ("GET", decoy["path"]),
            "billing",
            decoy["request_id"],
            response - error_at + 12,
            "[worker-3]",
            error_at=error_at,
            column="legacy_flag",
        )

    def check_anchors(self) -> None:
        """The logged texts the anchors declare are the ones the clocks produce."""
        world = self.world
        declared = [
            ("deploy", world.drop["schema_at"], world.drop["schema_logged"]),
            ("db", world.drop["applied_at"], world.drop["applied_logged"]),
            ("orders", world.first["error_at"], world.first["error_logged"]),
            (world.first["instance"], world.first["response_at"], world.first["response_logged"]),
        ]
        declared += [
            (t["instance"], t["response_at"], t["response_logged"])
            for t in world.timeouts
            if "response_logged" in t
        ]
        for stream, true, logged in declared:
            moment = ms(true) + self.off[stream]
            if self.clock[stream].text(moment) != logged:
                raise ValueError(
                    f"anchor says {logged!r}, the {stream} clock writes "
                    f"{self.clock[stream].text(moment)!r}"
                )
        for item in world.edges:
            if item["kind"] == "health":
                moment = ms(item["true_at"])
                phase = (moment - self.t0) % MINUTE
                text = self.clock["deploy"].text(moment + self.off["deploy"])
                if phase != HEALTH_PHASE[item["target"]] or text != item["logged"]:
                    raise ValueError(f"no {item['target']} health check logged {item['logged']}")


# ---------------------------------------------------------------------------------------------
# writers
# ---------------------------------------------------------------------------------------------


class Rotated:
    """Writes one stream to its rotated files, in chunks."""

    def __init__(self, ctx: benchlib.SeedContext, stream: str) -> None:
        self.ctx = ctx
        self.files = list(ROTATION[stream])
        self.buffer: list[str] = []
        self.manager: Any = None
        self.out: Any = None
        self.limit: int | None = None
        self.rotate()

    def rotate(self) -> None:
        """Close the current file and open the next one."""
        self.close()
        path, self.limit = self.files.pop(0)
        self.manager = self.ctx.open_text(path)
        self.out = self.manager.__enter__()

    def add(self, lines: list[tuple[int, int, str]], skip: tuple[int, int] | None = None) -> None:
        """Append lines (in logged order), rotating at the thresholds, skipping a period."""
        while self.limit is not None and lines and lines[-1][0] >= self.limit:
            cut = bisect_left(lines, self.limit, key=itemgetter(0))
            self.keep(lines[:cut], skip)
            lines = lines[cut:]
            self.rotate()
        self.keep(lines, skip)
        if len(self.buffer) > 50_000:
            self.flush()

    def keep(self, lines: list[tuple[int, int, str]], skip: tuple[int, int] | None) -> None:
        """Buffer the texts of lines that are not in the skipped period."""
        if skip:
            self.buffer += [text for logged, _, text in lines if not skip[0] <= logged < skip[1]]
        else:
            self.buffer += map(itemgetter(2), lines)

    def flush(self) -> None:
        if self.buffer:
            self.buffer.append("")
            self.out.write("\n".join(self.buffer))
            self.buffer = []

    def close(self) -> None:
        if self.manager is not None:
            self.flush()
            self.manager.__exit__(None, None, None)
            self.manager = None


# ---------------------------------------------------------------------------------------------
# generators named in task.toml
# ---------------------------------------------------------------------------------------------


def incident_logs(ctx: benchlib.SeedContext) -> None:
    """inputs/logs: every log file except the delayed database batch."""
    world = World(ctx)
    writers = {s: Rotated(ctx, s) for s in STREAMS}
    for n in range(HOURS):
        hour = Hour(world, n).simulate()
        for stream in STREAMS:
            writers[stream].add(hour.lines[stream], DB_GAP if stream == "db" else None)
    for writer in writers.values():
        while writer.files:  # a file whose period had no lines still exists
            writer.rotate()
        writer.close()


def db_extra(ctx: benchlib.SeedContext) -> None:
    """inputs/logs/db-extra.log.gz: the database lines missing from the main database log."""
    hour = Hour(World(ctx), INCIDENT_HOUR).simulate()
    lines = [text for logged, _, text in hour.lines["db"] if DB_GAP[0] <= logged < DB_GAP[1]]
    ctx.write_text(ctx.path, "\n".join(lines) + "\n")


def monitor_replay(ctx: benchlib.SeedContext) -> None:
    """inputs/monitor_replay.log: every log line of the incident period, in arrival order."""
    hour = Hour(World(ctx), INCIDENT_HOUR).simulate()
    merged = [
        (true, text)
        for stream in STREAMS
        for _, true, text in hour.lines[stream]
        if REPLAY[0] <= true < REPLAY[1]
    ]
    merged.sort(key=itemgetter(0))
    ctx.write_text(ctx.path, "\n".join(text for _, text in merged) + "\n")
