"""Kingdoms of Blood: four factions, fog of war, mercenaries, supply and victory gems.

Rules are the rulebook's (001_cc2c088fc0bba252.txt) as specified in shared/specs/kingdoms.md and
ruled in docs/games/kingdoms.md; the map, pools and mercenary deck are house content in data/.
"""

from bloodforge.core import register_game

from .game import KingdomsGame, KingdomsState
from .params import KingdomsParams

register_game(KingdomsGame)

__all__ = ["KingdomsGame", "KingdomsParams", "KingdomsState"]
