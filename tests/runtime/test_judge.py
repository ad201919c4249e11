"""A whole judge run: one JSON object on stdout whatever the authored checks do."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib
from benchsmith.workspaces import create_workspace
from tests.check.conftest import copy_example
from tests.runtime.seeds import SEED_ARGS

NOISY_CHECKS = """

@judge.check(level=4)
def prints_to_stdout(run: benchlib.Run) -> None:
    print("debugging output that must not reach stdout")
    benchlib.expect(True, "fine")


@judge.check(level=4)
def exits(run: benchlib.Run) -> None:
    raise SystemExit(3)

"""


def _judge(task: Path, workspace: Path, cache: Path | None = None) -> tuple[dict[str, Any], str]:
    argv = [default_python(), "judge.py", "--workspace", str(workspace)]
    argv += ["--fixture-cache", str(cache)] if cache else []
    done = subprocess.run(argv, cwd=task, capture_output=True, text=True, timeout=120, check=False)
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    assert done.returncode == (1 if '"status": "error"' in lines[0] else 0)
    verdict: dict[str, Any] = json.loads(lines[0])
    return verdict, done.stderr


def _reference_workspace(task: Path, tmp_path: Path) -> Path:
    workspace = create_workspace(task, tmp_path / "ws", stage=None, python=default_python())
    benchlib.copy_tree(task / "reference" / "solution", workspace / "solution")
    return workspace


def test_authored_prints_and_exits_cannot_break_the_verdict(tmp_path: Path) -> None:
    task = copy_example(tmp_path / "corpus", "01-grade-summary")
    judge = task / "judge.py"
    text = judge.read_text("utf-8")
    judge.write_text(
        text.replace("# endregion authored", NOISY_CHECKS + "# endregion authored"), "utf-8"
    )
    verdict, stderr = _judge(task, _reference_workspace(task, tmp_path))
    assert verdict["progress_level"] == 3
    assert verdict["main_checks_passed"] == 9 and verdict["main_checks_total"] == 10
    assert "main: exits: check crashed: SystemExit: 3" in " ".join(verdict["notes"])
    assert "debugging output" in stderr


def test_a_judge_without_core_checks_reports_an_error(tmp_path: Path) -> None:
    task = copy_example(tmp_path / "corpus", "01-grade-summary")
    judge = task / "judge.py"
    judge.write_text(
        judge.read_text("utf-8").replace("@judge.check(level=3)", "@judge.check(level=4)"), "utf-8"
    )
    verdict, _ = _judge(task, _reference_workspace(task, tmp_path))
    assert verdict["status"] == "error"
    assert verdict["notes"] == [
        "judge error: JudgeDefect: the judge declares no level-3 check, so level 3 is undecidable"
    ]


def test_the_fixture_cache_is_built_once_and_reused(tmp_path: Path) -> None:
    task = copy_example(tmp_path / "corpus", "02-pantry-ledger")
    workspace = _reference_workspace(task, tmp_path)
    cache = tmp_path / "cache"
    first, _ = _judge(task, workspace, cache)
    built = benchlib.tree_entries(cache)
    second, _ = _judge(task, workspace, cache)
    assert first == second and first["progress_level"] == 5
    assert benchlib.tree_entries(cache) == built
    assert sorted(p.name for p in cache.iterdir()) == [".pod", "edge", "main"]


SEED = (
    SEED_ARGS
    + """\
