"""What a game's heuristic policy looks like to the agents that play it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .action import Action
from .rng import Rng

if TYPE_CHECKING:
    from .game import State


class Policy(Protocol):
    """Chooses an action for `seat`, which is one of `state.actors()`.

    A policy sees what the seat may see: `state.observation(seat)`, `state.legal_actions(seat)`,
    `game.static_info()` and the game's exported rule queries; it may clone the state to look
    ahead only through `resample_hidden(seat, rng)`, never at the hidden truth.
    """

    def choose(self, state: State, seat: int, rng: Rng) -> Action: ...
