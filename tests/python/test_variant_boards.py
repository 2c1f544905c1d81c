"""python-chess's variant boards (``chess.variant``) on kibitz, against python-chess's own.

Random games of every variant kibitz plays are played on both
libraries' boards in lockstep (moves chosen with a bias towards the variant's goal, so that
games end by its rules), and after every move everything a program asks of a board is
compared: the legal moves in order, FEN, EPD and Shredder-FEN, check, the variant's end,
win, loss and draw, ``outcome()``, ``result()``, insufficient material, ``status()``, SAN
and ``gives_check`` of the moves, repetitions, copies, ``root()``, ``mirror()``, ``==`` and
pop. The classes' attributes, ``find_variant`` and ``VARIANTS`` are compared too.
"""

from __future__ import annotations

import os
import pickle
import random
from typing import Any, Callable, List, Tuple, Type

import chess
import chess.variant
import pytest

import kibitz
from kibitz.variant import boards

LONG = bool(os.environ.get("KIBITZ_FUZZ_LONG"))
GAMES = 200 if LONG else 4

PLAYED = [
    "KingOfTheHillBoard",
    "RacingKingsBoard",
    "ThreeCheckBoard",
    "SuicideBoard",
    "GiveawayBoard",
    "AntichessBoard",
    "AtomicBoard",
    "HordeBoard",
    "CrazyhouseBoard",
]


def outcome_of(board: Any) -> Any:
    o = board.outcome()
    return None if o is None else (o.termination.name, o.winner, o.result())


def answers(board: Any) -> List[Tuple[str, Any]]:
    """What a program asks of a board, in order (an exception is an answer too)."""
    out: List[Tuple[str, Any]] = []

    def ask(name: str, f: Callable[[], Any]) -> None:
        try:
            value = f()
        except Exception as e:  # noqa: BLE001 (the error is the answer)
            value = ("raised", type(e).__name__, str(e))
        out.append((name, value))

    ask("legal", lambda: [m.uci() for m in board.legal_moves])
    ask("pseudo", lambda: [m.uci() for m in board.pseudo_legal_moves])
    ask("captures", lambda: [m.uci() for m in board.generate_legal_captures()])
    ask("fen", board.fen)
    ask("epd", board.epd)
    ask("shredder", board.shredder_fen)
    ask("epd_ops", lambda: board.epd(hmvc=board.halfmove_clock, id="x"))
    ask("check", board.is_check)
    ask("checkers", lambda: int(board.checkers_mask()))
    ask("end", board.is_variant_end)
    ask("win", board.is_variant_win)
    ask("loss", board.is_variant_loss)
    ask("draw", board.is_variant_draw)
    ask("mate", board.is_checkmate)
    ask("stalemate", board.is_stalemate)
    ask("insufficient", board.is_insufficient_material)
    ask("has_insufficient", lambda: (board.has_insufficient_material(True), board.has_insufficient_material(False)))
    ask("outcome", lambda: outcome_of(board))
    ask(
        "claim",
        lambda: (
            outcome_of(board) if board.outcome(claim_draw=True) is None else board.outcome(claim_draw=True).result()
        ),
    )
    ask("over", board.is_game_over)
    ask("result", board.result)
    ask("status", lambda: repr(board.status()))  # a Status flag, not a bare int
    ask("valid", board.is_valid)
    ask("repetition", lambda: (board.is_repetition(2), board.is_repetition(3), board.can_claim_threefold_repetition()))
    ask("san", lambda: [board.san(m) for m in list(board.legal_moves)[:6]])
    ask("lan", lambda: [board.lan(m) for m in list(board.legal_moves)[:3]])
    ask("gives_check", lambda: [board.gives_check(m) for m in list(board.legal_moves)[:6]])
    ask("legal_of_pseudo", lambda: [board.is_legal(m) for m in list(board.pseudo_legal_moves)[:8]])
    ask("stack", lambda: [m.uci() for m in board.move_stack])
    ask("copy", lambda: board.copy().fen())
    ask("copy_eq", lambda: (board.copy() == board, board.copy(stack=False) == board, board.copy(stack=1).fen()))
    ask("root", lambda: board.root().fen())
    ask("mirror", lambda: board.mirror().fen())
    ask("pickle", lambda: _pickled(board))
    ask("repr", lambda: repr(board).replace("kibitz.variant.boards", "chess.variant"))
    if hasattr(board, "remaining_checks"):
        ask("remaining", lambda: list(board.remaining_checks))
    return out


