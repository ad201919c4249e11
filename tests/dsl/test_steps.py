"""Steps of candidate servers in task.toml: serve, http and stop, located where they are."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from benchsmith.dsl.load import load_task, read_task
from benchsmith.generate.plan import judge_data, task_markdown
from tests.conftest import MINIMAL_TASK

BASE = MINIMAL_TASK.replace(
    'command = "python -m solution.main inputs/data.csv --output output"\n', ""
)

SERVE = """
[[commands]]
name = "start"
serve = "api"
run = "python -m solution.server --port 0"
url_file = "output/url.txt"
timeout = 5
"""
POST = """
[[commands]]
name = "post"
http = { server = "api", method = "POST", path = "/i?x=1", headers = { A = "b" }, body = "{}" }
timeout = 3
"""
STOP = """
[[commands]]
stop = "api"
"""


def _problems(make_task: Callable[..., Path], steps: str) -> list[tuple[int, int, str, str]]:
    spec, found = read_task(make_task(BASE + steps))
    assert spec is None
    return [(d.line, d.col, d.code, d.message) for d in found]


def _line_of(text: str, needle: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line of ``BASE + text`` that starts with ``needle``."""
    lines = (BASE + text).splitlines()
    hits = [n for n, line in enumerate(lines, start=1) if line.startswith(needle)]
    return hits[nth - 1]


def test_steps_load_with_their_kinds_and_defaults(make_task: Callable[..., Path]) -> None:
    spec = load_task(make_task(BASE + SERVE + POST + STOP + SERVE.replace('"start"', '"again"')))
    kinds = [(c.kind, c.name, c.server) for c in spec.commands]
    assert kinds == [
        ("serve", "start", "api"), ("http", "post", "api"), ("stop", None, "api"),
        ("serve", "again", "api"),
    ]  # fmt: skip
    serve, post, stop, _ = spec.commands
    assert serve.argv == ("python", "-m", "solution.server", "--port", "0")
    assert serve.url_file == "output/url.txt" and serve.runs_program
    assert post.argv == () and not post.runs_program
    assert post.run == "POST /i?x=1 (server api)"
    assert dict(post.request or {})["max_bytes"] == 1024 * 1024
    assert stop.run == "stop server api" and stop.timeout == spec.judge_timeout


def test_the_judge_embeds_the_steps_and_task_md_lists_the_server_once(
    make_task: Callable[..., Path],
) -> None:
    spec = load_task(make_task(BASE + SERVE + POST + STOP + SERVE.replace('"start"', '"again"')))
    commands = judge_data(spec)["commands"]
    assert commands[0]["serve"] == "api" and commands[0]["url_file"] == "output/url.txt"
    assert commands[1]["http"] == {
        "server": "api", "method": "POST", "path": "/i?x=1",
        "headers": [["A", "b"]], "body": "{}", "max_bytes": 1024 * 1024,
    }  # fmt: skip
    assert commands[1]["argv"] == [] and commands[1]["name"] == "post"
    assert commands[2]["stop"] == "api"
    markdown = task_markdown(spec)
    assert markdown.count("python -m solution.server --port 0") == 1
    assert "/i?x=1" not in markdown


def test_a_plain_command_keeps_its_embedded_form(make_task: Callable[..., Path]) -> None:
    spec = load_task(make_task())
    assert set(judge_data(spec)["commands"][0]) == {
        "run", "argv", "cwd", "stdin", "stage", "timeout"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("steps", "needle", "nth", "message"),
    [
        pytest.param(POST, "http =", 1,
                     "server 'api' is started by no earlier serve step; http needs it running",
                     id="http-before-serve"),
        pytest.param(SERVE + STOP + STOP, "stop =", 2,
                     "server 'api' was stopped before; stop needs it running", id="stopped-twice"),
        pytest.param(SERVE + SERVE.replace('"start"', '"b"'), "serve =", 2,
                     "server 'api' is already running here; stop it first", id="serve-twice"),
        pytest.param(SERVE + STOP + SERVE, "name =", 2, "step name 'start' is used twice",
                     id="duplicate-name"),
        pytest.param(SERVE.replace('run = "python -m solution.server --port 0"\n', ""),
                     "[[commands]]", 1, "commands[0]: a serve step needs 'run' (the command line)",
                     id="serve-without-run"),
        pytest.param(SERVE + STOP.replace('stop = "api"', 'stop = "api"\nstdin = "x.txt"'),
                     "stdin =", 1, "commands[1].stdin: 'stdin' does not apply to a stop step",
                     id="key-of-another-kind"),
    ],
)  # fmt: skip
def test_step_errors_are_located_at_their_key(
    make_task: Callable[..., Path], steps: str, needle: str, nth: int, message: str
) -> None:
    found = _problems(make_task, steps)
    assert [(line, code, text) for line, _, code, text in found] == [
        (_line_of(steps, needle, nth), "BS102", message)
    ]


