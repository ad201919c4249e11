"""benchsmith export harbor: the files it writes, byte-stable, and the gate in front of it."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchsmith.building import build
from benchsmith.dsl.load import load_task
from benchsmith.errors import UsageError
from benchsmith.export import ExportRefusedError, export_harbor
from benchsmith.export.harbor_image import BASE_IMAGE, Image, dockerfile
from benchsmith.workspaces import create_workspace
from tests.conftest import build_file_tree
from tests.export.conftest import EXAMPLES, TASKS, require_harbor
from tests.run.test_runner import SERVER, SERVICE_TASK

PANTRY = EXAMPLES / "02-pantry-ledger"
GRADES = EXAMPLES / "01-grade-summary"
PANTRY_TREE = """\
environment/Dockerfile
environment/build/benchlib.py
environment/build/materialize.py
environment/build/task/TASK.md
environment/build/task/benchsmith.lock
environment/build/task/edge/inputs/policy.json
environment/build/task/scenario.json
environment/build/task/seed.py
environment/build/task/stages/reorder/inputs/policy.json
environment/build/task/task.toml
environment/sandbox.json
instruction.md
solution/reference/solution/__init__.py
solution/reference/solution/stock.py
solution/solve.sh
steps/initial/instruction.md
steps/reorder/instruction.md
steps/reorder/workdir/inputs/policy.json
steps/returns/instruction.md
steps/returns/workdir/inputs/returns.csv
task.toml
tests/Dockerfile
tests/judge/benchlib.py
tests/judge/task/TASK.md
tests/judge/task/benchsmith.lock
tests/judge/task/edge/inputs/policy.json
tests/judge/task/judge.py
tests/judge/task/scenario.json
tests/judge/task/seed.py
tests/judge/task/stages/reorder/inputs/policy.json
tests/judge/task/task.toml
tests/sandbox.json
tests/test.sh
tests/verify.py
"""


def tree(root: Path) -> dict[str, tuple[int, bytes]]:
    """relative path -> (mode, bytes) of every file, and the mode of every folder."""
    found: dict[str, tuple[int, bytes]] = {}
    for path in sorted(root.rglob("*")):
        mode = path.stat().st_mode & 0o7777
        found[path.relative_to(root).as_posix()] = (
            mode,
            path.read_bytes() if path.is_file() else b"",
        )
    return found


def contents(root: Path) -> dict[str, bytes]:
    """relative path -> bytes of every file under ``root``."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def pantry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pantry")
    export_harbor([PANTRY], out)
    return out / PANTRY.name


def test_a_staged_task_has_harbors_multi_step_layout(pantry: Path) -> None:
    files = sorted(p.relative_to(pantry).as_posix() for p in pantry.rglob("*") if p.is_file())
    assert "\n".join(files) + "\n" == PANTRY_TREE
    modes = {p.relative_to(pantry).as_posix(): p.stat().st_mode & 0o777 for p in pantry.rglob("*")}
    assert modes["solution/solve.sh"] == modes["tests/test.sh"] == 0o755
    assert modes["task.toml"] == modes["steps/returns/workdir/inputs/returns.csv"] == 0o644
    folders = {p: m for p, m in modes.items() if (pantry / p).is_dir()}
    assert folders.pop("steps/returns/workdir") == folders.pop("steps/reorder/workdir") == 0o777
    assert set(folders.values()) == {0o755}


def test_task_toml_carries_timeouts_steps_and_the_benchsmith_metadata(pantry: Path) -> None:
    config = tomllib.loads((pantry / "task.toml").read_text(encoding="utf-8"))
    assert config["schema_version"] == "1.4"
    assert config["multi_step_reward_strategy"] == "final"
    assert config["task"]["name"] == "benchsmith/02-pantry-ledger"
    assert [s["name"] for s in config["steps"]] == ["initial", "returns", "reorder"]
    assert [s["verifier"]["env"]["BENCHSMITH_STAGE"] for s in config["steps"]] == ["1", "2", "3"]
    assert config["verifier"]["env"] == {"BENCHSMITH_STAGES": "3"}
    assert config["verifier"]["environment_mode"] == "separate"
    assert config["agent"] == {"timeout_sec": 1200.0, "user": "agent"}  # class M
    assert config["environment"]["workdir"] == "/app"
    assert config["artifacts"] == ["/app/solution", "/app/output"]
    meta = config["metadata"]
    assert meta["pressure"] == "M" and meta["timeout_seconds"] == 1200
    assert meta["stages"] == ["initial", "returns", "reorder"]
    assert meta["compact_after"] == ["initial"]
    assert meta["soundness"].endswith("passed")


