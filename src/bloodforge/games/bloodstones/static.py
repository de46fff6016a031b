"""The fixed facts of a Bloodstones game as JSON: map geometry, terrain rules, faction stats."""

from __future__ import annotations

import copy
from typing import Any

from .describe import cards
from .drawing import map_drawing
from .ruleset import Ruleset


def static_info(ruleset: Ruleset) -> dict[str, Any]:
    board = ruleset.board
    data = board.data
    rules = board.rules
    facts = ruleset.facts
    return {
        "game": "bloodstones",
        "board": board_info(ruleset, facts["factions"]),
        "map": {
            "id": board.id,
            "name": data.name,
            "house_content": data.house_content,
            "areas": [
                {"id": a.id, "terrain": a.terrain, "x": a.x, "y": a.y, "adjacent": list(a.adjacent),
                 "label_x": a.label_x, "label_y": a.label_y}
                for a in data.areas
            ],
            "width": (data.model_extra or {}).get("coordinate_space", {}).get("width"),
            "height": (data.model_extra or {}).get("coordinate_space", {}).get("height"),
            # Outlines and classified borders for drawing (browser UI); see drawing.py.
            "drawing": map_drawing(board),
        },
        "terrain_rules": {
            "move_cost": dict(rules.move_cost),
            "village_cost": dict(rules.village_cost),
            "village_capacity": dict(rules.village_capacity_per_area),
        },
        "battle_tiles": list(facts["battle_tiles"]),
        "count_top": facts["count_top"],
        "regroup_target": ruleset.regroup_target,
        "factions": copy.deepcopy(facts["factions"]),
        # description cards of every tile and unit (describe.py; the browser's card panel)
        "cards": cards(facts["factions"]),
    }


def board_info(ruleset: Ruleset, factions: dict[str, Any]) -> dict[str, Any]:
    """The map in the browser's board contract (docs/browser.md): areas with their outlines,
    adjacencies (a shared outline between areas that are not adjacent is drawn as a barrier,
    an adjacency whose outlines do not touch as a link), terrains, and people's names for
    faction and unit words."""
    data = ruleset.board.data
    drawn = {d["id"]: d for d in map_drawing(ruleset.board)["areas"]}
    areas = [
        {"id": str(a.id), "name": f"{a.id} ({a.terrain})", "kind": a.terrain,
         "x": drawn[a.id]["label_x"], "y": drawn[a.id]["label_y"], "polygon": drawn[a.id]["polygon"]}
        for a in data.areas
    ]
    links = sorted({(min(a.id, b), max(a.id, b)) for a in data.areas for b in a.adjacent})
    names = {fid: f["name"] for fid, f in factions.items()}
    for f in factions.values():
        names.update({u: u.replace("_", " ") for u in f["units"]})
    return {
        "geometry": "areas",
        "areas": areas,
        "links": [[str(a), str(b)] for a, b in links],
        "kinds": {t: {"label": t} for t in dict.fromkeys(a.terrain for a in data.areas)},
        "names": names,
    }
