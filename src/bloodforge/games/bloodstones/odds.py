"""`bloodforge odds bloodstones`: exact battle odds over the Battle-tile bag.

A force is written `FACTION: UNITS`, units separated by commas, each optionally preceded by a
count: `"hill_folk: 2 swords, shields, castle"`. Options: `terrain=<terrain>` (default plains:
it decides terrain modifiers), `attacker_substitute=<pips>` / `defender_substitute=<pips>` (a
hand tile the side swaps for its lowest drawn tile in the first fight when that raises its
total). The numbers come from the exported rule queries the rules themselves use.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from bloodforge.core.errors import ParameterError

from .content import TERRAINS
from .queries import battle_modifier, defender_wins_ties, fight_odds, tiles_drawn
from .ruleset import Ruleset

OPTIONS = ("terrain", "attacker_substitute", "defender_substitute")


def parse_force(ruleset: Ruleset, text: str, role: str) -> tuple[str, dict[str, int]]:
    """`"horse_lords: 2 cavalry, swords"` -> ("horse_lords", {"cavalry": 2, "swords": 1})."""
    faction, sep, rest = text.partition(":")
    faction = faction.strip().lower()
    if not sep:
        raise ParameterError(f"--{role} {text!r}: expected 'FACTION: UNITS', e.g. 'hill_folk: 2 swords, shields'")
    factions = ruleset.facts["factions"]
    if faction not in factions:
        raise ParameterError(f"--{role}: unknown faction {faction!r}; factions: {', '.join(sorted(factions))}")
    kinds = factions[faction]["units"]
    units: dict[str, int] = {}
    for part in rest.split(","):
        words = part.split()
        if not words:
            continue
        count = 1
        if words[0].isascii() and words[0].isdigit():
            count = int(words[0])
            words = words[1:]
        if len(words) != 1 or count < 1:
            raise ParameterError(f"--{role}: {part.strip()!r} is not '[COUNT] UNIT' with a count of at least 1")
        unit = words[0].lower()
        if unit not in kinds:
            raise ParameterError(f"--{role}: {faction} has no unit {unit!r}; units: {', '.join(sorted(kinds))}")
        units[unit] = units.get(unit, 0) + count
    if not units:
        raise ParameterError(f"--{role} {text!r}: a force needs at least one unit")
    return faction, units


def _pips(options: Mapping[str, str], key: str) -> int:
    raw = options.get(key)
    if raw is None:
        return 0
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 9:
        raise ParameterError(f"--option {key}={raw!r}: expected the pips of a hand tile (1-9)")
    return int(raw)


def battle_odds(ruleset: Ruleset, attacker: str, defender: str, options: Mapping[str, str]) -> dict[str, Any]:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ParameterError(f"unknown option(s) {unknown}; options: {', '.join(OPTIONS)}")
    terrain = options.get("terrain", "plains").lower()
    if terrain not in TERRAINS:
        raise ParameterError(f"--option terrain={terrain!r}: terrains are {', '.join(TERRAINS)}")
    att_f, att = parse_force(ruleset, attacker, "attacker")
    def_f, dfn = parse_force(ruleset, defender, "defender")
    facts = ruleset.facts
    values = ruleset.battle_values
    top = ruleset.count_top
    att_sub = _pips(options, "attacker_substitute")
    def_sub = _pips(options, "defender_substitute")
    att_tiles, def_tiles = tiles_drawn(facts, att_f, att, dfn), tiles_drawn(facts, def_f, dfn, att)
    att_mod = battle_modifier(facts, att_f, att, terrain, True, def_f, dfn)
    def_mod = battle_modifier(facts, def_f, dfn, terrain, False, att_f, att)
    shields = defender_wins_ties(facts, def_f, dfn)
    first = fight_odds(values, top, att_tiles, att_mod, def_tiles, def_mod, att_sub, def_sub)
    again = fight_odds(values, top, att_tiles, att_mod, def_tiles, def_mod)
    if shields:
        win, lose = first[0], first[1] + first[2]
        fights = Fraction(1)
    else:
        # a tie is fought again (substitutes are spent): P = w1 + t1 * w / (w + l)
        w, l_, t = again
        if w + l_ == 0:
            raise ParameterError("these forces can only tie: the battle would never end")
        win = first[0] + first[2] * (w / (w + l_))
        lose = first[1] + first[2] * (l_ / (w + l_))
        fights = 1 + first[2] / (1 - t)
    return {
        "game": "bloodstones",
        "attacker": {"faction": att_f, "units": att, "tiles": att_tiles, "modifier": att_mod, "substitute": att_sub},
        "defender": {"faction": def_f, "units": dfn, "tiles": def_tiles, "modifier": def_mod, "substitute": def_sub,
                     "wins_ties": shields},
        "terrain": terrain,
        "first_fight": {"win": float(first[0]), "lose": float(first[1]), "tie": float(first[2])},
        "win": float(win),
        "lose": float(lose),
        "draw": 0.0,
        "win_exact": str(win),
        "expected_fights": float(fights),
        "attacker_vp_if_won": _victor_vp(facts, att_f, dfn),
        "defender_vp_if_won": _victor_vp(facts, def_f, att),
    }


def _victor_vp(facts: Mapping[str, Any], victor: str, loser_units: Mapping[str, int]) -> int:
    """VP for winning: one per unit beaten, +1 with the Corsairs' power, +3 for a Cutiecorn."""
    vp = sum(loser_units.values())
    if "plus_1_vp_per_battle_won" in facts["factions"][victor]["powers"]:
        vp += 1
    if "cutiecorn" in loser_units:
        vp += 3
    return vp


def render_odds(odds: Mapping[str, Any]) -> str:
    a, d = odds["attacker"], odds["defender"]

    def force(side: Mapping[str, Any]) -> str:
        units = ", ".join(f"{n} {u}" if n > 1 else u for u, n in sorted(side["units"].items()))
        sub = f", substitutes a {side['substitute']}" if side["substitute"] else ""
        return f"{side['faction']}: {units} ({side['tiles']} tiles, modifier {side['modifier']:+d}{sub})"

    ff = odds["first_fight"]
    lines = [
        f"Battle in {odds['terrain']}",
        f"  attacker  {force(a)}",
        f"  defender  {force(d)}",
        "  ties: " + ("the defending Shields win them" if d["wins_ties"] else "fought again"),
        f"  first fight: attacker {ff['win']:.4f}  defender {ff['lose']:.4f}  tie {ff['tie']:.4f}",
        f"  attacker wins {odds['win']:.4f} ({odds['win_exact']})   defender wins {odds['lose']:.4f}",
        f"  expected fights {odds['expected_fights']:.3f}",
        f"  VP to the victor: attacker {odds['attacker_vp_if_won']}, defender {odds['defender_vp_if_won']}",
    ]
    return "\n".join(lines)
