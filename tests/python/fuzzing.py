"""How long the fuzz tests run: briefly by default (CI), long with ``KIBITZ_FUZZ_LONG=1``
(or ``--runslow``), where every fuzzer runs ``LONG_FACTOR`` times its examples.

    KIBITZ_FUZZ_LONG=1 python -m pytest tests/python -k "fuzz or arbitrary or mutated or same_as"
"""

from __future__ import annotations

import os
import sys

LONG = os.environ.get("KIBITZ_FUZZ_LONG") == "1" or "--runslow" in sys.argv
LONG_FACTOR = 50


def examples(n: int) -> int:
    """The number of hypothesis examples for a fuzzer that runs ``n`` by default."""
    return n * LONG_FACTOR if LONG else n
