"""Descriptions of every tile and unit for people (issue 18, the UI contract's item 2).

One renderer turns the factions' data (pips, build cost, battle modifier, base type, the
faction's movement costs and powers) into English, so the browser's description cards can never
drift from the rules: the same `unit_facts` the rules and agents read are worded here. Card ids
are `<faction>.<tile>` because the same tile name differs between factions (the Chaos Horde's
cavalry has 4 pips and costs 1, the Hill Folk build castles for 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: What each base type is, in a sentence (rulebook: Units; the faction cards).
BASE_TEXT = {
    "resources": "A resource tile: it is never built, it only pays for actions with its pips.",
    "swords": "Infantry: the backbone of an army.",
    "shields": "Infantry that holds ground: a defending force with Shields wins tied battles.",
    "skirmishers": "Light troops at home in the forest.",
    "irregular": "Cheap irregular troops: free to build, strong when attacking.",
    "cavalry": "Mounted troops, strongest on open plains.",
    "castle": "A fortification: it never moves, withdraws or retreats, and is lost with the battle.",
    "citadel": "Your capital: it never moves; captured, it is worth 5 VP to the captor at the end.",
    "ship": "Moves at sea and carries land units: they cross seas free along your own ships.",
    "siege_engine": "Breaks fortifications: its bonus counts against castles and citadels.",
    "leader": "Carries one other unit of its group free when moving (a chain of leaders carries more).",
    "giant": "A giant: with one in the battle its side draws 4 battle tiles.",
    "dragon": "Flies: 1 pip for any area, mountains and seas included; leaves the map after winning an attack.",
    "necromancer": "Raises Undead from the units its side beats in battle.",
    "undead": "Raised from beaten enemies; moves in its own phase up to 2 land areas for free, never built.",
}

TERRAINS = ("plains", "forest", "hills", "mountains", "desert", "sea")


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


def modifier_text(m: Mapping[str, Any] | None) -> str:
    """A battle modifier as people say it: "+1 when defending, in forest, against castles"."""
    if not m:
        return "none"
    parts = [signed(int(m["value"]))]
    when = m.get("when", "always")
    if when == "attacking":
        parts.append("when attacking")
    elif when == "defending":
        parts.append("when defending")
    if m.get("terrain"):
        parts.append(f"in {m['terrain']}")
    if m.get("against"):
        parts.append("against " + " or ".join(str(a).replace("_", " ") + "s" for a in m["against"]))
    text = " ".join(parts[:2]) + "".join(f", {p}" for p in parts[2:]) if len(parts) > 1 else parts[0]
    if m.get("wins_ties_when_defending"):
        text += "; wins tied battles when defending"
    return text


def movement_text(base: str, move_cost: Mapping[str, int | None]) -> str:
    """How a unit of this base type moves, with the faction's costs of entering each terrain."""
    if base in ("castle", "citadel"):
        return "Never moves."
    if base == "resources":
        return "Not a unit."
    if base == "undead":
        return "Only in the Undead phase: up to 2 land areas, free, any terrain."
    if base == "dragon":
        return "1 pip per area entered, any terrain, sea included."
    if base == "ship":
        return "Sea areas only: 1 pip per sea entered for each ship."
    costs = [f"{t} {move_cost[t]}" for t in TERRAINS if t != "sea" and move_cost.get(t) is not None]
    barred = [t for t in TERRAINS if t != "sea" and move_cost.get(t) is None]
    text = "Pips to enter: " + ", ".join(costs)
    if barred:
        text += f"; may not enter {', '.join(barred)}"
    return text + "; seas only along your ships."


def unit_card(faction: Mapping[str, Any], unit: str, u: Mapping[str, Any]) -> dict[str, Any]:
    base = str(u["base"])
    name = unit.replace("_", " ").capitalize()
    stats: list[list[str]] = [["Faction", str(faction["name"])]]
    if base not in ("citadel", "undead"):
        stats.append(["Pips", str(u["pips"])])
    if u["buildable"] and u["build_cost"] is not None:
        stats.append(["Build cost", "free (the tile itself)" if u["build_cost"] == 0
                      else f"{u['build_cost']} more tile{'s' if u['build_cost'] > 1 else ''} from hand"])
    elif base != "resources":
        stats.append(["Build cost", "cannot be built"])
    if base != "resources":
        stats.append(["Battle", modifier_text(u["modifier"])])
    stats.append(["Movement", movement_text(base, faction["move_cost"])])
    if u.get("may_stay_in_desert"):
        stats.append(["Desert", "may end a turn in the desert"])
    text = BASE_TEXT.get(base, "")
    if unit == "cutiecorn":
        text = ("The Cutiecorn: the first player to build it takes it; it never pays to move; whoever beats "
                "its side in battle scores 3 more VP and takes it over.")
    elif unit != base and base not in ("resources",):
        text = f"{name}: the {faction['name']}' {base.replace('_', ' ')}. {text}"
    return {"name": name, "kind": "unit" if base != "resources" else "tile", "text": text.strip(), "stats": stats}


def cards(factions: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every tile of every faction as a description card, keyed `<faction>.<tile>`."""
    out: dict[str, dict[str, Any]] = {}
    for fid, f in factions.items():
        for unit, u in f["units"].items():
            out[card_id(fid, unit)] = unit_card(f, unit, u)
    return out


def card_id(faction_id: str | None, unit: str) -> str:
    return f"{faction_id}.{unit}" if faction_id else unit
