"""kibitz.Engine: mates at the right distance (checked by playing the PV out in python-chess),
draws by rule, limits, MultiPV, stop() from another thread, on_info, errors; and the
Board's game-end rules against python-chess."""

from __future__ import annotations

import pathlib
import random
import threading
import time

import chess
import pytest

import kibitz
import kibitz.timeman

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"


def load_mates(path: pathlib.Path = DATA / "mates.txt") -> list[tuple[str, int]]:
    """(FEN, mate in N moves for the side to move; negative: it is mated) from mates.txt,
    which tests/search.rs reads too (its header says where the distances come from)."""
    mates = []
    for lineno, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fen, sep, n = line.rpartition(" mate ")
        assert sep and len(fen.split()) == 6, f"{path.name}:{lineno}: expected 'FEN mate N', got {raw!r}"
        mates.append((fen, int(n)))
    assert mates, f"{path} holds no positions"
    return mates


MATES = load_mates()

MIDDLEGAME = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9"


@pytest.fixture(scope="module")
def engine() -> kibitz.Engine:
    return kibitz.Engine(16)


@pytest.mark.parametrize("fen,n", MATES)
def test_mate_distance_and_pv_mates(engine: kibitz.Engine, fen: str, n: int) -> None:
    engine.clear()
    r = engine.search(
        kibitz.Board(fen), depth=max(4, 2 * abs(n) + 6)
    )  # margin for selective pruning, as in tests/search.rs
    assert r.mate == n, r
    assert r.score_cp is None
    ref = chess.Board(fen)
    assert r.best_move is not None
    assert chess.Move.from_uci(r.best_move) in ref.legal_moves
    if n > 0:
        assert len(r.pv) == 2 * n - 1, r.pv
        for uci in r.pv:
            move = chess.Move.from_uci(uci)
            assert move in ref.legal_moves, (uci, ref.fen())
            ref.push(move)
        assert ref.is_checkmate(), r.pv


def test_no_legal_move(engine: kibitz.Engine) -> None:
    stalemate = engine.search(kibitz.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), depth=5)
    assert stalemate.best_move is None and stalemate.stalemate and not stalemate.checkmate
    assert stalemate.score_cp == 0 and stalemate.pv == [] and stalemate.lines == []
    mated = engine.search(kibitz.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), movetime_ms=100)
    assert mated.best_move is None and mated.checkmate and not mated.stalemate
    assert mated.mate == 0


@pytest.mark.parametrize(
    "fen,depth",
    [
        ("k7/8/1QK5/8/8/8/8/7r b - - 0 1", 8),  # the rook forces stalemate or a dead draw
        ("8/8/8/4k3/8/8/8/4K2Q w - - 99 120", 6),  # every move reaches the 50-move rule
        ("8/8/4k3/8/8/3K4/5B2/8 w - - 0 1", 6),  # insufficient material
    ],
)
def test_draws_by_rule_score_zero(engine: kibitz.Engine, fen: str, depth: int) -> None:
    r = engine.search(kibitz.Board(fen), depth=depth)
    assert r.score_cp == 0, r


def test_threefold_from_game_history_scores_zero(engine: kibitz.Engine) -> None:
    board = kibitz.Board()
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]:
        board.push_uci(m)
    # f6g8 repeats the start position for the third time.
    r = engine.search(board, depth=4, searchmoves=["f6g8"])
    assert r.best_move == "f6g8" and r.score_cp == 0


def test_perftsuite_positions_get_legal_moves() -> None:
    engine = kibitz.Engine(8)
    lines = [ln for ln in (DATA / "perftsuite.epd").read_text().splitlines() if ln.strip()]
    assert len(lines) > 100
    for line in lines:
        fen = line.split(";")[0].strip()
        r = engine.search(kibitz.Board(fen), depth=4)
        ref = chess.Board(fen)
        if not any(ref.legal_moves):
            assert r.best_move is None
            continue
        assert r.best_move is not None, fen
        assert chess.Move.from_uci(r.best_move) in ref.legal_moves, fen
        assert r.depth == 4
        for uci in r.pv:
            move = chess.Move.from_uci(uci)
            assert move in ref.legal_moves, (fen, r.pv)
            ref.push(move)


