"""The agent interface: anything that picks a legal action for the seat to move.

Agents see a game only through the public contract (legal_actions, clone, apply, observation,
resample_hidden); they never import a game's internals, so the same agent plays every game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bloodforge.core import Action, Rng, State

SettingsT = TypeVar("SettingsT", bound=BaseModel)


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


def settings_from_options(model: type[SettingsT], options: dict[str, Any], agent: str,
                          also_known: Sequence[str] = ()) -> SettingsT:
    """An agent's options as its validated settings, or one ValueError naming every bad option
    and why (the lab and the server pass a user's `name:key=value` text straight through)."""
    try:
        return model(**options)
    except ValidationError as err:
        problems = []
        for e in err.errors():
            name = ".".join(str(x) for x in e["loc"])
            if e["type"] == "extra_forbidden":
                known = ", ".join([*also_known, *model.model_fields])
                problems.append(f"unknown {agent} option {name!r}; known: {known}")
            else:
                problems.append(f"{agent} option {name}: {e['msg']} (got {e['input']!r})")
        raise ValueError("; ".join(problems)) from None


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
