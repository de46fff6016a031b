"""A Kingdoms position travels to a search worker without its derived views.

The terrain (the moving faction's view of the map, with its cached searches) and the move list
are never part of the position; a pickled position leaves them behind and the worker makes them
again when asked, so that their classes can be compiled in the compiled build (a compiled class
unpickles through its `__init__`, which needs the position). The copy must play on exactly as
the original.
"""

from __future__ import annotations

import pickle

from bloodforge.core import Rng
from bloodforge.games.kingdoms.model import KBase
from tests.random_play import played


def test_a_pickled_position_leaves_its_derived_views_behind_and_plays_on_the_same() -> None:
    state = played("kingdoms", {"players": 4}, 60, seed=5)
    assert isinstance(state, KBase)
    seat = state.actors()[0]
    legal = state.legal_actions(seat)  # a move phase: builds the terrain and the move list
    assert state.terrain is not None
    assert state.move_memo is not None
    copy = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    assert isinstance(copy, KBase)
    assert copy.terrain is None
    assert copy.move_memo is None
    assert copy.legal_actions(seat) == legal
    first, second = Rng(9), Rng(9)
    for _ in range(200):
        if state.is_terminal():
            break
        a, b = first.choice(state.actors()), second.choice(copy.actors())
        assert copy.legal_actions(b) == state.legal_actions(a)
        state.apply_unchecked(first.choice(state.legal_actions(a)), a)
        copy.apply_unchecked(second.choice(copy.legal_actions(b)), b)
    assert copy.position_digest() == state.position_digest()
