"""The runtime files the corpus ships, assembled from their parts.

``benchlib.py`` and ``run.py`` ship as one file each (a corpus holds one benchlib.py, the
bundle one run.py), but are written as parts of at most a few hundred lines under
``sdk/runtime/<name>/NN_part.py`` in the repository. A part is a slice of the one module's
namespace -- it uses names that earlier parts define -- so joining the parts in order, two
blank lines apart, gives the module: ``sdk/benchsmith/runtime/<name>.py``, which the SDK
imports and ``benchsmith build`` copies into each corpus. Its header (part 01's docstring)
names the parts.

``python -m benchsmith.assembly`` writes the assembled files; ``--check`` only says which
differ from their parts (a test runs it). The parts exist only in a source checkout; an
installed benchsmith carries the assembled files alone.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

RUNTIME_FILES = ("benchlib", "run")
PARTS_ROOT = Path(__file__).resolve().parents[1] / "runtime"
TARGET_DIR = Path(__file__).resolve().parent / "runtime"
SEPARATOR = "\n\n"


def parts(name: str, root: Path = PARTS_ROOT) -> list[Path]:
    """The parts of runtime file ``name``, in order (``NN_*.py``)."""
    return sorted(p for p in (root / name).glob("[0-9][0-9]_*.py") if p.is_file())


def assemble(name: str, root: Path = PARTS_ROOT) -> str:
    """The text of runtime file ``name``: its parts joined in order, two blank lines apart.

    Raises:
        FileNotFoundError: When ``name`` has no parts under ``root`` (not a source checkout).
    """
    found = parts(name, root)
    if not found:
        raise FileNotFoundError(f"no parts of {name}.py under {root / name}")
    texts = [p.read_text(encoding="utf-8").strip("\n") + "\n" for p in found]
    return SEPARATOR.join(texts)


def stale(root: Path = PARTS_ROOT, target: Path = TARGET_DIR) -> list[str]:
    """The runtime files whose text in ``target`` is not the assembly of their parts."""
    return [name for name in RUNTIME_FILES if _read(target / f"{name}.py") != assemble(name, root)]


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def main(argv: list[str] | None = None) -> int:
    """Command line: write the assembled runtime files (``--check``: only report stale ones)."""
    parser = argparse.ArgumentParser(
        prog="python -m benchsmith.assembly",
        description="Assemble sdk/benchsmith/runtime/{benchlib,run}.py from sdk/runtime/*/.",
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    try:
        behind = stale()
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name in behind:
        if args.check:
            print(f"stale: sdk/benchsmith/runtime/{name}.py (run: make runtime)", file=sys.stderr)
        else:
            (TARGET_DIR / f"{name}.py").write_text(assemble(name), encoding="utf-8")
            print(f"assembled sdk/benchsmith/runtime/{name}.py")
    return 1 if args.check and behind else 0


if __name__ == "__main__":
    sys.exit(main())
