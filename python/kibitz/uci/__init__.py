"""The UCI engine: the protocol loop (``protocol``: reading commands and acting on them),
the search worker (``worker``: one ``go``, from the book probe to ``bestmove``), ``go``'s
parameters and clock (``go``), the ``info`` line (``info``), the options with what setting
each does (``options``), the strength levels of ``UCI_LimitStrength`` (``strength``) and
what the loop needs of an engine (``engine_like``). Time allocation is the time manager's
(``kibitz.timeman``): the loop passes the clock of ``go`` to ``Engine.search``.

``run_uci()`` runs a session on stdin/stdout; ``UciEngine`` is one session, usable in
process (tests drive it with lines and read what it writes).
"""

from kibitz.uci.go import GO_INT_PARAMS
from kibitz.uci.info import format_info
from kibitz.uci.protocol import UciEngine, run_uci

__all__ = ["GO_INT_PARAMS", "UciEngine", "format_info", "run_uci"]
