"""Stockfish's console commands beside UCI: ``go perft N`` (its divide, against
python-chess's move generator) and ``bench [DEPTH]`` / ``kibitz bench`` (the bench: its
format, its positions searched as ``kibitz.Engine`` searches them, its signature)."""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

import chess
import pytest

import kibitz
import reference
from kibitz._core import BENCH_DEPTH, BENCH_HASH_MB, BENCH_POSITIONS
from kibitz.cli import main
from kibitz.uci import UciEngine
from uci_session import Out, RawUci, kibitz_command

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
STOCKFISH = os.environ.get("KIBITZ_STOCKFISH", "/usr/games/stockfish")


def session() -> tuple[UciEngine, Out]:
    out = Out()
    return UciEngine(out, rng=random.Random(1)), out


def parse_perft(lines: list[str]) -> tuple[dict[str, int], int]:
    """Stockfish's go perft output: ``move: count`` lines, a blank line, the total, a
    blank line (checked strictly: tools read it so)."""
    blank = lines.index("")
    counts = {}
    for line in lines[:blank]:
        m = re.fullmatch(r"([a-h][1-8][a-h][1-8][qrbn]?): (\d+)", line)
        assert m, line
        counts[m.group(1)] = int(m.group(2))
    assert lines[blank + 1 :] == [f"Nodes searched: {sum(counts.values())}", ""], lines[blank:]
    return counts, sum(counts.values())


def perft_positions() -> list[tuple[str, bool]]:
    """Standard positions of the perft suite and Chess960 positions (castling as the king
    taking its rook in UCI_Chess960 mode), a sample of each."""
    standard = [
        line.split(";")[0].strip() for line in (DATA / "perftsuite.epd").read_text().splitlines() if line.strip()
    ]
    fischer = [
        line.split(" ", 1)[1].strip() + " 0 1"
        for line in (DATA / "chess960.perft").read_text().splitlines()
        if line.startswith("epd ")
    ]
    rng = random.Random(7)
    return [(fen, False) for fen in rng.sample(standard, 12)] + [(fen, True) for fen in rng.sample(fischer, 8)]


