"""Blood Stone (the Witch and the Soldiers): a two-player asymmetric skirmish on a square grid.

Seat 0 commands the three Soldiers, seat 1 the Blood Witch and her four minions. The rules are
the rulebook's (003_0883d58191803368.txt) as ruled in docs/games/witch.md; the board, the unit
cards and the 24 spell cards are house content in `data/content.json`.
"""

from bloodforge.core import register_game

from .game import WitchGame

register_game(WitchGame)
