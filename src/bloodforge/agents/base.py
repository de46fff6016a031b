"""The agent interface: anything that picks a legal action for the seat to move.

Agents see a game only through the public contract (legal_actions, clone, apply, observation,
resample_hidden); they never import a game's internals, so the same agent plays every game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from bloodforge.core import Action, Rng, State


class Agent(ABC):
    """Chooses actions for one seat. `seed` makes every choice reproducible."""

    name: str = "agent"

    def __init__(self, seat: int, seed: int = 0, **options: Any) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self.options = options

    @abstractmethod
    def select_action(self, state: State) -> Action:
        """A legal action for this agent's seat, which is one of `state.actors()`."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat})"


AgentFactory = Callable[..., Agent]
_AGENTS: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    _AGENTS[name] = factory


def agent_names() -> list[str]:
    _load_builtin_agents()
    return sorted(_AGENTS)


def make_agent(name: str, seat: int, seed: int = 0, **options: Any) -> Agent:
    """An agent by name ('random', 'greedy', ...); unknown names list the known ones."""
    _load_builtin_agents()
    try:
        factory = _AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(sorted(_AGENTS))}") from None
    return factory(seat=seat, seed=seed, **options)


def _load_builtin_agents() -> None:
    # openspiel_ismcts imports pyspiel only when such an agent is made
    from . import greedy, mcts, openspiel_ismcts, random_agent  # noqa: F401  (importing registers them)
