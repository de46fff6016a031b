"""Fixtures shared by several test folders."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bloodforge.core.registry import register_game, unregister_game
from tests.e2e.contract_game import ContractWalkGame


@pytest.fixture
def contract() -> Iterator[None]:
    """The UI-contract test game (`toy_contract`: status boards, cards, battles, an end) is
    registered for the test, in this process, where the in-process server finds it."""
    register_game(ContractWalkGame)
    try:
        yield
    finally:
        unregister_game(ContractWalkGame.info.id)
