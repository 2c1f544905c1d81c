"""Syzygy endgame tablebases, python-chess's ``chess.syzygy`` whole.

``open_tablebase(directory)`` loads the ``.rtbw`` (win/draw/loss) and ``.rtbz`` (distance
to zeroing) tables of a directory; ``probe_wdl(board)`` and ``probe_dtz(board)`` answer for
the side to move, ``get_wdl`` / ``get_dtz`` return a default (``None``) where those raise a
``KeyError``. Boards may be kibitz's or python-chess's. Every public name of python-chess's
module is here with its meaning: the table-name helpers (``tablenames``,
``normalize_tablename``, ``calc_key``, ``dependencies``, ...), the format's constants, the
single-file readers ``WdlTable`` and ``DtzTable``, and on ``Tablebase`` the lower-level
probes (``probe_wdl_table``, ``probe_dtz_table``, ``probe_ab``, ``probe_dtz_no_ep``).

WDL values: 2 win, 1 win that the 50-move rule spoils ("cursed"), 0 draw, -1 loss that
the 50-move rule saves ("blessed"), -2 loss, assuming the position was reached by a
capture or pawn move. DTZ: plies to the next capture or pawn move on the best line,
positive when winning, negative when losing, 0 for a draw.

Two probers, one answer. ``probe_wdl`` and ``probe_dtz`` go to kibitz's Rust tables
(the ``shakmaty-syzygy`` crate, without holding the GIL) where their answer is
python-chess's: a valid position (``board.is_valid()``) and every table the probe may reach
loaded. On random 3- and 4-piece positions that is 4 us a WDL probe and 16 us a DTZ probe,
where python-chess's prober takes 110 us and 1 ms (``benches/syzygy_python.py``).
Elsewhere they run python-chess's algorithm in Python (``kibitz._syzygy_format`` for the
tables) over a kibitz ``Board`` of its own, which holds any placement python-chess holds
and lists python-chess's moves in python-chess's order, asking the Rust tables about the
positions it reaches where they may answer: a table set with holes, where
python-chess may still find a capture that settles the position, or else names the first
missing table it meets; positions kibitz cannot play, such as the side not to move in
check, where python-chess answers or raises as its move generator leads it. The tests
compare both with python-chess's prober position by position
(``tests/python/test_syzygy.py``).

Variants, as python-chess's: ``Tablebase(VariantBoard=AtomicBoard)`` (or Suicide, Giveaway,
Antichess, from ``kibitz.variant.boards`` or ``chess.variant``) reads that variant's tables
(``.atbw``/``.atbz``, ``.stbw``/``.stbz``, ``.gtbw``/``.gtbz``) and probes its boards as
python-chess's does: the variant's own end of the game, kings that may touch, compulsory
captures and the threat of one (``sprobe_ab``). Atomic's and Antichess's (Giveaway's)
tables are read in Rust too and answer where they may, as for standard chess; the rest,
and Suicide, go by python-chess's algorithm in Python.

Errors as python-chess raises them: ``MissingTableError`` (a ``KeyError``) naming the
first table a probe needs and lacks; ``KeyError`` for positions no table holds (castling
rights, more than 8 pieces); ``OSError`` when a table needed turns out not to be a table.
A file the Rust tables cannot use is also listed in ``Tablebase.skipped`` with the reason
when it is added.
"""

from __future__ import annotations

import collections
import os
import threading
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Deque, Dict, Iterator, List, Optional, Tuple, Type, TypeVar, Union

from kibitz._bitboards import BB_ALL, popcount, scan_forward
from kibitz._constants import SQUARE_NAMES
from kibitz._core import Board, MissingTableError
from kibitz._core import Tablebase as _CoreTablebase
from kibitz._core import VariantTablebase as _CoreVariantTablebase
from kibitz._syzygy_format import (
    DIAG,
    FILE_TO_FILE,
    FLAP,
    INVFLAP,
    INVTRIANGLE,
    KK_IDX,
    LOWER,
    MFACTOR,
    MTWIST,
    MULTIDX,
    PA_FLAGS,
    PAWNIDX,
    PCHR,
    PFACTOR,
    PP_IDX,
    PTWIST,
    TABLENAME_REGEX,
    TBPIECES,
    TRIANGLE,
    UINT16,
    UINT32,
    UINT32_BE,
    UINT64_BE,
    WDL_TO_DTZ,
    WDL_TO_MAP,
    DtzTable,
    PairsData,
    PawnFileData,
    PawnFileDataDtz,
    Table,
    WdlTable,
    all_dependencies,
    binom,
    calc_key,
    dependencies,
    dtz_before_zeroing,
    flipdiag,
    is_tablename,
    normalize_tablename,
    offdiag,
    recalc_key,
    subfactor,
    tablenames,
    test45,
)

