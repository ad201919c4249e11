"""The shipped runtime files are their parts, joined: small parts, one assembled module each."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from benchsmith import assembly

PART_LIMIT = 800


@pytest.mark.parametrize("name", assembly.RUNTIME_FILES)
def test_the_committed_runtime_file_is_the_assembly_of_its_parts(name: str) -> None:
    committed = (assembly.TARGET_DIR / f"{name}.py").read_text(encoding="utf-8")
    assert committed == assembly.assemble(name), (
        f"sdk/benchsmith/runtime/{name}.py differs from sdk/runtime/{name}/: edit the parts, "
        "then run make runtime"
    )
    assert assembly.stale() == []


@pytest.mark.parametrize("name", assembly.RUNTIME_FILES)
def test_every_part_is_small_and_parses_alone(name: str) -> None:
    found = assembly.parts(name)
    assert len(found) >= 5
    for part in found:
        text = part.read_text(encoding="utf-8")
        assert text.count("\n") <= PART_LIMIT, f"{part.name}: split it (at most {PART_LIMIT} lines)"
        ast.parse(text, str(part))  # a part ends between top-level statements


def test_a_part_edited_without_assembling_is_reported(tmp_path: Path) -> None:
    parts, target = tmp_path / "parts", tmp_path / "target"
    shutil.copytree(assembly.PARTS_ROOT, parts)
    target.mkdir()
    for name in assembly.RUNTIME_FILES:
        (target / f"{name}.py").write_text(assembly.assemble(name, parts), encoding="utf-8")
    assert assembly.stale(parts, target) == []
    last = assembly.parts("run", parts)[-1]
    last.write_text(last.read_text(encoding="utf-8") + "\nEXTRA = 1\n", encoding="utf-8")
    assert assembly.stale(parts, target) == ["run"]
    assert assembly.assemble("run", parts).endswith("\n\nEXTRA = 1\n")


def test_parts_join_two_blank_lines_apart_in_order(tmp_path: Path) -> None:
    (tmp_path / "mod").mkdir()
    (tmp_path / "mod" / "02_b.py").write_text("\n\nB = A + 1\n\n", encoding="utf-8")
    (tmp_path / "mod" / "01_a.py").write_text('"""Doc."""\n\nA = 1\n', encoding="utf-8")
    (tmp_path / "mod" / "notes.txt").write_text("not a part", encoding="utf-8")
    text = assembly.assemble("mod", tmp_path)
    assert text == '"""Doc."""\n\nA = 1\n\n\nB = A + 1\n'
    namespace: dict[str, object] = {}
    exec(compile(text, "mod.py", "exec"), namespace)
    assert namespace["B"] == 2
    with pytest.raises(FileNotFoundError):
        assembly.assemble("absent", tmp_path)
