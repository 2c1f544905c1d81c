"""Analysing one game: search every position of its main line with a fresh engine state
and build its record; and writing a record back as annotated PGN.

A record is a plain dict (one JSON line of ``kibitz analyse``'s output); its layout is
described in docs/analysis.md ("Analysing game collections"). Records depend only on the game and
the search limits: the engine is cleared before each game, so which worker (or machine)
analyses a game changes nothing at a fixed node count or depth.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any, Callable, Optional

from kibitz import openings
from kibitz._core import Board, Engine, san_line
from kibitz.analysis.judgement import (
    MARKS,
    accuracy_percent,
    capped_cp,
    game_accuracy,
    judgement,
    side_summary,
    win_percent,
)
from kibitz.analysis.reader import InputGame

# Search budget per position when none is given: ~0.2 s a position at the core's few
# hundred thousand nodes per second on one core; enough to spot blunders of club games.
DEFAULT_NODES = 100_000
# Transposition table per worker (MB): one game's searches fit with room to spare, and
# many workers on one machine stay small.
DEFAULT_HASH_MB = 16


# A position with no legal move (White mated): a search of it ends before it starts.
_MATED_FEN = "7k/8/8/8/8/8/5PPP/r5K1 w - - 0 1"


@dataclass(frozen=True)
class Limits:
    """How long each position is searched (the first set of nodes / depth / movetime_ms
    applies; all None means DEFAULT_NODES) and how many lines are reported."""

    nodes: Optional[int] = None
    depth: Optional[int] = None
    movetime_ms: Optional[float] = None
    multipv: int = 1
    hash_mb: int = DEFAULT_HASH_MB
    # Syzygy table directories (':'-separated): the search probes them, and positions the
    # tables decide are marked in the records ("tb": {"wdl": ..., "dtz": ...}).
    syzygy: Optional[str] = None

    def engine(self) -> Engine:
        """An engine for these limits (its table size, its tablebases)."""
        return Engine(hash_mb=self.hash_mb, syzygy_path=self.syzygy)

    def check(self) -> None:
        """ValueError naming the first limit the engine refuses (its own ranges and
        messages), before any game is read or any output opened: an engine of ``hash_mb``
        is made and searches a mated position, which checks every limit and ends at once."""
        if self.movetime_ms is not None and not (math.isfinite(self.movetime_ms) and self.movetime_ms > 0):
            raise ValueError(f"movetime_ms must be a finite number above 0, got {self.movetime_ms}")
        engine = self.engine()
        if self.syzygy is not None and engine.syzygy_files == 0:
            named = [
                name
                for directory in self.syzygy.split(os.pathsep)
                if directory and os.path.isdir(directory)
                for name in os.listdir(directory)
                if name.endswith((".rtbw", ".rtbz"))
            ]
            if named:
                raise ValueError(
                    f"none of the {len(named)} Syzygy table files in {self.syzygy!r} can be used"
                    " (cut short, or not Syzygy tables)"
                )
            raise ValueError(f"no Syzygy table files (.rtbw/.rtbz) in {self.syzygy!r}")
        engine.search(Board(_MATED_FEN), **self.search_kwargs())

    def record(self) -> dict[str, Any]:
        """The limits as each record carries them (``"limits"``), so that ``--resume`` can
        refuse to continue a run with other ones: the search budget (``DEFAULT_NODES`` when
        none is given), ``multipv``, ``hash_mb`` and whether tablebases were probed. Each
        of them changes what a search finds at a fixed budget; the tables' directories are
        not kept (a path of one machine)."""
        kwargs = self.search_kwargs()
        out: dict[str, Any] = {key: kwargs[key] for key in ("nodes", "depth", "movetime_ms") if key in kwargs}
        out["multipv"] = self.multipv
        out["hash_mb"] = self.hash_mb
        out["syzygy"] = self.syzygy is not None
        return out

    def search_kwargs(self) -> dict[str, Any]:
        if self.nodes is None and self.depth is None and self.movetime_ms is None:
            return {"nodes": DEFAULT_NODES, "multipv": self.multipv}
        kw: dict[str, Any] = {"multipv": self.multipv}
        if self.nodes is not None:
            kw["nodes"] = self.nodes
        if self.depth is not None:
            kw["depth"] = self.depth
        if self.movetime_ms is not None:
            kw["movetime_ms"] = self.movetime_ms
        return kw


def _white_score(mate: Optional[int], cp: Optional[int], white_to_move: bool) -> dict[str, int]:
    """A search score (side to move's view) as White's: {"mate": n} or {"cp": n}."""
    sign = 1 if white_to_move else -1
    if mate is not None:
        return {"mate": sign * mate}
    return {"cp": sign * (cp or 0)}


def error_record(game: InputGame, limits: Limits) -> dict[str, Any]:
    """The record of a game that cannot be analysed: which game, and what is wrong."""
    return {
        "game": game.index,
        "line": game.line,
        "status": "error",
        "limits": limits.record(),
        "error": f"{game.describe()}: {game.error}",
        "headers": game.headers,
    }


def same_game(record: dict[str, Any], game: InputGame) -> bool:
    """Whether ``record`` was made from ``game`` as it reads now: the same place in the
    input, tags, start position, moves and result, or for a game that could not be
    analysed the same error. ``--resume`` asks this of every kept record."""
    if record.get("game") != game.index or record.get("line") != game.line or record.get("headers") != game.headers:
        return False
    if record.get("status") != "ok":
        return game.error is not None and record.get("error") == f"{game.describe()}: {game.error}"
    positions = record.get("positions")
    if game.error is not None or not isinstance(positions, list):
        return False
    moves = [p["move"].get("uci") for p in positions if isinstance(p, dict) and isinstance(p.get("move"), dict)]
    return (
        record.get("start_fen") == game.start_fen
        and record.get("result") == game.result
        and moves == game.moves
        and len(positions) == len(moves) + 1
    )


_tablebases: dict[str, Any] = {}


def _tablebase(path: Optional[str]) -> Any:
    """The tables of ``path`` for marking records, opened once per process."""
    if path is None:
        return None
    tb = _tablebases.get(path)
    if tb is None:
        from kibitz import syzygy

        tb = _tablebases[path] = syzygy.open_tablebase(path)
    return tb


def _tb_mark(tb: Any, board: Board) -> Optional[dict[str, int]]:
    """{"wdl": w, "dtz": d} (side to move's view, as python-chess's chess.syzygy gives
    them) when the tables decide the position, else None."""
    if tb is None or len(board.piece_map()) > tb.max_pieces or board.castling_rights:
        return None
    wdl = tb.get_wdl(board)
    if wdl is None:
        return None
    mark = {"wdl": int(wdl)}
    dtz = tb.get_dtz(board)
    if dtz is not None:
        mark["dtz"] = int(dtz)
    return mark


def analyse_game(
    engine: Engine, game: InputGame, limits: Limits, on_position: Optional[Callable[[], None]] = None
) -> dict[str, Any]:
    """The record of one game, searching each position with ``engine`` (cleared first);
    ``on_position`` is called after each search (progress within a long game)."""
    if game.error is not None:
        return error_record(game, limits)
    engine.clear()
    tb = _tablebase(limits.syzygy)
    kwargs = limits.search_kwargs()
    board = (
        Board(game.start_fen, chess960=game.chess960) if game.start_fen is not None else Board(chess960=game.chess960)
    )
    sans = san_line(game.start_fen, game.moves, chess960=game.chess960)
    positions: list[dict[str, Any]] = []
    for ply in range(len(game.moves) + 1):
        white_to_move = board.fen().split()[1] == "w"
        r = engine.search(board, **kwargs)
        score = _white_score(r.mate, r.score_cp, white_to_move)
        pos: dict[str, Any] = {
            "ply": ply,
            "fen": board.fen(),
            "score": score,
            "win": round(win_percent(score, white_to_move) / 100.0, 4),
            "best": r.best_move,
            "pv": list(r.pv),
            "depth": r.depth,
        }
        if limits.multipv > 1:
            pos["lines"] = [
                {"score": _white_score(line.mate, line.score_cp, white_to_move), "pv": list(line.pv)}
                for line in r.lines
            ]
        mark = _tb_mark(tb, board)
        if mark is not None:
            pos["tb"] = mark
        if r.checkmate:
            pos["terminal"] = "checkmate"
        elif r.stalemate:
            pos["terminal"] = "stalemate"
        positions.append(pos)
        if on_position is not None:
            on_position()
        if ply < len(game.moves):
            board.push_uci(game.moves[ply])

    sides: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
    for ply, uci in enumerate(game.moves):
        before, after = positions[ply], positions[ply + 1]
        white_moved = before["fen"].split()[1] == "w"
        sign = 1 if white_moved else -1
        # White's Win% before and after; Black's drop is White's rise.
        wp_before = win_percent(before["score"], white_moved)
        wp_after = win_percent(after["score"], not white_moved)
        mover_before, mover_after = (wp_before, wp_after) if white_moved else (wp_after, wp_before)
        cp_loss = max(0, sign * (capped_cp(before["score"], white_moved) - capped_cp(after["score"], not white_moved)))
        move = {
            "uci": uci,
            "san": sans[ply],
            "win_loss": round(max(0.0, mover_before - mover_after) / 100.0, 4),
            "cp_loss": cp_loss,
            "accuracy": round(accuracy_percent(mover_before, mover_after), 1),
            "judgement": judgement(before["score"], after["score"], white_moved),
        }
        before["move"] = move
        sides[white_moved].append(move)
    white_first = positions[0]["fen"].split()[1] == "w"
    white_accuracy, black_accuracy = game_accuracy([p["score"] for p in positions[1:]], white_first)

    return {
        "game": game.index,
        "line": game.line,
        "status": "ok",
        "limits": limits.record(),
        "headers": game.headers,
        "start_fen": game.start_fen,
        "result": game.result,
        "opening": opening_of(positions),
        "white": side_summary(sides[True], white_accuracy),
        "black": side_summary(sides[False], black_accuracy),
        "positions": positions,
    }


def opening_of(positions: list[dict[str, Any]]) -> Optional[dict[str, str]]:
    """``{"eco": ..., "name": ...}`` of the deepest named position of a game (kibitz.openings,
    matched by position), or None."""
    found = openings.of_positions(p["fen"] for p in positions[: openings.max_plies() + 1])
    return None if found is None else {"eco": found.eco, "name": found.name}


def _escape_tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def eval_text(score: dict[str, int]) -> str:
    """``[%eval]`` text for a White's-side score: pawns with two decimals, or ``#n``."""
    if "mate" in score:
        return f"#{score['mate']}"
    return f"{score['cp'] / 100:.2f}"


# Movetext lines are wrapped near 80 columns (the PGN export format allows 255).
LINE_WIDTH = 80
# The game termination markers of the PGN standard (section 8.2.6).
RESULT_TOKENS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})


