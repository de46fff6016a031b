"""The game's exported rule queries: pure arithmetic on plain numbers.

The heuristic policy (and anyone outside the rules) may import only this module of the game, so
it holds the closed-form battle odds and the casualty choices (spec section 6, A16) and imports
nothing else of the game; `rules.py` uses the same functions, so both always agree.
"""

from __future__ import annotations

from functools import cache


def casualty_options(inf: int, cav: int, margin: int) -> list[tuple[int, int]]:
    """The (infantry, cavalry) sets a loser may remove for `margin` (F35, F42, A16).

    The loser removes the least strength that covers the margin (exactly the margin when the
    army allows it: losing by 1 with infantry and cavalry costs the infantry); among sets of
    that strength the loser chooses. A margin at or above the army's strength kills it all.
    """
    if margin <= 0:
        return [(0, 0)]
    if inf + 2 * cav <= margin:
        return [(inf, cav)]
    best = min(i + 2 * k for i in range(inf + 1) for k in range(cav + 1) if i + 2 * k >= margin)
    return [(i, k) for k in range(cav + 1) for i in range(inf + 1) if i + 2 * k == best]


@cache
def battle_odds(attack: int, defence: int, sides: int = 6) -> tuple[float, float, float]:
    """(win, draw, lose) of an attacker with fixed total `attack` against `defence`, both
    adding one die of `sides` (F28-F33): closed form over the die difference (spec section 6)."""
    win = draw = 0
    for a in range(1, sides + 1):
        for d in range(1, sides + 1):
            diff = attack + a - (defence + d)
            if diff > 0:
                win += 1
            elif diff == 0:
                draw += 1
    n = sides * sides
    return win / n, draw / n, (n - win - draw) / n


def defence_bonus_value(fort: int, *, home_of_defender: bool, territory: int, great_fort: int, home: int) -> int:
    """A15: only the best bonus applies: own home, else great fort (`fort` 2), else any territory."""
    if home_of_defender:
        return home
    if fort == 2:
        return great_fort
    return territory
