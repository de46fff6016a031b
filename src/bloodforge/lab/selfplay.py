"""Play complete games between agents; each game comes back as one `Record`.

Both the CLI's `selfplay` and the lab use this, so a record written by one can be replayed by
`bloodforge replay` and aggregated by the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bloodforge.agents import make_agent
from bloodforge.core import Game, State
from bloodforge.core.rng import mix_seed
from bloodforge.match import PlyLimitExceededError, Record, play_match

__all__ = ["PlyLimitExceededError", "expand_agent_names", "play_game"]


def play_game(
    game: Game,
    agent_names: Sequence[str],
    *,
    agent_seed: int | None = None,
    max_plies: int = 200_000,
    checked: bool = False,
    agent_options: dict[str, Any] | None = None,
    timeout_rate: float = 0.0,
) -> tuple[Record, State]:
    """Play one game to the end; `checked` validates every action through the public `apply`."""
    names = expand_agent_names(agent_names, game.num_players)
    base = game.seed if agent_seed is None else agent_seed
    agents = {
        i: make_agent(n, seat=i, seed=mix_seed(base, "agent", i), **(agent_options or {}))
        for i, n in enumerate(names)
    }
    result = play_match(
        game.new_initial_state(), agents, agent_names=names, max_plies=max_plies, checked=checked,
        timeout_rate=timeout_rate, host_seed=mix_seed(base, "host"),
    )
    return result.record, result.state


def expand_agent_names(names: Sequence[str], players: int) -> list[str]:
    """One name fills every seat; otherwise there must be one name per seat."""
    flat = [n.strip() for part in names for n in part.split(",") if n.strip()]
    if len(flat) == 1:
        return flat * players
    if len(flat) != players:
        raise ValueError(f"need one agent per seat ({players}) or one for all, got {len(flat)}: {flat}")
    return flat
