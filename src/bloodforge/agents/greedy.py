"""The greedy (heuristic) agent: the game's own policy, behind one agent name.

A good static evaluation is game knowledge, so each game ships its policy in its own folder
(`Game.policy()`); the policy reads only observations, legal actions, static info and the
game's exported rule queries.
"""

from __future__ import annotations

from typing import Any

from bloodforge.core import Action, Policy, State

from .base import Agent, register_agent


def policy_for(state: State, **options: Any) -> Policy:
    policy = state.game.policy(**options)
    if policy is None:
        raise ValueError(f"{state.game.info.name} has no heuristic policy; use another agent")
    return policy


class GreedyAgent(Agent):
    """`strength` (1-10, default 10) mixes in random moves: 10 never, 1 half of the time.

    A weaker opponent that still plays sensibly most of the time is what casual players ask for;
    the random moves are taken only where the policy would decide (not inside a plan it is
    carrying out), so the agent never looks broken, only careless.

    `blunder` (0-1) sets the share of random moves directly and overrides `strength`. The lobby
    never offers it: it exists for `lab levels`, whose Elo scale is anchored at the random player.
    In a game random never wins against greedy 1 (Bloodstones) the ladder needs rungs in between
    (e.g. `greedy:blunder=0.9`), or no level gets a finite Elo.
    """

    name = "greedy"

    def __init__(
        self,
        seat: int,
        seed: int = 0,
        strength: int = 10,
        blunder: float | None = None,
        **options: Any,
    ) -> None:
        super().__init__(seat, seed, **options)
        if not 1 <= int(strength) <= 10:
            raise ValueError(f"strength must be 1..10, got {strength}")
        self.strength = int(strength)
        if blunder is None:
            self.blunder = (10 - self.strength) / 18
        else:
            try:
                share = float(blunder)
            except (TypeError, ValueError):
                raise ValueError(f"blunder must be a number from 0 to 1, got {blunder!r}") from None
            if not 0.0 <= share <= 1.0:
                raise ValueError(f"blunder must be a number from 0 to 1, got {blunder!r}")
            self.blunder = share
        self._policies: dict[str, Policy] = {}

    def select_action(self, state: State) -> Action:
        game_id = state.game.id
        policy = self._policies.get(game_id)
        if policy is None:
            policy = self._policies[game_id] = policy_for(state, **self.options)
        if self.blunder and self.rng.random() < self.blunder:
            legal = [a for a in state.legal_actions(self.seat) if not a.is_cancel]
            if legal:
                return self.rng.choice(legal)
        return policy.choose(state, self.seat, self.rng)


register_agent("greedy", GreedyAgent)
register_agent("heuristic", GreedyAgent)
