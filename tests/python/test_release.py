"""The release files: ``scripts/build-wheels`` builds the manylinux2014 wheel and the sdist,
checks their tags, symbol versions and file lists, installs the wheel (and compiles the
sdist) in fresh virtual environments and runs kibitz there; this test runs it and checks
the sizes docs/wheels.md states against what it built.

Marked ``packaging`` (minutes, and it fetches maturin, zig and auditwheel from PyPI): run
with ``--runpackaging``; CI does, after the test command.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The sdist holds what compiling needs (about 0.69 MB); 2 MB leaves room to grow and still
# catches a data directory slipping back in (the self-play data alone is tens of MB).
SDIST_LIMIT = 2_000_000
# docs/wheels.md rounds the sizes it states; a build may differ from it by this share.
SIZE_TOLERANCE = 0.10


def stated_size(text: str, what: str) -> float:
    """The size docs/wheels.md states for ``what`` ("wheel" or "sdist"), in bytes."""
    if what == "wheel":
        match = re.search(r"\(about ([\d.]+) (MB|KB);", text)
    else:
        match = re.search(r"its sdist about ([\d.]+) (MB|KB)\)", text)
    assert match, f"docs/wheels.md states no {what} size"
    return float(match.group(1)) * (1e6 if match.group(2) == "MB" else 1e3)


@pytest.mark.packaging
def test_build_wheels_passes_and_the_docs_state_the_sizes() -> None:
    result = subprocess.run(
        [str(ROOT / "scripts" / "build-wheels")], cwd=ROOT, capture_output=True, text=True, timeout=3600
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    sizes = re.search(r"ok: sdist size (\d+) bytes, wheel size (\d+) bytes", result.stdout)
    assert sizes, result.stdout[-4000:]
    sdist, wheel = int(sizes.group(1)), int(sizes.group(2))
    assert sdist < SDIST_LIMIT
    docs = (ROOT / "docs" / "wheels.md").read_text(encoding="utf-8")
    for what, built in (("wheel", wheel), ("sdist", sdist)):
        stated = stated_size(docs, what)
        assert abs(built - stated) <= SIZE_TOLERANCE * stated, f"{what}: built {built} bytes, docs say {stated:.0f}"
    # The wheel and sdist were checked by the script; what it installed answered perft and a search.
    for line in ("ok: kibitz perft 5: 4865609 nodes", "ok: Engine.search: d1d8, mate in 1"):
        assert line in result.stdout
