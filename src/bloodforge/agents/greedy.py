"""The greedy (heuristic) agent: one game-aware policy per game, behind one agent name.

A good static evaluation is game-specific, so each game contributes a policy module under
`agents/heuristics/` that reads only observations, legal actions and cloned states.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Protocol

from bloodforge.core import Action, Rng, State

from .base import Agent, register_agent


class HeuristicPolicy(Protocol):
    def choose(self, state: State, seat: int, rng: Rng) -> Action: ...


def policy_for(game_id: str, **options: Any) -> HeuristicPolicy:
    try:
        module = import_module(f"bloodforge.agents.heuristics.{game_id}")
    except ModuleNotFoundError as err:
        if err.name != f"bloodforge.agents.heuristics.{game_id}":
            raise
        raise ValueError(f"no heuristic policy for game {game_id!r}") from None
    policy: HeuristicPolicy = module.make_policy(**options)
    return policy


class GreedyAgent(Agent):
    """`strength` (1-10, default 10) mixes in random moves: 10 never, 1 half of the time.

    A weaker opponent that still plays sensibly most of the time is what casual players ask for;
    the random moves are taken only where the policy would decide (not inside a plan it is
    carrying out), so the agent never looks broken, only careless.
    """

    name = "greedy"

    def __init__(self, seat: int, seed: int = 0, strength: int = 10, **options: Any) -> None:
        super().__init__(seat, seed, **options)
        if not 1 <= int(strength) <= 10:
            raise ValueError(f"strength must be 1..10, got {strength}")
        self.strength = int(strength)
        self._policies: dict[str, HeuristicPolicy] = {}

    def select_action(self, state: State) -> Action:
        game_id = state.game.id
        policy = self._policies.get(game_id)
        if policy is None:
            policy = self._policies[game_id] = policy_for(game_id, **self.options)
        blunder = (10 - self.strength) / 18
        if blunder and self.rng.random() < blunder:
            legal = [a for a in state.legal_actions() if not a.is_cancel]
            if legal:
                return self.rng.choice(legal)
        return policy.choose(state, self.seat, self.rng)


register_agent("greedy", GreedyAgent)
register_agent("heuristic", GreedyAgent)
