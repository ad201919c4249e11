"""Hand-written seed.py stand-ins for judges built in a test, without a task.toml."""

SEED_ARGS = """\
import argparse, pathlib
parser = argparse.ArgumentParser()
for flag in ("--out", "--fixture", "--stage"):
    parser.add_argument(flag)
parser.add_argument("--only", action="store_true")
args = parser.parse_args()
"""
"""The command line every seed.py takes, parsed into ``args`` (the rest is the test's)."""
