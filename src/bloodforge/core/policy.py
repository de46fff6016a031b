"""What a game's heuristic policy looks like to the agents that play it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

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


@runtime_checkable
class PlanningPolicy(Policy, Protocol):
    """A policy that can also name the compound actions it weighs, so a search can compare
    whole plans instead of single steps.

    *Why:* in games where one decision takes several actions (select units, pick a destination,
    pay tiles), a search over single steps spends its budget on half-finished plans that a
    heuristic rollout then cancels; searching over the policy's own candidate plans compares
    what the heuristic compares, but by sampled outcomes instead of its static score.
    """

    def plans(self, state: State, seat: int, rng: Rng) -> list[list[str]] | None:
        """Candidate plans for `seat` here, each a list of action texts whose first step is
        legal now; the policy's own choice first. None when the policy decides one step at a
        time here (the searcher then uses the legal actions)."""
        ...

    def fork(self) -> PlanningPolicy:
        """A new policy with no memory of a game (no plan in progress, no turn counters) that
        shares what never changes (static facts, caches), for one rollout."""
        ...


@runtime_checkable
class WeightingPolicy(Policy, Protocol):
    """A policy that can also say how much it likes each of several actions (its `choose` is a
    weighted draw). *Why:* a tree search that widens slowly tries the actions it likes first,
    instead of in random order, so a short search spends its samples on sensible moves."""

    def weights(self, state: State, seat: int, actions: Sequence[Action]) -> list[float]:
        """A weight of at least 0 for each action (all legal for `seat` now); higher is better."""
        ...


def shares_from_values(values: Sequence[float], scale: float) -> list[float]:
    """Estimated returns from each seat's heuristic value (in the game's own units): a logistic
    of value / `scale` per seat, normalised to share 1, so a game's `evaluate` hook can turn the
    static evaluation its policy already has into the [0, 1] returns searchers back up."""
    raw = [1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, v / scale)))) for v in values]
    total = sum(raw)
    return [r / total for r in raw] if total > 0 else [1.0 / len(raw)] * len(raw)