def test_a_single_stage_task_has_no_steps(tmp_path: Path) -> None:
    export_harbor([GRADES], tmp_path)
    config = tomllib.loads((tmp_path / GRADES.name / "task.toml").read_text(encoding="utf-8"))
    assert "steps" not in config and "multi_step_reward_strategy" not in config
    assert config["verifier"]["env"] == {"BENCHSMITH_STAGE": "1", "BENCHSMITH_STAGES": "1"}
    assert config["agent"]["timeout_sec"] == 600.0  # class N
    assert not (tmp_path / GRADES.name / "steps").exists()


def test_instructions_hold_each_stage_message_and_task_md_first(pantry: Path) -> None:
    spec = load_task(PANTRY)
    first = (pantry / "steps/initial/instruction.md").read_text(encoding="utf-8")
    assert first == (pantry / "instruction.md").read_text(encoding="utf-8")
    assert first.startswith(spec.stages[0].message)
    assert (PANTRY / "TASK.md").read_text(encoding="utf-8").strip() in first
    for stage in spec.stages[1:]:
        text = (pantry / "steps" / stage.id / "instruction.md").read_text(encoding="utf-8")
        assert text == stage.message + "\n"


def test_step_workdirs_hold_what_each_stage_adds_to_the_workspace(
    pantry: Path, tmp_path: Path
) -> None:
    def files(stage: int) -> dict[str, bytes]:
        made = tmp_path / str(stage)
        if not made.exists():
            create_workspace(PANTRY, made, stage=stage)
        return {
            p.relative_to(made).as_posix(): p.read_bytes() for p in made.rglob("*") if p.is_file()
        }

    spec = load_task(PANTRY)
    for number, stage in enumerate(spec.stages[1:], 2):
        before, after = files(number - 1), files(number)
        added = {rel: data for rel, data in after.items() if before.get(rel) != data}
        workdir = pantry / "steps" / stage.id / "workdir"
        shipped = {
            p.relative_to(workdir).as_posix(): p.read_bytes()
            for p in workdir.rglob("*")
            if p.is_file()
        }
        assert shipped == added


