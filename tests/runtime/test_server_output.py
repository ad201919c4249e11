"""The LISTENING contract of a candidate server's standard output, read in any chunks."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from benchsmith.runtime import benchlib


def _read(chunks: list[bytes]) -> tuple[int, str, str, bytes]:
    output = benchlib._ServerOutput()
    log = b"".join(output.feed(chunk) for chunk in [*chunks, b""])
    return output.port, output.problem, output.late, log


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True) if b > a]


LINES = st.lists(
    st.one_of(
        st.sampled_from([b"LISTENING 8080", b"LISTENING 0", b"LISTENING x", b"LISTENING 99999"]),
        st.binary(max_size=30).filter(lambda b: b"\n" not in b),
    ),
    max_size=6,
)


@given(LINES, st.lists(st.integers(min_value=0), max_size=8))
def test_any_chunking_reads_the_same(lines: list[bytes], cuts: list[int]) -> None:
    data = b"\n".join(lines) + (b"\n" if lines else b"")
    assert _read(_split(data, cuts)) == _read([data])


def test_the_first_line_decides() -> None:
    assert _read([b"LISTENING 8080\nGET / 200\n"]) == (8080, "", "", b"GET / 200\n")
    assert _read([b"LISTENING 8080\r\n"])[0] == 8080
    assert _read([b"starting\nLISTENING 8080\n"])[:2] == (
        0,
        "printed 'starting' on standard output before 'LISTENING <port>'",
    )
    for bad in (b"LISTENING 0\n", b"LISTENING 65536\n", b"LISTENING soon\n", b"LISTENING\n"):
        port, problem, _, _ = _read([bad])
        assert port == 0 and problem.startswith("printed a malformed line"), (bad, problem)
    assert _read([b"LISTENING 1\nLISTENING 1\n"])[2] == "printed a second 'LISTENING <port>' line"


def test_the_log_is_capped() -> None:
    line = b"x" * 1023 + b"\n"
    port, _, _, log = _read([b"LISTENING 5\n" + line * 2048])
    assert port == 5 and len(log) == benchlib.SERVER_CAPTURE_LIMIT
