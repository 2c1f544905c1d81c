"""Every list of the ``kibitz`` subcommands names them all: the parser's (``kibitz
--help``), the UCI engine's banner, docs/cli.md, docs/index.md and README.md; and
docs/index.md lists every page of docs/."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from kibitz.cli import SUBCOMMAND_MODULES, build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def subcommands() -> list[str]:
    """The subcommands' names as the parser knows them, aliases left out (``analyze``)."""
    parser = build_parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    names: dict[int, str] = {}
    for name, sub in action.choices.items():
        names.setdefault(id(sub), name)  # the first name of each parser; aliases follow it
    return list(names.values())


def test_every_subcommand_module_adds_a_subcommand() -> None:
    names = subcommands()
    assert len(names) == len(SUBCOMMAND_MODULES)
    assert {"uci", "play", "perft", "perft-diff", "analyse", "report", "book"} <= set(names)


def missing(text: str) -> list[str]:
    """The subcommands that ``text`` never names as ``kibitz NAME``."""
    return [name for name in subcommands() if not re.search(rf"\bkibitz {re.escape(name)}(?![\w-])", text)]


@pytest.mark.parametrize("page", ["docs/cli.md", "docs/index.md", "README.md"])
def test_the_documentation_names_every_subcommand(page: str) -> None:
    assert missing((ROOT / page).read_text(encoding="utf-8")) == []


def test_kibitz_help_names_every_subcommand() -> None:
    text = build_parser().format_help()
    assert [name for name in subcommands() if not re.search(rf"^\s+{re.escape(name)}\b", text, re.M)] == []


def test_the_uci_banner_names_every_subcommand() -> None:
    from kibitz.uci.protocol import BANNER

    assert [name for name in subcommands() if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", BANNER)] == []


def test_the_index_lists_every_page() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([\w.-]+\.md)(?:#[\w-]*)?\)", index))
    pages = {p.name for p in DOCS.glob("*.md")} - {"index.md"}
    assert sorted(pages - linked) == []