pathlib.Path(args.out, "inputs").mkdir(parents=True, exist_ok=True)
"""
)


def test_commands_after_a_timeout_are_not_run(tmp_path: Path) -> None:
    task_dir, workspace = tmp_path / "task", tmp_path / "ws"
    (task_dir).mkdir()
    (task_dir / "seed.py").write_text(SEED, "utf-8")
    (workspace / "solution").mkdir(parents=True)
    (workspace / "solution" / "slow.py").write_text("import time\ntime.sleep(120)\n", "utf-8")
    command = {"run": "python -m solution.slow", "argv": ["python", "-m", "solution.slow"]}
    command |= {"cwd": ".", "stdin": None, "timeout": 1.0}
    task = {"stages": ["initial"], "editable": ["solution/"], "outputs": []}
    judge = benchlib.Judge(task | {"commands": [command, command]}, task_dir)

    @judge.check(level=3)
    def core(run: benchlib.Run) -> None:
        benchlib.expect(True, "never reached")

    started = time.monotonic()
    verdict = judge.evaluate(workspace, python=default_python())
    assert time.monotonic() - started < 15  # one timeout, not two
    assert verdict["progress_level"] == 1
    assert verdict["notes"] == [
        "level 2: python -m solution.slow: timed out",
        "level 2: python -m solution.slow: not run: an earlier command timed out",
    ]


def test_stale_outputs_in_the_workspace_are_not_graded(tmp_path: Path) -> None:
    task = copy_example(tmp_path / "corpus", "01-grade-summary")
    workspace = _reference_workspace(task, tmp_path)
    done = subprocess.run(
        [default_python(), "-m", "solution.grades", "inputs/scores.csv", "--output", "output"],
        cwd=workspace,
        check=True,
    )
    assert done.returncode == 0 and (workspace / "output" / "summary.csv").is_file()
    null = "def main() -> None:\n    pass\n\n\nif __name__ == '__main__':\n    main()\n"
    (workspace / "solution" / "grades.py").write_text(null, "utf-8")
    verdict, _ = _judge(task, workspace)
    assert verdict["progress_level"] == 1
    assert any("output/summary.csv" in note for note in verdict["notes"])


def test_time_scale_multiplies_every_command_timeout(tmp_path: Path) -> None:
    task = copy_example(tmp_path / "corpus", "01-grade-summary")
    workspace = _reference_workspace(task, tmp_path)
    cache, python = tmp_path / "cache", default_python()
    judge = benchlib.Judge(_embedded_task(task), task)
    benchlib.produce(judge, workspace, "main", tmp=tmp_path / "warm", python=python, cache=cache)
    sleeps = "import time\nif __name__ == '__main__':\n    time.sleep(60)\n"  # imports at once
    (workspace / "solution" / "grades.py").write_text(sleeps, "utf-8")
    started = time.monotonic()  # the fixture is cached: what remains is mostly the command
    run = benchlib.produce(
        judge, workspace, "main", tmp=tmp_path / "run", python=python, cache=cache, time_scale=0.1
    )
    assert time.monotonic() - started < 8  # 10 s x 0.1, not the task's 10 s
    assert run.results[0].timed_out
    argv = [python, "judge.py", "--workspace", str(workspace), "--time-scale", "0.1"]
    done = subprocess.run(argv, cwd=task, capture_output=True, text=True, timeout=60, check=False)
    verdict = json.loads(done.stdout)
    assert verdict["progress_level"] == 1
    assert (
        "level 2: python -m solution.grades inputs/scores.csv --output output: timed out"
        in (verdict["notes"])
    )


def test_time_scale_must_be_positive(tmp_path: Path) -> None:
    task = copy_example(tmp_path / "corpus", "01-grade-summary")
    argv = [default_python(), "judge.py", "--workspace", str(tmp_path), "--time-scale", "0"]
    done = subprocess.run(argv, cwd=task, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "must be above 0" in done.stderr


def test_produce_runs_the_commands_without_judging(tmp_path: Path) -> None:
    task = copy_example(tmp_path / "corpus", "02-pantry-ledger")
    workspace = _reference_workspace(task, tmp_path)
    judge = benchlib.Judge(_embedded_task(task), task)
    run = benchlib.produce(judge, workspace, "edge", tmp=tmp_path / "run", python=default_python())
    assert [r.returncode for r in run.results] == [0]
    assert run.csv("output/stock.csv") == [
        {"item": "Rice", "on_hand": "5"},
        {"item": "Tea", "on_hand": "0"},
    ]
    assert not (workspace / "output" / "stock.csv").exists()  # the workspace is only read


def test_keep_runs_keeps_each_fixture_with_its_command_results(tmp_path: Path) -> None:
    task = copy_example(tmp_path / "corpus", "03-catalog-crawl")
    workspace, kept = _reference_workspace(task, tmp_path), tmp_path / "kept"
    argv = [default_python(), "judge.py", "--workspace", str(workspace), "--keep-runs", str(kept)]
    done = subprocess.run(argv, cwd=task, capture_output=True, text=True, timeout=120, check=False)
    assert json.loads(done.stdout)["progress_level"] == 5, done.stdout
    assert sorted(p.name for p in kept.iterdir()) == ["edge", "edge.json", "main", "main.json"]
    judge = benchlib.Judge(_embedded_task(task), task)
    fresh = benchlib.produce(
        judge, workspace, "main", tmp=tmp_path / "run", python=default_python()
    )
    main = benchlib.load_kept_run(kept, "main")
    assert main is not None and main.fixture == "main"
    assert [(r.argv[1:], r.returncode, r.stdout) for r in main.results] == [
        (r.argv[1:], r.returncode, r.stdout) for r in fresh.results
    ]
    output = "output/items.csv"
    assert main.csv(output) == fresh.csv(output) and main.csv(output)
    record = json.loads((kept / "main.json").read_text("utf-8"))
    assert {"service_logs", "service_stderr", "fixture_inputs"} <= set(record)  # for replays
    assert (main.service_logs, main.service_stderr) == (
        record["service_logs"],
        record["service_stderr"],
    )
    [log] = main.service_requests.values()
    assert log and all(isinstance(r, benchlib.Request) for r in log)
    assert all(isinstance(h, tuple) for r in log for h in r.headers)
    assert benchlib.load_kept_run(kept, "absent") is None


def test_replay_runs_judges_the_kept_runs_without_running_anything(tmp_path: Path) -> None:
    task = copy_example(tmp_path / "corpus", "02-pantry-ledger")
    workspace, kept = _reference_workspace(task, tmp_path), tmp_path / "kept"
    base = [default_python(), "judge.py", "--workspace", str(workspace)]

    def judge(*extra: str) -> dict[str, Any]:
        done = subprocess.run(
            [*base, *extra], cwd=task, capture_output=True, text=True, timeout=120, check=False
        )
        verdict: dict[str, Any] = json.loads(done.stdout)
        return verdict

    assert judge("--keep-runs", str(kept))["progress_level"] == 5
    benchlib.remove_path(workspace / "solution")  # a fresh judging would now score 0
    assert judge()["progress_level"] == 0
    replayed = judge("--replay-runs", str(kept))
    assert replayed["progress_level"] == 5, replayed
    assert any("replayed the runs kept in" in n for n in replayed["notes"])
    (kept / "main" / "output" / "stock.csv").write_text("item,on_hand\n", "utf-8")
    assert judge("--replay-runs", str(kept))["progress_level"] < 5  # the kept files are judged
    earlier = judge("--replay-runs", str(kept), "--stage", "1")  # kept at the final stage
    assert earlier["status"] == "error" and "no kept main run of stage 1" in earlier["notes"][0]
    both = subprocess.run(
        [*base, "--replay-runs", str(kept), "--keep-runs", str(kept)],
        cwd=task, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert both.returncode == 2 and "cannot be combined" in both.stderr
    assert (kept / "main").is_dir()  # the replayed runs were not moved away


def _embedded_task(task: Path) -> dict[str, Any]:
    """The TASK literal of a generated judge.py."""
    import ast

    tree = ast.parse((task / "judge.py").read_text("utf-8"))
    node = next(
        n for n in tree.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "TASK"
    )
    value: dict[str, Any] = ast.literal_eval(node.value)
    return value


def _module_judge(tmp_path: Path, source: str) -> tuple[benchlib.Judge, Path]:
    """A one-command judge of ``python -m solution.app`` whose level-3 check reads
    ``marks.txt`` (each import of the module appends a line to it)."""
    task_dir, workspace = tmp_path / "task", tmp_path / "ws"
    task_dir.mkdir(parents=True)
    (task_dir / "seed.py").write_text(SEED, "utf-8")
    (workspace / "solution").mkdir(parents=True)
    (workspace / "solution" / "app.py").write_text(source, "utf-8")
    command = {"run": "python -m solution.app x", "argv": ["python", "-m", "solution.app", "x"]}
    command |= {"cwd": ".", "stdin": None, "timeout": 20.0}
    task = {"stages": ["initial"], "editable": ["solution/"], "outputs": []}
    judge = benchlib.Judge(task | {"commands": [command]}, task_dir)

    @judge.check(level=3)
    def imported_once(run: benchlib.Run) -> None:
        marks = (run.root / "marks.txt").read_text("utf-8").splitlines()
        benchlib.expect(marks == ["x"], f"marks {marks}")

    return judge, workspace


MARK = "import sys\nwith open('marks.txt', 'a') as f:\n    f.write(sys.argv[1] + '\\n')\n"


def test_a_module_that_raises_on_import_scores_0(tmp_path: Path) -> None:
    judge, workspace = _module_judge(tmp_path, "import missing_dependency_xyz\n")
    verdict = judge.evaluate(workspace, python=default_python())
    assert verdict["progress_level"] == 0
    assert verdict["notes"] == [
        "level 1: python -m solution.app x: the module does not import: "
        "ModuleNotFoundError: No module named 'missing_dependency_xyz'"
    ]


def test_the_import_probe_runs_in_a_copy_of_the_fixture(tmp_path: Path) -> None:
    """An unguarded module runs at import with the command's arguments; the probe's writes
    never reach the fixture the command then runs in."""
    judge, workspace = _module_judge(tmp_path, MARK)
    verdict = judge.evaluate(workspace, python=default_python())
    assert (verdict["progress_level"], verdict["notes"]) == (
        4,
        ["edge: no edge check applies"],
    )


def test_only_failed_commands_are_probed(tmp_path: Path) -> None:
    """A command that exited 0 imported its module: the probe (which imports it under another
    name than ``__main__``) runs for a failing command only, in a copy of the fixture."""
    probed = tmp_path / "probed"
    source = MARK + (
        f"if __name__ != '__main__':\n    open({str(probed)!r}, 'a').write('probe')\n"
        "elif sys.argv[1] == 'fail':\n    raise SystemExit(3)\n"
    )
    judge, workspace = _module_judge(tmp_path, source)
    assert judge.evaluate(workspace, python=default_python())["progress_level"] == 4
    assert not probed.exists()
    judge.task["commands"][0]["argv"][-1] = "fail"
    verdict = judge.evaluate(workspace, python=default_python())
    assert (verdict["progress_level"], probed.read_text("utf-8")) == (1, "probe")


def test_a_module_exiting_at_import_has_started(tmp_path: Path) -> None:
    judge, workspace = _module_judge(tmp_path, "raise SystemExit(2)\n")
    verdict = judge.evaluate(workspace, python=default_python())
    assert verdict["progress_level"] == 1
    assert verdict["notes"][0].startswith("level 2: python -m solution.app x: exit status 2")


def test_the_import_probe_is_sealed_with_the_judging(tmp_path: Path) -> None:
    if not benchlib.sandbox_status()[0]:
        pytest.skip("bubblewrap cannot run here")
    judge, workspace = _module_judge(tmp_path, "import missing_dependency_xyz\n")
    verdict = judge.evaluate(workspace, python=default_python(), sealed=True)
    assert verdict["progress_level"] == 0
    assert "does not import: ModuleNotFoundError" in verdict["notes"][0]
    judge, workspace = _module_judge(tmp_path / "kept", MARK)
    assert judge.evaluate(workspace, python=default_python(), sealed=True)["progress_level"] == 4


BROKEN = (
    "import sys\n"
    "if __name__ != '__main__':\n"
    "    with open({probed!r}, 'a') as f:\n"
    "        f.write(sys.argv[1] + '\\n')\n"
    "if sys.argv[1] == 'slow':\n"
    "    import time\n"
    "    time.sleep(120)\n"
    "raise ImportError('broken ' + sys.argv[1])\n"
)


def _broken_judge(tmp_path: Path, runs: list[str], probed: str) -> tuple[benchlib.Judge, Path]:
    """A judge of the ``python -m solution.app ARG`` commands ``runs`` (timeout 2 s) whose
    module never imports; each import probe appends its ARG to the file ``probed``."""
    judge, workspace = _module_judge(tmp_path, BROKEN.format(probed=probed))
    template = judge.task["commands"][0]
    judge.task["commands"] = [
        template
        | {"run": f"python -m solution.app {arg}", "argv": ["python", "-m", "solution.app", arg]}
        | {"timeout": 2.0}
        for arg in runs
    ]
    return judge, workspace


def _broken_notes(runs: list[str]) -> list[str]:
    return [
        f"level 1: python -m solution.app {arg}: the module does not import: "
        f"ImportError: broken {arg}"
        for arg in runs
    ]


def test_identical_import_probes_run_once(tmp_path: Path) -> None:
    """Commands with the same probe (module, arguments, folder) share its answer; every
    failed command still gets its own note, in order."""
    runs = ["a", "b", "a", "a"]
    probed = tmp_path / "probed"
    judge, workspace = _broken_judge(tmp_path, runs, str(probed))
    verdict = judge.evaluate(workspace, python=default_python())
    assert verdict["progress_level"] == 0
    assert verdict["notes"] == _broken_notes(runs)
    assert probed.read_text("utf-8").split() == ["a", "b"]


def _real_python() -> str:
    """The interpreter ``default_python()`` runs (a sealed pod binds only that one)."""
    code = "import os, sys; print(os.path.realpath(sys.executable))"
    return subprocess.run(
        [default_python(), "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_sealed_import_probes_share_one_pod(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sealed, the distinct probes of a judging run in one pod; a probe that times out (its
    module counts as importing) does not keep the later ones from running."""
    if not benchlib.sandbox_status()[0]:
        pytest.skip("bubblewrap cannot run here")
    pods: list[int] = []
    run_pod = benchlib.run_pod

    def counting(*args: Any, **kwargs: Any) -> benchlib.PodOutcome:
        if any(benchlib.IMPORT_PROBE in c.argv for c in kwargs["commands"]):
            pods.append(len(kwargs["commands"]))
        return run_pod(*args, **kwargs)

    monkeypatch.setattr(benchlib, "run_pod", counting)
    runs = ["a", "b", "a", "c"]
    judge, workspace = _broken_judge(tmp_path, runs, "probed")
    verdict = judge.evaluate(workspace, python=_real_python(), sealed=True)
    assert (verdict["progress_level"], verdict["notes"]) == (0, _broken_notes(runs))
    assert pods == [3]

    pods.clear()
    runs = ["a", "slow", "b"]
    judge, workspace = _broken_judge(tmp_path / "slow", runs, "probed")
    verdict = judge.evaluate(workspace, python=_real_python(), sealed=True)
    assert verdict["notes"][:2] == _broken_notes(["a", "b"])
    assert pods == [3, 1]


