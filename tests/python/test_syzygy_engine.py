"""The search with Syzygy tables: root moves cut to those that keep the tablebase value
(checked against python-chess's prober on the same tables), a won ending converted to mate
over the board, a drawn one held, probes counted in `tbhits`, and the UCI options."""

from __future__ import annotations

import os
from pathlib import Path

import chess
import chess.syzygy
import pytest

import kibitz
from uci_session import RawUci

TABLES = Path(__file__).resolve().parents[1] / "data" / "syzygy"


@pytest.fixture(scope="module")
def reference() -> chess.syzygy.Tablebase:
    with chess.syzygy.open_tablebase(str(TABLES)) as tb:
        yield tb


def mover_result(reference: chess.syzygy.Tablebase, board: chess.Board, move: chess.Move) -> int:
    """The WDL, for the side that made `move`, of the position after it (2 win ... -2 loss),
    under the 50-move rule: a win whose next capture or pawn move (the table's DTZ) lies
    past the clock's hundredth ply cannot be forced any more, so it counts as a draw."""
    child = board.copy()
    child.push(move)
    if child.is_checkmate():
        return 2
    if child.is_stalemate() or child.is_insufficient_material():
        return 0
    wdl = reference.probe_wdl(child)
    if wdl != 0 and child.halfmove_clock + abs(reference.probe_dtz(child)) > 100:
        return 0
    return -wdl


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/3k4/8/8/8/KR6 w - - 0 1",  # KRvK: won
        "8/8/3k4/8/8/8/2q5/7K b - - 0 1",  # KvKQ, Black to move: won for Black
        "8/8/8/3k4/8/8/1p6/KR6 w - - 0 1",  # KRvKP
        "8/8/8/4k3/8/8/3P4/4K3 w - - 0 1",  # KPvK
        "8/8/8/3k4/8/8/6r1/K1R5 w - - 0 1",  # KRvKR: drawn
    ],
)
def test_the_move_played_keeps_the_tablebase_value(reference: chess.syzygy.Tablebase, fen: str) -> None:
    engine = kibitz.Engine(16, syzygy_path=str(TABLES))
    board = chess.Board(fen)
    result = engine.search(kibitz.Board(fen), nodes=5000)
    best = max(mover_result(reference, board, m) for m in board.legal_moves)
    played = chess.Move.from_uci(result.best_move)
    assert mover_result(reference, board, played) == best, (fen, result.best_move)
    assert result.tbhits > 0


