"""What a PGN ``Variant`` tag says about the rules of its game: whether it names Chess960.

One answer for every part of the package that reads tags after the fact (the report, the
book builder): the names python-chess's ``Headers.is_chess960`` takes ("chess960",
"chess 960", "fischerandom" as Cute Chess writes it, "fischerrandom", "fischer random")
and "fischer random chess", in any case and with any spacing, hyphens or underscores
between the words ("Chess-960", "Fischer_Random"). The crate's PGN reader (behind
``read_games``, ``analyse`` and the book builder) reads the same names the same way.
"""

from __future__ import annotations

import re

__all__ = ["CHESS960_NAMES", "is_chess960"]

# The names, lower case and with the separators taken out (see ``_key``).
CHESS960_NAMES = frozenset({"chess960", "fischerandom", "fischerrandom", "fischerrandomchess"})

_SEPARATORS = re.compile(r"[\s_-]+")


def _key(name: str) -> str:
    return _SEPARATORS.sub("", name).lower()


def is_chess960(variant: object) -> bool:
    """Whether a ``Variant`` tag's value names Chess960 (``None`` or a non-string: no)."""
    return isinstance(variant, str) and _key(variant) in CHESS960_NAMES
