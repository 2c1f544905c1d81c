"""The message of ``Board.to_chess()`` when python-chess is not installed: an ImportError
that says what is missing and how to install it."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_to_chess_without_python_chess_says_how_to_install_it() -> None:
    code = textwrap.dedent(
        """
        import sys
        sys.modules["chess"] = None  # python-chess not installed, as far as import can tell
        import kibitz
        try:
            kibitz.Board().to_chess()
        except ImportError as e:
            print(type(e).__name__, e.name, e, sep="|")
        """
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    _, name, message = p.stdout.strip().split("|")
    assert name == "chess"
    assert "python-chess" in message and "pip install chess" in message
