"""The advice of BS403 and BS404 works: following it in fixtures.py clears the finding."""

from __future__ import annotations

import pytest

from benchsmith.linting.purity import check_determinism, check_imports

BROKEN = {
    "BS404": (
        "    value = random.choice(['a', 'b'])\n",
        "    value = ctx.rng.choice(['a', 'b'])\n",
    ),
    "BS403": ("    value = os.urandom(4)\n", "    value = ctx.rng.randbytes(4)\n"),
}
MODULE = (
    "import os\nimport random\n\nimport benchlib\n\n\n"
    "def data(ctx: benchlib.SeedContext) -> None:\n{body}"
)


@pytest.mark.parametrize("code", sorted(BROKEN))
def test_following_the_advice_clears_the_finding(code: str) -> None:
    broken, fixed = BROKEN[code]
    [found] = check_determinism("fixtures.py", MODULE.format(body=broken))
    assert found.code == code
    assert "ctx.rng" in found.message
    assert check_determinism("fixtures.py", MODULE.format(body=fixed)) == []


def test_bs401_advice_never_suggests_vendoring() -> None:
    [found] = check_imports("fixtures.py", "import faker\n")
    assert "vendor" not in found.message.replace("vendored", "")
    assert "standard library" in found.message