__all__ = [
    "DIAG",
    "FILE_TO_FILE",
    "FLAP",
    "INVFLAP",
    "INVTRIANGLE",
    "KK_IDX",
    "LOWER",
    "MFACTOR",
    "MTWIST",
    "MULTIDX",
    "PAWNIDX",
    "PA_FLAGS",
    "PCHR",
    "PFACTOR",
    "PP_IDX",
    "PTWIST",
    "TABLENAME_REGEX",
    "TBPIECES",
    "TRIANGLE",
    "UINT16",
    "UINT32",
    "UINT32_BE",
    "UINT64_BE",
    "WDL_TO_DTZ",
    "WDL_TO_MAP",
    "DtzTable",
    "MissingTableError",
    "PairsData",
    "PawnFileData",
    "PawnFileDataDtz",
    "Table",
    "Tablebase",
    "WdlTable",
    "all_dependencies",
    "binom",
    "calc_key",
    "dependencies",
    "dtz_before_zeroing",
    "flipdiag",
    "is_tablename",
    "normalize_tablename",
    "offdiag",
    "open_tablebase",
    "recalc_key",
    "subfactor",
    "tablenames",
    "test45",
]

T = TypeVar("T")
PathLike = Union[str, "os.PathLike[str]"]

# Table file suffixes of standard chess.
_WDL_SUFFIX, _DTZ_SUFFIX = ".rtbw", ".rtbz"
# The DTZ python-chess's prober starts from when it minimizes over moves: above any
# distance a table stores.
_NO_DTZ = 0xFFFF


# A position the Python prober walks: a kibitz ``Board`` of its own (any placement
# python-chess holds, with python-chess's moves in python-chess's order), or a board of the
# variant (kibitz's or python-chess's variant boards), the prober's own copy.
Walked = Any


@contextmanager
def _child(pos: Walked, move: Any) -> Iterator[Walked]:
    """The position after `move`: the move pushed on the walked board, popped again on
    leaving."""
    pos.push(move)
    try:
        yield pos
    finally:
        pos.pop()


