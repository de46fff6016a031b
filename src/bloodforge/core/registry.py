"""The game registry: games register their class at import, users look them up by id."""

from __future__ import annotations

from typing import Any

from .errors import UnknownGame
from .game import Game

_GAMES: dict[str, type[Game]] = {}


def register_game(cls: type[Game]) -> type[Game]:
    """Class decorator (or plain call) that makes a game loadable by its `info.id`."""
    existing = _GAMES.get(cls.info.id)
    if existing is not None and existing is not cls:
        raise ValueError(f"game id {cls.info.id!r} is already registered by {existing.__qualname__}")
    _GAMES[cls.info.id] = cls
    return cls


def unregister_game(game_id: str) -> None:
    """Forget a game (tests register throwaway games and take them away again)."""
    _GAMES.pop(game_id, None)


def registered_ids() -> list[str]:
    return sorted(_GAMES)


def game_class(game_id: str) -> type[Game]:
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGame(f"unknown game {game_id!r}; registered games: {known}") from None


def describe_games() -> list[dict[str, Any]]:
    return [_GAMES[i].info.describe() for i in sorted(_GAMES)]


def create_game(game_id: str, *, seed: int = 0, **params: Any) -> Game:
    return game_class(game_id).create(seed=seed, **params)