def test_the_sealed_import_probe_reads_the_inputs_read_only(tmp_path: Path) -> None:
    """The probe's pod binds the fixture's input folders as the commands' pod does: readable,
    never writable."""
    if not benchlib.sandbox_status()[0]:
        pytest.skip("bubblewrap cannot run here")
    source = (
        "text = open('inputs/data.txt').read().strip()\n"
        "try:\n"
        "    open('inputs/new.txt', 'w')\n"
        "    wrote = 'wrote'\n"
        "except OSError as exc:\n"
        "    wrote = f'errno {exc.errno}'\n"
        "raise ImportError(f'saw {text}, {wrote}')\n"
    )
    judge, workspace = _module_judge(tmp_path, source)
    seed = SEED + "pathlib.Path(parser.parse_args().out, 'inputs', 'data.txt').write_text('ok')\n"
    (judge.task_dir / "seed.py").write_text(seed, "utf-8")
    cache = tmp_path / "cache"
    verdict = judge.evaluate(workspace, python=_real_python(), sealed=True, cache=cache)
    assert verdict["notes"] == [
        "level 1: python -m solution.app x: the module does not import: "
        "ImportError: saw ok, errno 30"
    ]
    assert sorted(p.name for p in (cache / "main" / "inputs").iterdir()) == ["data.txt"]
