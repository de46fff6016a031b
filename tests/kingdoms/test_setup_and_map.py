# ruff: noqa: N802  (test names carry the rule ids, K23, T5, A37, in capitals)
"""Setup (K13-K24, T5, T6), turn order (K25-K28) and the house map (K1-K8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bloodforge
from bloodforge.core import DataFileError, ParameterError
from bloodforge.games.kingdoms import KingdomsState
from bloodforge.games.kingdoms.board import territories
from bloodforge.games.kingdoms.content import DATA_DIR, FACTIONS, load_content

from .helpers import F, economy, fresh, kinds_at, play


def test_T5_K16_K17_K18_K19_K21_every_faction_starts_with_15_crowns_income_15_supply_3_one_gem() -> None:
    s = fresh()
    for f in FACTIONS:
        assert economy(s, f) == (15, 15, 3, 1)
        assert territories(s, F(f)) == 8


def test_A4_starting_units_stand_in_the_capital_and_K22_capital_is_a_castle() -> None:
    s = fresh()
    c = s.content
    for f in FACTIONS:
        cap = c.ids[c.capital[F(f)]]
        assert kinds_at(s, cap, f) == ["cavalry", "infantry", "infantry"]
        assert s.castle[c.capital[F(f)]]


def test_T6_K103_K107_first_turn_without_purchases_collects_income_minus_supply() -> None:
    s = fresh()
    play(s, "done", "done", "done", "done")  # purchase, combat move, (no combat), noncombat, place
    assert s.active == F("humans")
    assert s.treasury[F("elves")] == 15 + 15 - 3


def test_K25_K26_K28_turn_order_is_clockwise_and_phases_run_in_order() -> None:
    s = fresh()
    seen = []
    for _ in range(8):
        seen.append(FACTIONS[s.active])
        assert s.phase == "purchase"
        play(s, "done", "done")
        assert s.phase == "noncombat"
        play(s, "done")
        assert s.phase == "place"
        play(s, "done")
    assert seen == ["elves", "humans", "dwarves", "undead"] * 2
    assert s.round == 3


def test_K13_K14_A39_seats_and_teams_for_2_3_and_4_players() -> None:
    assert fresh(players=2).seat_roles() == ["Elves + Dwarves", "Humans + Undead"]
    assert fresh(players=3).seat_roles() == ["Elves + Dwarves", "Humans", "Undead"]
    assert fresh(players=4).seat_roles() == ["Elves", "Humans", "Dwarves", "Undead"]
    s = fresh(players=2)
    assert s.actors() == [0]
    play(s, "done", "done", "done", "done")
    assert s.actors() == [1]  # humans
    play(s, "done", "done", "done", "done")
    assert s.actors() == [0]  # dwarves: the same player, its own turn (K14)
    assert s.active == F("dwarves")
    assert s.treasury[F("elves")] == 27
    assert s.treasury[F("dwarves")] == 15


def test_teams_only_for_four_players() -> None:
    with pytest.raises(ParameterError, match="teams"):
        bloodforge.load_game("kingdoms", players=3, teams=True)


def test_K1_K2_K8_house_map_has_51_territories_14_sea_zones_15_gems() -> None:
    c = load_content(None, None, None)
    assert sum(1 for x in c.is_sea if not x) == 51
    assert sum(c.is_sea) == 14
    assert sum(c.gem) == 15
    assert all(c.gem[cap] and c.value[cap] == 8 for cap in c.capital)
    for f in range(4):
        assert len(c.home[f]) == 8
        assert sorted(c.value[t] for t in c.home[f]) == [1] * 7 + [8]


def test_K4_bridges_join_territories_as_neighbours() -> None:
    c = load_content(None, None, None)
    assert c.map.bridges
    for a, b in c.map.bridges:
        assert c.index[b] in c.adj[c.index[a]]


def test_map_is_four_way_fair_every_faction_sees_the_same_distances_to_gems_and_values() -> None:
    c = load_content(None, None, None)

    def profile(f: int) -> list[tuple[int, int, bool]]:
        from collections import deque
        d = {c.capital[f]: 0}
        q = deque([c.capital[f]])
        while q:
            a = q.popleft()
            for b in c.adj[a]:
                if b not in d:
                    d[b] = d[a] + 1
                    q.append(b)
        return sorted((d[i], c.value[i], c.gem[i]) for i in range(len(c.ids)))

    assert profile(0) == profile(1) == profile(2) == profile(3)


def test_every_home_region_has_two_coastal_territories() -> None:
    c = load_content(None, None, None)
    for f in range(4):
        assert sum(1 for t in c.home[f] if c.coastal[t]) >= 2


def test_house_content_is_marked_in_every_data_file() -> None:
    for name in ("map.json", "units.json", "mercenaries.json"):
        assert "HOUSE CONTENT" in json.loads((DATA_DIR / name).read_text())["house_content"]


def test_a_broken_map_file_is_refused_naming_the_file_and_field(tmp_path: Path) -> None:
    data = json.loads((DATA_DIR / "map.json").read_text())
    data["spaces"][0]["value"] = 0
    bad = tmp_path / "bad_map.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(DataFileError, match=r"bad_map\.json"):
        bloodforge.load_game("kingdoms", players=4, map=str(bad))
    with pytest.raises(DataFileError, match=r"bad_map\.json.*spaces\.0"):
        load_content(str(bad), None, None)


def test_file_parameters_are_declared() -> None:
    from bloodforge.games.kingdoms import KingdomsParams
    assert set(KingdomsParams.file_parameters()) == {"map", "units", "mercenaries"}


def test_L10_K14_seating_lets_one_person_run_several_factions_in_a_four_faction_game() -> None:
    game = bloodforge.load_game("kingdoms", players=3, seating="elves+humans/dwarves/undead", seed=1)
    s = game.new_initial_state()
    assert isinstance(s, KingdomsState)
    assert s.seat_factions == [[0, 1], [2], [3]]
    assert s.teams == [0, 1, 2, 3]  # still the free-for-all game: each faction wins alone (K133)
    assert s.seat_roles() == ["Elves + Humans", "Dwarves", "Undead"]
    assert game.static_info()["seat_factions"] == [["elves", "humans"], ["dwarves"], ["undead"]]
    # the seat sees both its factions' pieces face up and their cards (K14: kept separate)
    obs = s.observation(0)
    assert {p["faction"] for p in obs["pieces"] if p["kind"] is not None} >= {"elves", "humans"}
    teams = bloodforge.load_game("kingdoms", players=2, seating="elves/humans+dwarves+undead", teams=True)
    t = teams.new_initial_state()
    assert isinstance(t, KingdomsState)
    assert t.teams == [0, 1, 0, 1]


@pytest.mark.parametrize(("seating", "players", "message"), [
    ("elves+humans/dwarves", 2, "each of the four factions"),
    ("elves/humans/dwarves/undead", 3, "4 seats named but players is 3"),
    ("elves+orcs/humans/dwarves/undead", 4, "'orcs' is not a faction"),
    ("elves+elves/humans/dwarves+undead", 3, "exactly once"),
])
def test_seating_refuses_a_bad_assignment_with_a_clear_error(seating: str, players: int, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        bloodforge.load_game("kingdoms", players=players, seating=seating)


def test_seating_is_a_lobby_parameter_in_the_schema() -> None:
    schema = bloodforge.load_game("kingdoms", players=4).info.params_model.model_json_schema()
    assert "seating" in schema["properties"]
    assert "several factions" in schema["properties"]["seating"]["description"]
