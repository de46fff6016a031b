"""Fixtures shared by several test folders."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import settings

from bloodforge.core.registry import register_game, unregister_game
from tests.e2e.browser import browser, page, server, shots
from tests.e2e.contract_game import ContractWalkGame

# Debian's Chromium, the real server, a page that fails on JS errors: for every folder's browser tests.
__all__ = ["browser", "page", "server", "shots"]

# Hypothesis' per-example deadline (200 ms by default) is a timed test: on CI's two cores shared
# by four pytest workers an example that takes 0.05 ms once took 442 ms and failed the suite
# (tests/core/test_event_log.py, 2026-11-27). Speed is measured in benchmarks/, not here.
settings.register_profile("bloodforge", deadline=None)
settings.load_profile("bloodforge")


@pytest.fixture
def contract() -> Iterator[None]:
    """The UI-contract test game (`toy_contract`: status boards, cards, battles, an end) is
    registered for the test, in this process, where the in-process server finds it."""
    register_game(ContractWalkGame)
    try:
        yield
    finally:
        unregister_game(ContractWalkGame.info.id)