def test_stop_from_another_thread_within_50ms() -> None:
    engine = kibitz.Engine(16)
    board = kibitz.Board(MIDDLEGAME)
    stopped_at: list[float] = []

    def stopper() -> None:
        time.sleep(0.2)
        stopped_at.append(time.perf_counter())
        engine.stop()

    t = threading.Thread(target=stopper)
    t.start()
    r = engine.search(board)  # no limit: runs until stopped
    returned = time.perf_counter()
    t.join()
    assert returned - stopped_at[0] < 0.05
    assert r.best_move in board.legal_moves_uci()


def test_engine_busy_calls_raise_and_stop_is_idempotent() -> None:
    engine = kibitz.Engine(4)
    engine.stop()  # idle: no effect on the next search
    board = kibitz.Board(MIDDLEGAME)
    errors: list[BaseException] = []
    started = threading.Event()

    def run() -> None:
        try:
            engine.search(board, on_info=lambda info: started.set())
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    t = threading.Thread(target=run)
    t.start()
    assert started.wait(5)
    with pytest.raises(RuntimeError):
        engine.clear()
    with pytest.raises(RuntimeError):
        engine.resize(8)
    engine.stop()
    t.join()
    assert not errors
    engine.clear()


def test_depth_limit_exact_and_info_per_iteration(engine: kibitz.Engine) -> None:
    infos: list[kibitz.SearchResult] = []
    r = engine.search(kibitz.Board(MIDDLEGAME), depth=6, on_info=infos.append)
    assert r.depth == 6
    assert [i.depth for i in infos] == [1, 2, 3, 4, 5, 6]
    assert all(i.multipv == 1 and i.bound == "exact" for i in infos)
    assert infos[-1].pv == r.pv and infos[-1].best_move == r.best_move
    assert r.nodes >= infos[-1].nodes > 0


@pytest.mark.parametrize("nodes", [1, 50, 5000, 30000])
def test_node_limit_never_exceeded(engine: kibitz.Engine, nodes: int) -> None:
    board = kibitz.Board(MIDDLEGAME)
    r = engine.search(board, nodes=nodes)
    assert r.nodes <= nodes
    assert r.best_move in board.legal_moves_uci()
    if nodes >= 5000:
        assert r.nodes == nodes


def test_multipv_distinct_legal_ordered(engine: kibitz.Engine) -> None:
    board = kibitz.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    infos: list[kibitz.SearchResult] = []
    r = engine.search(board, depth=5, multipv=3, on_info=infos.append)
    assert [line.multipv for line in r.lines] == [1, 2, 3]
    moves = [line.best_move for line in r.lines]
    assert len(set(moves)) == 3 and all(m in board.legal_moves_uci() for m in moves)
    scores = [line.score_cp for line in r.lines]
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    assert r.best_move == moves[0]
    assert len(infos) == 5 * 3 and [i.multipv for i in infos[-3:]] == [1, 2, 3]


def test_searchmoves_and_movetime(engine: kibitz.Engine) -> None:
    board = kibitz.Board()
    r = engine.search(board, depth=5, searchmoves=["a2a3", "h2h3"])
    assert r.best_move in ("a2a3", "h2h3")
    start = time.perf_counter()
    r = engine.search(kibitz.Board(MIDDLEGAME), movetime_ms=150)
    assert time.perf_counter() - start < 1.0  # generous: a hung search would take forever
    assert r.best_move is not None


def test_only_move_is_played_at_once(engine: kibitz.Engine) -> None:
    board = kibitz.Board("7k/8/6K1/8/8/8/8/R7 b - - 0 1")
    start = time.perf_counter()
    r = engine.search(board, soft_ms=5000, hard_ms=10000)
    assert time.perf_counter() - start < 1.0
    assert r.best_move == "h8g8"