def test_without_tables_there_are_no_probes() -> None:
    result = kibitz.Engine(16).search(kibitz.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1"), nodes=2000)
    assert result.tbhits == 0


@pytest.mark.parametrize("tables", [True, False])
def test_a_won_ending_is_converted_to_mate(reference: chess.syzygy.Tablebase, tables: bool) -> None:
    # KBNvK, the ending search alone cannot win at a small node budget (without the tables
    # the same engine reaches the 50-move rule: the second case checks that this test can
    # tell). Both sides play kibitz's move; with the tables the winner never lets the win
    # slip and mates inside the 50-move rule.
    board = chess.Board("8/8/8/4k3/8/8/8/KBN5 w - - 0 1")
    engine = kibitz.Engine(16, syzygy_path=str(TABLES)) if tables else kibitz.Engine(16)
    for _ in range(150):
        if board.is_game_over(claim_draw=True):
            break
        if tables and board.turn == chess.WHITE:
            assert reference.probe_wdl(board) == 2, board.fen()
        board.push_uci(engine.search(kibitz.Board(board.fen()), nodes=2000).best_move)
    assert board.is_checkmate() == tables, board.fen()


def test_set_syzygy_and_its_errors(tmp_path: Path) -> None:
    engine = kibitz.Engine(16)
    assert engine.set_syzygy(str(TABLES)) == len(list(TABLES.glob("*.rtb?")))
    assert engine.syzygy_files > 0
    assert engine.set_syzygy(None) == 0 and engine.syzygy_files == 0
    with pytest.raises(OSError):
        engine.set_syzygy(str(tmp_path / "nope"))
    with pytest.raises(OSError):
        kibitz.Engine(16, syzygy_path=str(tmp_path / "nope"))


def test_uci_options_load_the_tables_and_info_shows_tbhits() -> None:
    uci = RawUci()
    for line in ("uci", f"setoption name SyzygyPath value {TABLES}", "setoption name SyzygyProbeDepth value 1"):
        uci.send(line)
    uci.sync(timeout=120)
    uci.send("position fen 8/8/8/3k4/8/8/8/KR6 w - - 0 1")
    uci.send("go nodes 5000")
    best = uci.expect("bestmove", timeout=120).split()[1]
    # After the search (a change asked for during one waits for the next isready).
    uci.send("setoption name SyzygyPath value /nonexistent/tables")
    uci.sync(timeout=120)
    assert uci.close() == 0
    out = uci.seen
    options = [l for l in out if l.startswith("option name Syzygy")]
    assert {l.split()[2] for l in options} == {"SyzygyPath", "SyzygyProbeDepth", "Syzygy50MoveRule", "SyzygyProbeLimit"}
    assert any("tablebase files" in l for l in out), out
    infos = [l for l in out if l.startswith("info") and " tbhits " in l]
    assert infos and int(infos[-1].split(" tbhits ")[1].split()[0]) > 0
    board = chess.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1")
    with chess.syzygy.open_tablebase(str(TABLES)) as tb:
        assert mover_result(tb, board, chess.Move.from_uci(best)) == 2
    assert any("tablebases off" in l for l in out), out
    assert out.count("readyok") == 2


def test_a_missing_directory_of_syzygy_path_is_left_out_and_the_others_read(tmp_path: Path) -> None:
    """As Stockfish: one stale directory in the list does not turn the tables off."""
    uci = RawUci()
    uci.send(f"setoption name SyzygyPath value {tmp_path / 'gone'}{os.pathsep}{TABLES}")
    uci.sync(timeout=120)
    assert uci.close() == 0
    assert any("'" + str(tmp_path / "gone") + "' is not a directory; left out" in l for l in uci.seen), uci.seen
    found = [l for l in uci.seen if "tablebase files" in l]
    assert found and int(found[-1].split("found ")[1].split()[0]) == len(list(TABLES.glob("*.rtb?")))


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/4k3/8/8/8/KR6 w - - 0 1",  # KRvK
        "8/8/3k4/8/8/8/2r5/KQ6 w - - 0 1",  # KQvKR
        "8/8/8/3k4/8/2K5/8/4B1N1 w - - 0 1",  # KBNvK, another start
    ],
)
def test_won_endings_are_mated_inside_the_fifty_move_rule(reference: chess.syzygy.Tablebase, fen: str) -> None:
    # kibitz plays both sides; the tables say the side to move wins, and it must mate
    # without ever letting the win slip (WDL 2 on every one of its moves) before the
    # 50-move rule or a repetition ends the game.
    board = chess.Board(fen)
    assert board.is_valid() and reference.probe_wdl(board) == 2, "the test position must be a tablebase win"
    winner = board.turn
    engine = kibitz.Engine(16, syzygy_path=str(TABLES))
    for _ in range(200):
        if board.is_game_over(claim_draw=True):
            break
        if board.turn == winner:
            assert reference.probe_wdl(board) == 2, board.fen()
        board.push_uci(engine.search(kibitz.Board(board.fen()), nodes=2000).best_move)
    assert board.is_checkmate() and board.turn != winner, board.fen()


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/3k4/8/3P4/3K4 b - - 0 1",  # KPvK, the defender in front of the pawn
        "8/8/2k5/8/4b3/8/8/3RK3 b - - 0 1",  # KRvKB
        "8/8/2k5/8/4n3/8/8/3RK3 b - - 0 1",  # KRvKN
    ],
)
def test_drawn_endings_are_held(reference: chess.syzygy.Tablebase, fen: str) -> None:
    # kibitz plays both sides of a tablebase draw for 100 plies: the defender (the side to
    # move at the start) must never move into a lost position, and the stronger side never
    # into one it loses either.
    board = chess.Board(fen)
    assert board.is_valid() and reference.probe_wdl(board) == 0, "the test position must be a tablebase draw"
    engine = kibitz.Engine(16, syzygy_path=str(TABLES))
    for _ in range(100):
        if board.is_game_over(claim_draw=True):
            break
        move = chess.Move.from_uci(engine.search(kibitz.Board(board.fen()), nodes=2000).best_move)
        assert mover_result(reference, board, move) >= 0, (board.fen(), move.uci())
        board.push(move)
    assert board.outcome(claim_draw=True) is None or board.outcome(claim_draw=True).winner is None


