"""Bloodstones: six asymmetric factions, 2-6 players (rulebook 000_834b95b87f1f48d9.txt)."""

from bloodforge.core import register_game

from .game import BloodstonesGame

register_game(BloodstonesGame)
