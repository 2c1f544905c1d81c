"""Board subclasses that override the methods python-chess builds its other methods on,
each written once for either library (``make(kibitz)`` or ``make(chess)``): what
tests/python/test_subclass_hooks.py compares answer for answer and
benches/subclass_speed.py times."""

from __future__ import annotations

from typing import Any, Callable, Dict


def _king_capture(lib: Any) -> type:
    """Check is ignored: any pseudo-legal move may be played, a king may be taken, and the
    side whose king is gone has lost (a variant end of the subclass's own)."""

    class KingCapture(lib.Board):  # type: ignore[misc, name-defined]
        def checkers_mask(self) -> int:
            return 0

        def is_into_check(self, move: Any) -> bool:
            return False

        def was_into_check(self) -> bool:
            return False

        def generate_legal_moves(self, from_mask: int = lib.BB_ALL, to_mask: int = lib.BB_ALL) -> Any:
            if self.is_variant_end():
                return iter(())
            return iter(list(super().generate_pseudo_legal_moves(from_mask, to_mask)))

        def is_variant_end(self) -> bool:
            return not (self.kings & self.occupied_co[lib.WHITE] and self.kings & self.occupied_co[lib.BLACK])

        def is_variant_win(self) -> bool:
            return bool(self.is_variant_end() and self.kings & self.occupied_co[self.turn])

        def is_variant_loss(self) -> bool:
            return bool(self.is_variant_end() and not self.kings & self.occupied_co[self.turn])

    return KingCapture


def _no_captures(lib: Any) -> type:
    """Captures are banned (python-chess's other methods see it through
    ``generate_legal_moves``; ``is_legal`` is overridden to agree)."""

    class NoCaptures(lib.Board):  # type: ignore[misc, name-defined]
        def generate_legal_moves(self, from_mask: int = lib.BB_ALL, to_mask: int = lib.BB_ALL) -> Any:
            return (m for m in super().generate_legal_moves(from_mask, to_mask) if not self.is_capture(m))

        def is_legal(self, move: Any) -> bool:
            return bool(super().is_legal(move) and not self.is_capture(move))

    return NoCaptures


def _queen_loss(lib: Any) -> type:
    """A side that has lost its queen has lost the game; twenty quiet plies draw; a lone
    king is never insufficient material for White."""

    class QueenLoss(lib.Board):  # type: ignore[misc, name-defined]
        def is_variant_end(self) -> bool:
            return self.is_variant_loss() or self.is_variant_draw()

        def is_variant_loss(self) -> bool:
            return not self.queens & self.occupied_co[self.turn]

        def is_variant_draw(self) -> bool:
            return self.halfmove_clock >= 20

        def has_insufficient_material(self, color: Any) -> bool:
            return bool(color != lib.WHITE and super().has_insufficient_material(color))

    return QueenLoss


def _no_knights(lib: Any) -> type:
    """Knights do not move (the pseudo-legal moves leave them out; the legal moves follow)."""

    class NoKnights(lib.Board):  # type: ignore[misc, name-defined]
        def generate_pseudo_legal_moves(self, from_mask: int = lib.BB_ALL, to_mask: int = lib.BB_ALL) -> Any:
            return super().generate_pseudo_legal_moves(from_mask & ~self.knights, to_mask)

    return NoKnights


VARIANTS: Dict[str, Callable[[Any], type]] = {
    "king_capture": _king_capture,
    "no_captures": _no_captures,
    "queen_loss": _queen_loss,
    "no_knights": _no_knights,
}
