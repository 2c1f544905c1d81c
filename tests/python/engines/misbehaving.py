"""An engine that fails in one of several ways, chosen by its first argument, for the
error-handling tests of perft-diff:

silent      answers uci/isready but never answers go perft
search      answers go perft with a search result (bestmove)
format      answers go perft in some other format ("perft 3 = 8902")
crash       exits with status 3 on go perft
not_uci     never says uciok
no_divide   prints only the total, no per-move lines
inconsistent  correct moves, but at depth >= 2 adds one to the first move's count
no960       correct, but without the UCI_Chess960 option
script_fail (script mode) exits with status 1 and a message
script_slow (script mode) sleeps for 30 s
"""

import sys
import time

import chess
from perft_engine import correct_moves, divide_lines, uci_loop

MODE = sys.argv[1]
sys.argv[1:2] = []


def on_go(board: chess.Board, depth: int) -> bool:
    out = sys.stdout
    if MODE == "silent":
        return True
    if MODE == "search":
        out.write("info depth 1 score cp 20 pv e2e4\nbestmove e2e4\n")
    elif MODE == "format":
        out.write(f"perft {depth} = 8902\n")
    elif MODE == "crash":
        sys.stderr.write("engine: segmentation fault (simulated)\n")
        sys.stderr.flush()
        sys.exit(3)
    elif MODE == "no_divide":
        out.write("Nodes searched: 20\n")
    elif MODE == "inconsistent":
        lines = divide_lines(board, depth, correct_moves)
        if depth >= 2:
            move, count = lines[0].split(": ")
            lines[0] = f"{move}: {int(count) + 1}"
            lines[-2] = "Nodes searched: %d" % (int(lines[-2].split(": ")[1]) + 1)
        out.write("\n".join(lines) + "\n")
    else:
        return False
    return True


if __name__ == "__main__":
    if MODE == "not_uci":
        for line in sys.stdin:
            if line.strip() == "quit":
                break
            print("I only speak xboard")
            sys.stdout.flush()
    elif MODE == "script_fail":
        sys.stderr.write("my generator: cannot parse FEN\n")
        sys.exit(1)
    elif MODE == "script_slow":
        time.sleep(30)
    else:
        uci_loop(correct_moves, f"Misbehaving-{MODE} (test engine)", on_go, chess960_option=MODE != "no960")