def _own_board(board: Any) -> Board:
    """A kibitz ``Board`` of a standard-chess board's position (kibitz's, a subclass's or
    python-chess's), without its moves: the prober's own, to push moves on."""
    if type(board) is Board:
        return board.copy(stack=False)
    if isinstance(board, Board) or board.castling_rights:
        return Board(board.fen(en_passant="fen"))
    # python-chess's fen() takes tens of microseconds; the bitboards give it faster.
    cells = ["1"] * 64
    white = board.occupied_co[True]
    for symbol, mask in zip(
        "pnbrqk", (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    ):
        for square in scan_forward(mask):
            cells[square ^ 56] = symbol.upper() if white >> square & 1 else symbol
    placement = "/".join("".join(cells[row : row + 8]) for row in range(0, 64, 8))
    for run in range(8, 1, -1):
        placement = placement.replace("1" * run, str(run))
    ep = "-" if board.ep_square is None else SQUARE_NAMES[board.ep_square]
    side = "w" if board.turn else "b"
    return Board(f"{placement} {side} - {ep} {board.halfmove_clock} {board.fullmove_number}")


def _moves(pos: Walked, *masks: int) -> List[Any]:
    """The legal moves (within the masks), listed before any is pushed."""
    return list(pos.generate_legal_moves(*masks))


class Tablebase:
    """A set of Syzygy tables: add directories or files, probe positions, ``close()`` (or
    use as a context manager). ``wdl`` and ``dtz`` map material keys to the tables (read in
    Python, opened on first use, at most ``max_fds`` kept open); for standard chess the Rust
    tables hold the same files.

    ``max_fds``: at most this many table files are open at once (None: no limit), as
    python-chess keeps: the tables the Python prober has open (``lru``, at most
    ``max_fds`` of them, as python-chess's) and the rest for the Rust tables (at least
    one, so ``max_fds + 1`` when the Python prober holds ``max_fds``).
    A set of six- or seven-piece tables has more files than a process may usually hold
    open.

    ``VariantBoard`` is the board class of the positions probed: standard chess (kibitz's
    or python-chess's ``Board``), or a variant whose class names its tables, as
    python-chess's do: Atomic (``.atbw``/``.atbz``), Suicide (``.stbw``/``.stbz``),
    Giveaway and Antichess (``.gtbw``/``.gtbz``), from ``kibitz.variant`` or
    ``chess.variant``. A variant's tables are probed by python-chess's algorithm on the
    variant's own boards, or by the Rust tables (Atomic, Antichess, Giveaway) where their
    answer is the same."""

    def __init__(self, *, max_fds: Optional[int] = 128, VariantBoard: Any = Board) -> None:
        self.variant = VariantBoard
        # Standard chess: the Rust tables answer where they can. A variant: its rules (its
        # own end of the game, compulsory captures) lead the Python prober.
        self._standard = getattr(VariantBoard, "uci_variant", "chess") == "chess"
        self._one_king = bool(getattr(VariantBoard, "one_king", True))
        self._captures_compulsory = bool(getattr(VariantBoard, "captures_compulsory", False))
        self.max_fds = max_fds
        self.lru: Deque[Table] = collections.deque()
        self.lru_lock = threading.Lock()
        self.wdl: Dict[str, Table] = {}
        self.dtz: Dict[str, Table] = {}
        #: Table files the Rust tables could not use, as (path, reason).
        self.skipped: list[tuple[str, str]] = []
        self._core = _CoreTablebase(max_fds)
        self._complete_cache: Dict[Tuple[str, bool], bool] = {}
        self._full_up_to: Optional[int] = None
        # Atomic's and Antichess's (Giveaway's) tables are also read in Rust, which refuses
        # the other variants.
        self._core_variant: Optional[_CoreVariantTablebase] = None
        # The material keys of the variant's WDL and DTZ tables the Rust tables hold.
        self._in_rust: Tuple[set[str], set[str]] = (set(), set())
        if not self._standard:
            try:
                self._core_variant = _CoreVariantTablebase(VariantBoard.uci_variant, max_fds)
            except ValueError:
                pass

    # Loading -----------------------------------------------------------------------------

    def add_directory(self, directory: PathLike, *, load_wdl: bool = True, load_dtz: bool = True) -> int:
        """Adds the tables of a directory (files named like ``KQvKN.rtbw``, ``KRBvK.rtbz``);
        returns how many table files it found. ``OSError`` when it cannot be listed."""
        directory = os.path.abspath(os.fspath(directory))
        return sum(
            self.add_file(os.path.join(directory, name), load_wdl=load_wdl, load_dtz=load_dtz)
            for name in os.listdir(directory)
        )

    def add_file(self, path: PathLike, *, load_wdl: bool = True, load_dtz: bool = True) -> int:
        """Adds one table file; returns 1, or 0 when the path is not a table file's (by its
        name and the variant's suffixes) or not a file. A file the Rust tables cannot use
        goes to ``skipped``."""
        path = os.fspath(path)
        name, ext = os.path.splitext(os.path.basename(path))
        if not is_tablename(name, one_king=self._one_king) or not os.path.isfile(path):
            return 0
        if load_wdl and (fits := self._suffix_fits(ext, name, "tbw")):
            self._add(self.wdl, WdlTable(path, variant=self.variant), path, rust=fits == "own")
            return 1
        if load_dtz and (fits := self._suffix_fits(ext, name, "tbz")):
            self._add(self.dtz, DtzTable(path, variant=self.variant), path, rust=fits == "own")
            return 1
        return 0

    def _suffix_fits(self, ext: str, name: str, kind: str) -> Optional[str]:
        """How a file's suffix fits tables of this kind (WDL ``tbw``, DTZ ``tbz``): "own",
        the variant's (standard chess: ``.rtbw``/``.rtbz``); "pawnless", the variant's
        suffix for tables without pawns, and the table has none; else None."""
        if self._standard:
            return "own" if ext == (_WDL_SUFFIX if kind == "tbw" else _DTZ_SUFFIX) else None
        if ext and ext == getattr(self.variant, f"{kind}_suffix", None):
            return "own"
        if "P" not in name and ext and ext == getattr(self.variant, f"pawnless_{kind}_suffix", None):
            return "pawnless"
        return None

    def _add(self, tables: Dict[str, Table], table: Table, path: str, *, rust: bool) -> None:
        """Adds a table, and with `rust` to the Rust tables too. A variant's table under its
        suffix for tables without pawns (Suicide's in a Giveaway set) is read in Python
        only: python-chess refuses it by its magic when probed, where the Rust tables would
        read it."""
        if table.key in tables:
            tables[table.key].close()
        tables[table.key] = tables[table.mirrored_key] = table
        core = self._core if self._standard else self._core_variant
        if rust and core is not None:
            try:
                core.add_file(path)
                self._in_rust[tables is self.dtz].update((table.key, table.mirrored_key))
            except OSError as e:
                self.skipped.append((path, str(e)))
        self._complete_cache.clear()
        self._full_up_to = None

    @property
    def max_pieces(self) -> int:
        """The most pieces (kings included) of any table loaded: for standard chess, of
        those the Rust tables could use; 0 when none."""
        if not self._standard:
            return max((table.num for table in self.wdl.values()), default=0)
        return int(self._core.max_pieces)

    def _bump_lru(self, table: Table) -> None:
        if self.max_fds is None:
            return
        with self.lru_lock:
            try:
                self.lru.remove(table)
                self.lru.appendleft(table)
            except ValueError:
                self.lru.appendleft(table)
                if len(self.lru) > self.max_fds:
                    self.lru.pop().close()
                # The Rust tables keep what the Python prober leaves of max_fds open.
                rust_fds = max(1, self.max_fds - len(self.lru))
                self._core.set_open_files(rust_fds)
                if self._core_variant is not None:
                    self._core_variant.set_open_files(rust_fds)

    # Which prober answers -------------------------------------------------------------

    def _full_sets(self) -> int:
        """The most pieces n such that every table of up to n pieces is loaded, both
        kinds (2 when none: bare kings need no table)."""
        if self._full_up_to is None:
            n = 2
            while n < TBPIECES and all(k in self.wdl and k in self.dtz for k in tablenames(piece_count=n + 1)):
                n += 1
            self._full_up_to = n
        return self._full_up_to

    def _complete(self, key: str, dtz: bool) -> bool:
        """Whether every WDL table a probe of material `key` may reach (by captures and
        promotions) is loaded, and with `dtz` the DTZ table of `key` itself: for a
        variant, loaded in the Rust tables."""
        cached = self._complete_cache.get((key, dtz))
        if cached is None:
            wdl, dtzs = (self.wdl, self.dtz) if self._standard else self._in_rust
            needed = all_dependencies([key], one_king=self._one_king)
            cached = all(name in wdl for name in needed) and (not dtz or key in dtzs)
            self._complete_cache[key, dtz] = cached
        return cached

    def _rust_board(self, board: Any, dtz: bool) -> Optional[Board]:
        """The board for the Rust tables when their answer is python-chess's: standard
        chess, a valid position and every table the probe may need loaded; else None."""
        if not self._standard:
            return None
        if popcount(board.occupied) > self._full_sets() and not self._complete(calc_key(board), dtz):
            return None
        if not isinstance(board, Board):
            for color in (True, False):
                if popcount(board.kings & board.occupied_co[color]) != 1:
                    return None  # not valid, no need to build the board to see it
            try:
                board = _own_board(board)
            except ValueError:
                return None
        return board if board.is_valid() else None

    def _variant_rust(self, board: Any, dtz: bool) -> Optional[int]:
        """A variant's value from the Rust tables (Atomic, Antichess, Giveaway) where their
        answer is python-chess's: a valid position and every table the probe may need
        loaded; else None."""
        if self._core_variant is None or not self._complete(calc_key(board), dtz) or not board.is_valid():
            return None
        try:
            fen = board.fen()
            return int(self._core_variant.probe_dtz(fen) if dtz else self._core_variant.probe_wdl(fen))
        except (KeyError, ValueError, OSError):
            return None  # a table the Rust tables skipped or cannot read: python-chess's walk says why

    def _wdl(self, board: Any, owned: bool = True) -> int:
        """``probe_wdl`` past its checks: the Rust tables when they may answer, else
        python-chess's algorithm. A variant's walk pushes its moves on the board and pops
        them again: on `board` when it is the prober's own (`owned`), else on a copy."""
        if not self._standard:
            value = self._variant_rust(board, False)
            return self._py_wdl(board if owned else self._walked(board)) if value is None else value
        rust = self._rust_board(board, False)
        if rust is not None:
            try:
                return int(self._core.probe_wdl(rust))
            except (KeyError, ValueError):
                pass  # a table the Rust tables skipped, or a position they refuse
        return self._py_wdl(self._walked(board))

    def _dtz(self, board: Any, owned: bool = True) -> int:
        if not self._standard:
            value = self._variant_rust(board, True)
            return self._py_dtz(board if owned else self._walked(board)) if value is None else value
        rust = self._rust_board(board, True)
        if rust is not None:
            try:
                return int(self._core.probe_dtz(rust))
            except (KeyError, ValueError):
                pass
        return self._py_dtz(self._walked(board))

    def _walked(self, board: Any) -> Walked:
        """The position the Python prober walks for a board: a kibitz ``Board`` of its own
        for standard chess, or a copy of the variant's board without its moves."""
        if not self._standard:
            return board.copy(stack=False)
        return _own_board(board)

    def _ab(self, pos: Walked, alpha: int, beta: int, threats: bool = False) -> int:
        """The value ``probe_ab(pos, alpha, beta)`` gives. A position without an
        en-passant square is asked of the Rust tables when they may answer: their exact
        value leads every caller to the same decisions as the windowed one."""
        if not pos.ep_square:
            rust = self._rust_board(pos, False)
            if rust is not None:
                try:
                    return int(self._core.probe_wdl(rust))
                except (KeyError, ValueError):
                    pass
        return self._py_ab(pos, alpha, beta, threats=threats)[0]

    def _preconditions(self, board: Any) -> None:
        if board.uci_variant != self.variant.uci_variant:
            raise KeyError(
                f"tablebase has been opened for {self.variant.uci_variant}, probed with: {board.uci_variant}"
            )
        if board.castling_rights:
            raise KeyError(f"syzygy tables do not contain positions with castling rights: {board.fen()}")
        # Captures are resolved, so one piece more than the largest table is probed.
        pieces = popcount(board.occupied)
        if pieces > TBPIECES + 1:
            raise KeyError(f"syzygy tables support up to {TBPIECES} pieces, not {pieces}: {board.fen()}")

    # python-chess's algorithm ---------------------------------------------------------

    def _py_ab(
        self, pos: Walked, alpha: int, beta: int, *, bounds: bool = False, threats: bool = False
    ) -> Tuple[int, int]:
        """python-chess's ``probe_ab``: (value, how it was found: 1 the table, 2 a capture,
        3 a threat of one where captures are compulsory). With `bounds`, the captures are
        searched in Python all the way down, so that a narrow window gives python-chess's
        bound, not the exact value, where the position falls outside it."""
        self._preconditions(pos)
        if self._captures_compulsory:
            if pos.is_variant_win():
                return 2, 2
            if pos.is_variant_loss():
                return -2, 2
            if pos.is_variant_draw():
                return 0, 2
            return self._py_sprobe_ab(pos, alpha, beta, threats)
        for move in _moves(pos, BB_ALL, pos.occupied_co[not pos.turn]):
            with _child(pos, move) as child:
                if bounds:
                    v = -self._py_ab(child, -beta, -alpha, bounds=True)[0]
                else:
                    v = -self._ab(child, -beta, -alpha)
            if v > alpha:
                if v >= beta:
                    return v, 2
                alpha = v
        v = self.probe_wdl_table(pos)
        if alpha >= v:
            return alpha, 1 + int(alpha > 0)
        return v, 1

    def _best_en_passant(self, pos: Walked) -> int:
        """The best value of a legal en-passant capture, -3 when there is none."""
        best = -3
        for move in list(pos.generate_legal_ep()):
            with _child(pos, move) as child:
                best = max(best, -self._ab(child, -2, 2))
        return best

    def _only_en_passant(self, pos: Walked) -> bool:
        return all(pos.is_en_passant(move) for move in pos.generate_legal_moves())

    def _py_wdl(self, pos: Walked) -> int:
        v = self._py_ab(pos, -2, 2)[0]
        if not pos.ep_square or self._captures_compulsory:
            return v
        ep = self._best_en_passant(pos)
        if ep > -3:
            if ep >= v:
                v = ep
            elif v == 0 and self._only_en_passant(pos):
                v = ep  # the losing capture is the only legal move
        return v

    def _py_dtz_no_ep(self, pos: Walked) -> int:
        wdl, how = self._py_ab(pos, -2, 2, threats=True)
        if wdl == 0:
            return 0
        if how == 2 or not pos.occupied_co[pos.turn] & ~pos.pawns:
            return dtz_before_zeroing(wdl)
        if wdl > 0:
            if how == 3:  # won by a threat to capture: a move, then the capture
                return 2 if wdl == 2 else 102
            # A pawn step that keeps the win zeroes at once.
            for move in _moves(pos, pos.pawns, ~pos.occupied):
                if pos.is_capture(move):
                    continue
                with _child(pos, move) as child:
                    keeps = -self._wdl(child) == wdl
                if keeps:
                    return 1 if wdl == 2 else 101
        dtz, stored = self.probe_dtz_table(pos, wdl)
        if stored >= 0:
            return dtz_before_zeroing(wdl) + (dtz if wdl > 0 else -dtz)
        # The table stores the other side to move: one ply more than the best reply.
        if wdl > 0:
            best = _NO_DTZ
            for move in _moves(pos, ~pos.pawns, ~pos.occupied):
                with _child(pos, move) as child:
                    v = -self._dtz(child)
                    if v == 1 and child.is_checkmate():
                        best = 1
                    elif v > 0 and v + 1 < best:
                        best = v + 1
            return best
        best = -1
        for move in _moves(pos):
            with _child(pos, move) as child:
                if child.halfmove_clock == 0:
                    if wdl == -2:
                        v = -1
                    else:
                        v = 0 if self._ab(child, 1, 2, threats=True) == 2 else -101
                else:
                    v = -self._dtz(child) - 1
            best = min(best, v)
        return best

    def _py_dtz(self, pos: Walked) -> int:
        v = self._py_dtz_no_ep(pos)
        if not pos.ep_square or self._captures_compulsory:
            return v
        ep = self._best_en_passant(pos)
        if ep > -3:
            ep = WDL_TO_DTZ[ep + 2]
            if v < -100:
                if ep >= 0:
                    v = ep
            elif v < 0:
                if ep >= 0 or ep < -100:
                    v = ep
            elif v > 100:
                if ep > 0:
                    v = ep
            elif v > 0:
                if ep == 1:
                    v = ep
            elif ep >= 0:
                v = ep
            elif self._only_en_passant(pos):
                v = ep
        return v

    def _py_sprobe_capts(self, pos: Walked, alpha: int, beta: int) -> Tuple[int, bool]:
        found = False
        for move in list(pos.generate_legal_captures()):
            found = True
            with _child(pos, move) as child:
                alpha = max(alpha, -self._py_sprobe_ab(child, -beta, -alpha)[0])
            if alpha >= beta:
                break
        return alpha, found

    def _py_sprobe_ab(self, pos: Walked, alpha: int, beta: int, threats: bool = False) -> Tuple[int, int]:
        if popcount(pos.occupied_co[not pos.turn]) > 1:
            v, found = self._py_sprobe_capts(pos, alpha, beta)
            if found:
                return v, 2
        elif any(pos.generate_legal_captures()):
            return -2, 2
        threats_found = False
        if threats or popcount(pos.occupied) >= 6:
            for move in _moves(pos, ~pos.pawns):
                with _child(pos, move) as child:
                    v_plus, found = self._py_sprobe_capts(child, -beta, -alpha)
                v = -v_plus
                if found and v > alpha:
                    threats_found = True
                    alpha = v
                    if alpha >= beta:
                        return v, 3
        v = self.probe_wdl_table(pos)
        if v > alpha:
            return v, 1
        return alpha, 3 if threats_found else 1

    # The API ----------------------------------------------------------------------------

    def probe_wdl_table(self, board: Any) -> int:
        """The WDL stored for the position, without looking at captures (bare kings: 0; a
        variant's own end of the game: its result). ``MissingTableError`` when its table is
        not loaded; ``KeyError`` past 7 pieces."""
        if not self._standard:
            if board.is_variant_win():
                return 2
            if board.is_variant_draw():
                return 0
            if board.is_variant_loss():
                return -2
        if self._one_king and board.kings == board.occupied:
            return 0
        key = calc_key(board)
        table = self.wdl.get(key)
        if table is None:
            pieces = popcount(board.occupied)
            if pieces > TBPIECES:
                raise KeyError(f"syzygy tables support up to {TBPIECES} pieces, not {pieces}: {board.fen()}")
            raise MissingTableError(f"did not find wdl table {key}")
        self._bump_lru(table)
        assert isinstance(table, WdlTable)
        return table.probe_wdl_table(board)

    def probe_dtz_table(self, board: Any, wdl: int) -> Tuple[int, int]:
        """The DTZ stored for the position of WDL `wdl`: ``(dtz, 1)``, or ``(0, -1)`` when
        the table stores the other side to move. ``MissingTableError`` without the table."""
        key = calc_key(board)
        table = self.dtz.get(key)
        if table is None:
            raise MissingTableError(f"did not find dtz table {key}")
        self._bump_lru(table)
        assert isinstance(table, DtzTable)
        return table.probe_dtz_table(board, wdl)

    def probe_ab(self, board: Any, alpha: int, beta: int, threats: bool = False) -> Tuple[int, int]:
        """python-chess's alpha-beta over captures from the position, en passant aside:
        (value, 1 when the table gave it, 2 when a capture did, 3 when a threat to capture
        did where captures are compulsory)."""
        return self._py_ab(self._walked(board), alpha, beta, bounds=True, threats=threats)

    def sprobe_ab(self, board: Any, alpha: int, beta: int, threats: bool = False) -> Tuple[int, int]:
        """python-chess's search for the variants where captures are compulsory (Suicide,
        Giveaway, Antichess): (value, 1 the table, 2 a capture, 3 a threat of one)."""
        return self._py_sprobe_ab(self._walked(board), alpha, beta, threats)

    def sprobe_capts(self, board: Any, alpha: int, beta: int) -> Tuple[int, int]:
        """The captures step of ``sprobe_ab``: (value, whether there was a capture)."""
        return self._py_sprobe_capts(self._walked(board), alpha, beta)

    def probe_wdl(self, board: Any) -> int:
        """WDL of the position for the side to move (see the module's doc), assuming it
        was reached by a capture or pawn move. ``KeyError`` (``MissingTableError`` for a
        missing table) when the tables cannot tell."""
        self._preconditions(board)
        return self._wdl(board, owned=False)

    def get_wdl(self, board: Any, default: Optional[T] = None) -> Union[int, T, None]:
        """``probe_wdl``, or ``default`` where it raises ``KeyError``."""
        try:
            return self.probe_wdl(board)
        except KeyError:
            return default

    def probe_dtz_no_ep(self, board: Any) -> int:
        """``probe_dtz`` with en-passant captures left out."""
        self._preconditions(board)
        if not board.ep_square:
            return self._dtz(board, owned=False)
        return self._py_dtz_no_ep(self._walked(board))

    def probe_dtz(self, board: Any) -> int:
        """DTZ of the position for the side to move, in plies (see the module's doc; as
        python-chess's, it can be one ply off where that cannot change the outcome). Needs
        the WDL tables too. ``KeyError`` (``MissingTableError``) when the tables cannot tell."""
        self._preconditions(board)
        return self._dtz(board, owned=False)

    def get_dtz(self, board: Any, default: Optional[T] = None) -> Union[int, T, None]:
        """``probe_dtz``, or ``default`` where it raises ``KeyError``."""
        try:
            return self.probe_dtz(board)
        except KeyError:
            return default

    def close(self) -> None:
        """Closes and forgets every table."""
        for table in {id(t): t for t in (*self.wdl.values(), *self.dtz.values())}.values():
            table.close()
        self.wdl.clear()
        self.dtz.clear()
        self.lru.clear()
        self.skipped.clear()
        self._core.clear()
        if self._core_variant is not None:
            self._core_variant.clear()
        for keys in self._in_rust:
            keys.clear()
        self._complete_cache.clear()
        self._full_up_to = None

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc_value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()


def open_tablebase(
    directory: PathLike,
    *,
    load_wdl: bool = True,
    load_dtz: bool = True,
    max_fds: Optional[int] = 128,
    VariantBoard: Any = Board,
) -> Tablebase:
    """A ``Tablebase`` with the tables of ``directory`` (add more with ``add_directory``).
    Probing needs the tables of the position's material and of every material captures
    and promotions reach from it."""
    tables = Tablebase(max_fds=max_fds, VariantBoard=VariantBoard)
    tables.add_directory(directory, load_wdl=load_wdl, load_dtz=load_dtz)
    return tables