def _tuples(value: Any) -> Any:
    """JSON lists back to the tuples an Image holds."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def test_the_dockerfile_and_the_sandbox_recipe_describe_one_image(pantry: Path) -> None:
    for folder in ("environment", "tests"):
        recipe = json.loads((pantry / folder / "sandbox.json").read_text(encoding="utf-8"))
        assert recipe.pop("format") == "benchsmith-sandbox/1"
        fields = {key: _tuples(value) for key, value in recipe.items()}
        text = (pantry / folder / "Dockerfile").read_text(encoding="utf-8")
        head = tuple(line[2:] for line in text.splitlines() if line.startswith("# "))[:2]
        assert dockerfile(Image(**fields), head) == text
    assert BASE_IMAGE.split("@sha256:")[1].isalnum() and len(BASE_IMAGE.split("@sha256:")[1]) == 64
    agent = (pantry / "environment/Dockerfile").read_text(encoding="utf-8")
    assert "COPY --from=workspace /workspace/ /app/" in agent  # only the build stage's result
    assert "chown -R agent:agent /app/solution" in agent


def test_solve_sh_replaces_each_editable_path_the_reference_holds(pantry: Path) -> None:
    script = (pantry / "solution/solve.sh").read_text(encoding="utf-8")
    assert "rm -rf -- solution && cp -R /solution/reference/solution solution" in script
    assert "output" not in script.split("cd /app", 1)[1]  # the reference holds no output/


def test_the_same_input_gives_the_same_bytes(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    export_harbor([PANTRY, TASKS / "02-calendar-merge"], first)
    old = os.umask(0o077)
    try:
        cwd = Path.cwd()
        os.chdir(tmp_path)
        export_harbor([PANTRY.resolve(), (TASKS / "02-calendar-merge").resolve()], second)
    finally:
        os.chdir(cwd)
        os.umask(old)
    assert tree(first) == tree(second)


def test_a_new_export_replaces_the_old_one_whole(tmp_path: Path) -> None:
    export_harbor([GRADES], tmp_path)
    (tmp_path / GRADES.name / "leftover.txt").write_text("old", encoding="utf-8")
    export_harbor([GRADES], tmp_path)
    assert not (tmp_path / GRADES.name / "leftover.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [GRADES.name, "benchsmith_sandbox.py"]


def test_a_folder_that_is_not_an_export_is_never_replaced(tmp_path: Path) -> None:
    build_file_tree(tmp_path / GRADES.name, {"notes.md": "mine"})
    with pytest.raises(UsageError, match="not a benchsmith export"):
        export_harbor([GRADES], tmp_path)
    assert (tmp_path / GRADES.name / "notes.md").read_text(encoding="utf-8") == "mine"


def test_a_stale_task_is_refused_unless_forced(
    example_copy: Callable[[str], Path], tmp_path: Path
) -> None:
    task = example_copy(GRADES.name)
    toml = task / "task.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("Grade", "Mark", 1), encoding="utf-8")
    with pytest.raises(ExportRefusedError) as refused:
        export_harbor([task], tmp_path / "out")
    assert any("stale" in d.message for d in refused.value.diagnostics)
    assert not (tmp_path / "out" / GRADES.name).exists()
    result = export_harbor([task], tmp_path / "out", force=True)
    assert result.tasks[0].problems
    config = tomllib.loads((result.tasks[0].dest / "task.toml").read_text(encoding="utf-8"))
    assert config["metadata"]["soundness"].startswith("EXPORTED WITH --force")


def test_a_task_without_a_lock_or_reference_is_refused(
    example_copy: Callable[[str], Path], tmp_path: Path
) -> None:
    task = example_copy(GRADES.name)
    lock = json.loads((task / "benchsmith.lock").read_text(encoding="utf-8"))
    lock.pop("seed")
    (task / "benchsmith.lock").write_text(json.dumps(lock, indent=2) + "\n", encoding="utf-8")
    for path in sorted((task / "reference").rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    (task / "reference").rmdir()
    with pytest.raises(ExportRefusedError) as refused:
        export_harbor([task], tmp_path / "out")
    messages = [d.message for d in refused.value.diagnostics]
    assert any("benchsmith lock" in m for m in messages)
    assert any("reference" in m for m in messages)


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_shipped_modules_need_only_the_standard_library(pantry: Path) -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    assert _imports(pantry / "tests/verify.py") <= stdlib | {"benchlib"}
    sandbox = pantry.parent / "benchsmith_sandbox.py"
    assert _imports(sandbox) <= stdlib | {"harbor"}
    source = Path(__file__).resolve().parents[2] / "sdk/benchsmith/export/harbor_sandbox.py"
    assert sandbox.read_bytes() == source.read_bytes()


def test_services_start_in_the_offline_sandbox(
    make_task: Callable[..., Path], tmp_path: Path
) -> None:
    harbor = require_harbor()
    task = make_task(SERVICE_TASK, "09-price-lookup", {"visible/inputs/server.py": SERVER})
    build([task])
    result = export_harbor([task], tmp_path / "out", force=True)  # no reference, no lock
    exported = result.tasks[0].dest
    config = tomllib.loads((exported / "task.toml").read_text(encoding="utf-8"))
    assert "services.py --ensure" in config["environment"]["healthcheck"]["command"]
    assert "ENTRYPOINT" in (exported / "environment/Dockerfile").read_text(encoding="utf-8")
    script = Path(__file__).with_name("sandbox_check.py")
    done = subprocess.run(
        [str(harbor.parent / "python"), str(script), str(tmp_path / "out"), exported.name,
         str(tmp_path / "scratch")],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["services_ready"] == 0 and report["url"].startswith("http://127.0.0.1:")
    assert "pid" in report["answer"] and report["fetch_from_sandbox"] == 0
    assert report["agent_whoami"].strip() == "agent"
    assert report["agent_writes_input"] != 0 and report["agent_writes_task_md"] != 0
    assert report["agent_creates_in_inputs"] != 0 and report["agent_writes_tests"] != 0
    assert report["agent_creates_at_root"] == 0 and report["agent_writes_editable"] == 0
    assert report["agent_sees_host_repo"] != 0
    assert report["root_writes_input"] == 0  # root may, as in Docker
    assert report["python_version"].startswith("Python 3.12")
    assert "timed out after 1 seconds" in report["timeout"]
    assert report["service_after_stop"] == "gone"
