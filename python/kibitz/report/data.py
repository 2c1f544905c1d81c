"""From ``kibitz analyse`` records to what the report shows: the compact per-game data the
page's script draws from, the player table, the results and the openings played.

Everything here is plain data (numbers and strings, no markup); escaping is the page's job.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Optional

from kibitz import openings
from kibitz._core import STARTING_FEN, san_line
from kibitz._variant_tag import is_chess960

# Moves of the best line shown with each mistake.
LINE_MOVES = 8
# Judgement letters of the compact move string: one per move.
JUDGEMENT_LETTERS = {"inaccuracy": "i", "mistake": "m", "blunder": "b"}
# The tags the page shows (the others, clocks and links of online games, stay out of it).
SHOWN_TAGS = frozenset(
    {"Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteElo", "BlackElo", "TimeControl", "Variant"}
)
# Points of a result for White; None for an unfinished or unknown game.
WHITE_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


# The largest magnitude a figure of a record may have: far beyond any real one (accuracy
# is 0..100, an ACPL or centipawn loss at most 1000, a loss of win chance 0..1), and small
# enough that sums over any collection stay finite.
MAX_FIGURE = 1e9


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _figure(value: Any, what: str) -> float:
    """A record's number, checked: TypeError for anything but a number, ValueError for one
    out of all proportion (``MAX_FIGURE``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{what} is {type(value).__name__}, not a number")
    if not abs(value) <= MAX_FIGURE:
        raise ValueError(f"{what} is {value!r}, out of all proportion")
    return float(value)


def compact_score(score: Any, fen: str) -> Any:
    """A White's-side score as the page stores it: centipawns as a number, a mate as a
    string ``"#+n"`` (White mates) or ``"#-n"`` (Black mates); ``#0`` (the side to move is
    mated) becomes ``"#-0"`` or ``"#+0"`` by who is mated."""
    if not isinstance(score, dict):
        return 0
    if "mate" in score:
        m = int(score["mate"])
        if m == 0:
            white_to_move = fen.split()[1:2] == ["w"]
            return "#-0" if white_to_move else "#+0"
        return f"#{'+' if m > 0 else '-'}{abs(m)}"
    return int(score.get("cp") or 0)


def record_opening(record: dict[str, Any]) -> Optional[dict[str, str]]:
    """The record's opening: its ``opening`` field (``kibitz analyse`` writes it), else the
    classification of its positions (records of older versions), else None."""
    found = record.get("opening")
    if isinstance(found, dict) and found.get("eco"):
        return {"eco": _text(found.get("eco")), "name": _text(found.get("name"))}
    positions = record.get("positions") or []
    fens = [p.get("fen", "") for p in positions[: openings.max_plies() + 1] if isinstance(p, dict)]
    hit = openings.of_positions(fens)
    return None if hit is None else {"eco": hit.eco, "name": hit.name}


def _san_line(fen: str, moves: list[str], chess960: bool) -> list[str]:
    try:
        return san_line(fen, moves, chess960=chess960)
    except ValueError:
        return []


def game_data(record: dict[str, Any]) -> dict[str, Any]:
    """The compact form of one record for the page (short keys: the page holds thousands).

    ``n`` game number, ``h`` tags (``SHOWN_TAGS``), ``r`` result, ``o`` [eco, name] or None; for an analysed
    game also ``f`` start FEN (omitted for the usual one), ``u`` / ``s`` the moves in UCI / SAN
    (space separated), ``e`` the score of each position (``compact_score``), ``j`` one
    letter per move (``.`` none, ``i`` / ``m`` / ``b`` inaccuracy / mistake / blunder),
    ``a`` [White, Black] accuracy, ``c`` [White, Black] ACPL, ``k`` [[inaccuracies,
    mistakes, blunders] of White, of Black], ``x`` the marked moves as [ply, loss in
    win-chance points, centipawn loss, best move SAN, best line SAN], ``m`` [largest loss,
    its ply]; for a game that was not analysed ``err``, what was wrong."""
    headers = record.get("headers") or {}
    tags = {str(k): _text(v) for k, v in headers.items() if k in SHOWN_TAGS} if isinstance(headers, dict) else {}
    out: dict[str, Any] = {
        "n": record.get("game"),
        "h": tags,
        "r": _text(record.get("result") or tags.get("Result") or "*"),
    }
    opening = record_opening(record) if record.get("status") == "ok" else None
    out["o"] = [opening["eco"], opening["name"]] if opening else None
    if record.get("status") != "ok":
        out["err"] = _text(record.get("error") or "not analysed")
        return out
    positions = [p for p in record.get("positions") or [] if isinstance(p, dict)]
    start = _text(record.get("start_fen") or (positions[0]["fen"] if positions else STARTING_FEN))
    chess960 = is_chess960(tags.get("Variant"))
    if start != STARTING_FEN:
        out["f"] = start
    uci: list[str] = []
    san: list[str] = []
    marks: list[str] = []
    mistakes: list[list[Any]] = []
    largest = (0.0, -1)
    for ply, pos in enumerate(positions):
        move = pos.get("move")
        if not isinstance(move, dict):
            continue
        uci.append(_text(move.get("uci")))
        san.append(_text(move.get("san")))
        judgement = move.get("judgement")
        marks.append(JUDGEMENT_LETTERS.get(judgement or "", "."))
        loss = _figure(move.get("win_loss") or 0.0, "a move's win_loss")
        if loss > largest[0]:
            largest = (loss, ply)
        if judgement in JUDGEMENT_LETTERS:
            pv = [str(m) for m in pos.get("pv") or []][:LINE_MOVES]
            best = pos.get("best")
            if best and (not pv or pv[0] != best):
                pv = [str(best)]
            line = _san_line(_text(pos.get("fen")), pv, chess960)
            mistakes.append(
                [ply, round(loss * 100, 1), int(move.get("cp_loss") or 0), line[0] if line else "", " ".join(line)]
            )
    out["u"] = " ".join(uci)
    out["s"] = " ".join(san)
    out["e"] = [compact_score(p.get("score"), _text(p.get("fen"))) for p in positions]
    out["j"] = "".join(marks)
    white = record.get("white") or {}
    black = record.get("black") or {}
    out["a"] = [white.get("accuracy"), black.get("accuracy")]
    out["c"] = [white.get("acpl"), black.get("acpl")]
    out["k"] = [
        [side.get("inaccuracies", 0), side.get("mistakes", 0), side.get("blunders", 0)] for side in (white, black)
    ]
    out["x"] = mistakes
    out["m"] = [round(largest[0] * 100, 1), largest[1]]
    return out


@dataclass(frozen=True)
class SideFigures:
    """One side's figures of one game, read from its record (``white`` / ``black``)."""

    accuracy: Optional[float]
    acpl: Optional[float]
    inaccuracies: int
    mistakes: int
    blunders: int

    @classmethod
    def of(cls, side: Any) -> "SideFigures":
        """TypeError or ValueError when ``side`` is not a dict of numbers."""
        side = side or {}
        if not isinstance(side, dict):
            raise TypeError(f"a side's figures are a JSON object, not {type(side).__name__}")

        def number(key: str) -> Optional[float]:
            value = side.get(key)
            return None if value is None else _figure(value, f"a side's {key}")

        def count(key: str) -> int:
            return int(_figure(side.get(key) or 0, f"a side's {key}"))

        return cls(number("accuracy"), number("acpl"), count("inaccuracies"), count("mistakes"), count("blunders"))


@dataclass
class Tally:
    """One player's figures over some games (all, as White, or as Black)."""

    games: int = 0
    decided: int = 0  # games with a result (1-0, 0-1, 1/2-1/2)
    points: float = 0.0
    accuracy: list[float] = field(default_factory=list)
    acpl: list[float] = field(default_factory=list)
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0

    def add(self, side: "SideFigures", points: Optional[float]) -> None:
        self.games += 1
        if points is not None:
            self.decided += 1
            self.points += points
        if side.accuracy is not None:
            self.accuracy.append(side.accuracy)
        if side.acpl is not None:
            self.acpl.append(side.acpl)
        self.inaccuracies += side.inaccuracies
        self.mistakes += side.mistakes
        self.blunders += side.blunders

    def row(self) -> dict[str, Any]:
        """The figures the table shows; means are None where there is nothing to average."""

        def mean(values: list[float]) -> Optional[float]:
            return round(math.fsum(values) / len(values), 1) if values else None

        def per_game(count: int) -> Optional[float]:
            return round(count / self.games, 2) if self.games else None

        return {
            "games": self.games,
            "points": self.points,
            "decided": self.decided,
            "accuracy": mean(self.accuracy),
            "acpl": mean(self.acpl),
            "blunders": per_game(self.blunders),
            "mistakes": per_game(self.mistakes),
            "inaccuracies": per_game(self.inaccuracies),
        }


@dataclass
class Summary:
    """The collection's figures: per player (all games, as White, as Black), results, openings."""

    players: dict[str, dict[str, Tally]] = field(default_factory=dict)
    results: dict[str, int] = field(default_factory=dict)
    openings: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # [games, White points, decided]
    games: int = 0
    analysed: int = 0

    def add(self, record: dict[str, Any], opening: Optional[list[str]]) -> None:
        """Counts one record; TypeError or ValueError (and nothing counted) when its fields
        are not what ``kibitz analyse`` writes."""
        if record.get("status") != "ok":
            self.games += 1
            self.results["not analysed"] = self.results.get("not analysed", 0) + 1
            return
        headers = record.get("headers") or {}
        if not isinstance(headers, dict):
            raise TypeError(f"the headers are a JSON object, not {type(headers).__name__}")
        result = _text(record.get("result") or headers.get("Result") or "*")
        white_points = WHITE_POINTS.get(result)
        # Everything is read before anything is counted.
        sides = [
            (colour, _text(headers.get(key)).strip() or "?", SideFigures.of(record.get(colour)))
            for colour, key in (("white", "White"), ("black", "Black"))
        ]
        self.games += 1
        self.analysed += 1
        self.results[result] = self.results.get(result, 0) + 1
        for colour, player, figures in sides:
            tallies = self.players.setdefault(player, {"all": Tally(), "white": Tally(), "black": Tally()})
            points = None if white_points is None else (white_points if colour == "white" else 1 - white_points)
            tallies["all"].add(figures, points)
            tallies[colour].add(figures, points)
        if opening:
            stats = self.openings.setdefault((opening[0], opening[1]), [0, 0.0, 0])
            stats[0] += 1
            if white_points is not None:
                stats[1] += white_points
                stats[2] += 1

    def player_rows(self) -> list[tuple[str, dict[str, dict[str, Any]]]]:
        """(name, {"all" / "white" / "black": figures}) by games played, then name."""
        ordered = sorted(self.players.items(), key=lambda kv: (-kv[1]["all"].games, kv[0].lower(), kv[0]))
        return [(name, {k: t.row() for k, t in tallies.items()}) for name, tallies in ordered]
