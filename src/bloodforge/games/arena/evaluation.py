"""Each seat's estimated return in a running arena match, from that seat's own observation.

*Why a model of who is left standing:* an arena match is won by the last side standing (R-WIN-1,
R-MODE-1/4), so the position's value is mostly the combatants' health: a side's chance is its
living combatants' strength over everybody's, each combatant weighing

    weight = kind factor x (HP / max HP) ** EXPONENT

and a seat's estimate is its side's chance, shared among the seats of that side as the
returns share a win (`returns()`: 1 among the winning seats; 0 for every seat when a Boss or
Rival side wins, so their chance is nobody's return and the seats' estimates sum to less
than 1 while an NPC can still win). In a co-operative match (every seat on one team) each
Champion therefore gets the team's chance divided by the team's seats: the same number for
all, exactly what the terminal returns give when the team wins.

*The numbers* were fitted by maximum likelihood to 5,779 round-start positions of greedy
self-play (seeds 100-159: solo against each Boss with its Rival, 2-, 3- and 4-player
Free-For-All with Mal'varra; the winner's predicted chance, log-loss per position): the
exponent 2.5 was best in every mode (1-4 tried; health fractions and raw HP fit alike). A Boss
weighs little (0.15 solo, 0.2 in Free-For-All): its health fraction falls slowly because its
HP is large, and the fraction it keeps is worth less than a Champion's. A Rival weighs 2 where
it is the seat's only other rival for the Boss's attention (solo: log-loss 0.553 against
0.757 for equal weights and 0.994 for no model) and 0.5 in Free-For-All (0.758 against 0.806
equal and 1.080 none). Blood Energy toward the Ultimate changed the fit by under 1% and is
left out. Team matches use the Free-For-All numbers.

The estimate reads only what a seat sees (health is public), so a resample of the hidden
state (hands, picks, deck order) gives the same numbers; `evaluate` in game.py calls it with
each seat's own observation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: weight = kind factor x (HP / max HP) ** EXPONENT (fitted; see the module docstring)
EXPONENT = 2.5
#: kind factors when one seat plays alone (solo) and when several seats play
SOLO_FACTORS: Mapping[str, float] = {"champion": 1.0, "rival": 2.0, "boss": 0.15}
SHARED_FACTORS: Mapping[str, float] = {"champion": 1.0, "rival": 0.5, "boss": 0.2}


def side_chances(obs: Mapping[str, Any]) -> dict[int, float]:
    """Every side's chance to be the last one standing, from one observation (sums to 1
    while anybody stands; a finished match gives the winners' sides 1 between them)."""
    units: Sequence[Mapping[str, Any]] = obs["units"]
    if obs["phase"] == "over":
        winners = [int(s) for s in obs["winners"]]
        return {s: 1.0 / len(winners) for s in winners} if winners else {}
    seats = sum(1 for u in units if u["seat"] is not None)
    factors = SOLO_FACTORS if seats == 1 else SHARED_FACTORS
    weights: dict[int, float] = {}
    for u in units:
        kind = u["kind"]
        if kind == "minion" or not u["alive"] or u["hp"] is None or u["hp"] <= 0:
            continue
        fraction = min(1.0, u["hp"] / max(1, u["max_hp"] or u["hp"]))
        weights[u["side"]] = weights.get(u["side"], 0.0) + factors.get(kind, 1.0) * fraction ** EXPONENT
    total = sum(weights.values())
    if total <= 0:
        return {}
    return {side: w / total for side, w in weights.items()}


def seat_estimate(obs: Mapping[str, Any], seat: int) -> float:
    """`seat`'s estimated return: its side's chance shared among that side's seats (as a
    win's return is shared); 0 when its side has no chance left."""
    units: Sequence[Mapping[str, Any]] = obs["units"]
    mine = next(u for u in units if u["seat"] == seat and u["kind"] == "champion")
    side = mine["side"]
    team_seats = sum(1 for u in units if u["seat"] is not None and u["kind"] == "champion" and u["side"] == side)
    return side_chances(obs).get(side, 0.0) / max(1, team_seats)


def estimates(observations: Sequence[Mapping[str, Any]]) -> list[float]:
    """Every seat's estimate, each from its own observation (`observations[seat]`)."""
    return [seat_estimate(obs, seat) for seat, obs in enumerate(observations)]
