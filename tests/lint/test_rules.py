"""Each lint rule fires, located, on a task crafted to break it (and not on the examples)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from benchsmith.building import build
from benchsmith.corpus import read_settings
from benchsmith.diagnostics import Diagnostic, Severity
from benchsmith.errors import BenchsmithError
from benchsmith.linting import lint_paths
from tests.conftest import EXAMPLES, MINIMAL_TASK, lock


def codes(found: list[Diagnostic], severity: Severity | None = Severity.ERROR) -> list[str]:
    return sorted(d.code for d in found if severity is None or d.severity is severity)


def built(make_task: Callable[..., Path], toml: str = MINIMAL_TASK, **kwargs: object) -> Path:
    task = make_task(toml, **kwargs)
    build([task])
    return lock(task)


def test_examples_have_no_findings() -> None:
    assert lint_paths([EXAMPLES]) == []


def test_minimal_task_has_only_warnings(make_task: Callable[..., Path]) -> None:
    found = lint_paths([built(make_task)])
    assert codes(found) == []
    assert set(codes(found, None)) == {"BS901", "BS902"}


def test_pressure_profile(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK.replace('pressure = "N"', 'pressure = "M"\ntimeout_seconds = 600')
    text += '\n[[stages]]\nid = "one"\ncompact_after = false\n'
    found = lint_paths([built(make_task, text)])
    assert codes(found) == ["BS201", "BS202", "BS203"]
    by_code = {d.code: d for d in found}
    assert (by_code["BS201"].line, by_code["BS201"].col) == (5, 1)
    assert "1200" in by_code["BS201"].message


def test_folder_name(make_task: Callable[..., Path]) -> None:
    found = lint_paths([built(make_task, dirname="08-wrong-name")])
    assert "BS105" in codes(found)


def test_duplicate_ids(make_task: Callable[..., Path]) -> None:
    first = built(make_task)
    second = built(
        make_task,
        MINIMAL_TASK.replace('slug = "tiny-task"', 'slug = "other-task"'),
        dirname="07-other-task",
    )
    found = lint_paths([first.parent])
    assert codes(found).count("BS106") == 2
    assert second.exists()


def test_referenced_inputs(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK.replace(
        'prose = "Sum the values of inputs/data.csv."',
        'prose = "Sum inputs/data.csv and inputs/extra.csv."',
    )
    found = [d for d in lint_paths([built(make_task, text)]) if d.code == "BS104"]
    assert [d.message.split(" ")[0] for d in found] == ["inputs/extra.csv"]
    assert (found[0].line, found[0].col) == (6, len('prose = "Sum inputs/data.csv and ') + 1)


def test_stage_files_must_exist_by_their_stage(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK.replace('pressure = "N"', 'pressure = "L"') + (
        '\n[[stages]]\nid = "initial"\n'
        '\n[[stages]]\nid = "more"\nmessage = "Also read inputs/late.csv please."\n'
    )
    task = built(make_task, text)
    assert "BS104" in codes(lint_paths([task]))
    (task / "stages" / "more" / "inputs").mkdir(parents=True)
    (task / "stages" / "more" / "inputs" / "late.csv").write_text("a\n1\n", encoding="utf-8")
    assert "BS104" not in codes(lint_paths([task]))


def test_edge_rule_must_be_stated(make_task: Callable[..., Path]) -> None:
    task = built(make_task)
    (task / "TASK.md").write_text("nothing here\n", encoding="utf-8")
    found = codes(lint_paths([task]))
    assert "BS301" in found and "BS504" in found and "BS501" not in found
    (task / "task.toml").write_text(MINIMAL_TASK.split("[edge]")[0], encoding="utf-8")
    build([task], force=True)
    assert "BS301" in codes(lint_paths([task]))


def test_private_values_must_not_leak(make_task: Callable[..., Path]) -> None:
    prose = "Sum the values of inputs/data.csv; the answer is 4711.25 (release r-2025.1)."
    anchor = (
        '\n[[anchors]]\nname = "big"\nfile = "inputs/data.csv"\n'
        'record = { key = "K900", value = 9 }\n'
        'expect = [{ file = "output/total.json", path = "total", equals = "4711.25" }]\n'
    )
    text = (
        MINIMAL_TASK.replace(
            'prose = "Sum the values of inputs/data.csv."', f'prose = "{prose}"'
        ).replace('title = "Tiny Task"', 'title = "Tiny Task"\nprivate = ["r-2025.1"]')
        + anchor
    )
    task = built(make_task, text, files={"visible/notes.txt": "remember r-2025.1\n"})
    leaks = [d for d in lint_paths([task]) if d.code == "BS302"]
    where = sorted((Path(d.path).name, d.line) for d in leaks)
    assert where == [("TASK.md", 4), ("TASK.md", 4), ("notes.txt", 1)], leaks
    assert any("'4711.25'" in d.message for d in leaks)


def test_a_label_is_no_leak_in_equals_as_it_is_none_in_where(
    make_task: Callable[..., Path],
) -> None:
    """BS302 treats a vocabulary word TASK.md must state (`needs_review`) the same in an
    expectation's `equals` as in its `where`: not a private truth (issue 28)."""
    prose = "Write each key with its status: `ok` or `needs_review`."
    anchor = (
        '\n[[anchors]]\nname = "odd"\nfile = "inputs/data.csv"\n'
        'record = { key = "K900", value = 9 }\n'
        'expect = [{ file = "output/total.json", path = "status", equals = "needs_review" }]\n'
    )
    text = (
        MINIMAL_TASK.replace('prose = "Sum the values of inputs/data.csv."', f'prose = "{prose}"')
        + anchor
    )
    task = built(make_task, text)
    assert [d for d in lint_paths([task]) if d.code == "BS302"] == []


