"""The request log's HTTP reader: what the relay records does not depend on how TCP splits
the streams it reads (keep-alive, pipelining, chunked bodies, interim responses)."""

from __future__ import annotations

from typing import Any, cast

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

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self.seq = 0

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


def test_an_upgraded_or_garbled_stream_is_relayed_unread() -> None:
    upgrade = b"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\nGET /not-http HTTP/1.1\r\n\r\n"
    assert [r[:2] for r in _relayed([upgrade], [])] == [("GET", "/ws")]
    assert _relayed([b"\x16\x03\x01 TLS hello\r\n\r\nGET / HTTP/1.1\r\n\r\n"], []) == []
