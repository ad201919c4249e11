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
             "url_file": "inputs/base_url.txt"},
        ],
    }  # fmt: skip
    build_file_tree(opt, {"services.json": json.dumps(config)})
    shutil.copy(harbor_services.__file__, opt / "services.py")
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