def test_symlinks_must_stay_in_their_shipped_folder(
    make_task: Callable[..., Path], tmp_path: Path
) -> None:
    files = {"visible/inputs/ok.csv": "a\n", "reference/solution/main.py": "print(1)\n"}
    task = built(make_task, files=files)
    outside = tmp_path / "outside.txt"
    outside.write_text("private\n", encoding="utf-8")
    (task / "visible" / "inputs" / "alias.csv").symlink_to("ok.csv")  # stays inside: fine
    (task / "visible" / "secret.txt").symlink_to(outside)
    (task / "visible" / "answers").symlink_to("../reference/solution")
    (task / "stages" / "later").mkdir(parents=True)
    (task / "stages" / "later" / "up.csv").symlink_to("../../visible/inputs/ok.csv")
    found = sorted((Path(d.path).name, d.code) for d in lint_paths([task]) if d.code == "BS304")
    assert found == [("answers", "BS304"), ("secret.txt", "BS304"), ("up.csv", "BS304")]


def test_scenario_schema_and_judge_command(make_task: Callable[..., Path]) -> None:
    task = built(make_task)
    scenario = json.loads((task / "scenario.json").read_text(encoding="utf-8"))
    scenario["judge_command"] = ["python", "judge.py"]
    scenario["extra"] = 1
    (task / "scenario.json").write_text(json.dumps(scenario, indent=2), encoding="utf-8")
    found = [d for d in lint_paths([task]) if d.code in ("BS103", "BS303")]
    assert sorted(d.code for d in found) == ["BS103", "BS303"]
    assert all(d.line > 1 for d in found)


