"""The images of an exported Harbor task: one description, two renderings.

An :class:`Image` says what the agent's (or the verifier's) container holds. It is written
twice into the export: as the ``Dockerfile`` that Docker, Daytona, Modal, ... build, and as
``sandbox.json``, the recipe the offline bubblewrap environment (:mod:`harbor_sandbox`)
follows on machines without a container engine. Both come from the same object, so they
cannot drift apart.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import asdict, dataclass

# python:3.12-slim (Debian), pinned by the digest of its multi-architecture image index, as
# published on Docker Hub and used in several public Dockerfiles. It was not pulled here (no
# container engine where benchsmith is developed): refresh it with
# `docker buildx imagetools inspect python:3.12-slim` when bumping.
BASE_IMAGE = (
    "python:3.12-slim@sha256:78387bc3881b8273120a12ebe6c1ab22b018ccc2c9adf565ae1ac9b536e184ea"
)
RECIPE_FORMAT = "benchsmith-sandbox/1"
BUILD_STAGE = "workspace"


@dataclass(frozen=True, slots=True)
class Image:
    """What a container image holds, in build order.

    Attributes:
        workdir: The working directory (the workspace in the agent's image).
        users: Non-root users to create, as ``(name, uid)``.
        workspace: Build-context folder whose ``materialize.py OUT`` writes the workspace;
            it runs in a throw-away build stage and only its output reaches ``workdir``.
        copies: ``(context path, image path)`` pairs copied in, owned by root.
        owner: The user that owns ``owned`` and ``owned_trees``.
        owned: Image folders given to ``owner`` (not recursively).
        owned_trees: Image paths given to ``owner`` with everything below them (skipped when
            missing).
        runs: Commands (argv) run as root once everything is in place.
        entrypoint: The image's ENTRYPOINT (argv), or empty.
    """

    workdir: str
    users: tuple[tuple[str, int], ...] = ()
    workspace: str | None = None
    copies: tuple[tuple[str, str], ...] = ()
    owner: str | None = None
    owned: tuple[str, ...] = ()
    owned_trees: tuple[str, ...] = ()
    runs: tuple[tuple[str, ...], ...] = ()
    entrypoint: tuple[str, ...] = ()


def recipe(image: Image) -> str:
    """The ``sandbox.json`` text of ``image`` (sorted keys, one trailing newline)."""
    data = {"format": RECIPE_FORMAT, **asdict(image)}
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _exec_form(argv: tuple[str, ...] | list[str]) -> str:
    return json.dumps(list(argv), ensure_ascii=False)


def _ownership(image: Image) -> str:
    owner = f"{image.owner}:{image.owner}"
    parts = [f"chown {owner} {' '.join(shlex.quote(p) for p in image.owned)}"]
    parts += [
        f"{{ [ ! -e {shlex.quote(p)} ] || chown -R {owner} {shlex.quote(p)}; }}"
        for p in image.owned_trees
    ]
    return " && ".join(parts)


def dockerfile(image: Image, header: tuple[str, ...]) -> str:
    """The Dockerfile that builds ``image`` on :data:`BASE_IMAGE`.

    Args:
        image: What the image holds.
        header: Comment lines written first.
    """
    lines = [f"# {line}" if line else "#" for line in header]
    if image.workspace is not None:
        lines += [
            "",
            "# Build stage: materialize the workspace; nothing of it but the result is kept.",
            f"FROM {BASE_IMAGE} AS {BUILD_STAGE}",
            f"COPY {image.workspace}/ /build/",
            f"RUN {_exec_form(['python3', '/build/materialize.py', '/workspace'])}",
        ]
    lines += ["", f"FROM {BASE_IMAGE}"]
    for name, uid in image.users:
        argv = ["useradd", "--create-home", "--uid", str(uid), "--shell", "/bin/bash", name]
        lines.append(f"RUN {_exec_form(argv)}")
    if image.workspace is not None:
        lines.append(f"COPY --from={BUILD_STAGE} /workspace/ {image.workdir}/")
    lines += [f"COPY {source} {target}" for source, target in image.copies]
    if image.owner is not None and image.owned:
        lines.append(f"RUN {_ownership(image)}")
    lines += [f"RUN {_exec_form(argv)}" for argv in image.runs]
    lines.append(f"WORKDIR {image.workdir}")
    if image.entrypoint:
        lines.append(f"ENTRYPOINT {_exec_form(image.entrypoint)}")
    return "\n".join(lines) + "\n"
