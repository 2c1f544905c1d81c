"""Shared pytest configuration: the ``--runslow`` switch for the ``slow`` marker.

Slow tests (full perft depths, deep tricky positions) are skipped unless ``--runslow``
is given; the release-file tests (``packaging``: they build the wheel and the sdist) unless
``--runpackaging`` is (CI runs them after the test command). The markers are registered in
``pyproject.toml``.
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
    parser.addoption(
        "--runpypi",
        action="store_true",
        default=False,
        help="also run tests marked pypi (test suites of PyPI packages written for python-chess, on kibitz)",
    )
    parser.addoption(
        "--runpackaging",
        action="store_true",
        default=False,
        help="also run tests marked packaging (build the release wheel and sdist with scripts/build-wheels)",
    )


def pytest_configure(config: pytest.Config) -> None:
    # Registered in pyproject.toml too; repeating it keeps --strict-markers happy when
    # the tests run from another rootdir.
    config.addinivalue_line("markers", "slow: deep suites, run only with --runslow")
    config.addinivalue_line("markers", "packaging: builds the release files, run only with --runpackaging")
    config.addinivalue_line("markers", "pypi: PyPI packages' test suites on kibitz, run only with --runpypi")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_slow = pytest.mark.skip(reason="slow: needs --runslow")
    skip_packaging = pytest.mark.skip(reason="packaging: needs --runpackaging")
    skip_pypi = pytest.mark.skip(reason="pypi: needs --runpypi")
    for item in items:
        if "slow" in item.keywords and not config.getoption("--runslow"):
            item.add_marker(skip_slow)
        if "packaging" in item.keywords and not config.getoption("--runpackaging"):
            item.add_marker(skip_packaging)
        if "pypi" in item.keywords and not config.getoption("--runpypi"):
            item.add_marker(skip_pypi)
