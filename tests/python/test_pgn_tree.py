"""kibitz.pgn against python-chess's chess.pgn, the game tree: the same answers from every
node, the same tree after each editing step, and the same games built from boards, headers
and set-up positions; scores, arrows, time controls, NAGs, copies and SAN reading as
python-chess has them.

Hypothesis runs a modest number of examples by default; ``--runslow`` runs ten times as many.
"""

from __future__ import annotations

import io
import random
import sys
from typing import Any

import chess
import chess.engine
import chess.pgn
import chess.svg
import pytest
from hypothesis import given
from hypothesis import strategies as st

import kibitz
import kibitz.pgn as kpgn
from pgn_reference import SLOW, assert_same_game, corpus, error_key, examples, random_game, read_all, tree

# --- the tree, and editing it ----------------------------------------------------------------


def node_facts(node: Any) -> tuple[Any, ...]:
    facts: list[Any] = [
        node.ply(), node.turn(), node.is_end(), node.is_mainline(), node.is_main_variation(),
        node.starts_variation(), node.board().fen(), len(node.variations), node.end().board().fen(),
        node.eval(), node.eval_depth(), node.clock(), node.emt(),
        [(a.tail, a.head, a.color) for a in node.arrows()],
        [m.uci() for m in node.mainline_moves()], [m.uci() for m in reversed(node.mainline_moves())],
        bool(node.mainline()),
    ]  # fmt: skip
    if node.parent is not None:
        facts += [node.san(), node.uci(), node.uci(chess960=True), node.uci(chess960=False)]
    return tuple(facts)


def paired_nodes(a: Any, b: Any) -> list[tuple[Any, Any]]:
    out = [(a, b)]
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        assert len(x.variations) == len(y.variations)
        for cx, cy in zip(x.variations, y.variations):
            out.append((cx, cy))
            stack.append((cx, cy))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_node_queries(seed: int) -> None:
    for ours, theirs in read_all(corpus(700 + seed, 5))[:-1]:
        for x, y in paired_nodes(ours, theirs):
            assert node_facts(x) == node_facts(y)
            assert isinstance(x.board(), kibitz.Board)
        assert ours.game() is ours
        assert ours.end().root() is ours


def random_edit(rng: random.Random, ours: Any, theirs: Any) -> str:
    pairs = paired_nodes(ours, theirs)
    x, y = rng.choice(pairs)
    op = rng.choice(["promote", "demote", "promote_to_main", "remove", "add", "add_main", "add_line",
                     "clock", "eval", "emt", "arrows", "comment", "nags", "by_move"])  # fmt: skip
    if op in ("promote", "demote", "promote_to_main", "remove", "by_move") and x.variations:
        i = rng.randrange(len(x.variations))
        if op == "promote":
            x.promote(i), y.promote(i)
        elif op == "demote":
            x.demote(x.variations[i]), y.demote(y.variations[i])
        elif op == "promote_to_main":
            x.promote_to_main(i), y.promote_to_main(i)
        elif op == "remove":
            x.remove_variation(i), y.remove_variation(i)
        else:
            move = y.variations[i].move
            assert x.has_variation(kibitz.Move.from_uci(move.uci())) and y.has_variation(move)
            x.promote(kibitz.Move.from_uci(move.uci())), y.promote(move)
    elif op in ("add", "add_main", "add_line"):
        board = y.board()
        moves = list(board.legal_moves)
        if not moves:
            return op
        move = rng.choice(moves)
        if op == "add":
            x.add_variation(move, comment="c", starting_comment="s", nags=[3])
            y.add_variation(move, comment="c", starting_comment="s", nags=[3])
        elif op == "add_main":
            x.add_main_variation(kibitz.Move.from_uci(move.uci()), comment="m", nags=[1])
            y.add_main_variation(move, comment="m", nags=[1])
        else:
            line = [move]
            board.push(move)
            for _ in range(rng.randint(0, 4)):
                nxt = list(board.legal_moves)
                if not nxt:
                    break
                line.append(rng.choice(nxt))
                board.push(line[-1])
            x.add_line(line, comment="end", starting_comment="start", nags=[2])
            y.add_line(line, comment="end", starting_comment="start", nags=[2])
    elif op == "clock":
        value = rng.choice([None, 0.0, 12.5, 3599.999, rng.uniform(0, 9999)])
        x.set_clock(value), y.set_clock(value)
    elif op == "emt":
        value = rng.choice([None, 1.0, rng.uniform(0, 999)])
        x.set_emt(value), y.set_emt(value)
    elif op == "eval":
        score = rng.choice([None, chess.engine.Cp(rng.randint(-500, 500)), chess.engine.Mate(rng.randint(-3, 3))])
        pov = None if score is None else chess.engine.PovScore(score, rng.choice([True, False]))
        depth = rng.choice([None, rng.randint(-1, 20)])
        x.set_eval(pov, depth), y.set_eval(pov, depth)
    elif op == "arrows":
        arrows = [(rng.randrange(64), rng.randrange(64)) for _ in range(rng.randint(0, 3))]
        colored = [
            chess.svg.Arrow(a, b, color=rng.choice(["red", "green", "blue", "yellow", "pink"])) for a, b in arrows
        ]
        x.set_arrows(colored), y.set_arrows(colored)
    elif op == "comment":
        text = rng.choice(["", "plain", "[%clk 1:00:00] x", "[%eval 0.5,3] [%csl Ra1]", " pad "])
        x.comment = y.comment = text
    elif op == "nags":
        x.nags.add(7), y.nags.add(7)
    return op


