"""Play complete games between agents and summarise each as one JSON-safe record.

Both the CLI's `selfplay` and the lab use this, so a record written by one can be replayed by
`bloodforge replay` and aggregated by the other.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bloodforge.agents import make_agent
from bloodforge.core import Game, State
from bloodforge.core.rng import mix_seed


class PlyLimitExceededError(RuntimeError):
    """A game ran past the safety cap on plies without ending: a bug in the rules or an agent."""


@dataclass
class GameRecord:
    game: str
    params: dict[str, Any]
    seed: int
    agents: list[str]
    winner: list[int]
    scores: list[float]
    returns: list[float]
    plies: int
    digest: str
    seconds: float
    actions: list[str]

    def to_json(self, with_actions: bool = True) -> dict[str, Any]:
        data = {
            "game": self.game,
            "params": self.params,
            "seed": self.seed,
            "agents": self.agents,
            "winner": self.winner,
            "scores": self.scores,
            "returns": self.returns,
            "plies": self.plies,
            "digest": self.digest,
            "seconds": round(self.seconds, 4),
        }
        if with_actions:
            data["actions"] = self.actions
        return data


def play_game(
    game: Game,
    agent_names: Sequence[str],
    *,
    agent_seed: int | None = None,
    max_plies: int = 200_000,
    checked: bool = False,
    agent_options: dict[str, Any] | None = None,
) -> tuple[GameRecord, State]:
    """Play one game to the end; `checked` validates every action through the public `apply`."""
    names = expand_agent_names(agent_names, game.num_players)
    base = game.seed if agent_seed is None else agent_seed
    agents = [
        make_agent(n, seat=i, seed=mix_seed(base, "agent", i), **(agent_options or {}))
        for i, n in enumerate(names)
    ]
    state = game.new_initial_state()
    start = time.perf_counter()
    plies = 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        action = agents[seat].select_action(state)
        if checked:
            state.apply(action)
        else:
            state.apply_unchecked(action)
        plies += 1
        if plies > max_plies:
            raise PlyLimitExceededError(f"{game.id} seed {game.seed}: no end after {max_plies} plies")
    seconds = time.perf_counter() - start
    returns = state.returns()
    best = max(returns)
    record = GameRecord(
        game=game.id,
        params=game.params_dict(),
        seed=game.seed,
        agents=names,
        winner=[i for i, r in enumerate(returns) if r == best and r > 0],
        scores=state.scores(),
        returns=returns,
        plies=plies,
        digest=state.digest(),
        seconds=seconds,
        actions=list(state.history),
    )
    return record, state


def expand_agent_names(names: Sequence[str], players: int) -> list[str]:
    """One name fills every seat; otherwise there must be one name per seat."""
    flat = [n.strip() for part in names for n in part.split(",") if n.strip()]
    if len(flat) == 1:
        return flat * players
    if len(flat) != players:
        raise ValueError(f"need one agent per seat ({players}) or one for all, got {len(flat)}: {flat}")
    return flat
