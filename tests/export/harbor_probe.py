"""A Harbor agent for the tests: it reports what an agent sees at each step (harbor venv only).

Loaded by Harbor as ``-a tests.export.harbor_probe:ProbeAgent`` (the repository root on
PYTHONPATH). At each step it records, in ``/logs/agent/probe.json``: the instruction, every
workspace file with its SHA-256 and whether the agent may write it, whether it can create
files at the workspace root and in the inputs, and what ``/tests`` and ``/solution`` hold.
It changes nothing it finds.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from harbor.agents.base import BaseAgent

PROBE = r"""
import hashlib, json, os, sys
root = "/app"
files = {}
for folder, dirs, names in os.walk(root):
    dirs.sort()
    for name in sorted(names):
        path = os.path.join(folder, name)
        with open(path, "rb") as stream:
            digest = hashlib.sha256(stream.read()).hexdigest()
        files[os.path.relpath(path, root)] = [digest, os.access(path, os.W_OK)]

def can_create(folder):
    probe = os.path.join(folder, ".probe")
    try:
        with open(probe, "w"):
            pass
    except OSError:
        return False
    os.remove(probe)
    return True

def listing(folder):
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else None

report = {
    "user": os.getuid(),
    "files": files,
    "create_root": can_create(root),
    "create_inputs": can_create(os.path.join(root, "inputs")),
    "tests": listing("/tests"),
    "solution": listing("/solution"),
}
print(json.dumps(report))
"""


class ProbeAgent(BaseAgent):
    """Records the workspace it is given; solves nothing."""

    @staticmethod
    def name() -> str:
        """The agent's name."""
        return "benchsmith-probe"

    def version(self) -> str:
        """The agent's version."""
        return "1"

    async def setup(self, environment: Any) -> None:
        """Nothing to install."""

    async def run(self, instruction: str, environment: Any, context: Any) -> None:
        """Probe the workspace and write the report under /logs/agent."""
        result = await environment.exec(f"python3 -c {shlex.quote(PROBE)}")
        report = json.loads(result.stdout) if result.return_code == 0 else {"error": result.stderr}
        report["instruction"] = instruction
        text = shlex.quote(json.dumps(report, sort_keys=True))
        await environment.exec(f"printf '%s' {text} > /logs/agent/probe.json")
