"""kibitz.compat: unchanged python-chess programs on kibitz. ``import chess`` and its
``pgn``, ``polyglot``, ``syzygy``, ``svg`` modules give kibitz's; python-chess's
``chess.engine`` and ``chess.gaviota`` load on top of kibitz and drive kibitz's own UCI
engine; ``chess.variant`` is kibitz's variant boards; a missing python-chess is a one-line
ImportError;
``install()`` is idempotent and ``uninstall()`` undoes it; ``python -m kibitz.compat`` runs
scripts, modules and ``-c`` code as ``python`` would. Programs run in subprocesses, so the
hook never touches the python-chess the other tests import."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import chess
import pytest

import kibitz.compat


TIMEOUT = 120


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=TIMEOUT, cwd=cwd, env=dict(os.environ)
    )


def write(path: Path, code: str) -> Path:
    path.write_text(textwrap.dedent(code))
    return path


def test_a_python_chess_script_runs_unchanged_on_kibitz(tmp_path: Path) -> None:
    script = write(
        tmp_path / "game.py",
        """
        import io
        import sys

        import chess
        import chess.engine
        import chess.pgn

        board = chess.Board()
        for san in sys.argv[1:]:
            board.push_san(san)
        game = chess.pgn.read_game(io.StringIO("1. e4 e5 2. Nf3 Nc6 *"))
        node = game.end()
        print(__name__, type(board).__module__, type(node.board()).__module__)
        print(board.fen())
        print(node.board().fen(), chess.engine.Cp(30).score())
        sys.exit(7)
        """,
    )
    p = run("-m", "kibitz.compat", str(script), "e4", "c5", cwd=tmp_path)
    assert p.returncode == 7, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "__main__ kibitz kibitz"
    assert lines[1] == "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert lines[2] == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 30"
    # The same script without the hook runs on python-chess.
    plain = run(str(script), "e4", "c5", cwd=tmp_path)
    assert plain.returncode == 7 and plain.stdout.splitlines()[0] == "__main__ chess chess"
    assert plain.stdout.splitlines()[1:] == lines[1:]


def test_the_version_kibitz_follows_is_a_python_chess_release_the_tests_accept() -> None:
    follows = tuple(int(part) for part in kibitz.compat.PYTHON_CHESS_VERSION.split("."))
    # pyproject.toml's test extras take python-chess 1.10 or later.
    assert len(follows) == 3 and follows >= (1, 10, 0)
    assert tuple(int(part) for part in importlib.metadata.version("chess").split(".")[:2]) >= (1, 10)


def test_the_modules_are_kibitz_modules_and_python_chess_modules_on_top() -> None:
    code = """
        import sys
        import kibitz, kibitz.compat
        kibitz.compat.install()
        import chess, chess.pgn, chess.polyglot, chess.syzygy, chess.svg, chess.engine, chess.gaviota
        from chess import Board, Move, WHITE, SquareSet
        from chess.pgn import Game
        assert chess.Board is Board is kibitz.Board and chess.Move is kibitz.Move and WHITE is True
        assert chess.SquareSet is kibitz.SquareSet and chess.STARTING_FEN == kibitz.STARTING_FEN
        assert chess.BB_DIAG_ATTACKS is kibitz.BB_DIAG_ATTACKS  # kibitz's lazily built names too
        for name in ("pgn", "polyglot", "syzygy", "svg"):
            assert sys.modules["chess." + name] is getattr(chess, name) is sys.modules["kibitz." + name], name
            assert getattr(chess, name).__spec__.name == "kibitz." + name  # kibitz's module, untouched
        assert Game is kibitz.pgn.Game
        assert chess.engine.__file__.endswith("engine.py") and "kibitz" not in chess.engine.__file__
        assert chess.engine.chess is sys.modules["chess"] and chess.gaviota.chess is sys.modules["chess"]
        # chess.variant is python-chess's variant boards on kibitz's (kibitz.variant.boards),
        # not kibitz's own table-driven kibitz.variant.
        assert chess.variant is sys.modules["kibitz.variant.boards"] is sys.modules["chess.variant"]
        board = chess.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1")
        assert chess.syzygy.MissingTableError is kibitz.syzygy.MissingTableError
        # The version programs test before using a feature: python-chess's that kibitz follows.
        assert chess.__version__ == kibitz.compat.PYTHON_CHESS_VERSION and chess.__author__
        print("ok", chess.pgn.Game.from_board(board).board().fen())
        """
    p = run("-c", textwrap.dedent(code))
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "ok 8/8/8/3k4/8/8/8/KR6 w - - 0 1"


def test_python_chess_engine_drives_kibitz_uci_engine_under_compat(tmp_path: Path) -> None:
    script = write(
        tmp_path / "play.py",
        """
        import sys

        import chess
        import chess.engine

        with chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "kibitz"]) as engine:
            board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
            result = engine.play(board, chess.engine.Limit(depth=6))
            info = engine.analyse(board, chess.engine.Limit(depth=6))
            print(type(board).__module__, type(result.move).__module__, result.move.uci(), result.move in board.legal_moves)
            print(engine.id["name"].split()[0], info["score"].white().mate(), board.san(info["pv"][0]))
        """,
    )
    p = run("-m", "kibitz.compat", str(script), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["kibitz kibitz d1d8 True", "kibitz 1 Rd8#"]


def test_chess_variant_is_kibitz_s_variant_boards() -> None:
    # chess.variant's boards are kibitz boards, and a standard subclass works.
    code = """
        import kibitz.compat
        kibitz.compat.install()
        import chess, chess.variant
        koth = chess.variant.find_variant("KOTH")()
        koth.push_san("e4")
        print(type(koth).__module__, isinstance(koth, chess.Board), koth.uci_variant, koth.legal_moves.count())
        zh = chess.variant.CrazyhouseBoard("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] w KQkq - 0 1")
        print(type(zh).__name__, zh.san(chess.Move.from_uci("Q@e6")), zh.legal_moves.count())
        class Mine(chess.Board):
            pass
        b = Mine()
        b.push_san("e4")
        print(type(b.copy()).__name__, type(b.mirror()).__name__, type(b.root()).__name__, b.fen())
        """
    p = run("-c", textwrap.dedent(code))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "kibitz.variant.boards True kingofthehill 20"
    assert lines[1] == "CrazyhouseBoard Q@e6 52"  # python-chess: the same SAN, 52 moves
    assert lines[2] == "Mine Mine Mine rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def test_python_chess_engine_plays_variants_on_kibitz_boards(tmp_path: Path) -> None:
    # A lichess bot's way: python-chess's chess.engine drives a variant engine on the
    # variant boards (sending UCI_Variant, the FEN and the moves); every move it plays is
    # legal on kibitz's board.
    from fairy import FAIRY

    if FAIRY is None:
        pytest.skip("fairy-stockfish is not installed (apt-get install fairy-stockfish)")
    engine = FAIRY
    script = write(
        tmp_path / "variants.py",
        f"""
        import chess, chess.engine, chess.variant

        names = ["crazyhouse", "3check", "horde", "antichess", "racingkings", "kingofthehill"]
        with chess.engine.SimpleEngine.popen_uci({engine!r}) as engine:
            for name in names:
                board = chess.variant.find_variant(name)()
                for _ in range(4):
                    move = engine.play(board, chess.engine.Limit(nodes=500)).move
                    assert move in board.legal_moves, (name, move, board.fen())
                    board.push(move)
                print(type(board).__module__, board.uci_variant, len(board.move_stack))
        """,
    )
    p = run("-m", "kibitz.compat", str(script), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    names = ["crazyhouse", "3check", "horde", "antichess", "racingkings", "kingofthehill"]
    assert p.stdout.splitlines() == [f"kibitz.variant.boards {name} 4" for name in names]


def test_without_python_chess_its_modules_say_so() -> None:
    code = """
        import kibitz.compat
        kibitz.compat._python_chess_dir = lambda: None  # python-chess not installed, as far as it can tell
        kibitz.compat.install()
        import chess, chess.pgn, chess.syzygy
        print(type(chess.Board()).__module__, chess.pgn.__name__)
        import chess.variant  # kibitz's own: no python-chess needed
        print(chess.variant.ThreeCheckBoard().fen())
        for name in ("chess.engine", "chess.gaviota"):
            try:
                __import__(name)
            except ImportError as e:
                print(type(e).__name__, e.name, e, sep="|")
        """
    p = run("-c", textwrap.dedent(code))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "kibitz kibitz.pgn"
    assert lines[1] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"
    assert len(lines) == 4
    for line, name in zip(lines[2:], ("chess.engine", "chess.gaviota")):
        kind, got, message = line.split("|")
        assert (kind, got) == ("ModuleNotFoundError", name)
        assert "python-chess is not installed" in message and "pip install chess" in message


def test_install_is_idempotent_and_uninstall_restores_python_chess() -> None:
    code = """
        import sys
        import chess, chess.pgn
        real, real_pgn = chess, chess.pgn
        import kibitz, kibitz.compat as compat
        compat.install()
        compat.install()
        assert sum(type(f).__name__ == "_Finder" for f in sys.meta_path) == 1 and compat.installed()
        import chess
        assert chess is not real and chess.Board is kibitz.Board and chess.pgn is kibitz.pgn
        import chess.engine
        compat.uninstall()
        compat.uninstall()
        assert not compat.installed() and not any(type(f).__name__ == "_Finder" for f in sys.meta_path)
        import chess
        assert chess is real and chess.pgn is real_pgn and chess.Board is not kibitz.Board
        assert sys.modules["chess.engine"].Cp.__module__ == "chess.engine"
        assert sys.modules["chess.engine"].chess is real  # python-chess's own, imported by its pgn
        compat.install()
        import chess
        assert chess.Board is kibitz.Board
        compat.uninstall()
        print("ok")
        """
    p = run("-c", textwrap.dedent(code))
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "ok"


def test_a_module_and_code_run_as_python_runs_them(tmp_path: Path) -> None:
    write(
        tmp_path / "tool.py",
        """
        import sys
        import chess
        if __name__ == "__main__":
            print(type(chess.Board()).__module__, sys.argv[1:], sys.argv[0].endswith("tool.py"))
        """,
    )
    p = run("-m", "kibitz.compat", "-m", "tool", "x", "--y", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "kibitz ['x', '--y'] True"
    p = run("-m", "kibitz.compat", "-c", "import sys, chess; print(chess.Board().fen(), sys.argv)", "a")
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == f"{chess.STARTING_FEN} ['-c', 'a']"


def test_usage_errors() -> None:
    p = run("-m", "kibitz.compat")
    assert p.returncode == 2 and p.stderr.startswith("usage: python -m kibitz.compat script.py")
    p = run("-m", "kibitz.compat", "--help")
    assert p.returncode == 0 and p.stdout.startswith("usage:")
    p = run("-m", "kibitz.compat", "no/such/script.py")
    assert p.returncode == 2 and "can't open file" in p.stderr and "script.py" in p.stderr
    p = run("-m", "kibitz.compat", "-m")
    assert p.returncode == 2 and "argument expected" in p.stderr


def test_an_exception_in_the_script_is_its_own(tmp_path: Path) -> None:
    script = write(tmp_path / "bad.py", "import chess\nchess.Board().push_san('e5')\n")
    p = run("-m", "kibitz.compat", str(script))
    assert p.returncode == 1
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("kibitz.IllegalMoveError") or "IllegalMoveError" in last, p.stderr
    assert 'bad.py", line 2' in p.stderr
