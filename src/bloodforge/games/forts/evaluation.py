"""The game's estimate of each seat's share of the win in a running game (`Game.evaluate`).

Each seat judges from its own observation (everything it reads is public but its own hand,
which it does not use), so a resample of the hidden cards changes nothing. A seat's value is
its prospects minus the best rival's, in logits of the win: a logistic of it is its winning
chance in a two-player game (`core.policy.shares_from_values` with scale 1).

*Where the weights come from:* a logistic regression of the winner on the differences of
these features, at every turn start of 300 greedy two-player games (seeds 0-299, 8,950
positions; log-loss 0.587, 67% of winners called right; the script's steps are in
docs/games/forts.md, "Search"). Rounded:

| feature | weight | why it matters |
| --- | --- | --- |
| forts held | 0.5 each, 0.5 more at 4 or more | the race is to 5 forts |
| a 5-fort hold running (`held_since`) | 7.5 | it wins at the holder's next turn unless broken |
| army strength (infantry 1, cavalry 2) | 0.135 a point | battles are strength plus a die |
| room under the food quota | 0.15 a unit | room to recruit |
| currency | 0.07 a coin | a hero card costs 3 |

Income and hand size came out near zero (income mostly follows the forts held, which already
count; a hero card is paid for with currency that already counted) and are left out.
"""

from __future__ import annotations

from typing import Any

FORT = 0.5
NEAR_WIN_FORTS = 4
NEAR_WIN = 0.5
HOLD = 7.5
STRENGTH = 0.135
ROOM = 0.15
CURRENCY = 0.07


def prospects(obs: dict[str, Any], seat: int, forts_to_win: int) -> float:
    """How well `seat` stands in this observation (whoever observes: only public fields)."""
    forts = int(obs["forts"][seat])
    value = FORT * forts
    if forts >= NEAR_WIN_FORTS:
        value += NEAR_WIN
    if forts >= forts_to_win and obs["held_since"][seat] is not None:
        value += HOLD
    strength = 0
    for terr in obs["territories"]:
        if terr["controller"] == seat:
            strength += int(terr["infantry"]) + 2 * int(terr["cavalry"])
    value += STRENGTH * strength
    value += ROOM * max(0, int(obs["quota"][seat]) - int(obs["units"][seat]))
    value += CURRENCY * int(obs["currency"][seat])
    return value


def seat_value(obs: dict[str, Any], seat: int, forts_to_win: int) -> float:
    """`seat`'s prospects minus the best live rival's, from `seat`'s own observation."""
    if obs["eliminated"][seat]:
        return -HOLD - 10.0
    mine = prospects(obs, seat, forts_to_win)
    others = [prospects(obs, s, forts_to_win) for s in range(int(obs["players"]))
              if s != seat and not obs["eliminated"][s]]
    return mine - (max(others) if others else 0.0)


__all__ = ["prospects", "seat_value"]
