"""Seeded uniformly random play, for tests that need a position some way into a game."""

from __future__ import annotations

from collections.abc import Mapping

import bloodforge
from bloodforge.core import Rng, State


def played(game_id: str, params: Mapping[str, object], plies: int, seed: int = 3) -> State:
    """A new game of `game_id` played `plies` plies (fewer if it ends) by uniformly random
    actors and actions, drawn from `Rng(seed)`."""
    state = bloodforge.load_game(game_id, seed=seed, **params).new_initial_state()
    rng = Rng(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    return state
