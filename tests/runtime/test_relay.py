"""The request log's HTTP reader: what the relay records does not depend on how TCP splits
the streams it reads (keep-alive, pipelining, chunked bodies, interim responses)."""

from __future__ import annotations

from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchsmith.runtime import benchlib

REQUESTS = (
    b"GET /a?x=1 HTTP/1.1\r\nHost: h\r\n\r\n"
    b"POST /form HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello\r\n\r\nxx"
    b"PUT /up HTTP/1.1\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n"
    b"4;ext=1\r\nab\r\n\r\n3\r\ncde\r\n0\r\nTrailer: t\r\n\r\n"
    b"\r\nHEAD /h HTTP/1.1\nHost: h\n\n"
    b"GET /gone HTTP/1.1\r\n\r\n"
)
RESPONSES = (
    b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"
    b"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"
    b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
    b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n"
    b"HTTP/1.0 404 Not Found\r\n\r\nnot here, till the close"
)


class Recorder:
    """Records what the relay reports, as benchlib's recorder would write it."""

    def __init__(self, port: int = 0) -> None:
        self.lines: list[dict[str, Any]] = []
        self.seq = 0
        self.port = port  # the service's own port (0: not learned yet)

    def arrived(self, head: dict[str, Any]) -> int:
        self.seq += 1
        self.lines.append({"seq": self.seq, "time": 0.0, **head})
        return self.seq

    def answered(self, seq: int, status: int) -> None:
        self.lines.append({"seq": seq, "status": status})

    def finished(self, seq: int, answered: bool) -> None:
        self.lines.append({"seq": seq, "end": 1.0 if answered else 2.0})

    def emit(self, entry: dict[str, Any]) -> None:
        self.lines.append(entry)

    def refuse(self, origin: str, reason: str, target: str = "") -> None:
        benchlib._ServiceRecorder.refuse(cast(Any, self), origin, reason, target)


def _relayed(requests: list[bytes], responses: list[bytes]) -> list[tuple[Any, ...]]:
    recorder = Recorder()
    relayed = benchlib._RelayedHttp(cast(Any, recorder), "catalog")
    for chunk in requests:
        relayed.requests.feed(chunk)
    for chunk in responses:
        relayed.responses.feed(chunk)
    relayed.closed()
    log = benchlib.requests_of(recorder.lines)
    return [(r.method, r.target, r.host, r.body_bytes, r.status, r.end) for r in log]


def _linked(responses: list[bytes], port: int = 4321) -> list[bool]:
    """Each request's ``private_link``, the responses relayed in ``responses`` chunks."""
    recorder = Recorder(port)
    relayed = benchlib._RelayedHttp(cast(Any, recorder), "catalog")
    relayed.requests.feed(b"GET /1 HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\n")
    for chunk in responses:
        relayed.responses.feed(chunk)
    relayed.closed()
    return [r.private_link for r in benchlib.requests_of(recorder.lines)]


def _answer(body: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)


LINKED = _answer(b'{"next": "http://127.0.0.1:4321/catalog?page=2"}')
PUBLIC = _answer(b'{"next": "http://127.0.0.1:43210/catalog?page=2"}')  # another port


@given(st.lists(st.integers(min_value=0), max_size=8))
def test_a_response_linking_to_the_services_own_port_is_flagged(cuts: list[int]) -> None:
    """Issue 28: whichever way the stream is split (a link across two chunks included)."""
    assert _linked(_split(LINKED + PUBLIC, cuts)) == [True, False]
    assert _linked(_split(PUBLIC + _answer(b"localhost:4321/x"), cuts)) == [False, True]
    assert _linked(_split(LINKED, cuts), port=0) == [False, False]


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


EXPECTED = [
    ("GET", "/a?x=1", "h", 0, 200, 1.0),
    ("POST", "/form", "h", 11, 201, 1.0),
    ("PUT", "/up", "", 7, 204, 1.0),
    ("HEAD", "/h", "h", 0, 200, 1.0),  # a HEAD response has no body, whatever its length
    ("GET", "/gone", "", 0, 404, 1.0),  # its body ends with the connection
]


def test_a_keep_alive_pipelined_exchange_is_read_whole() -> None:
    assert _relayed([REQUESTS], [RESPONSES]) == EXPECTED


@given(st.lists(st.integers(min_value=0), max_size=12), st.lists(st.integers(0), max_size=12))
def test_how_the_streams_are_split_does_not_matter(cuts: list[int], back: list[int]) -> None:
    assert _relayed(_split(REQUESTS, cuts), _split(RESPONSES, back)) == EXPECTED