def test_clock_search_stays_inside_the_engines_own_budget(engine: kibitz.Engine) -> None:
    """The clock goes to the engine's time manager: a search with a 2 s clock answers
    within the hard budget time_budget gives (plus scheduling slack), and the side to
    move's clock is the one used (White has 2 s, Black 60 s; Black to move thinks longer
    than a 2 s clock would allow only if the wrong clock were read)."""
    board = kibitz.Board(MIDDLEGAME)
    white = board.turn
    soft, max_soft, hard, fixed = kibitz.timeman.time_budget(time_left_ms=2000, inc_ms=0)
    assert hard is not None and not fixed
    start = time.perf_counter()
    kw = {"wtime_ms": 2000, "btime_ms": 2000} if white else {"btime_ms": 2000, "wtime_ms": 2000}
    r = engine.search(board, **kw)
    took = (time.perf_counter() - start) * 1000
    assert r.best_move in board.legal_moves_uci()
    assert took <= hard + 150
    # The opponent's clock is ignored: no clock of our own means no time limit at all.
    other = {"btime_ms": 2000} if white else {"wtime_ms": 2000}
    r = engine.search(board, depth=3, **other)
    assert r.depth == 3


def test_ponder_search_waits_for_ponderhit_then_plays_on_the_clock() -> None:
    engine = kibitz.Engine(16)
    board = kibitz.Board(MIDDLEGAME)
    _, _, hard, _ = kibitz.timeman.time_budget(time_left_ms=1000, inc_ms=0)
    assert hard is not None
    hit_at: list[float] = []

    def opponent_plays_the_expected_move() -> None:
        time.sleep(0.8)  # longer than the whole hard budget of a 1 s clock
        hit_at.append(time.perf_counter())
        engine.ponderhit()

    t = threading.Thread(target=opponent_plays_the_expected_move)
    start = time.perf_counter()
    t.start()
    r = engine.search(board, wtime_ms=1000, btime_ms=1000, ponder=True)
    returned = time.perf_counter()
    t.join()
    assert r.best_move in board.legal_moves_uci()
    assert returned - start >= 0.75  # no clock while pondering
    # It pondered past its target: it answers at once, within the hard limit from ponderhit.
    assert (returned - hit_at[0]) * 1000 <= hard + 150


def test_ponderhit_before_the_search_starts_is_not_lost() -> None:
    engine = kibitz.Engine(16)
    engine.ponderhit()
    start = time.perf_counter()
    r = engine.search(kibitz.Board(MIDDLEGAME), wtime_ms=500, btime_ms=500, ponder=True)
    assert time.perf_counter() - start < 2.0  # a lost ponderhit would search for ever
    assert r.best_move is not None


def test_on_info_exception_propagates(engine: kibitz.Engine) -> None:
    class Boom(Exception):
        pass

    def bad(info: kibitz.SearchResult) -> None:
        raise Boom("from on_info")

    with pytest.raises(Boom):
        engine.search(kibitz.Board(), depth=5, on_info=bad)
    # The engine is usable afterwards.
    assert engine.search(kibitz.Board(), depth=2).best_move is not None