@pytest.mark.parametrize(("fen", "chess960"), perft_positions())
def test_go_perft_is_python_chess_divide(fen: str, chess960: bool) -> None:
    s, out = session()
    s.handle(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
    s.handle(f"position fen {fen}")
    s.handle("go perft 2")
    counts, total = parse_perft(out.lines())
    want = reference.divide(chess.Board(fen, chess960=chess960), 2)
    assert counts == want
    assert total == sum(want.values())


def test_go_perft_after_moves_and_at_depth_three() -> None:
    s, out = session()
    moves = ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"]
    s.handle("position startpos moves " + " ".join(moves))
    s.handle("go perft 3")
    counts, _ = parse_perft(out.lines())
    assert counts == reference.divide(reference.board_after(None, moves), 3)


@pytest.mark.parametrize("args", ["", "0", "-1", "65", "x", "2.5", "nan", "inf", "-inf", "1e400"])
def test_go_perft_with_a_bad_depth_is_reported_and_the_session_goes_on(args: str) -> None:
    s, out = session()
    assert s.handle(f"go perft {args}".strip())
    assert (
        out.lines() == [f"info string go perft takes a depth from 1 to 64, not {args!r}; ignored"]
        if args
        else ["info string go perft takes a depth from 1 to 64, not nothing; ignored"]
    )
    s.handle("go perft 1")
    assert parse_perft(out.lines()[1:])[1] == 20


def test_go_perft_through_the_pipe() -> None:
    """The real process, as a perft tool drives it: the output is plain, in Stockfish's
    format, and the session answers after it."""
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    uci = RawUci()
    try:
        uci.send(f"position fen {kiwipete}")
        uci.send("go perft 2")
        uci.expect(lambda line: line.startswith("Nodes searched: "))
        assert uci.sync() == [""]
        assert uci.alive()
    finally:
        uci.close()
    block = uci.seen[uci.seen.index("") - 48 :]
    counts, total = parse_perft(block[: block.index("") + 3])
    assert counts == reference.divide(chess.Board(kiwipete), 2)
    assert total == 2039  # published: chessprogramming.org/Perft_Results


@pytest.mark.skipif(shutil.which(STOCKFISH) is None, reason=f"Stockfish not installed at {STOCKFISH}")
@pytest.mark.parametrize(
    "position",
    [
        "startpos moves e2e4 d7d5 e4d5 g8f6",
        "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ],
)
def test_go_perft_prints_what_stockfish_prints(position: str) -> None:
    """The same lines as Stockfish's own ``go perft`` (its move order aside), blank lines
    and total included: a tool that reads Stockfish's reads kibitz's."""

    def lines_of(command: list[str]) -> list[str]:
        # Stockfish runs go perft on its search thread and answers isready meanwhile, so
        # the end of the output is read from the total line, not from a readyok.
        engine = RawUci(command)
        try:
            engine.send("uci")
            engine.send(f"position {position}")
            engine.send("go perft 3")
            engine.expect("Nodes searched: ")
            engine.sync()
        finally:
            engine.close()
        lines = engine.seen
        first = next(i for i, line in enumerate(lines) if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?: \d+", line))
        last = next(i for i, line in enumerate(lines) if line.startswith("Nodes searched: "))
        return lines[first : last + 2]

    ours = lines_of(kibitz_command())
    theirs = lines_of([STOCKFISH])
    assert sorted(ours) == sorted(theirs)
    assert ours[-3:] == theirs[-3:] and ours[-3] == "" and ours[-1] == ""


# -- bench -------------------------------------------------------------------------------------


SUMMARY = [
    r"===========================",
    r"Total time \(ms\) : \d+",
    r"Nodes searched  : (\d+)",
    r"Nodes/second    : \d+",
]


def parse_bench(lines: list[str]) -> tuple[list[tuple[int, str, str]], int]:
    """The bench's lines: (nodes, best move, FEN) a position, and the summary's total."""
    rows = []
    for i, line in enumerate(lines[: len(BENCH_POSITIONS)], 1):
        m = re.fullmatch(rf"Position +{i}/{len(BENCH_POSITIONS)}: +(\d+) nodes +[\d.]+ ms  bestmove (\S+) +(.+)", line)
        assert m, line
        rows.append((int(m.group(1)), m.group(2), m.group(3)))
    rest = lines[len(BENCH_POSITIONS) :]
    assert rest[0] == ""
    for pattern, line in zip(SUMMARY, rest[1:], strict=True):
        assert re.fullmatch(pattern, line), (pattern, line)
    total = int(re.fullmatch(SUMMARY[2], rest[3]).group(1))  # type: ignore[union-attr]
    assert total == sum(row[0] for row in rows)
    return rows, total


def test_bench_searches_each_position_as_a_fresh_engine_does() -> None:
    """Each position's count and move are those of ``kibitz.Engine`` searching it alone
    from a fresh table of the bench's size (the Python API's path, not the bench's)."""
    s, out = session()
    s.handle("bench 5")
    rows, _ = parse_bench(out.lines())
    assert [fen for _, _, fen in rows] == list(BENCH_POSITIONS)
    for nodes, best, fen in rows:
        board = kibitz.Board(fen)
        result = kibitz.Engine(BENCH_HASH_MB).search(board, depth=5)
        assert (nodes, best) == (result.nodes, result.best_move), fen
        assert chess.Move.from_uci(best) in chess.Board(fen).legal_moves


def test_bench_positions_are_legal_and_varied() -> None:
    boards = [chess.Board(fen) for fen in BENCH_POSITIONS]
    assert all(board.is_valid() and any(board.legal_moves) for board in boards)
    assert len(set(BENCH_POSITIONS)) == len(BENCH_POSITIONS) == 40
    assert sum(not board.turn for board in boards) >= 3  # black to move too
    assert sum(chess.popcount(board.occupied) <= 6 for board in boards) >= 3  # endgames


def test_kibitz_bench_gives_the_signature_kept_in_the_repository(capsys: pytest.CaptureFixture[str]) -> None:
    """``kibitz bench`` (default depth) counts what the Rust bench counts
    (``benches/data/bench_signature.txt``, checked by ``tests/bench_signature.rs``)."""
    kept = (ROOT / "benches" / "data" / "bench_signature.txt").read_text()
    depth, nodes = map(int, re.search(r"^depth (\d+) nodes (\d+)$", kept, re.M).groups())  # type: ignore[union-attr]
    assert depth == BENCH_DEPTH
    assert main(["bench"]) == 0
    _, total = parse_bench(capsys.readouterr().out.splitlines())
    assert total == nodes


@pytest.mark.parametrize("depth", ["0", "x"])
def test_kibitz_bench_refuses_a_depth_that_is_no_positive_integer(
    depth: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["bench", depth])
    assert e.value.code == 2
    assert "depth must be a positive integer" in capsys.readouterr().err


def test_kibitz_bench_refuses_a_depth_past_the_search_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "121"]) == 2
    assert capsys.readouterr().err == "kibitz bench: DEPTH must be between 1 and 120, not 121\n"


@pytest.mark.parametrize("depth", ["0", "121", "x", "-3", "inf", "1e400", "nan", "2.5"])
def test_uci_bench_with_a_bad_depth_is_reported_and_the_session_goes_on(depth: str) -> None:
    s, out = session()
    assert s.handle(f"bench {depth}")
    assert out.lines() == [f"info string bench takes a depth from 1 to 120, not {depth!r}; ignored"]
    s.handle("isready")
    assert out.lines()[-1] == "readyok"


def test_uci_bench_waits_for_no_search() -> None:
    s, out = session()
    s.handle("go infinite")
    s.handle("bench 1")
    s.handle("stop")
    job = s._job
    assert job is not None and job.done.wait(10)
    assert "info string bench: not while searching" in out.lines()
    assert not any(line.startswith("Position ") for line in out.lines())
