"""BLOODSTONE arena (rulebook 004, spec shared/specs/arena.md): see docs/games/arena.md."""

from __future__ import annotations

from bloodforge.core import register_game

from .game import ArenaGame

register_game(ArenaGame)

__all__ = ["ArenaGame"]
