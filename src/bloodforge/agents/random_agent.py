"""Uniformly random legal actions: the baseline and the engine's fuzzer."""

from __future__ import annotations

from typing import Any

from bloodforge.core import Action, State

from .base import Agent, register_agent


class RandomAgent(Agent):
    """Picks uniformly among legal actions, but never `cancel` while anything else is legal.

    Cancelling a partial choice only loops back to an earlier decision, so a random agent that
    took it would make games longer without exploring anything new.
    """

    name = "random"

    def __init__(self, seat: int, seed: int = 0, **options: Any) -> None:
        super().__init__(seat, seed, **options)

    def select_action(self, state: State) -> Action:
        legal = state.legal_actions(self.seat)
        if not legal:
            raise ValueError(f"no legal action for seat {self.seat}: {state}")
        useful = [a for a in legal if not a.is_cancel] or legal
        return self.rng.choice(useful)


register_agent("random", RandomAgent)
