"""Shared pytest configuration: the ``--runslow`` switch for the ``slow`` marker.

Slow tests (full perft depths, deep tricky positions) are skipped unless ``--runslow``
is given. The ``slow`` marker itself is registered in ``pyproject.toml``.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow",
        action="store_true",
        default=False,
        help="also run tests marked slow (deep perft suites)",
    )


def pytest_configure(config: pytest.Config) -> None:
    # Registered in pyproject.toml too; repeating it keeps --strict-markers happy when
    # the tests run from another rootdir.
    config.addinivalue_line("markers", "slow: deep suites, run only with --runslow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: needs --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)