def test_the_judge_counts_wins_the_fifty_move_rule_ends_as_draws(reference: chess.syzygy.Tablebase) -> None:
    # KRvKN, Black to move with 84 plies on the clock: after Kb8 White wins by the tables
    # but needs 18 plies to its next capture or pawn move, and 15 are left; after Nf6 it
    # needs 1. With a fresh clock both are losses for Black.
    late = chess.Board("8/2k5/4K1R1/8/4n3/8/8/8 b - - 84 43")
    early = chess.Board("8/2k5/4K1R1/8/4n3/8/8/8 b - - 0 43")
    kb8, nf6, kb7 = (chess.Move.from_uci(u) for u in ("c7b8", "e4f6", "c7b7"))
    assert [mover_result(reference, late, m) for m in (kb8, nf6, kb7)] == [0, -2, 0]
    assert [mover_result(reference, early, m) for m in (kb8, nf6, kb7)] == [-2, -2, 0]


def test_the_score_shown_at_a_root_in_the_tables_is_the_tables_value(reference: chess.syzygy.Tablebase) -> None:
    """A root the tables hold shows their value, not the evaluation's (a drawn KRvKB read
    as +150 before): a draw 0, a win or loss a score beyond every evaluation, unless the
    search has found the mate; and a ponder move also where the pv stops at a table hit."""
    import random

    from reference import random_placement

    rng = random.Random(7)
    engine = kibitz.Engine(16, syzygy_path=str(TABLES))
    seen = set()
    for material in ["KRvK", "KRvKB", "KPvK", "KvKP", "KBNvK", "KQvKR", "KNvK", "KRvKR", "KPvKP"] * 3:
        left, right = material.split("v")
        board = random_placement(rng, left + right.lower())
        if board.castling_rights or not list(board.legal_moves):
            continue
        wdl = reference.probe_wdl(board)
        if wdl != 0 and board.halfmove_clock + abs(reference.probe_dtz(board)) > 100:
            wdl = 0
        result = engine.search(kibitz.Board(board.fen()), nodes=3000)
        shown = result.score_cp
        if result.mate is not None:
            assert (result.mate > 0) == (wdl > 0) and wdl != 0, (board.fen(), result.mate, wdl)
        elif wdl > 0:
            assert shown is not None and shown > 20_000, (board.fen(), shown)
        elif wdl < 0:
            assert shown is not None and shown < -20_000, (board.fen(), shown)
        else:
            assert shown == 0, (board.fen(), shown)
        seen.add((wdl > 0) - (wdl < 0))
        if len(list(board.legal_moves)) > 0 and result.best_move is not None:
            after = board.copy()
            after.push_uci(result.best_move)
            if not after.is_game_over():
                assert result.ponder is not None and chess.Move.from_uci(result.ponder) in after.legal_moves, (
                    board.fen()
                )
    assert seen == {-1, 0, 1}