def _pickled(board: Any) -> Tuple[str, str, List[str], str]:
    again = pickle.loads(pickle.dumps(board))
    return (type(again).__name__, again.fen(), [m.uci() for m in again.move_stack], again.root().fen())


def goal_move(cls_name: str, board: Any, legal: List[Any], rng: random.Random) -> Any:
    """A random move, biased to the variant's goal so that games end by its rules."""
    if not legal:
        return None
    if rng.random() < 0.5:
        if cls_name == "KingOfTheHillBoard":
            kings = [m for m in legal if board.piece_type_at(m.from_square) == chess.KING]
            centre = [
                m
                for m in kings
                if chess.square_distance(m.to_square, chess.E4) < chess.square_distance(m.from_square, chess.E4)
            ]
            if centre:
                return rng.choice(centre)
        elif cls_name == "RacingKingsBoard":
            up = [
                m
                for m in legal
                if board.piece_type_at(m.from_square) == chess.KING
                and chess.square_rank(m.to_square) > chess.square_rank(m.from_square)
            ]
            if up:
                return rng.choice(up)
        elif cls_name == "ThreeCheckBoard":
            checks = [m for m in legal if board.gives_check(m)]
            if checks:
                return rng.choice(checks)
        elif cls_name == "AtomicBoard":
            # Explosions near the enemy king.
            king = board.king(not board.turn)
            near = [
                m
                for m in legal
                if board.is_capture(m) and king is not None and chess.square_distance(m.to_square, king) <= 2
            ]
            if near:
                return rng.choice(near)
        elif cls_name == "HordeBoard":
            # Black takes the horde; White advances.
            if board.turn == chess.BLACK:
                captures = [m for m in legal if board.is_capture(m)]
                if captures:
                    return rng.choice(captures)
            else:
                pushes = [m for m in legal if board.piece_type_at(m.from_square) == chess.PAWN]
                if pushes:
                    return rng.choice(pushes)
        elif cls_name == "CrazyhouseBoard":
            # Drops, checks and captures: the pockets fill and empty.
            sharp = [m for m in legal if m.drop or board.is_capture(m) or board.gives_check(m)]
            if sharp:
                return rng.choice(sharp)
        else:
            # The losing variants: promotions (to a king too) and king moves now and then.
            promotions = [m for m in legal if m.promotion]
            if promotions:
                return rng.choice(promotions)
    return rng.choice(legal)


def play(cls_name: str, seed: int) -> int:
    rng = random.Random(seed)
    if cls_name not in ("RacingKingsBoard", "AntichessBoard", "HordeBoard") and seed % 3 == 2:
        # A Chess960 start.
        n = rng.randrange(960)
        ref = getattr(chess.variant, cls_name).from_chess960_pos(n)
        mine = getattr(boards, cls_name).from_chess960_pos(n)
    else:
        ref = getattr(chess.variant, cls_name)()
        mine = getattr(boards, cls_name)()
    plies = 0
    while True:
        got, want = answers(mine), answers(ref)
        for (name, a), (_, b) in zip(got, want):
            assert a == b, f"{cls_name} seed {seed} ply {plies}: {name}: kibitz {a!r}, python-chess {b!r} ({ref.fen()})"
        legal = list(ref.legal_moves)
        move = goal_move(cls_name, ref, legal, rng)
        if move is None or plies >= 300:
            return plies
        how = rng.random()
        if how < 0.02:
            # python-chess's attributes are plain fields: a program may flip the side to move.
            # (The stack goes: python-chess's repetition count, which pops its moves and
            # pushes them back, would replay them without the flip.)
            mine.turn = ref.turn = not ref.turn
            mine.clear_stack()
            ref.clear_stack()
            continue
        if how < 0.1 and ref.move_stack:
            # Take back and play again: pop must restore everything.
            assert mine.pop().uci() == ref.pop().uci()
            continue
        if how < 0.4:
            san = ref.san(move)
            assert mine.push_san(san).uci() == move.uci()
            ref.push(move)
        elif how < 0.6:
            mine.push_uci(move.uci())
            ref.push(move)
        else:
            mine.push(kibitz.Move.from_uci(move.uci()))
            ref.push(move)
        plies += 1