def test_schema_errors_of_steps_are_located(make_task: Callable[..., Path]) -> None:
    both = SERVE + POST.replace('body = "{}"', 'body = "{}", body_file = "inputs/data.csv"')
    [(line, _, code, message)] = _problems(make_task, both)
    assert (line, code) == (_line_of(both, "http ="), "BS102")
    assert "'body' and 'body_file' cannot both be given" in message
    method = SERVE + POST.replace('"POST"', '"FETCH"')
    [(line, _, code, message)] = _problems(make_task, method)
    assert line == _line_of(method, "http =") and "'FETCH' is not allowed" in message
    mixed = SERVE.replace('serve = "api"', 'serve = "api"\nstop = "api"')
    [(line, _, code, message)] = _problems(make_task, mixed)
    assert "'serve' and 'stop' cannot both be given" in message


EDGE_EXPECT = """
[[edge.expect]]
response = "post"
"""


def test_response_expectations_load_and_embed(make_task: Callable[..., Path]) -> None:
    steps = SERVE + POST + EDGE_EXPECT + "status = 201\n"
    spec = load_task(make_task(BASE + steps))
    assert spec.edge is not None
    assert dict(spec.edge.expect[0].spec) == {"response": "post", "status": 201}
    assert judge_data(spec)["edge_expect"][0]["status"] == 201


@pytest.mark.parametrize(
    ("extra", "needle", "message"),
    [
        pytest.param('status = 201\n', "response =",
                     "no http step is named 'post' (named: other)", id="unknown-step"),
        pytest.param('where = { a = 1 }\nequals = { b = 2 }\n', "where =",
                     "a response expectation takes no where", id="where"),
        pytest.param('count = 1\n', "response =",
                     "a response expectation asserts status, equals or contains", id="count"),
    ],
)  # fmt: skip
def test_response_expectation_errors_are_located(
    make_task: Callable[..., Path], extra: str, needle: str, message: str
) -> None:
    steps = SERVE + POST.replace('name = "post"', 'name = "other"') + EDGE_EXPECT + extra
    found = _problems(make_task, steps)
    assert (_line_of(steps, needle), "BS102", message) in [(n, c, t) for n, _, c, t in found]


def test_status_without_a_response_is_located(make_task: Callable[..., Path]) -> None:
    steps = SERVE + POST + "\n[[edge.expect]]\nstatus = 201\n"
    [(line, _, _, message)] = _problems(make_task, steps)
    assert line == _line_of(steps, "status =")
    assert message == "status needs response = the name of an http step"


def test_a_server_a_later_stage_no_longer_starts_is_located(
    make_task: Callable[..., Path],
) -> None:
    stages = '\n[[stages]]\nid = "a"\n\n[[stages]]\nid = "b"\nmessage = "more"\n'
    steps = SERVE.replace("timeout = 5", 'timeout = 5\nuntil = "a"') + POST.replace(
        "timeout = 3", 'timeout = 3\nstage = "b"'
    )
    [(line, _, code, message)] = _problems(make_task, steps + stages)
    assert (line, code) == (_line_of(steps, "http ="), "BS102")
    assert message == "server 'api' is started by no earlier serve step; http needs it running"
    # the same steps, all of them at both stages, are fine
    assert load_task(make_task(BASE + SERVE + POST + stages)).commands[1].kind == "http"


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ('{ "Bad Name" = "x" }', "an HTTP header name"),
        ('{ A = "line\\nbreak" }', "a header value on one line"),
    ],
)
def test_a_header_that_http_cannot_carry_is_located(
    make_task: Callable[..., Path], headers: str, expected: str
) -> None:
    steps = SERVE + POST.replace('headers = { A = "b" }', f"headers = {headers}")
    [(line, _, code, message)] = _problems(make_task, steps)
    assert (line, code) == (_line_of(steps, "http ="), "BS102")
    assert expected in message, message