@pytest.mark.parametrize("seed", range(4))
def test_tree_editing_step_by_step(seed: int) -> None:
    rng = random.Random(800 + seed)
    for ours, theirs in read_all(corpus(800 + seed, 3))[:-1]:
        for _ in range(25):
            op = random_edit(rng, ours, theirs)
            assert str(ours) == str(theirs), op
            assert tree(ours) == tree(theirs), op
        for x, y in paired_nodes(ours, theirs)[:20]:
            assert node_facts(x) == node_facts(y)


@examples(15)
@given(st.integers(0, 2**32))
def test_hypothesis_tree_editing(seed: int) -> None:
    rng = random.Random(seed)
    theirs = random_game(rng, max_plies=20)
    ours = kpgn.read_game(io.StringIO(str(theirs)))
    theirs = chess.pgn.read_game(io.StringIO(str(theirs)))
    for _ in range(10):
        op = random_edit(rng, ours, theirs)
        assert str(ours) == str(theirs), op


# --- building games ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_from_board(seed: int) -> None:
    rng = random.Random(900 + seed)
    start = chess.Board.from_chess960_pos(rng.randrange(960)) if seed % 2 else chess.Board()
    if seed == 4:
        start = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    board = start.copy()
    for _ in range(rng.randint(0, 80)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    expected = chess.pgn.Game.from_board(board)
    assert str(kpgn.Game.from_board(board)) == str(expected)
    kboard = kibitz.Board.from_chess(board)
    ours = kpgn.Game.from_board(kboard)
    assert str(ours) == str(expected)
    assert list(ours.headers.items()) == list(expected.headers.items())


def test_setup_and_headers() -> None:
    for fen in [kibitz.STARTING_FEN, "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]:  # fmt: skip
        a, b = kpgn.Game(), chess.pgn.Game()
        a.setup(fen), b.setup(fen)
        assert list(a.headers.items()) == list(b.headers.items())
        assert a.board().fen() == b.board().fen()
        assert a.ply() == b.ply()
    a, b = kpgn.Game.without_tag_roster(), chess.pgn.Game.without_tag_roster()
    assert str(a) == str(b) and len(a.headers) == 0
    ha, hb = kpgn.Headers(), chess.pgn.Headers()
    for h in (ha, hb):
        h["Zeta"] = "1"
        h["Result"] = "1-0"
        h["Alpha"] = "2"
        del h["Site"]
    assert list(ha.items()) == list(hb.items())
    assert repr(ha) == repr(hb)
    assert ha.copy() == ha and list(ha.copy().items()) == list(ha.items())
    for bad in [("bad tag", "x"), ("Tag", "line\nbreak")]:
        with pytest.raises(ValueError):
            ha[bad[0]] = bad[1]
        with pytest.raises(ValueError):
            hb[bad[0]] = bad[1]
    for variant in ["Chess960", "fischerandom", "wild/8a", "Standard", "From Position"]:
        hk, hc = kpgn.Headers(Variant=variant), chess.pgn.Headers(Variant=variant)
        assert (hk.is_chess960(), hk.is_wild()) == (hc.is_chess960(), hc.is_wild())
        assert hk.variant() is kibitz.Board
        assert hk.board().fen() == hc.board().fen()


def test_evals_use_python_chess_scores() -> None:
    text = "1. e4 { [%eval 0.17,20] } e5 { [%eval #-3] } 2. Qh5 { [%eval #0] } *"
    game, theirs = kpgn.read_game(io.StringIO(text)), chess.pgn.read_game(io.StringIO(text))
    assert game is not None and theirs is not None
    for ours, expected in zip(game.mainline(), theirs.mainline()):
        score = ours.eval()
        assert isinstance(score, chess.engine.PovScore)
        assert (score, score.turn, ours.eval_depth()) == (expected.eval(), expected.eval().turn, expected.eval_depth())
    assert next(iter(game.mainline())).eval().white() == chess.engine.Cp(17)


def test_fallback_scores_compare_like_python_chess() -> None:
    assert kpgn.PovScore(kpgn.Cp(20), False).white() == kpgn.Cp(-20)
    assert kpgn.PovScore(kpgn.Mate(2), True).black() == kpgn.Mate(-2)
    assert kpgn.Mate(3).score(mate_score=1000) == chess.engine.Mate(3).score(mate_score=1000)
    assert kpgn.Mate(-3).score(mate_score=1000) == chess.engine.Mate(-3).score(mate_score=1000)
    node = kpgn.Game().add_variation(kibitz.Move.from_uci("e2e4"))
    node.set_eval(kpgn.PovScore(kpgn.Mate(2), True), 5)
    assert node.comment == "[%eval #2,5]"


def test_arrow() -> None:
    for text in ["Ga1", "Ra1h8", "Yb2", "Bc3d4"]:
        ours, theirs = kpgn.Arrow.from_pgn(text), chess.svg.Arrow.from_pgn(text)
        assert (ours.tail, ours.head, ours.color, ours.pgn()) == (theirs.tail, theirs.head, theirs.color, theirs.pgn())


def test_errors_are_collected_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    logging.getLogger("kibitz.pgn").setLevel(logging.ERROR)
    try:
        game = kpgn.read_game(io.StringIO("1. e4 e5 2. Qxf7 Nc6 *"))
    finally:
        logging.getLogger("kibitz.pgn").setLevel(logging.CRITICAL)
    assert game is not None
    assert len(game.errors) == 1 and isinstance(game.errors[0], kibitz.IllegalMoveError)
    assert "while parsing" in caplog.text
    assert "1 errors" in repr(game)

    class Raising(kpgn.GameBuilder[kpgn.Game]):
        def handle_error(self, error: Exception) -> None:
            raise error

    with pytest.raises(ValueError):
        kpgn.read_game(io.StringIO("1. e4 Ke7 Kxe8 *"), Visitor=Raising)


def test_custom_game_class_and_move_counter() -> None:
    class MyGame(kpgn.Game):
        pass

    text = corpus(950, 3)
    game = kpgn.read_game(io.StringIO(text), Visitor=MyGame.builder)
    assert isinstance(game, MyGame)
    assert_same_game(game, chess.pgn.read_game(io.StringIO(text)))

    class Counter(kpgn.BaseVisitor[int]):
        def begin_game(self) -> None:
            self.moves = 0

        def visit_move(self, board: kibitz.Board, move: kibitz.Move) -> None:
            self.moves += 1

        def result(self) -> int:
            return self.moves

    class CCounter(chess.pgn.BaseVisitor[int]):
        def begin_game(self) -> None:
            self.moves = 0

        def visit_move(self, board: chess.Board, move: chess.Move) -> None:
            self.moves += 1

        def result(self) -> int:
            return self.moves

    a, b = io.StringIO(text), io.StringIO(text)
    while True:
        ca, cb = kpgn.read_game(a, Visitor=Counter), chess.pgn.read_game(b, Visitor=CCounter)
        assert ca == cb
        if ca is None:
            break


@pytest.mark.parametrize("tag", ["", "?", "-", "180+2", "40/5400+30:1800+30", "300", "60+0.5", "900+10d",
                                 "40/7200:3600", "0+1", "3600", "x", "40/:60", "300:40/60"])  # fmt: skip
def test_time_control(tag: str) -> None:
    def parsed(module: Any) -> Any:
        try:
            tc = module.Game({"TimeControl": tag}).time_control()
        except ValueError:
            return "ValueError"
        return tc.type.name, [(p.moves, p.time, p.increment, p.delay) for p in tc.parts]

    assert parsed(kpgn) == parsed(chess.pgn)


def test_nags_copy_and_pickle() -> None:
    import copy
    import pickle

    text = "1. e4 $1 e5 ( 1... c5 !? ) 2. Nf3 *"
    ours, theirs = kpgn.read_game(io.StringIO(text)), chess.pgn.read_game(io.StringIO(text))
    assert ours is not None and theirs is not None
    for game in (ours, theirs):
        first = game.next()
        assert first is not None
        first.nags.add(3)
        first.nags = {2, 4}
        second = first.next()
        assert second is not None
        second.nags.add(5)
        game.foo = "bar"  # type: ignore[union-attr]
    assert str(ours) == str(theirs)
    for clone in (copy.deepcopy(ours), pickle.loads(pickle.dumps(ours))):
        assert str(clone) == str(theirs)
        assert clone.foo == "bar"  # type: ignore[attr-defined]
        assert clone.next() is not None and clone.next().nags is not ours.next().nags  # type: ignore[union-attr]


def test_scores_without_python_chess(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without chess.engine, eval() gives this module's scores, with the same values."""
    text = "1. e4 { [%eval 0.17,20] } e5 { [%eval #-3] } 2. Qh5 { [%eval #0] } Nc6 { [%eval -1.5] } *"
    theirs = chess.pgn.read_game(io.StringIO(text))
    monkeypatch.setitem(sys.modules, "chess.engine", None)
    ours = kpgn.read_game(io.StringIO(text))
    assert ours is not None and theirs is not None
    for a, b in zip(ours.mainline(), theirs.mainline()):
        score, expected = a.eval(), b.eval()
        assert isinstance(score, kpgn.PovScore)
        assert score.turn == expected.turn
        assert (score.relative.score(), score.relative.mate()) == (expected.relative.score(), expected.relative.mate())
        assert (score.white().score(), score.white().mate()) == (expected.white().score(), expected.white().mate())
        a.set_eval(score, 7)
        b.set_eval(expected, 7)
        assert a.comment == b.comment


@pytest.mark.parametrize("seed", range(3))
def test_san_reading_agrees_with_python_chess(seed: int) -> None:
    """Every SAN-like token, in positions from random games: the same move or the same error."""
    rng = random.Random(1000 + seed)
    for _ in range(40 if not SLOW else 400):
        theirs = chess.Board()
        for _ in range(rng.randint(0, 100)):
            moves = list(theirs.legal_moves)
            if not moves:
                break
            theirs.push(rng.choice(moves))
        ours = kibitz.Board(theirs.fen())
        legal = list(theirs.legal_moves)
        for _ in range(25):
            if legal and rng.random() < 0.5:
                san = theirs.san(rng.choice(legal)).rstrip("+#")
                token = rng.choice([san, san.replace("x", ""), san[:1] + san[2:], san + "Q", san.replace("=", ""),
                                    san.lower()])  # fmt: skip
            else:
                token = (rng.choice(["", "", "N", "B", "R", "Q", "K"]) + rng.choice(["", "", "e", "b"])
                         + rng.choice(["", "", "2", "7"]) + rng.choice(["", "x", "-"]) + rng.choice("abcdefgh")
                         + rng.choice("12345678") + rng.choice(["", "", "=Q", "q", "=K", "N"]))  # fmt: skip
            try:
                expected: Any = theirs.parse_san(token).uci()
            except ValueError as error:
                expected = error_key(error)
            try:
                got: Any = ours.parse_san(token).uci()
            except ValueError as error:
                got = error_key(error)
            assert got == expected, (theirs.fen(), token)