@pytest.mark.parametrize("cls_name", PLAYED)
def test_random_games_answer_as_python_chess(cls_name: str) -> None:
    ended = 0
    for seed in range(GAMES):
        plies = play(cls_name, 1000 * PLAYED.index(cls_name) + seed)
        ended += plies < 300
    if cls_name != "CrazyhouseBoard":  # whose pieces never leave the game
        assert ended >= GAMES // 2, "the games should mostly end by the variant's rules"


def test_a_king_on_the_hill_wins_and_the_san_says_so() -> None:
    board = boards.KingOfTheHillBoard("rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w kq - 0 1")
    move = board.parse_san("Ke4")
    assert board.san(move) == chess.variant.KingOfTheHillBoard(board.fen()).san(chess.Move.from_uci("e3e4"))
    board.push(move)
    assert board.is_variant_loss() and board.result() == "1-0" and not list(board.legal_moves)
    assert board.outcome().termination == kibitz.Termination.VARIANT_LOSS


def test_racing_kings_forbids_checks_and_black_may_follow() -> None:
    board = boards.RacingKingsBoard()
    ref = chess.variant.RacingKingsBoard()
    assert [m.uci() for m in board.legal_moves] == [m.uci() for m in ref.legal_moves]
    # White's king is on the eighth rank, Black's one step away: Black still moves.
    fen = "4K3/5k2/8/8/8/8/8/8 b - - 0 1"
    for b in (boards.RacingKingsBoard(fen), chess.variant.RacingKingsBoard(fen)):
        assert not b.is_variant_end() and not b.is_game_over()
    fen = "4K3/8/5k2/8/8/8/8/8 b - - 0 1"
    assert boards.RacingKingsBoard(fen).result() == chess.variant.RacingKingsBoard(fen).result() == "1-0"


THREE_CHECK_FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1+2 4 9",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +2+1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkb1r/pppp1ppp/5n2/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 1+3 2 3",
    "4k3/8/8/8/8/8/8/4K3 w - - 3+0 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x+3 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +a+1",
]


@pytest.mark.parametrize("fen", THREE_CHECK_FENS)
def test_three_check_fens_read_and_write_as_python_chess(fen: str) -> None:
    def read(cls: Type[Any]) -> Any:
        try:
            b = cls(fen)
        except ValueError as e:
            return ("ValueError", str(e))
        return (b.fen(), b.epd(), list(b.remaining_checks), outcome_of(b), b.is_game_over())

    assert read(boards.ThreeCheckBoard) == read(chess.variant.ThreeCheckBoard)


def test_three_check_epd_operations_and_counters() -> None:
    epd = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3 bm e4; hmvc 5; fmvn 7; id "x";'
    mine, ref = boards.ThreeCheckBoard(), chess.variant.ThreeCheckBoard()
    got, want = mine.set_epd(epd), ref.set_epd(epd)
    assert {k: [m.uci() for m in v] if isinstance(v, list) else v for k, v in got.items()} == {
        k: [m.uci() for m in v] if isinstance(v, list) else v for k, v in want.items()
    }
    assert mine.fen() == ref.fen() and mine.remaining_checks == ref.remaining_checks
    assert mine.epd(bm=mine.parse_san("d4")) == ref.epd(bm=ref.parse_san("d4"))