def test_a_request_never_answered_ends_with_its_connection() -> None:
    (only,) = _relayed([b"GET /slow HTTP/1.1\r\n\r\n"], [])
    assert only == ("GET", "/slow", "", 0, None, 2.0)


def _exchange(steps: list[tuple[str, bytes]]) -> tuple[list[tuple[str, str, str]], bytes]:
    """Feed the client's ("c") and the service's ("s") bytes in turn, as the relay's two
    threads would; the log (method, target, refused) and the client bytes relayed, up to a
    refusal (which ends the exchange, as the relay closes the connection)."""
    recorder = Recorder()
    relayed = benchlib._RelayedHttp(cast(Any, recorder), "catalog")
    passed = b""
    for side, data in steps:
        if side == "s":
            relayed.responses.feed(data)
            continue
        out = relayed.requests.feed(data)
        if out is None:
            break
        passed += out
    else:
        if not relayed.requests.finish():
            passed += b"<refused at the end>"
    relayed.closed()
    return [(r.method, r.target, r.refused) for r in benchlib.requests_of(recorder.lines)], passed


OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


def test_a_head_is_relayed_only_once_read_and_recorded() -> None:
    log, passed = _exchange([("c", b"GET /a HTTP/1.1\r\nHost: h\r\n"), ("c", b"X: 1\r\n")])
    assert passed == b"<refused at the end>"  # nothing relayed; recorded when the stream ended
    assert log == [("", "GET /a HTTP/1.1", "a request head cut by the end of the stream")]
    head = b"GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HT"
    log, passed = _exchange([("c", head), ("c", b"TP/1.1\r\n\r\n")])
    assert log == [("GET", "/a", ""), ("GET", "/b", "")] and passed == head + b"TP/1.1\r\n\r\n"


@pytest.mark.parametrize(
    ("sent", "why"),
    [
        (b"GET /x\r\n\r\n", "not an HTTP/1.x request line"),  # HTTP/0.9
        (b"GET /x HTTP/2.0\r\n\r\n", "not HTTP/1.x"),
        (b"\x16\x03\x01 TLS hello\r\n\r\nGET / HTTP/1.1\r\n\r\n", "request line"),
        (b"GET /x HTTP/1.1\r\nno colon\r\n\r\n", "header line"),
        (b"GET /x HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", "header line"),
        (b"POST /x HTTP/1.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n", "both"),
        (b"POST /x HTTP/1.1\r\nContent-Length: 0x2\r\n\r\n", "not a number"),
        (b"POST /x HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n", "differ"),
        (b"POST /x HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", "other than chunked"),
    ],
)
def test_what_is_not_http_1_is_recorded_refused_and_not_relayed(sent: bytes, why: str) -> None:
    log, passed = _exchange([("c", sent), ("c", b"GET /after HTTP/1.1\r\n\r\n")])
    assert passed == b""
    assert len(log) == 1 and log[0][0] == "" and why in log[0][2], log
    assert log[0][1] == sent.split(b"\r\n", 1)[0].decode("latin-1").strip()


def test_a_smuggled_request_after_a_chunked_body_is_refused() -> None:
    head = b"POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    log, passed = _exchange([("c", head + b"GET /secret HTTP/1.1\r\nHost: h\r\n\r\n")])
    refused = ("", "GET /secret HTTP/1.1", "a chunk size that is not hexadecimal")
    assert log == [("POST", "/x", ""), refused]
    assert b"/secret" not in passed
    log, passed = _exchange([("c", head + b"2\r\nokGET /secret HTTP/1.1\r\n\r\n")])
    assert [e[0] for e in log] == ["POST", ""] and b"/secret" not in passed


def test_an_upgrade_the_service_ignored_leaves_the_connection_read() -> None:
    upgrade = b"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
    after = b"GET /after HTTP/1.1\r\n\r\n"
    log, passed = _exchange([("c", upgrade), ("s", OK), ("c", after)])
    assert log == [("GET", "/ws", ""), ("GET", "/after", "")] and passed == upgrade + after
    connect = b"CONNECT h:443 HTTP/1.1\r\n\r\n"
    refusal = b"HTTP/1.1 405 No\r\nContent-Length: 0\r\n\r\n"
    log, _ = _exchange([("c", connect), ("s", refusal), ("c", after)])
    assert [e[:2] for e in log] == [("CONNECT", "h:443"), ("GET", "/after")]


def test_a_switched_protocol_is_relayed_unread() -> None:
    upgrade = b"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\n"
    frames = b"\x81\x05hello GET /not-http HTTP/1.1\r\n\r\n"
    switched = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"
    log, passed = _exchange([("c", upgrade), ("s", switched), ("c", frames)])
    assert log == [("GET", "/ws", "")] and passed == upgrade + frames
