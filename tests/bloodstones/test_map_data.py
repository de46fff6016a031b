"""Data files: Map 1's adjacency clarification (A-G); validation errors name file and field."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import bloodforge
from bloodforge.core.errors import DataFileError, ParameterError
from bloodforge.games.bloodstones.content import (
    DATA_DIR,
    MAPS_DIR,
    Board,
    load_board,
    load_factions,
)

#: sha256 of sorted [id, terrain, sorted borders] of shared/data/bloodstones/map1.json
SHARED_MAP1_FACTS_SHA256 = "9aff4ac0888f621dcef1166ed68f804d7701f7ae06883016ff333fd101f01858"
LETTERS = {"a": 50, "b": 51, "c": 57, "d": 58, "e": 59, "f": 68, "g": 67}
# The rulebook's Extra Map Rules, verbatim: "A is adjacent to C B D", "B is adjacent to A D E
# NOT C", "C is adjacent to A D NOT B", "D is adjacent to A B C E F G", "E is adjacent to B D F
# NOT G", "F is adjacent to E D G", "G is adjacent to D F NOT E".
RULEBOOK = {
    "a": ("cbd", ""),
    "b": ("ade", "c"),
    "c": ("ad", "b"),
    "d": ("abcefg", ""),
    "e": ("bdf", "g"),
    "f": ("edg", ""),
    "g": ("df", "e"),
}


def test_map1_rulebook_adjacency_clarification_a_to_g(map1: Board) -> None:
    raw = json.loads((MAPS_DIR / "map1.json").read_text())
    assert raw["rulebook_adjacency_clarification"]["letters"] == LETTERS
    for letter, (linked, not_linked) in RULEBOOK.items():
        area = LETTERS[letter]
        for other in linked:
            assert map1.graph.adjacent(area, LETTERS[other]), f"{letter.upper()}-{other.upper()}"
        for other in not_linked:
            assert not map1.graph.adjacent(area, LETTERS[other]), (
                f"{letter.upper()} NOT {other.upper()}"
            )
    for a, b in raw["rulebook_adjacency_clarification"]["stated_links"]:
        assert map1.graph.adjacent(a, b)
    for a, b in raw["rulebook_adjacency_clarification"]["stated_non_links"]:
        assert not map1.graph.adjacent(a, b)


def test_map1_counts_and_terrain(map1: Board) -> None:
    assert len(map1.area_ids) == 75
    assert len(map1.graph.edges()) == 198
    counts: dict[str, int] = {}
    for t in map1.terrain.values():
        counts[t] = counts.get(t, 0) + 1
    assert counts == {"desert": 4, "forest": 20, "hills": 8, "mountains": 2, "plains": 33, "sea": 8}
    assert map1.data.players.min == 1
    assert map1.data.players.max == 4


def test_packaged_map1_matches_shared_facts(map1: Board) -> None:
    """The packaged Map 1 keeps the shared facts (shared/data/bloodstones/map1.json) exactly.

    CI runs on a clone without shared/, so the facts are pinned as a hash of every area's id,
    terrain and borders, computed from the shared file when it was copied.
    """
    rows = sorted([a, map1.terrain[a], sorted(map1.neighbours[a])] for a in map1.area_ids)
    canon = json.dumps(rows, separators=(",", ":"))
    assert hashlib.sha256(canon.encode()).hexdigest() == SHARED_MAP1_FACTS_SHA256


def test_faction_data_counts_from_the_rulebook() -> None:
    f = load_factions()
    for faction in f.factions:
        assert sum(t.count for t in faction.tiles) == 36
        assert faction.hand_size == (7 if faction.id == "horse_lords" else 6)
        assert faction.starting_hand == 9
        assert faction.start_build_points == 5
    hill = {t.unit: t for t in f.faction("hill_folk").tiles}
    assert hill["castle"].count == 6
    assert hill["castle"].build_cost == 1
    horde = f.faction("chaos_horde")
    assert {t.unit: t.build_cost for t in horde.tiles}["cavalry"] == 1
    assert horde.starting_vp == 10
    assert horde.villages == 0
    assert horde.citadels == 0
    corsairs = {t.unit: t for t in f.faction("corsairs").tiles}
    assert "cavalry" not in corsairs
    assert corsairs["ship"].count == 8
    assert sorted(f.battle_tiles.values) == [2, 2, 3, 3, 4, 4, 5, 5]
    assert f.battle_tiles.count_top == 3


def _write(tmp_path: Path, name: str, data: Any) -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return p


def test_corrupted_factions_file_names_file_and_field(tmp_path: Path) -> None:
    data = json.loads((DATA_DIR / "factions.json").read_text())
    data["factions"][0]["tiles"][1]["count"] = 99
    bad = _write(tmp_path, "factions.json", data)
    with pytest.raises(DataFileError, match=r"factions\.json: factions\.0\.tiles\.1\.count"):
        load_factions(bad)
    with pytest.raises(ParameterError, match=r"factions\.json: factions\.0\.tiles\.1\.count"):
        bloodforge.load_game("bloodstones", players=2, seed=1, faction_data=str(bad))
    data = json.loads((DATA_DIR / "factions.json").read_text())
    data["factions"][2]["tiles"][0]["count"] += 1
    with pytest.raises(
        DataFileError, match=r"factions2\.json: factions\.2.*tile counts add up to 37"
    ):
        load_factions(_write(tmp_path, "factions2.json", data))
    data = json.loads((DATA_DIR / "factions.json").read_text())
    data["factions"][1]["powers"].append("teleports")
    with pytest.raises(DataFileError, match=r"factions\.1\.powers.*unknown power"):
        load_factions(_write(tmp_path, "factions3.json", data))


def test_map_with_asymmetric_border_names_file_and_border(tmp_path: Path) -> None:
    data = json.loads((MAPS_DIR / "map1.json").read_text())
    area = next(a for a in data["areas"] if a["id"] == 27)
    area["adjacent"] = [x for x in area["adjacent"] if x != 26]
    bad = _write(tmp_path, "broken_map.json", data)
    with pytest.raises(
        DataFileError, match=r"broken_map\.json: .*border 26-27 is listed by 26 but not by 27"
    ):
        load_board(str(bad))
    with pytest.raises(ParameterError, match=r"broken_map\.json.*border 26-27"):
        bloodforge.load_game("bloodstones", players=2, seed=1, map_file=str(bad))
    data = json.loads((MAPS_DIR / "map1.json").read_text())
    data["areas"][3]["terrain"] = "lava"
    with pytest.raises(DataFileError, match=r"broken_map2\.json: areas\.3\.terrain"):
        load_board(str(_write(tmp_path, "broken_map2.json", data)))


def test_house_map_grand_is_for_five_and_six_players_with_fair_citadel_spots() -> None:
    """House content: the 5-6 player map (docs/games/bloodstones.md, Data files)."""
    from bloodforge.games.bloodstones.content import load_board

    board = load_board("grand")
    data = board.data
    assert data.house_content is True
    assert (data.players.min, data.players.max) == (5, 6)
    terrains = set(board.terrain.values())
    assert terrains == {"plains", "forest", "hills", "mountains", "desert", "sea"}
    land = [a for a in board.area_ids if not board.is_sea(a)]
    assert len(board.graph.components(land)) == 1, "land must be connected without ships"
    seas = [a for a in board.area_ids if board.is_sea(a)]
    assert len(seas) >= 10
    spots = (data.model_extra or {})["citadel_spots"]
    assert len(spots) == 6
    for i, a in enumerate(spots):
        assert board.terrain[a] in data.terrain_rules.citadel_allowed
        for b in spots[i + 1:]:
            assert board.graph.distance(a, b) is not None
            assert board.graph.distance(a, b) >= 3  # type: ignore[operator]


def test_five_and_six_players_default_to_the_house_map() -> None:
    for players in (5, 6):
        game = bloodforge.load_game("bloodstones", players=players, seed=1)
        assert game.static_info()["map"]["id"] == "grand"
    assert bloodforge.load_game("bloodstones", players=4, seed=1).static_info()["map"]["id"] == "map1"
