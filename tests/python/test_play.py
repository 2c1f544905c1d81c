"""``kibitz play``: the terminal game, driven through stdin."""

from __future__ import annotations

import random
import subprocess

import chess
import chess.pgn
import pytest

import kibitz
from kibitz.cli.play import draw_board, game_over, insufficient_material, parse_move, position_key
from uci_session import kibitz_command


def play(stdin: str, *args: str) -> str:
    p = subprocess.run(
        kibitz_command() + ["play", "--time", "0.05", *args], input=stdin, capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    return p.stdout


def announced(out: str, text: str) -> bool:
    """Whether `text` is a whole line of the output (after the move prompt, when the game
    ends on the player's input)."""
    return any(line == text or line.endswith("> " + text) for line in out.splitlines())


@pytest.mark.parametrize(
    "move, fen, result",
    [
        ("Rd8#", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "1-0 (White wins by checkmate)"),
        ("Kg6", "7k/5Q2/5K2/8/8/8/8/8 w - - 0 1", "1/2-1/2 (draw by stalemate)"),
    ],
    ids=["checkmate", "stalemate"],
)
def test_game_end_announced(move, fen, result):
    out = play(move + "\n", "--fen", fen)
    assert announced(out, f"Game over: {result}")


def test_illegal_and_bad_moves_refused_with_reason():
    out = play("e2e4\nRd9\nKh3\nhello\nRd8\n", "--fen", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    assert "refused 'e2e4'" in out
    assert "refused 'Rd9'" in out
    assert "refused 'Kh3'" in out
    assert "refused 'hello'" in out
    assert announced(out, "Game over: 1-0 (White wins by checkmate)")


def test_ambiguous_move_refused():
    out = play("Nd2\nNbd2\nquit\n", "--fen", "7k/8/8/8/8/8/8/1N3N1K w - - 0 1", "--no-book")
    assert "ambiguous move 'Nd2'" in out
    assert "kibitz plays" in out  # Nbd2 was accepted and kibitz replied


def test_promotion_needs_a_piece():
    out = play("b7b8\nb8=N\nquit\n", "--fen", "8/1P5k/8/8/8/8/8/K7 w - - 0 1")
    assert "promotion" in out
    assert "kibitz plays" in out


def test_takeback_and_fen():
    out = play("e4\nundo\nfen\nquit\n")
    assert "taken back" in out
    assert chess.STARTING_FEN in out


def test_nothing_to_take_back():
    out = play("undo\nquit\n")
    assert "nothing to take back" in out


def test_black_side_level_and_help():
    out = play("help\nmoves\nflip\nquit\n", "--color", "black", "--level", "1200", "--no-book")
    assert "you are Black" in out and "level 1200" in out
    first_prompt = out.index("your move>")
    assert out.index("kibitz plays") < first_prompt  # White (kibitz) moved first
    assert "undo" in out  # help text


def test_bad_arguments():
    p = subprocess.run(kibitz_command() + ["play", "--level", "50"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "level" in p.stderr
    p = subprocess.run(kibitz_command() + ["play", "--fen", "bad"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "fen" in p.stderr.lower()


def test_resign_and_eof():
    assert announced(play("resign\n"), "Game over: 0-1 (you resigned)")
    assert "Bye." in play("")


def test_draw_board_orientation():
    b = kibitz.Board()
    white = draw_board(b, True).splitlines()
    black = draw_board(b, False).splitlines()
    assert white[0].startswith(" 8  r n b q k b n r")
    assert black[0].startswith(" 1  R N B K Q B N R")
    assert white[-1].strip() == "a b c d e f g h"
    assert black[-1].strip() == "h g f e d c b a"


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/4KN2 w - - 0 1",
        "8/8/8/4k3/8/8/8/4KB2 w - - 0 1",
        "8/8/8/2b1k3/8/8/8/4KB2 w - - 0 1",
        "8/8/8/3bk3/8/8/8/4KB2 w - - 0 1",
        "8/8/8/4k3/8/8/8/3NKN2 w - - 0 1",
        "8/8/8/4k3/8/8/5P2/4K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/4KR2 w - - 0 1",
        "8/8/8/1n2k3/8/8/8/4KB2 w - - 0 1",
    ],
)
def test_insufficient_material_matches_python_chess(fen):
    assert insufficient_material(kibitz.Board(fen)) == chess.Board(fen).is_insufficient_material()


def test_game_over_rules_agree_with_python_chess():
    rng = random.Random(3)
    for _ in range(40):
        cb = chess.Board()
        kb = kibitz.Board()
        history = [position_key(kb)]
        while True:
            over = game_over(kb, history)
            # the game ends as python-chess's outcome() says, and also at a threefold
            # repetition or 100 half-moves (kibitz play announces those draws at once)
            out = cb.outcome()
            ref = out.result() if out else "1/2-1/2" if cb.is_repetition(3) or cb.halfmove_clock >= 100 else None
            if ref is not None:
                assert over is not None and over[0] == ref, (cb.fen(), ref, over)
                break
            assert over is None, (cb.fen(), over)
            move = rng.choice(list(cb.legal_moves))
            cb.push(move)
            kb.push_uci(move.uci())
            history.append(position_key(kb))


def test_parse_move_forms():
    b = kibitz.Board()
    assert parse_move(b, "e4") == "e2e4"
    assert parse_move(b, "E2E4") == "e2e4"
    assert parse_move(b, "Nf3") == "g1f3"
    with pytest.raises(ValueError):
        parse_move(b, "e5")


@pytest.mark.parametrize(
    "fen, typed",
    [
        # Black to move on move 12, one legal move (Kg8); then White mates: "12... Kg8 13. Ra8#".
        ("7k/8/6K1/8/8/8/8/R7 b - - 0 12", ["Ra8#"]),
        # White to move on move 40; Black's reply is forced: "40. Ra8+ Kh7".
        ("6k1/8/5K2/8/8/8/8/R7 w - - 0 40", ["Ra8+", "quit"]),
    ],
    ids=["black-first", "white-first"],
)
def test_moves_are_numbered_from_the_fen(fen, typed):
    """The moves line numbers moves as PGN does from the FEN's fullmove number and side to
    move (python-chess's PGN movetext of the same moves is the reference)."""
    out = play("\n".join(typed) + "\n", "--fen", fen, "--no-book")
    shown = [line[len("moves: ") :] for line in out.splitlines() if line.startswith("moves: ")][-1]
    board = chess.Board(fen)
    replay = board.copy()
    moves = [replay.push_san(t) for t in shown.split() if not t[0].isdigit()]
    assert len(moves) == 2
    game = chess.pgn.Game()
    game.setup(board)
    game.add_line(moves)
    assert shown == str(game.mainline())
