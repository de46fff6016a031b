"""The fixed facts of a Bloodstones game as JSON: map geometry, terrain rules, faction stats."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .drawing import map_drawing

if TYPE_CHECKING:
    from .game import BloodstonesGame


def static_info(game: BloodstonesGame) -> dict[str, Any]:
    board = game.board
    data = board.data
    rules = board.rules
    factions: dict[str, Any] = {}
    for fac in game.factions_file.factions:
        fr = game.faction_rules(fac.id)
        units = {}
        for name, k in fr.kinds.items():
            m = k.modifier
            units[name] = {
                "base": k.base,
                "pips": k.pips,
                "build_cost": k.build_cost,
                "buildable": k.buildable,
                "may_stay_in_desert": k.may_stay_in_desert,
                "modifier": None if m is None else {
                    "value": m.value, "when": m.when, "terrain": m.terrain, "against": list(m.against),
                    "wins_ties_when_defending": m.wins_ties_when_defending,
                },
            }
        factions[fac.id] = {
            "name": fac.name,
            "hand_size": fac.hand_size,
            "villages": fac.villages,
            "captured_village_vp": fac.captured_village_vp,
            "move_cost": fr.move_cost,
            "powers": list(fac.powers),
            "battle_bonuses": [{"value": b.value, "terrain": b.terrain, "when": b.when} for b in fac.battle_bonuses],
            "units": units,
        }
    return {
        "game": "bloodstones",
        "board": board_info(game, factions),
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
        "battle_tiles": list(game.factions_file.battle_tiles.values),
        "count_top": game.factions_file.battle_tiles.count_top,
        "regroup_target": 3 if game.num_players == 2 else 2,
        "factions": factions,
    }


def board_info(game: BloodstonesGame, factions: dict[str, Any]) -> dict[str, Any]:
    """The map in the browser's board contract (docs/browser.md): areas with their outlines,
    adjacencies (a shared outline between areas that are not adjacent is drawn as a barrier,
    an adjacency whose outlines do not touch as a link), terrains, and people's names for
    faction and unit words."""
    data = game.board.data
    drawn = {d["id"]: d for d in map_drawing(game.board)["areas"]}
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
