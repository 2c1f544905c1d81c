"""King of the Hill (python-chess's ``chess.variant.KingOfTheHillBoard``)."""

from __future__ import annotations


from kibitz import _bitboards as bb
from kibitz.variant._shared import EndsByRule, NoTables


# ---------------------------------------------------------------- King of the Hill


class KingOfTheHillBoard(NoTables, EndsByRule):
    """King of the Hill: a king that reaches d4, e4, d5 or e5 wins."""

    aliases = ["King of the Hill", "KOTH", "kingOfTheHill"]
    uci_variant = "kingofthehill"
    xboard_variant = "kingofthehill"

    def _on_hill(self, color: bool) -> bool:
        return bool(self.kings & self.occupied_co[color] & bb.BB_CENTER)

    def is_variant_end(self) -> bool:
        return bool(self.kings & bb.BB_CENTER)

    def is_variant_win(self) -> bool:
        return self._on_hill(self.turn)

    def is_variant_loss(self) -> bool:
        return self._on_hill(not self.turn)

    def has_insufficient_material(self, color: bool) -> bool:
        # A lone king can still walk to the hill.
        return False
