"""services.py of an export: the loopback services start once, and their URL files appear."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchsmith.export import harbor_services
from benchsmith.runtime import benchlib
from tests.conftest import build_file_tree
from tests.run.test_runner import SERVER


@pytest.fixture
def installed(tmp_path: Path) -> Iterator[Path]:
    """services.py and services.json as the image holds them, over a small workspace."""
    opt, workdir = tmp_path / "opt", tmp_path / "app"
    build_file_tree(workdir, {"inputs/server.py": SERVER})
    config = {
        "workdir": str(workdir),
        "services": [
            {"name": "catalog", "run": f"{sys.executable} inputs/server.py",
             "url_file": "inputs/base_url.txt",
             "origins": {"mirror": "inputs/mirror_url.txt"}},
        ],
    }  # fmt: skip
    build_file_tree(opt, {"services.json": json.dumps(config)})
    shutil.copy(harbor_services.__file__, opt / "services.py")
    shutil.copy(benchlib.__file__, opt / "benchlib.py")
    yield opt
    run = opt / "run"
    groups = [run / "started"] if (run / "started").exists() else []
    pids = (run / "pids").read_text().split() if (run / "pids").exists() else []
    for pid in [int(p.read_text()) for p in groups] + [int(p) for p in pids]:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)


def ensure(opt: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(opt / "services.py"), "--ensure"], capture_output=True, text=True,
        stdin=subprocess.DEVNULL, timeout=60, check=False,
    )  # fmt: skip


def test_ensure_starts_the_services_and_writes_read_only_url_files(installed: Path) -> None:
    assert ensure(installed).returncode == 0
    url_file = installed.parent / "app" / "inputs" / "base_url.txt"
    assert url_file.stat().st_mode & 0o777 == 0o444
    url = url_file.read_text(encoding="utf-8").strip()
    with urllib.request.urlopen(url, timeout=10) as response:
        first = json.loads(response.read())["pid"]
    assert ensure(installed).returncode == 0  # a second call starts nothing new
    assert url_file.read_text(encoding="utf-8").strip() == url
    with urllib.request.urlopen(url, timeout=10) as response:
        assert json.loads(response.read())["pid"] == first


def test_a_service_that_never_listens_fails_the_healthcheck(installed: Path) -> None:
    (installed.parent / "app" / "inputs" / "server.py").write_text("raise SystemExit(3)\n")
    done = ensure(installed)
    assert done.returncode == 1 and "exited with status 3" in done.stderr


def test_services_get_their_origins_and_a_request_log_as_under_the_runner(
    installed: Path,
) -> None:
    assert ensure(installed).returncode == 0, ensure(installed).stderr
    inputs = installed.parent / "app" / "inputs"
    urls = [(inputs / n).read_text("utf-8").strip() for n in ("base_url.txt", "mirror_url.txt")]
    assert urls[0] != urls[1] and (inputs / "mirror_url.txt").stat().st_mode & 0o777 == 0o444
    for url in urls:
        with urllib.request.urlopen(url + "/page", timeout=10) as response:
            assert "pid" in json.loads(response.read())
    log = installed / "run" / "catalog.requests.jsonl"
    lines = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    ports = {name: f"http://127.0.0.1:{port}" for name, port in lines[0]["origins"].items()}
    assert ports == {"catalog": urls[0], "mirror": urls[1]}
    seen = [(r.target, r.origin, r.status) for r in benchlib.requests_of(lines[1:])]
    assert seen == [("/page", "catalog", 200), ("/page", "mirror", 200)]
