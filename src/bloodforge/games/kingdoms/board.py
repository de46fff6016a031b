"""Queries on a position that every rules module needs: relations, economy, stacks, dice.

Friend and foe: factions on the same team are allies (A15); everyone else is an enemy. A
territory is hostile to a faction if an enemy holds it or it is neutral (K39-K40); a sea zone is
hostile if it holds enemy ships (K54).
"""

from __future__ import annotations

from .content import FACTIONS
from .model import RESERVE, KBase, Piece

LAND, AIR, SEA = "land", "air", "sea"


def team_of(s: KBase, faction: int) -> int:
    """The team index of a faction: its seat's group in team games, the faction itself otherwise."""
    return s.teams[faction]


def allied(s: KBase, a: int, b: int) -> bool:
    return s.teams[a] == s.teams[b]


def seat_of(s: KBase, faction: int) -> int:
    seat = s.faction_seat[faction]
    if seat < 0:
        raise ValueError(f"faction {faction} has no seat")
    return seat


def cls(s: KBase, kind: str) -> str:
    return s.content.units.units[kind].cls


def stack(s: KBase, space: int, faction: int | None = None) -> list[Piece]:
    """Pieces standing in `space` (cargo included), of one faction or all, by id."""
    return [p for p in s.pieces.values() if p.at == space and (faction is None or p.faction == faction)]


def occupants(s: KBase, space: int) -> set[int]:
    return {p.faction for p in s.pieces.values() if p.at == space}


def enemy_in(s: KBase, space: int, faction: int) -> bool:
    teams = s.teams
    team = teams[faction]
    return any(p.at == space and teams[p.faction] != team for p in s.pieces.values())


def hostile(s: KBase, space: int, faction: int) -> bool:
    """K39/K40/K54: entering it is a combat move."""
    teams = s.teams
    team = teams[faction]
    if s.content.is_sea[space]:
        return any(p.at == space and p.aboard < 0 and p.kind == "ship" and teams[p.faction] != team
                   for p in s.pieces.values())
    o = s.owner[space]
    return o < 0 or teams[o] != team


def friendly_passable(s: KBase, space: int, faction: int) -> bool:
    """May a unit of `faction` pass through `space`? Only friendly spaces (A10)."""
    if hostile(s, space, faction):
        return False
    return not enemy_in(s, space, faction)


def holdings(s: KBase) -> tuple[list[int], list[int], list[int]]:
    """Income, territories and victory gems of every faction in one pass over the map, each a
    list of five: factions 0-3, then neutral (index -1 reads it)."""
    inc = [0, 0, 0, 0, 0]
    count = [0, 0, 0, 0, 0]
    gem = [0, 0, 0, 0, 0]
    c = s.content
    for o, v, g in zip(s.owner, c.value, c.gem, strict=True):
        inc[o] += v
        count[o] += 1
        if g:
            gem[o] += 1
    return inc, count, gem


def income(s: KBase, faction: int) -> int:
    v = s.content.value
    return sum(v[i] for i, o in enumerate(s.owner) if o == faction)


def supply(s: KBase, faction: int) -> int:
    """K105/K106: one per unit (set-aside ones too, A6), five per mercenary card held."""
    units = s.content.units
    n = sum(units.units[p.kind].supply for p in s.pieces.values() if p.faction == faction and not p.merc)
    return n + units.mercenary_supply * len(s.hands[faction])


def gems(s: KBase, faction: int) -> int:
    g = s.content.gem
    return sum(1 for i, o in enumerate(s.owner) if o == faction and g[i])


def territories(s: KBase, faction: int) -> int:
    return sum(1 for o in s.owner if o == faction)


def units_of(s: KBase, faction: int) -> list[Piece]:
    return [p for p in s.pieces.values() if p.faction == faction and not p.merc]


def alive(s: KBase, faction: int) -> bool:
    return territories(s, faction) > 0 or any(p.faction == faction for p in s.pieces.values())


def in_play(s: KBase, faction: int, kind: str) -> int:
    return sum(1 for p in s.pieces.values() if p.faction == faction and p.kind == kind and not p.merc)


def works_in_play(s: KBase, kind: str) -> int:
    """Common castles/ports in use: on the map (printed capitals excluded) or bought and set aside."""
    flags = s.castle if kind == "castle" else s.port
    caps = set(s.content.capital) if kind == "castle" else set()
    on_map = sum(1 for i, f in enumerate(flags) if f and i not in caps)
    return on_map + sum(1 for p in s.pieces.values() if p.kind == kind)


def cargo(s: KBase, ship: Piece) -> list[Piece]:
    return [p for p in s.pieces.values() if p.aboard == ship.id]


def roll(s: KBase) -> int:
    """One d6 (A1): rigged results first (scenarios), then the state's RNG."""
    if s.dice:
        return s.dice.pop(0)
    return s.rng.randint(1, 6)


def hits(s: KBase, values: list[int]) -> int:
    """One die per value, in the given (canonical) order; a hit is a roll <= value (K70, K76)."""
    return sum(1 for v in values if roll(s) <= v)


def reserve(s: KBase, faction: int) -> list[Piece]:
    return [p for p in s.pieces.values() if p.faction == faction and p.at == RESERVE]


def name(s: KBase, space: int) -> str:
    return s.content.ids[space]


def pname(s: KBase, space: int) -> str:
    """A space as people read it in the log ("Sylvanhold"); action texts keep the id (`name`)."""
    return s.content.map.spaces[space].name


def fname(faction: int) -> str:
    return ("Elves", "Humans", "Dwarves", "Undead")[faction]


def fid(faction: int) -> str | None:
    """A faction's id for log data (`elves`, ...), None for nobody (-1: neutral)."""
    return FACTIONS[faction] if faction >= 0 else None


def article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"
