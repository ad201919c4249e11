"""Notice letters to applicants (draft: not wired into the command line yet)."""

import string
from pathlib import Path

TEMPLATE = Path(__file__).parent / "templates" / "notice.txt"


def render(app, checks):
    """A notice for ``app`` listing the result of every check (``checks``: name -> bool)."""
    checklist = "\n".join(
        f"  [{'x' if passed else ' '}] {name}" for name, passed in sorted(checks.items())
    )
    template = string.Template(TEMPLATE.read_text(encoding="utf-8"))
    return template.substitute(app, checklist=checklist)
