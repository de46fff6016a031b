"""Fixtures for the Blood Stone tests."""

from __future__ import annotations

import pytest
from witch_helpers import new_game

from bloodforge.games.witch.game import WitchGame


@pytest.fixture
def game() -> WitchGame:
    return new_game(7)