def test_bad_arguments(engine: kibitz.Engine) -> None:
    board = kibitz.Board()
    for kwargs in [{"depth": 0}, {"nodes": 0}, {"multipv": 0}, {"movetime_ms": -1}, {"on_info": 3}]:
        with pytest.raises(ValueError):
            engine.search(board, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(kibitz.IllegalMoveError):
        engine.search(board, depth=2, searchmoves=["e2e5"])
    with pytest.raises(kibitz.InvalidMoveError):
        engine.search(board, depth=2, searchmoves=["zz"])
    with pytest.raises(ValueError):
        kibitz.Engine(0)


def test_hash_management() -> None:
    engine = kibitz.Engine(2)
    assert engine.hash_mb == 2 and engine.hashfull() == 0
    engine.search(kibitz.Board(MIDDLEGAME), depth=7)
    assert engine.hashfull() > 0
    engine.resize(4)
    assert engine.hash_mb == 4 and engine.hashfull() == 0
    engine.search(kibitz.Board(), depth=3)
    engine.clear()
    assert engine.hashfull() == 0
    assert "hash_mb=4" in repr(engine)


def test_result_fields(engine: kibitz.Engine) -> None:
    r = engine.search(kibitz.Board(MIDDLEGAME), depth=5)
    assert r.bound == "exact" and r.multipv == 1 and r.seldepth >= r.depth
    assert r.ponder == r.pv[1] and r.time_ms >= 0 and r.nps >= 0 and 0 <= r.hashfull <= 1000
    assert not r.checkmate and not r.stalemate
    assert len(r.lines) == 1 and r.lines[0].pv == r.pv
    assert "SearchResult(best_move='" in repr(r)


# ---- Board game-end rules against python-chess ----


def _compare(ours: kibitz.Board, ref: chess.Board) -> None:
    assert ours.is_repetition() == ref.is_repetition(), ref.fen()
    assert ours.is_repetition(2) == ref.is_repetition(2), ref.fen()
    assert ours.is_insufficient_material() == ref.is_insufficient_material(), ref.fen()
    assert ours.is_fifty_moves() == ref.is_fifty_moves(), ref.fen()
    for claim in (False, True):
        assert ours.is_game_over(claim_draw=claim) == ref.is_game_over(claim_draw=claim), ref.fen()
        assert ours.result(claim_draw=claim) == ref.result(claim_draw=claim), ref.fen()


def test_game_end_rules_on_random_games() -> None:
    rnd = random.Random(2024)
    for _ in range(40):
        ours, ref = kibitz.Board(), chess.Board()
        for _ in range(300):
            _compare(ours, ref)
            if ref.is_game_over(claim_draw=True):
                break
            move = rnd.choice(list(ref.legal_moves))
            ref.push(move)
            ours.push_uci(move.uci())


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3K4/5N2/8 w - - 0 1",
        "8/8/4k3/8/8/3K4/5NN1/8 w - - 0 1",
        "8/8/4k3/2b5/8/3K4/5B2/8 w - - 0 1",
        "8/8/4k3/3b4/8/3K4/5B2/8 w - - 0 1",
        "8/4q3/4k3/8/8/3K4/5N2/8 w - - 0 1",
        "8/8/8/4k3/8/8/8/4K2Q w - - 100 120",
        "8/8/8/4k3/8/8/8/4K2Q w - - 150 120",
        "7k/6Q1/6K1/8/8/8/8/8 b - - 120 100",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ],
)
def test_game_end_rules_positions(fen: str) -> None:
    _compare(kibitz.Board(fen), chess.Board(fen))


def test_repetition_counts_history() -> None:
    ours, ref = kibitz.Board(), chess.Board()
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        ours.push_uci(m)
        ref.push_uci(m)
        _compare(ours, ref)
    assert ours.is_repetition(3) and not ours.is_repetition(4)
    assert ours.result(claim_draw=True) == "1/2-1/2" and ours.result() == "*"


