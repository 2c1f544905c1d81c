"""The UCI engine: the protocol loop (``protocol``), its options (``options``) and the
strength levels of ``UCI_LimitStrength`` (``strength``). Time allocation is the engine's
(Rust, ``engine::timeman``): the loop passes the clock of ``go`` to ``Engine.search``.

``run_uci()`` runs a session on stdin/stdout; ``UciEngine`` is one session, usable in
process (tests drive it with lines and read what it writes).
"""

from kibitz.uci.protocol import GO_INT_PARAMS, UciEngine, format_info, run_uci

__all__ = ["GO_INT_PARAMS", "UciEngine", "format_info", "run_uci"]