def pgn_text(record: dict[str, Any]) -> str:
    """The game of a record as PGN: its tags, then each move with its mark (``?!``, ``?``,
    ``??``) and a ``{ [%eval ...] }`` comment on the position it leads to (none after a
    mating move). A game that could not be analysed keeps its tags and gets a comment
    saying why."""
    headers = dict(record.get("headers") or {})
    opening = record.get("opening")
    if isinstance(opening, dict):
        # The classification fills in what the game's own tags lack.
        if "ECO" not in headers and opening.get("eco"):
            headers["ECO"] = str(opening["eco"])
        if "Opening" not in headers and opening.get("name"):
            headers["Opening"] = str(opening["name"])
    out = [f'[{k} "{_escape_tag(str(v))}"]' for k, v in headers.items()]
    tokens: list[str] = []
    if record.get("status") != "ok":
        why = str(record.get("error", "")).replace("}", ")")
        tokens.append(f"{{ kibitz: not analysed: {why} }}")
        result: Any = "*"
    else:
        positions = record["positions"]
        for before, after in zip(positions, positions[1:]):
            move = before["move"]
            fields = before["fen"].split()
            number = fields[5] if len(fields) > 5 else "1"
            white = fields[1] == "w"
            if white:
                tokens.append(f"{number}.")
            elif not tokens or tokens[-1].startswith("{"):
                tokens.append(f"{number}...")
            mark = MARKS.get(move["judgement"] or "", "")
            tokens.append(move["san"] + mark)
            if after.get("terminal") != "checkmate":
                tokens.append(f"{{ [%eval {eval_text(after['score'])}] }}")
        result = record.get("result") or headers.get("Result")
    # Only a result token may end the movetext: anything else from a tag ("1-0 { x" would
    # open a comment that swallows the next game) leaves the game unfinished.
    tokens.append(result if isinstance(result, str) and result in RESULT_TOKENS else "*")
    lines: list[str] = []
    current = ""
    for t in tokens:
        if current and len(current) + 1 + len(t) > LINE_WIDTH:
            lines.append(current)
            current = t
        else:
            current = f"{current} {t}" if current else t
    lines.append(current)
    return "\n".join(out) + ("\n\n" if out else "") + "\n".join(lines) + "\n\n"
