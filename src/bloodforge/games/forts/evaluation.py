"""The game's estimate of each seat's share of the win in a running game (`Game.evaluate`).

Each seat judges from its own observation, and everything it reads there is public (its own
hand is counted like the others', by size), so a resample of the hidden cards changes nothing.
A seat's value is its prospects minus the best rival's, in logits of the win: a logistic of it
is its winning chance in a two-player game (`core.policy.shares_from_values` with scale 1).

*Where the weights come from:* a logistic regression of the winner on the differences of these
features, at every turn start of 300 greedy two-player games (seeds 0-299, 8,950 positions;
log-loss 0.579, 67% of winners called right; without `threat` and `exposure` 0.588). Rounded:

| feature | weight | why it matters |
| --- | --- | --- |
| forts held | 0.85 each, 0.4 more at 4 or more | the race is to 5 forts |
| a 5-fort hold running (`held_since`) | 7.5 | it wins at the holder's next turn unless broken |
| threat (below) | 1.0 | forts are taken from next door |
| exposure (below) | -7.0 | a fort lost breaks a hold and costs the race |
| army strength (infantry 1, cavalry 2) | 0.07 a point | battles are strength plus a die |
| room under the food quota | 0.14 a unit | room to recruit |
| currency | 0.09 a coin | |
| hero cards in hand | 0.3 a card | not fitted (see below) |

Threat: for each fort the seat does not hold, the best chance that one of its armies next to it
wins an attack there; exposure: for each fort it holds, the best chance that a rival's army
next to it wins one.

Hero cards: in greedy play both sides buy a card whenever they can, so the regression cannot
see their worth (it came out near zero); a search judged by it would never buy one (it saw 3
currency lost and nothing gained). A card is valued at a little more than its price (3 coins at 0.09):
it adds 2 strength on average to a battle that matters. The hand is counted by its size, as
every seat sees the others' hands.

Battle odds are the rules' own (`queries.battle_odds`); an attack's strength is the whole army
next door, hero cards left out.
"""

from __future__ import annotations

from typing import Any

from .policy import MapFacts, defence_of
from .queries import battle_odds

FORT = 0.85
NEAR_WIN_FORTS = 4
NEAR_WIN = 0.4
HOLD = 7.5
THREAT = 1.0
EXPOSURE = -7.0
STRENGTH = 0.07
ROOM = 0.14
CURRENCY = 0.09
HERO_CARD = 0.3


def prospects(obs: dict[str, Any], seat: int, mp: MapFacts) -> float:
    """How well `seat` stands in this observation (whoever observes: only public fields)."""
    terrs = obs["territories"]
    forts = int(obs["forts"][seat])
    value = FORT * forts
    if forts >= NEAR_WIN_FORTS:
        value += NEAR_WIN
    if forts >= mp.forts_to_win and obs["held_since"][seat] is not None:
        value += HOLD
    strength = 0
    for terr in terrs:
        if terr["controller"] == seat:
            strength += int(terr["infantry"]) + 2 * int(terr["cavalry"])
    threat = exposure = 0.0
    for t, fort in enumerate(mp.fort):
        if not fort:
            continue
        mine = terrs[t]["controller"] == seat
        best = 0.0
        defence = -1
        for n in mp.nbrs[t]:
            c = terrs[n]["controller"]
            if (c != seat and isinstance(c, int)) if mine else c == seat:
                if defence < 0:
                    defence = defence_of(obs, mp, t)
                attack = int(terrs[n]["infantry"]) + 2 * int(terrs[n]["cavalry"])
                best = max(best, battle_odds(attack, defence, mp.sides)[0])
        if mine:
            exposure += best
        else:
            threat += best
    value += THREAT * threat + EXPOSURE * exposure
    value += STRENGTH * strength
    value += ROOM * max(0, int(obs["quota"][seat]) - int(obs["units"][seat]))
    value += CURRENCY * int(obs["currency"][seat])
    value += HERO_CARD * int(obs["hand_sizes"][seat])
    return value


def seat_value(obs: dict[str, Any], seat: int, mp: MapFacts) -> float:
    """`seat`'s prospects minus the best live rival's, from `seat`'s own observation."""
    if obs["eliminated"][seat]:
        return -HOLD - 10.0
    mine = prospects(obs, seat, mp)
    others = [prospects(obs, s, mp) for s in range(int(obs["players"]))
              if s != seat and not obs["eliminated"][s]]
    return mine - (max(others) if others else 0.0)


__all__ = ["prospects", "seat_value"]
