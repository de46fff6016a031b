"""What never changes in a game: the map (board contract v1), unit chart, deck, seating."""

from __future__ import annotations

from typing import Any

from . import describe
from .content import FACTION_NAMES, FACTIONS, Content
from .drawing import outlines

COLOURS = {"elves": "#2e8b57", "humans": "#4a78c2", "dwarves": "#b5651d", "undead": "#7b3fa0"}


def static_info(c: Content, seat_factions: list[list[int]]) -> dict[str, Any]:
    spaces = c.map.spaces
    drawn = outlines(c.map.drawing.rows, c.map.drawing.legend) if c.map.drawing is not None else {}
    areas = []
    for s in spaces:
        area: dict[str, Any] = {
            "id": s.id, "name": s.name, "label": s.name + (f" {s.value}" if s.value else "") + ("◆" if s.gem else ""),
            "x": s.x, "y": s.y, "kind": s.kind, "value": s.value, "gem": s.gem, "home": s.home, "capital": s.capital}
        if s.id in drawn:
            o = drawn[s.id]
            area.update(x=o.x, y=o.y, polygon=o.polygon)
        areas.append(area)
    names = {s.id: s.name for s in spaces}
    names.update({k: u.name for k, u in c.units.units.items()})
    names.update({f"hired_{k}": f"hired {k}" for k in ("infantry", "cavalry")})
    names.update({k: v.name for k, v in c.cards.items()})
    links = sorted({tuple(sorted((c.ids[a], c.ids[b]))) for a in range(len(c.ids)) for b in c.adj[a]})
    return {
        "board": {
            "geometry": "areas", "areas": areas, "links": [list(x) for x in links],
            "bridges": [list(b) for b in c.map.bridges],
            "kinds": {"land": {"label": "Territory"}, "sea": {"label": "Sea zone"}},
            "seats": [{"seat": i, "name": FACTION_NAMES[f], "colour": COLOURS[f]} for i, f in enumerate(FACTIONS)],
            "names": names,
        },
        "factions": list(FACTIONS),
        "seat_factions": [[FACTIONS[f] for f in fs] for fs in seat_factions],
        "units": {k: u.model_dump() for k, u in c.units.units.items()},
        "ship_capacity": c.units.ship_capacity,
        "mercenary_cost": c.units.mercenary_cost,
        "mercenary_supply": c.units.mercenary_supply,
        "cards": describe.cards(c),
        "mercenaries": {k: v.model_dump() for k, v in c.cards.items()},
        "deck": list(c.card_pile),
        "adjacency": {c.ids[i]: [c.ids[n] for n in c.adj[i]] for i in range(len(c.ids))},
        "capitals": {FACTIONS[f]: c.ids[c.capital[f]] for f in range(4)},
        "house_content": [c.map.house_content, c.units.house_content, c.deck.house_content],
    }