def test_search_features_are_set_by_argument_and_by_hidden_uci_options_never_by_the_environment() -> None:
    import io
    import os
    import subprocess
    import sys

    from kibitz.uci import UciEngine

    names = kibitz.Engine.feature_names()
    assert "nmp" in names and "se" in names and "corr" in names
    default = kibitz.Engine(1)
    assert default.features["nmp"] and default.features["se"] and not default.features["corr"]
    off = kibitz.Engine(1, features={"nmp": False, "corr": True})
    assert not off.features["nmp"] and off.features["corr"]
    with pytest.raises(ValueError, match="unknown search feature 'bogus'|unknown search feature \"bogus\""):
        kibitz.Engine(1, features={"bogus": False})
    with pytest.raises(ValueError, match="bogus"):
        off.set_features({"bogus": True})
    assert not off.features["nmp"]  # unchanged
    off.set_features({})
    assert off.features == default.features
    off.set_features({"nnue": False})
    assert off.nnue is False

    board = kibitz.Board("r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9")
    plain = kibitz.Engine(16).search(board, depth=6).nodes
    no_nmp = kibitz.Engine(16, features={"nmp": False}).search(board, depth=6).nodes
    assert plain != no_nmp

    # The hidden UCI options: not declared, checked, and the same search as the argument.
    out = io.StringIO()
    s = UciEngine(out)
    for line in [
        "uci",
        "setoption name SearchOff value nmp, bogus",
        "setoption name SearchOff value nmp",
        "position fen " + board.fen(),
        "go depth 6",
    ]:
        s.handle(line)
    assert s._job is not None and s._job.done.wait(60)
    lines = out.getvalue().splitlines()
    assert not any("SearchOff" in l or "SearchOn" in l for l in lines if l.startswith("option"))
    assert any("unknown search feature 'bogus'" in l and "unchanged" in l for l in lines), lines
    last = [l for l in lines if l.startswith("info depth 6 ")][-1]
    assert int(last.split(" nodes ")[1].split()[0]) == no_nmp

    # The same from the command line (`kibitz uci --setoption NAME=VALUE`), for match tools
    # that send only declared options; a bad value stops it before any output.
    cmd = [sys.executable, "-m", "kibitz", "uci", "--setoption", "SearchOff=nmp"]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"uci\nposition fen {board.fen()}\ngo depth 6\n")
    proc.stdin.flush()
    seen = []
    for line in proc.stdout:  # until the search ends by itself
        seen.append(line)
        if line.startswith("bestmove"):
            break
    proc.communicate("quit\n", timeout=60)
    depth6 = [l for l in seen if l.startswith("info depth 6 ")]
    assert depth6 and int(depth6[-1].split(" nodes ")[1].split()[0]) == no_nmp, "".join(seen)
    r = subprocess.run(cmd[:-1] + ["SearchOn=bogus"], input="uci\n", capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == "" and "unknown search feature 'bogus'" in r.stderr

    # The environment is not read any more.
    env = dict(os.environ, KIBITZ_SEARCH_OFF="nnue,nmp", KIBITZ_SEARCH_ON="corr")
    code = "import kibitz; e = kibitz.Engine(1); print(e.nnue, e.features['nmp'], e.features['corr'])"
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert r.stdout.split() == ["True", "True", "False"], r.stdout + r.stderr


# --- what Python programmers hand the engine --------------------------------------------


@pytest.mark.parametrize("variant", ["AntichessBoard", "RacingKingsBoard", "KingOfTheHillBoard", "CrazyhouseBoard"])
def test_a_variant_board_is_refused_not_searched_as_standard_chess(engine: kibitz.Engine, variant: str) -> None:
    """The engine plays standard chess: a variant's board (a kibitz.Board subclass, or
    python-chess's) would get a move of another game (an illegal one in Racing Kings)."""
    import chess.variant

    from kibitz.variant import boards

    for board in (getattr(boards, variant)(), getattr(chess.variant, variant)()):
        with pytest.raises(ValueError, match=board.uci_variant):
            engine.search(board, depth=2)
        with pytest.raises(ValueError, match=board.uci_variant):
            engine.evaluate(board)


def test_a_python_chess_board_is_searched_with_its_history(engine: kibitz.Engine) -> None:
    ref = chess.Board()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        ref.push_san(san)  # Ng8 now repeats the start a third time: the history counts
    ours = kibitz.Board.from_chess(ref)
    engine.clear()
    a = engine.search(ref, depth=6)
    engine.clear()
    b = engine.search(ours, depth=6)
    assert (a.best_move, a.score_cp, a.nodes) == (b.best_move, b.score_cp, b.nodes)
    assert engine.evaluate(ref) == engine.evaluate(ours)
    with pytest.raises(TypeError, match="kibitz.Board or a python-chess Board"):
        engine.search("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", depth=1)


def test_searchmoves_takes_moves_of_either_library_and_paths_may_be_path_objects(engine: kibitz.Engine) -> None:
    board = kibitz.Board()
    for moves in (["a2a3", "h2h3"], [kibitz.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]):
        assert engine.search(board, depth=3, searchmoves=moves).best_move in ("a2a3", "h2h3")
    with pytest.raises(TypeError, match="list of moves"):
        engine.search(board, depth=3, searchmoves="a2a3")
    with pytest.raises(TypeError, match="neither UCI text nor a Move"):
        engine.search(board, depth=3, searchmoves=[3])
    tables = DATA / "syzygy"
    with_tables = kibitz.Engine(16, syzygy_path=tables)
    assert with_tables.syzygy_files > 0
    assert with_tables.set_syzygy(tables) == with_tables.syzygy_files
    with pytest.raises(OSError):
        kibitz.Engine(16, eval_file=DATA / "no-such.nnue")


def test_set_features_keeps_the_evaluation_unless_it_names_nnue() -> None:
    board = kibitz.Board(MIDDLEGAME)
    hand = kibitz.Engine(16, nnue=False)
    written = hand.evaluate(board)
    assert hand.features["nnue"] is False
    hand.set_features({"lmr": False})
    assert hand.nnue is False and hand.evaluate(board) == written and hand.features["nnue"] is False
    hand.nnue = True
    assert hand.features["nnue"] is True and hand.evaluate(board) != written
    hand.set_features({"nnue": False})
    assert hand.nnue is False and hand.evaluate(board) == written


def test_a_node_limit_counts_every_threads_nodes() -> None:
    engine = kibitz.Engine(16, threads=2)
    for nodes in (20_000, 50_000):
        r = engine.search(kibitz.Board(MIDDLEGAME), nodes=nodes)
        # The threads' nodes are added up every 1,024 of each one's nodes, and the helper
        # ends its last stretch: a few thousand past the limit at most (it was twice it).
        assert nodes <= r.nodes <= nodes + 8 * 1024, (nodes, r.nodes)


def test_a_target_alone_ends_the_search(engine: kibitz.Engine) -> None:
    """`soft_ms` without a cap used to search on until stop() (depth 23 and more)."""
    t = time.monotonic()
    r = engine.search(kibitz.Board(MIDDLEGAME), soft_ms=100)
    assert time.monotonic() - t < 5 and r.depth < 40


def test_a_slow_on_info_does_not_carry_the_search_past_its_cap(engine: kibitz.Engine) -> None:
    calls = []

    def slow(info: object) -> None:
        calls.append(info)
        time.sleep(0.3)

    engine.clear()
    engine.search(kibitz.Board(MIDDLEGAME), movetime_ms=100, on_info=slow)
    assert len(calls) == 1  # the cap had passed when the first report returned


_RESULT_FIELDS = (
    "best_move", "ponder", "score_cp", "mate", "depth", "seldepth", "nodes", "time_ms", "nps", "hashfull",
    "tbhits", "wdl", "pv", "bound", "checkmate", "stalemate", "multipv",
)  # fmt: skip


@pytest.mark.parametrize("fen", [MIDDLEGAME, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "k7/8/1Q6/8/8/8/8/7K b - - 0 1"])
def test_a_result_pickles_with_its_lines(engine: kibitz.Engine, fen: str) -> None:
    # Results cross process boundaries (multiprocessing, Ray); every field and every
    # MultiPV line must survive, for a search, a checkmated root and a stalemated one.
    import multiprocessing.reduction
    import pickle

    r = engine.search(kibitz.Board(fen), depth=3, multipv=2)
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(r, protocol=proto))
        assert type(back) is kibitz.SearchResult
        for name in _RESULT_FIELDS:
            assert getattr(back, name) == getattr(r, name), (proto, name)
        assert [[getattr(x, n) for n in _RESULT_FIELDS] for x in back.lines] == [
            [getattr(x, n) for n in _RESULT_FIELDS] for x in r.lines
        ]
        assert repr(back) == repr(r)
    assert multiprocessing.reduction.ForkingPickler.loads(multiprocessing.reduction.ForkingPickler.dumps(r)).pv == r.pv


def test_a_forged_result_state_is_refused(engine: kibitz.Engine) -> None:
    r = engine.search(kibitz.Board(), depth=1)
    rebuild, (state,) = r.__reduce__()
    with pytest.raises(ValueError, match="bound"):
        rebuild(state[:13] + ("sideways",) + state[14:])
    with pytest.raises(ValueError, match="18 fields"):
        rebuild(state[:5])
    with pytest.raises(TypeError):
        rebuild(state[:4] + ("deep",) + state[5:])