def test_three_check_counters_follow_push_pop_copy_pickle_and_editing() -> None:
    board = boards.ThreeCheckBoard()
    ref = chess.variant.ThreeCheckBoard()
    for san in ["e4", "e5", "Qh5", "Nc6", "Qxf7+", "Kxf7", "Bc4+", "d5", "Bxd5+"]:
        board.push_san(san)
        ref.push_san(san)
        assert board.remaining_checks == ref.remaining_checks, san
    assert board.is_variant_loss() and board.result() == ref.result() == "1-0"
    assert board.fen() == ref.fen()
    again = pickle.loads(pickle.dumps(board))
    assert type(again) is boards.ThreeCheckBoard and again.fen() == board.fen() and again == board
    assert again.remaining_checks[chess.WHITE] == 0 and again.remaining_checks[chess.BLACK] == 3
    assert again.pop().uci() == ref.pop().uci() == "c4d5" and again.remaining_checks == ref.remaining_checks
    assert again.remaining_checks[chess.WHITE] == 1
    ref.push_san("Bxd5+")
    assert board.copy(stack=2).root().remaining_checks == ref.copy(stack=2).root().remaining_checks
    assert board.root().fen() == ref.root().fen()
    # An edit clears the stack (and the counters' history) but keeps the counters.
    board.remove_piece_at(chess.A2)
    ref.remove_piece_at(chess.A2)
    assert board.fen() == ref.fen() and not board.move_stack
    # The game is over (python-chess's push plays a move all the same).
    board.push(kibitz.Move.from_uci("a7a6"))
    ref.push(chess.Move.from_uci("a7a6"))
    assert board.fen() == ref.fen()
    board.pop()
    ref.pop()
    assert board.fen() == ref.fen() and board.remaining_checks == ref.remaining_checks
    board.reset()
    ref.reset()
    assert board.fen() == ref.fen()
    board.clear()
    ref.clear()
    assert board.fen() == ref.fen()


def test_classes_and_find_variant_are_python_chess_s() -> None:
    attributes = [
        "aliases",
        "uci_variant",
        "xboard_variant",
        "starting_fen",
        "tbw_suffix",
        "tbz_suffix",
        "tbw_magic",
        "tbz_magic",
    ]
    assert [v.__name__ for v in boards.VARIANTS] == [v.__name__ for v in chess.variant.VARIANTS]
    for mine, ref in zip(boards.VARIANTS, chess.variant.VARIANTS):
        for name in attributes + ["connected_kings", "one_king", "captures_compulsory"]:
            if hasattr(ref, name):
                assert getattr(mine, name) == getattr(ref, name), (ref.__name__, name)
        for alias in ref.aliases:
            for spelling in (alias, alias.upper(), alias.lower()):
                assert boards.find_variant(spelling).__name__ == chess.variant.find_variant(spelling).__name__
    with pytest.raises(ValueError, match="unsupported variant: nosuch"):
        boards.find_variant("nosuch")
    for name in PLAYED:
        assert issubclass(getattr(boards, name), kibitz.Board)


def random_game(cls_name: str, seed: int) -> Any:
    """A python-chess variant board after a random game (biased to its goal)."""
    rng = random.Random(seed)
    board = getattr(chess.variant, cls_name)()
    while len(board.move_stack) < 200:
        move = goal_move(cls_name, board, list(board.legal_moves), rng)
        if move is None:
            break
        board.push(move)
    return board


