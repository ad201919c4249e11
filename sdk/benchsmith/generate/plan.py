"""The render plan: what each generated file of a task contains (pure; no IO).

:func:`plan_task` maps a :class:`~benchsmith.dsl.model.TaskSpec` (plus the judge's authored region,
read beforehand) to :class:`Rendered` files. Python output is formatted later, in one batched
ruff call per build.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from benchsmith.dsl.model import SCENARIO_SCHEMA, Command, TaskSpec, thaw
from benchsmith.generate import env

JUDGE_COMMAND = ("python", "judge.py", "--workspace", "{workspace}")
PLACEHOLDER_CHECKS = '''\
@judge.check(level=3)
def core_transformation(run: benchlib.Run) -> None:
    """TODO: the core transformation is substantially correct."""
    benchlib.expect(False, "TODO: write the level-3 checks of this task")


@judge.check(level=4)
def stated_rules(run: benchlib.Run) -> None:
    """TODO: every stated business rule holds on the main fixture."""
    benchlib.expect(False, "TODO: write the level-4 checks of this task")


@judge.edge
def edge_rule(run: benchlib.Run) -> None:
    """TODO: the edge rule holds on the edge fixture."""
    benchlib.expect(False, "TODO: write the edge check of this task")
'''


@dataclass(frozen=True, slots=True)
class Rendered:
    """One generated file.

    Attributes:
        name: Path relative to the task folder.
        content: Full text (Python, by its ``.py`` name, is formatted later by ruff).
    """

    name: str
    content: str


def seed_data(spec: TaskSpec) -> dict[str, Any]:
    """The data seed.py embeds: files, edge files, stages and anchor records."""
    edge_files = spec.edge.files if spec.edge else ()
    return {
        "id": spec.id,
        "seed": spec.seed,
        "stages": [s.id for s in spec.stages],
        "files": [f.to_runtime(spec.anchors) for f in spec.files],
        "edge_files": [f.to_runtime() for f in edge_files],
        "anchors": {a.name: thaw(a.records) for a in spec.anchors},
    }


def judge_data(spec: TaskSpec) -> dict[str, Any]:
    """The data judge.py embeds: commands, outputs and the private expectations."""
    first = spec.stages[0].id
    return {
        "id": spec.id,
        "slug": spec.slug,
        "stages": [s.id for s in spec.stages],
        "editable": list(spec.editable),
        "commands": [c.to_runtime() for c in spec.commands],
        "outputs": [o.to_runtime() for o in spec.outputs],
        "expect": [e.to_runtime(first) for a in spec.anchors for e in a.expect],
        "edge_expect": [e.to_runtime(first) for e in (spec.edge.expect if spec.edge else ())],
        "edge_include_visible": spec.edge.include_visible if spec.edge else True,
        "services": [s.to_runtime() for s in spec.services],
    }


def scenario(spec: TaskSpec) -> dict[str, Any]:
    """scenario.json, exactly the spec's v1 shape (section 3.2)."""
    return {
        "schema": SCENARIO_SCHEMA,
        "id": spec.id,
        "slug": spec.slug,
        "title": spec.title,
        "pressure": spec.pressure,
        "timeout_seconds": spec.timeout_seconds,
        "editable_paths": list(spec.editable),
        "initial_prompt": spec.stages[0].message,
        "stages": [
            {
                "id": stage.id,
                "inject": stage.inject(number),
                "message": stage.message,
                "compact_after": stage.compact_after,
            }
            for number, stage in enumerate(spec.stages, start=1)
        ],
        "judge_command": list(JUDGE_COMMAND),
    }


def index_entry(spec: TaskSpec) -> dict[str, Any]:
    """The task's row in the corpus index tasks.json."""
    return {
        "id": spec.id,
        "slug": spec.slug,
        "title": spec.title,
        "pressure": spec.pressure,
        "stages": len(spec.stages),
        "timeout_seconds": spec.timeout_seconds,
        "path": spec.dirname,
    }


def json_document(value: Any) -> str:
    """Deterministic JSON text: two-space indent, UTF-8 kept, trailing newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def task_markdown(spec: TaskSpec) -> str:
    """TASK.md: prose, requirements, first-stage commands and outputs, the edge rule."""
    first = spec.stages[0].id
    editable = ", ".join(f"`{p}`" for p in spec.editable)
    return env.render(
        "TASK.md.j2",
        header=env.GENERATED_HEADER,
        task=spec,
        commands=_shown_commands(spec, first),
        outputs=[o for o in spec.outputs if o.stage == first],
        editable=editable,
    )


def _shown_commands(spec: TaskSpec, stage: str) -> list[Command]:
    """The commands TASK.md lists for ``stage``: the candidate's programs (serve steps
    included, a restarted server once), never the judge's http and stop steps."""
    shown: list[Command] = []
    served: set[tuple[str, str]] = set()
    for command in spec.commands:
        if command.stage != stage or not command.runs_program:
            continue
        if command.kind == "serve" and (command.run, command.cwd) in served:
            continue
        served.update([(command.run, command.cwd)] if command.kind == "serve" else [])
        shown.append(command)
    return shown


def judge_source(spec: TaskSpec, authored: str | None) -> str:
    """judge.py with ``authored`` (the kept region) or the placeholder checks."""
    return env.render(
        "judge.py.j2",
        header=env.JUDGE_HEADER,
        task=spec,
        judge_data=judge_data(spec),
        region_start=env.REGION_START,
        region_end=env.REGION_END,
        authored=(authored if authored is not None else PLACEHOLDER_CHECKS).strip("\n"),
    )


def plan_task(spec: TaskSpec, authored: str | None) -> list[Rendered]:
    """Every generated file of one task, in a fixed order."""
    seed = env.render(
        "seed.py.j2", header=env.GENERATED_HEADER, task=spec, seed_data=seed_data(spec)
    )
    return [
        Rendered("seed.py", seed),
        Rendered("judge.py", judge_source(spec, authored)),
        Rendered("TASK.md", task_markdown(spec)),
        Rendered("scenario.json", json_document(scenario(spec))),
    ]
