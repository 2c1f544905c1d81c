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


def _text(value: Any) -> str:
    return "" if value is None else str(value)


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
        loss = float(move.get("win_loss") or 0.0)
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

    def add(self, side: dict[str, Any], points: Optional[float]) -> None:
        self.games += 1
        if points is not None:
            self.decided += 1
            self.points += points
        if side.get("accuracy") is not None:
            self.accuracy.append(float(side["accuracy"]))
        if side.get("acpl") is not None:
            self.acpl.append(float(side["acpl"]))
        self.inaccuracies += int(side.get("inaccuracies") or 0)
        self.mistakes += int(side.get("mistakes") or 0)
        self.blunders += int(side.get("blunders") or 0)

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
        self.games += 1
        if record.get("status") != "ok":
            self.results["not analysed"] = self.results.get("not analysed", 0) + 1
            return
        self.analysed += 1
        headers = record.get("headers") or {}
        result = _text(record.get("result") or headers.get("Result") or "*")
        self.results[result] = self.results.get(result, 0) + 1
        white_points = WHITE_POINTS.get(result)
        for colour, key in (("white", "White"), ("black", "Black")):
            player = _text(headers.get(key)).strip() or "?"
            tallies = self.players.setdefault(player, {"all": Tally(), "white": Tally(), "black": Tally()})
            side = record.get(colour) or {}
            points = None if white_points is None else (white_points if colour == "white" else 1 - white_points)
            tallies["all"].add(side, points)
            tallies[colour].add(side, points)
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