@pytest.mark.parametrize("cls_name", PLAYED)
def test_pgn_games_of_the_variants_read_and_write_as_python_chess(cls_name: str) -> None:
    import io

    import chess.pgn

    import kibitz.pgn

    for seed in range(3):
        ref_board = random_game(cls_name, seed)
        text = str(chess.pgn.Game.from_board(ref_board))
        game = kibitz.pgn.read_game(io.StringIO(text))
        ref_game = chess.pgn.read_game(io.StringIO(text))
        assert game is not None and ref_game is not None and not game.errors
        assert type(game.board()).__name__ == cls_name
        end, ref_end = game.end().board(), ref_game.end().board()
        assert type(end).__name__ == cls_name
        assert (end.fen(), end.result(), outcome_of(end)) == (ref_end.fen(), ref_end.result(), outcome_of(ref_end))
        assert str(game) == str(ref_game) == text
        # And written from a kibitz board.
        mine = getattr(boards, cls_name)()
        for move in ref_board.move_stack:
            mine.push(kibitz.Move.from_uci(move.uci()))
        assert str(kibitz.pgn.Game.from_board(mine)) == text


def test_horde_insufficient_material_as_python_chess() -> None:
    # Few pieces of each side on random squares: the horde's insufficient material is a
    # case analysis of its material against Black's blockers.
    rng = random.Random(5)
    kinds = "PNBRQ"
    for _ in range(3000 if LONG else 400):
        squares = rng.sample(range(8, 56), 10)
        placement = {squares.pop(): "k"}
        for _ in range(rng.randrange(0, 5)):
            placement[squares.pop()] = rng.choice(kinds).lower()
        for _ in range(rng.randrange(0, 5)):
            placement[squares.pop()] = rng.choice(kinds + "BBNN")
        ref = chess.variant.HordeBoard(None)
        for square, symbol in placement.items():
            ref.set_piece_at(square, chess.Piece.from_symbol(symbol))
        mine = boards.HordeBoard(ref.fen())
        for color in (chess.WHITE, chess.BLACK):
            assert mine.has_insufficient_material(color) == ref.has_insufficient_material(color), (ref.fen(), color)
        assert int(mine.status()) == int(ref.status()), ref.fen()


def test_crazyhouse_copies_do_not_share_pockets() -> None:
    # Two copies popped back to the same position then played on: one's captures stay out
    # of the other's pocket.
    board = boards.CrazyhouseBoard()
    for san in ["e4", "d5", "exd5", "Qxd5"]:
        board.push_san(san)
    copy = board.copy()
    board.pop()
    copy.pop()
    board.push_san("Qxd5")
    assert str(board.pockets[chess.BLACK]) == "p" and str(copy.pockets[chess.BLACK]) == ""
    copy.push_san("Nf6")
    assert str(board.pockets[chess.BLACK]) == "p" and copy.fen().startswith(
        "rnbqkb1r/ppp1pppp/5n2/3P4/8/8/PPPP1PPP/RNBQKBNR[P]"
    )


def test_crazyhouse_refuses_a_drop_it_cannot_make_and_keeps_the_board() -> None:
    board = boards.CrazyhouseBoard("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w KQkq - 0 1")
    before = board.fen()
    for uci in ["Q@e4", "N@e2", "P@e4"]:  # not in the pocket, an occupied square, no pawn
        with pytest.raises(ValueError, match="illegal drop"):
            board.push(kibitz.Move.from_uci(uci))
        assert board.fen() == before and not board.move_stack
    board.push(kibitz.Move.from_uci("N@e4"))
    assert str(board.pockets[chess.WHITE]) == "" and board.fen().startswith("rnbqkbnr/pppppppp/8/8/4N3/8/")
    # A king in a pocket (a turn flipped in check let one be taken): python-chess's drop
    # generators offer it though it is never legal, and its claims push it; so does this.
    fen = "3k4/8/8/8/8/8/8/8[Kq] w - - 0 1"
    mine, ref = boards.CrazyhouseBoard(fen), chess.variant.CrazyhouseBoard(fen)
    assert [m.uci() for m in mine.generate_pseudo_legal_drops()] == [m.uci() for m in ref.generate_pseudo_legal_drops()]
    assert not mine.is_legal(kibitz.Move.from_uci("K@a1")) and not ref.is_legal(chess.Move.from_uci("K@a1"))
    mine.push(kibitz.Move.from_uci("K@a1"))
    ref.push(chess.Move.from_uci("K@a1"))
    assert mine.fen() == ref.fen()
