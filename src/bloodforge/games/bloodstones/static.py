"""The fixed facts of a Bloodstones game as JSON: map geometry, terrain rules, faction stats."""

from __future__ import annotations

import copy
from typing import Any

from .drawing import map_drawing
from .ruleset import Ruleset


def static_info(ruleset: Ruleset) -> dict[str, Any]:
    board = ruleset.board
    data = board.data
    rules = board.rules
    facts = ruleset.facts
    return {
        "game": "bloodstones",
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
    }
