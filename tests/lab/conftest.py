"""The lab tests register two test games (Sealed Bids and its data-file twin) for the session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bloodforge.core import register_game, unregister_game
from tests.lab.toy_file_bids import FileBidsGame
from tests.toy_bids import BidsGame


@pytest.fixture(autouse=True, scope="module")
def _test_games_registered() -> Iterator[None]:
    register_game(BidsGame)
    register_game(FileBidsGame)
    yield
    unregister_game(FileBidsGame.info.id)
    unregister_game(BidsGame.info.id)