def test_purity_of_task_code(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK + '\n[[files]]\npath = "inputs/more.txt"\ngenerator = "more"\n'
    fixtures = (
        "import time\n\n\ndef more(ctx):\n    ctx.write_text('inputs/more.txt', str(time.time()))\n"
    )
    visible = "import requests\n"
    task = built(
        make_task, text, files={"fixtures.py": fixtures, "visible/solution/helper.py": visible}
    )
    found = lint_paths([task])
    assert {"BS401", "BS402"} <= set(codes(found))
    located = {d.code: (Path(d.path).name, d.line) for d in found if d.code in ("BS401", "BS402")}
    assert located == {"BS401": ("helper.py", 1), "BS402": ("fixtures.py", 5)}


def test_generated_and_corpus_files(make_task: Callable[..., Path]) -> None:
    task = built(make_task)
    (task.parent / "benchlib.py").write_text("# drifted\n", encoding="utf-8")
    index = task.parent / "tasks.json"
    index.write_text(
        index.read_text(encoding="utf-8").replace("Tiny Task", "Old"), encoding="utf-8"
    )
    seed = task / "seed.py"
    seed.write_text(seed.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    (task / "task.toml").write_text(
        MINIMAL_TASK.replace("Sum the values", "Add up the values"), encoding="utf-8"
    )
    found = lint_paths([task])
    assert {"BS501", "BS502", "BS503", "BS504"} <= set(codes(found))
    by_file = {(Path(d.path).name, d.code) for d in found if d.code.startswith("BS50")}
    assert ("seed.py", "BS504") in by_file and ("seed.py", "BS501") not in by_file
    assert ("TASK.md", "BS501") in by_file


def test_build_check_and_lint_give_a_stale_corpus_file_the_same_code(
    make_task: Callable[..., Path],
) -> None:
    task = built(make_task)
    (task.parent / "benchlib.py").write_text("# drifted\n", encoding="utf-8")
    (task.parent / "run.py").unlink()
    index = task.parent / "tasks.json"
    index.write_text(
        index.read_text(encoding="utf-8").replace("Tiny Task", "Old"), encoding="utf-8"
    )
    linted = sorted(
        (Path(d.path).name, d.code) for d in lint_paths([task]) if "BS5" <= d.code < "BS6"
    )
    with pytest.raises(BenchsmithError) as caught:
        build([task], check=True)
    checked = sorted((Path(d.path).name, d.code) for d in caught.value.diagnostics)
    assert (
        checked
        == linted
        == [("benchlib.py", "BS503"), ("run.py", "BS503"), ("tasks.json", "BS502")]
    )


def test_each_stale_file_is_reported_once_at_a_real_line(make_task: Callable[..., Path]) -> None:
    task = built(make_task)
    for name in ("seed.py", "judge.py", "TASK.md", "scenario.json"):
        path = task / name
        lines = path.read_text(encoding="utf-8").splitlines()
        lines[5] = lines[5] + " # edited"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (task / "task.toml").write_text(
        MINIMAL_TASK.replace("Sum the values", "Add up the values"), encoding="utf-8"
    )
    found = [d for d in lint_paths([task]) if d.code in ("BS501", "BS504")]
    per_file: dict[str, list[str]] = {}
    for finding in found:
        per_file.setdefault(Path(finding.path).name, []).append(finding.code)
        assert finding.line >= 1 and finding.col >= 1
    assert all(len(v) == 1 for v in per_file.values()), per_file
    assert {d.line for d in found if Path(d.path).name == "seed.py"} == {6}
    with pytest.raises(BenchsmithError) as caught:
        build([task], check=True)
    assert sorted((Path(d.path).name, d.code) for d in caught.value.diagnostics) == sorted(
        (Path(d.path).name, d.code) for d in found
    )


def test_every_lint_finding_has_a_real_position(make_task: Callable[..., Path]) -> None:
    task = make_task(dirname="nonsense")
    (task / "task.toml").write_text("id = \n", encoding="utf-8")
    other = built(make_task)
    (other / "TASK.md").write_text("nothing\n", encoding="utf-8")
    found = lint_paths([task.parent])
    assert {"BS101", "BS105", "BS301", "BS902"} <= set(codes(found, None))
    assert all(d.line >= 1 and d.col >= 1 for d in found)


def test_class_counts_once_complete(make_task: Callable[..., Path]) -> None:
    task = built(make_task)
    assert "BS601" not in codes(lint_paths([task.parent]))
    (task.parent / "corpus.toml").write_text("complete = true\n", encoding="utf-8")
    found = [d for d in lint_paths([task.parent]) if d.code == "BS601"]
    assert len(found) == 4
    assert any("8 N task(s), this one 1" in d.message for d in found)


def test_task_can_ignore_a_rule(make_task: Callable[..., Path]) -> None:
    text = (
        MINIMAL_TASK.replace('pressure = "N"', 'pressure = "N"\ntimeout_seconds = 60')
        + '\n[lint]\nignore = ["BS201"]\n'
    )
    assert "BS201" not in codes(lint_paths([built(make_task, text)]))


def test_usage_error_for_unknown_path(tmp_path: Path) -> None:
    from benchsmith.errors import UsageError

    with pytest.raises(UsageError):
        lint_paths([tmp_path / "missing"])


FIXTURES_LOGS = 'def logs(ctx):\n    ctx.write_text("inputs/logs/app/one.log", "x\\n")\n'


def test_inputs_named_in_requirements_and_generator_folders(make_task: Callable[..., Path]) -> None:
    text = (
        MINIMAL_TASK.replace(
            'prose = "Sum the values of inputs/data.csv."',
            'prose = "Read inputs/logs/app/one.log."\n'
            'requirements = ["Also read inputs/missing.csv."]',
        )
        + '\n[[files]]\npath = "inputs/logs"\ngenerator = "logs"\n'
    )
    task = built(make_task, text, files={"fixtures.py": FIXTURES_LOGS})
    found = [d for d in lint_paths([task]) if d.code == "BS104"]
    assert [d.message.split(" ")[0] for d in found] == ["inputs/missing.csv"]


def test_stdin_must_exist_in_both_fixtures(make_task: Callable[..., Path]) -> None:
    text = MINIMAL_TASK.replace(
        'command = "python -m solution.main inputs/data.csv --output output"\n', ""
    ).replace(
        "[[outputs]]",
        '[[commands]]\nrun = "python -m solution.main"\nstdin = "inputs/data.csv"\n\n[[outputs]]',
    )
    task = built(make_task, text)
    found = [d for d in lint_paths([task]) if d.code == "BS104"]
    assert [d.message for d in found] == [
        "stdin file inputs/data.csv is not part of the edge fixture"
    ]


WITNESS = """\
diff -ruN a/solution/main.py b/solution/main.py
--- a/solution/main.py
+++ b/solution/main.py
@@ -1,2 +1,2 @@
 # TODO in the reference's own code is not a placeholder of the witness
-total = 1
+total = 2  # TODO: also fine, it is code
"""


def test_placeholder_witness_patches_are_warnings(make_task: Callable[..., Path]) -> None:
    task = built(make_task, files={"reference/solution/main.py": "x = 1\n"})
    (task / "witnesses").mkdir()
    (task / "witnesses" / "level3.patch").write_text("TODO: break a rule\n", encoding="utf-8")
    (task / "witnesses" / "level4.patch").write_text(WITNESS, encoding="utf-8")
    found = [d for d in lint_paths([task]) if "witnesses" in d.path]
    assert {(Path(d.path).name, d.code, d.line) for d in found} == {
        ("level3.patch", "BS901", 1),
        ("level3.patch", "BS902", 1),
    }
    assert all(d.severity is Severity.WARNING for d in found)


def test_the_corpus_declares_itself_and_bs601_follows_it(tmp_path: Path) -> None:
    corpus = Path(__file__).resolve().parents[2] / "tasks"
    settings = read_settings(corpus)
    assert (corpus / "corpus.toml").is_file() and not settings.complete
    assert dict(settings.counts) == {"N": 8, "L": 10, "M": 8, "H": 4}
    assert "BS601" not in codes(lint_paths([corpus], select=frozenset({"BS601"})))
    copy = tmp_path / "tasks"
    shutil.copytree(corpus, copy)
    toml = copy / "corpus.toml"
    toml.write_text(toml.read_text().replace("complete = false", "complete = true"))
    found = [d for d in lint_paths([copy], select=frozenset({"BS601"})) if d.code == "BS601"]
    assert found and all(d.path.endswith("corpus.toml") for d in found)
