"""Fixtures for the Bloodstones rule tests (helpers live in helpers.py)."""

from __future__ import annotations

import pytest

from bloodforge.games.bloodstones.content import Board, load_board


@pytest.fixture(scope="session")
def map1() -> Board:
    return load_board("map1")
