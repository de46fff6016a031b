"""bloodforge: five board games on one engine, with AI opponents, a web server and a lab.

The public entry points mirror the contract in docs/architecture.md::

    import bloodforge
    bloodforge.list_games()
    game = bloodforge.load_game("bloodstones", players=4, seed=7)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .core import Action, Game, State
from .core.registry import create_game, describe_games
from .core.scenario import read_scenario

__version__ = "0.1.0"


def _load_builtin_games() -> None:
    from . import games  # noqa: F401  (importing registers every built-in game)


def list_games() -> list[dict[str, Any]]:
    """Ids, names, player counts and parameter schemas of every game."""
    _load_builtin_games()
    return describe_games()


def load_game(game_id: str, *, seed: int = 0, **params: Any) -> Game:
    """A game with validated parameters; unknown ids raise UnknownGame, bad params ParameterError."""
    _load_builtin_games()
    return create_game(game_id, seed=seed, **params)


def load_scenario(source: str | Path | dict[str, Any], *, advance: bool = True) -> State:
    """A state from a scenario file or dict, for whichever game the scenario names."""
    _load_builtin_games()
    scenario = read_scenario(source)
    game = create_game(scenario.game, seed=scenario.seed, **scenario.params)
    return game.load_scenario(scenario.model_dump(), advance=advance)


def state_from_json(data: dict[str, Any]) -> State:
    """Rebuild any state from `State.to_json()` output."""
    _load_builtin_games()
    game = create_game(str(data.get("game")), seed=int(data.get("seed", 0)), **dict(data.get("params", {})))
    return game.state_from_json(data)


__all__ = ["Action", "Game", "State", "list_games", "load_game", "load_scenario", "state_from_json"]
