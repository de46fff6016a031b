"""Fixtures for the Bloodstones rule tests (helpers live in helpers.py)."""

from __future__ import annotations

import pytest

import bloodforge
from bloodforge.games.bloodstones.content import Board, load_board


@pytest.fixture(scope="session")
def map1() -> Board:
    return load_board("map1")


@pytest.fixture
def game2() -> bloodforge.Game:
    return bloodforge.load_game(
        "bloodstones", players=2, seed=3, factions=["dragon_riders", "horse_lords"]
    )
