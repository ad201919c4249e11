"""Drive the offline environment directly, outside a trial (run with the harbor venv's python).

Usage: python sandbox_check.py EXPORT_ROOT TASK_FOLDER_NAME SCRATCH

Starts the agent's environment of an exported task that declares a loopback service, runs a
few commands as the agent and as root, stops it, and prints one JSON report.
"""

from __future__ import annotations

import asyncio
import json
import sys
import urllib.request
from pathlib import Path


async def main(out: Path, name: str, scratch: Path) -> dict[str, object]:
    sys.path.insert(0, str(out))
    from benchsmith_sandbox import BubblewrapEnvironment
    from harbor.models.task.config import EnvironmentConfig
    from harbor.models.trial.paths import TrialPaths

    env = BubblewrapEnvironment(
        environment_dir=out / name / "environment",
        environment_name=name,
        session_id="sandbox-check",
        trial_paths=TrialPaths(scratch / "trial"),
        task_env_config=EnvironmentConfig(workdir="/app"),
        cache_dir=str(scratch / "cache"),
    )
    report: dict[str, object] = {}

    async def run(command: str, user: str | None = "agent") -> int:
        result = await env.exec(command, user=user, timeout_sec=60)
        return result.return_code

    await env.start(force_build=False)
    try:
        ready = await env.exec("python3 /opt/benchsmith/services.py --ensure", user="root")
        report["services_ready"] = ready.return_code
        url = await env.exec("cat inputs/base_url.txt", user="agent")
        report["url"] = (url.stdout or "").strip()
        with urllib.request.urlopen(report["url"], timeout=10) as response:  # from the host
            report["answer"] = json.loads(response.read())
        fetch = (
            'python3 -c "import urllib.request as u; '
            "print(u.urlopen(open('inputs/base_url.txt').read().strip()).read().decode())\""
        )
        report["fetch_from_sandbox"] = await run(fetch)
        report["agent_whoami"] = (await env.exec("whoami", user="agent")).stdout
        report["agent_writes_input"] = await run("echo x >> inputs/items.csv")
        report["agent_writes_task_md"] = await run("echo x >> TASK.md")
        report["agent_creates_in_inputs"] = await run("touch inputs/new.txt")
        report["agent_creates_at_root"] = await run("touch scratch.txt")
        report["agent_writes_editable"] = await run("mkdir -p solution && touch solution/x.py")
        report["agent_writes_tests"] = await run("touch /tests/x")
        report["agent_sees_host_repo"] = await run(f"test -e {Path(__file__).resolve()}")
        report["root_writes_input"] = await run("echo x >> inputs/items.csv", user="root")
        report["python_version"] = (await env.exec("python3 -V", user="agent")).stdout
        try:
            await env.exec("sleep 30", user="agent", timeout_sec=1)
            report["timeout"] = "no timeout"
        except RuntimeError as exc:
            report["timeout"] = str(exc)
    finally:
        await env.stop(delete=True)
    try:
        urllib.request.urlopen(str(report["url"]), timeout=3)
        report["service_after_stop"] = "still answering"
    except OSError:
        report["service_after_stop"] = "gone"
    return report


if __name__ == "__main__":
    result = asyncio.run(main(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])))
    print(json.dumps(result, sort_keys=True))
