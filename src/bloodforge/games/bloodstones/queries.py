"""Exported rule queries: battle rules as pure functions of static information.

`facts` is the game's static information (`game.static_info()`, or the rules' own
`Ruleset.facts`, which has the same "factions", "battle_tiles" and "count_top" entries); forces
are unit counts as observations show them (`{"swords": 2, "castle": 1}`). The battle rules
(`battle.py`) call these very functions, and so does the heuristic policy, so an agent's
reading of a battle can never drift from the rules'. This module imports nothing of the game:
it is the one module of the game `policy.py` may import (docs/architecture.md).

Rulebook, Action: Battle: each side draws three Battle tiles, four if it has more units than the
other side or a Giant; the top three count; unit and faction modifiers are added; the higher
total wins; a tie is fought again, unless the defender has Shields, who then win it. Each side
may once per fight replace its lowest drawn tile by a tile from hand (its pips count).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cache
from typing import Any

__all__ = [
    "CITADEL_VP",
    "attack_win_probability",
    "battle_modifier",
    "defender_wins_ties",
    "end_of_game_bonus",
    "fight_odds",
    "fighting_values",
    "moves_in_main_actions",
    "tiles_drawn",
    "top_sum_distribution",
    "unit_base",
]

Facts = Mapping[str, Any]
Force = Mapping[str, int]

#: VP for each captured citadel, scored at the end (rulebook, Ending The Game).
CITADEL_VP = 5


def moves_in_main_actions(base: str) -> bool:
    """May a unit of this base type take part in a Move Units action? Castles and citadels
    never move; Undead move only in their own phase."""
    return base not in ("castle", "citadel", "undead")


def end_of_game_bonus(facts: Facts, faction: str, captured_villages: int, captured_citadels: int) -> int:
    """VP scored at the end for captures: the faction's value per captured village (1, the
    Chaos Horde 2) and CITADEL_VP per captured citadel."""
    per_village = int(facts["factions"][faction]["captured_village_vp"])
    return captured_villages * per_village + captured_citadels * CITADEL_VP


def unit_base(facts: Facts, faction: str, unit: str) -> str:
    """What a unit is (its base type: swords, cavalry, castle, ...)."""
    return str(facts["factions"][faction]["units"][unit]["base"])


def battle_modifier(
    facts: Facts, faction: str, units: Force, terrain: str, attacking: bool,
    enemy_faction: str | None, enemy_units: Force,
) -> int:
    """The sum of a side's battle modifiers: each unit's modifier once per unit, each faction
    bonus once, counted when its condition holds (attacking/defending, terrain, enemy types)."""
    parts = battle_modifier_parts(facts, faction, units, terrain, attacking, enemy_faction, enemy_units)
    return sum(value for _, value in parts)


def battle_modifier_parts(
    facts: Facts, faction: str, units: Force, terrain: str, attacking: bool,
    enemy_faction: str | None, enemy_units: Force,
) -> list[tuple[str, int]]:
    """Each modifier `battle_modifier` counts, with what gives it (a unit id, "2 swords", or
    the faction's name for a faction bonus): the browser's battle panel explains totals."""
    fac = facts["factions"][faction]
    unit_facts = fac["units"]
    enemy_bases = (
        {facts["factions"][enemy_faction]["units"][u]["base"] for u in enemy_units} if enemy_faction else set()
    )
    mods: list[tuple[Mapping[str, Any] | None, int, str]] = [
        (unit_facts[u]["modifier"], n, u if n == 1 else f"{n} {u}") for u, n in units.items()
    ]
    mods.extend((b, 1, str(fac.get("name", faction))) for b in fac["battle_bonuses"])
    parts: list[tuple[str, int]] = []
    for m, n, source in mods:
        if not m:
            continue
        when = m.get("when", "always")
        if (when == "attacking" and not attacking) or (when == "defending" and attacking):
            continue
        if m.get("terrain") and m["terrain"] != terrain:
            continue
        against = m.get("against") or ()
        if against and not enemy_bases.intersection(against):
            continue
        parts.append((source, int(m["value"]) * n))
    return parts


def tiles_drawn(facts: Facts, faction: str, units: Force, enemy_units: Force) -> int:
    """Battle tiles a side draws: four with a Giant or more units than the enemy, else three."""
    unit_facts = facts["factions"][faction]["units"]
    if any(unit_facts[u]["base"] == "giant" for u in units if u != "cutiecorn"):
        return 4
    return 4 if sum(units.values()) > sum(enemy_units.values()) else 3


def defender_wins_ties(facts: Facts, faction: str, units: Force) -> bool:
    """Defending Shields win a tied fight instead of fighting it again."""
    unit_facts = facts["factions"][faction]["units"]
    return any(
        (unit_facts[u]["modifier"] or {}).get("wins_ties_when_defending") for u in units if u != "cutiecorn"
    )


def fighting_values(drawn: Iterable[int], substitute_pips: int | None = None) -> list[int]:
    """The tiles a side fights with, highest first: the drawn tiles, the lowest replaced by the
    substitute from hand (its pips) if there is one."""
    tiles = sorted(drawn, reverse=True)
    if substitute_pips is not None and tiles:
        tiles[-1] = substitute_pips
    return sorted(tiles, reverse=True)


@cache
def top_sum_distribution(
    values: tuple[int, ...], drawn: int, count_top: int, substitute: int = 0
) -> dict[int, Fraction]:
    """Exact distribution of a side's tile total: the best `count_top` of `drawn` tiles taken
    from a full bag of `values`, after replacing the lowest drawn tile by a hand tile of
    `substitute` pips when that raises the total (0: no tile to substitute)."""
    dist: dict[int, Fraction] = {}
    combos = list(itertools.combinations(range(len(values)), drawn))
    weight = Fraction(1, len(combos))
    for combo in combos:
        picked = sorted((values[i] for i in combo), reverse=True)
        best = sum(picked[:count_top])
        if substitute and picked:
            swapped = sorted([*picked[:-1], substitute], reverse=True)
            best = max(best, sum(swapped[:count_top]))
        dist[best] = dist.get(best, Fraction(0)) + weight
    return dist


def fight_odds(
    values: Iterable[int], count_top: int, att_tiles: int, att_mod: int, def_tiles: int, def_mod: int,
    att_substitute: int = 0, def_substitute: int = 0,
) -> tuple[Fraction, Fraction, Fraction]:
    """(attacker wins, defender wins, tie) of one fight, exactly."""
    vals = tuple(values)
    a = top_sum_distribution(vals, att_tiles, count_top, att_substitute)
    d = top_sum_distribution(vals, def_tiles, count_top, def_substitute)
    win = lose = tie = Fraction(0)
    for sa, pa in a.items():
        for sd, pd in d.items():
            diff = (sa + att_mod) - (sd + def_mod)
            if diff > 0:
                win += pa * pd
            elif diff < 0:
                lose += pa * pd
            else:
                tie += pa * pd
    return win, lose, tie


def attack_win_probability(facts: Facts, att_faction: str, att: Force, def_faction: str, dfn: Force,
                           terrain: str) -> float:
    """Chance that the attacker wins the battle, ties fought again unless defending Shields win
    them, no substitutions (they come from hands, which the rules cannot foresee)."""
    return _battle_win_probability(
        tuple(facts["battle_tiles"]), int(facts["count_top"]),
        tiles_drawn(facts, att_faction, att, dfn),
        battle_modifier(facts, att_faction, att, terrain, True, def_faction, dfn),
        tiles_drawn(facts, def_faction, dfn, att),
        battle_modifier(facts, def_faction, dfn, terrain, False, att_faction, att),
        defender_wins_ties(facts, def_faction, dfn),
    )


@cache
def _battle_win_probability(values: tuple[int, ...], count_top: int, att_tiles: int, att_mod: int,
                            def_tiles: int, def_mod: int, defender_takes_ties: bool) -> float:
    """Cached on the few numbers the odds depend on: policies ask it thousands of times a turn
    for the same handful of tile counts and modifiers, and the exact sums are slow."""
    win, lose, _tie = fight_odds(values, count_top, att_tiles, att_mod, def_tiles, def_mod)
    if defender_takes_ties:
        return float(win)
    return float(win / (win + lose)) if win + lose > 0 else 0.5
