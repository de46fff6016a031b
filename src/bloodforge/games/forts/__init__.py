"""Five Forts: 2-4 players race to hold five forts for a round (rulebook 002_b01bd08a0c9b967d.txt).

The rules are the quick guide's as ruled in docs/games/forts.md; the map, the hero deck and the
missing numbers are house content in `data/content.json`.
"""

from bloodforge.core import register_game

from .game import FortsGame

register_game(FortsGame)

__all__ = ["FortsGame"]
