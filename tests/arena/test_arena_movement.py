"""Movement, hazards, forced movement and collisions (R-MOV, R-HAZ, R-FM, R-COL, KW-*;
EX-5, EX-11..14, EX-16; spec §2.6 F1-F7, TB11, TB12, TB-COLDMG)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena_helpers import at, hp, pool, scenario, texts

from bloodforge.games.arena.content import DATA_DIR
from bloodforge.games.arena.hexes import distance, parse_hex

TEAM4 = {"players": 4, "mode": "team", "champions": ["vhrak", "ulwazi", "maere", "lienne"], "teams": [0, 0, 1, 1],
         "boss": None}


def team_turn(units: list[dict], tiles: list[dict] | None = None, teams: list[int] | None = None,
              rig: dict | None = None, champions: list[str] | None = None):
    params = dict(TEAM4)
    if teams is not None:
        params["teams"] = teams
    if champions is not None:
        params["champions"] = champions
    order = [u["id"] for u in units if u["id"] in params["champions"]]
    return scenario(params, {"units": units, "order": order, "active": order[0], "tiles": tiles or []}, rig)


def test_ex5_r_mov_2_r_haz_5_movement_through_thorns_and_around_enemies() -> None:
    units = [{"id": "vhrak", "hex": "0,0", "pool": pool(1, 2, 3, 4)}, {"id": "ulwazi", "hex": "0,3"},
             {"id": "maere", "hex": "-1,0"}, {"id": "lienne", "hex": "-4,4"}]
    thorns = [{"env": "spectral_thorns", "anchor": "2,0", "owner": "maere"}]
    st = team_turn(units, thorns, rig={"d20": [11]})
    moves = {t.split()[1] for t in texts(st) if t.startswith("move")}
    assert {"1,0", "2,0", "3,0"} <= moves  # onto and through the Thorns (flat: R-ENV-4)
    assert "-3,0" not in moves  # only through Maere's space (R-MOV-2)
    assert "0,3" not in moves  # never end on an ally (R-MOV-5)
    st.apply("move 3,0", 0)
    assert hp(st, "vhrak") == 175 - 11  # 1d20, once for the whole move (R-HAZ-2)
    allied = team_turn(units, thorns, teams=[0, 0, 0, 1])
    assert "move -3,0" in texts(allied)  # through an ally's space (R-MOV-5)


def test_ex16_r_haz_3_starting_on_a_hazard_is_free_entering_it_again_is_not() -> None:
    units = [{"id": "vhrak", "hex": "0,0", "pool": pool(1, 2, 3, 4), "current": "lunge"},
             {"id": "ulwazi", "hex": "0,3"}, {"id": "maere", "hex": "-4,0"}, {"id": "lienne", "hex": "-4,4"}]
    thorns = [{"env": "spectral_thorns", "anchor": "0,0", "owner": "maere"}]
    st = team_turn(units, thorns, rig={"d20": [5, 9]})
    assert hp(st, "vhrak") == 175  # the turn began on the tile
    st.apply("move 1,0", 0)  # another hex of the same tile
    assert hp(st, "vhrak") == 170
    st.apply("bonus card", 0)  # Lunge: move 1 more
    st.apply("choose 1,-1", 0)
    assert hp(st, "vhrak") == 170  # once per turn (R-HAZ-4)


def test_r_min_9_kw_fly_minions_ignore_hazards() -> None:
    units = [{"id": "maere", "hex": "0,3", "pool": pool(1, 2, 3, 4)}, {"id": "samalira", "hex": "3,0"},
             {"id": "vhrak", "hex": "-4,0"}, {"id": "ulwazi", "hex": "-4,4"}, {"id": "lienne", "hex": "4,-4"}]
    traps = [{"env": "spike_traps", "anchor": "2,0"}]
    st = team_turn(units, traps, champions=["maere", "vhrak", "ulwazi", "lienne"], teams=[0, 1, 1, 0])
    st.apply("minion samalira 1,0", 0)  # through the trap at 2,0
    assert at(st, "samalira") == "1,0"
    assert "caught" not in " ".join(st.event_log(None))


def test_ex15_r_min_5_samalira_moves_three_once_per_round() -> None:
    units = [{"id": "maere", "hex": "0,3", "pool": pool(1, 2, 3, 4)}, {"id": "samalira", "hex": "0,0"},
             {"id": "vhrak", "hex": "-4,0"}, {"id": "ulwazi", "hex": "-4,4"}, {"id": "lienne", "hex": "4,-4"}]
    st = team_turn(units, champions=["maere", "vhrak", "ulwazi", "lienne"], teams=[0, 1, 1, 0])
    moves = {t.split()[2] for t in texts(st) if t.startswith("minion samalira")}
    assert "3,0" in moves
    assert "4,0" not in moves
    st.apply("minion samalira 3,0", 0)
    assert not any(t.startswith("minion samalira") for t in texts(st))


def test_ex11_kw_push_r_fm_2_push_one_space_per_special_die_up_to_the_player() -> None:
    units = [{"id": "vhrak", "hex": "0,0", "pool": pool(2, 2, 3, 4)}, {"id": "ulwazi", "hex": "0,3"},
             {"id": "lienne", "hex": "1,0", "pool": [*pool(1, 1, 1, 1), {"kind": "poison"}, {"kind": "poison"}]},
             {"id": "maere", "hex": "-4,4"}]
    st = team_turn(units)
    st.apply("attack vaulting_blow", 0)
    st.apply("target lienne", 0)
    assert sorted(texts(st)) == ["choose 1,1", "choose 2,-1", "choose 2,0", "choose stop"]
    st.apply("choose 2,0", 0)
    assert sorted(texts(st)) == ["choose 2,1", "choose 3,-1", "choose 3,0", "choose stop"]
    st.apply("choose 3,-1", 0)
    assert at(st, "lienne") == "3,-1"
    assert st.board.pending is None  # 2 spaces for 2 Special dice


def test_ex12_kw_pull_each_step_one_closer() -> None:
    units = [{"id": "lienne", "hex": "0,0", "pool": pool(2, 2, 3, 4)}, {"id": "maere", "hex": "0,-3"},
             {"id": "vhrak", "hex": "2,1"}, {"id": "ulwazi", "hex": "-4,4"}]
    st = team_turn(units, champions=["lienne", "maere", "vhrak", "ulwazi"])
    st.apply("attack whip_lash", 0)
    st.apply("target vhrak", 0)
    assert sorted(texts(st)) == ["choose 1,1", "choose 2,0", "choose stop"]
    st.apply("choose 1,1", 0)
    assert sorted(texts(st)) == ["choose 0,1", "choose 1,0", "choose stop"]


def test_ex13_r_col_5_r_col_6_tb_coldmg_collisions_in_team_play() -> None:
    base = [{"id": "vhrak", "hex": "0,0", "pool": pool(5, 5, 5, 4)}, {"id": "lienne", "hex": "2,0"},
            {"id": "cynwrig", "hex": "1,0"}, {"id": "ulwazi", "hex": "2,-1"}]
    champs = ["vhrak", "lienne", "cynwrig", "ulwazi"]
    st = team_turn(base, champions=champs, teams=[0, 0, 1, 1], rig={"d6": [4]})
    st.apply("attack unleashed_fury", 0)
    st.apply("target cynwrig", 0)
    assert "choose 2,0" in texts(st)  # TB11: a collision step is a legal step
    st.apply("choose 2,0", 0)  # into Lienne, Vhrak's ally
    assert hp(st, "cynwrig") == 175 - (15 + 8) - 4
    assert hp(st, "lienne") == 175  # R-COL-6
    assert at(st, "cynwrig") == "1,0"  # R-COL-1/3: stays, the rest of the push is lost
    assert st.board.pending is None
    st2 = team_turn(base, champions=champs, teams=[0, 0, 1, 1], rig={"d6": [4]})
    st2.apply("attack unleashed_fury", 0)
    st2.apply("target cynwrig", 0)
    st2.apply("choose 2,-1", 0)  # into Ulwazi, another enemy: both take the one roll
    assert hp(st2, "cynwrig") == 175 - 23 - 4
    assert hp(st2, "ulwazi") == 175 - 4


def test_ex14_r_col_8_hazards_do_not_stop_forced_movement() -> None:
    params = {"players": 3, "champions": ["calvio", "vhrak", "cynwrig"], "boss": "malvarra"}
    units = [{"id": "calvio", "hex": "0,0", "pool": pool(6, 6, 6, 1)}, {"id": "vhrak", "hex": "1,1"},
             {"id": "cynwrig", "hex": "0,1"}, {"id": "malvarra", "hex": "-5,0"}]
    tiles = [{"env": "hellfire_spray", "anchor": "0,0", "owner": "malvarra"}]
    st = scenario(params, {"units": units, "order": ["calvio", "vhrak", "cynwrig", "malvarra"], "active": "calvio",
                           "tiles": tiles}, {"d6": [3, 5]})
    st.apply("attack singularity", 0)  # Triples, Targets 2, Pull 3
    st.apply("target vhrak", 0)
    st.apply("target cynwrig", 0)
    assert sorted(texts(st)) == ["choose 0,1", "choose 1,0", "choose stop"]
    st.apply("choose 1,0", 0)  # onto the spray: 1d6+2 hazard, the pull goes on
    assert hp(st, "vhrak") == 175 - 24 - (3 + 2)
    st.apply("choose 0,0", 0)  # into Calvio himself: only Vhrak is hurt (R-COL-6)
    assert hp(st, "vhrak") == 175 - 24 - 5 - 5
    assert hp(st, "calvio") == 175
    assert at(st, "vhrak") == "1,0"


def test_r_fm_6_r_col_2_pushing_into_the_arena_wall_is_a_collision() -> None:
    units = [{"id": "vhrak", "hex": "4,0", "pool": pool(5, 5, 5, 4)}, {"id": "ulwazi", "hex": "0,3"},
             {"id": "maere", "hex": "5,0"}, {"id": "lienne", "hex": "-4,4"}]
    st = team_turn(units, rig={"d6": [6]})
    st.apply("attack unleashed_fury", 0)
    st.apply("target maere", 0)
    st.apply("choose 6,0", 0)  # the arena has radius 6: beyond 6,0 only walls
    assert sorted(texts(st)) == ["choose 6,1", "choose 7,-1", "choose 7,0", "choose stop"]
    st.apply("choose 7,0", 0)
    assert at(st, "maere") == "6,0"
    assert hp(st, "maere") == 175 - 23 - 6
    assert st.board.pending is None


def test_kw_throw_tb12_npc_throws_land_free_at_full_distance() -> None:
    params = {"players": 2, "champions": ["vhrak", "maere"], "boss": "terror"}
    pos = {"units": [{"id": "terror", "hex": "0,0"}, {"id": "vhrak", "hex": "1,0"}, {"id": "maere", "hex": "-4,4",
                                                                                      "hp": 20}],
           "order": ["terror", "vhrak", "maere"], "active": "terror", "tiles": []}
    st = scenario(params, pos, {"d6": [4, 4, 4, 1], "decks": {"actions:terror": ["thick_hide"]}})
    p = st.board.pending
    assert p is not None
    assert p.kind == "force"
    assert st.actors() == [1]  # Vhrak's fastest human opponent chooses (TB-FMC)
    for o in p.options:
        h = parse_hex(o)
        assert h is not None
        assert distance(h, (0, 0)) == 4
    st.apply(f"choose {p.options[0]}", 1)
    assert at(st, "vhrak") == p.options[0]


def test_ex16_r_haz_4_pushed_onto_the_hazard_on_another_turn_hurts_again() -> None:
    units = [{"id": "vhrak", "hex": "3,0", "pool": pool(1, 2, 3, 4)}, {"id": "lienne", "hex": "-2,0"},
             {"id": "ulwazi", "hex": "0,4"}, {"id": "maere", "hex": "-5,5"}]
    thorns = [{"env": "spectral_thorns", "anchor": "0,0", "owner": "maere"}]
    params = dict(TEAM4)
    pos = {"units": units, "order": ["vhrak", "lienne", "ulwazi", "maere"], "active": "vhrak", "tiles": thorns}
    st = scenario(params, pos, {"d20": [5, 9], "d6": [2, 2, 3, 4]})
    st.apply("move 1,0", 0)
    assert hp(st, "vhrak") == 170
    st.apply("end", 0)
    assert st.board.active == "lienne"
    st.apply("attack whip_lash", 3)
    st.apply("target vhrak", 3)
    assert sorted(texts(st)) == ["choose 0,0", "choose stop"]
    st.apply("choose 0,0", 3)
    assert hp(st, "vhrak") == 170 - (2 + 2 + 3) - 9  # a new turn: the Thorns bite again


def test_tb_env_f8_a_springboard_launch_into_the_wall_hurts_the_launched() -> None:
    arena = {"id": "strip", "name": "a strip", "hexes": ["-1,0", "0,0", "1,0"], "central": ["0,0"]}
    params = {"players": 1, "champions": ["vhrak"], "boss": None, "rivals": ["ulwazi"], "environmental": "springboards"}
    pos = {"arena": arena, "units": [{"id": "vhrak", "hex": "-1,0", "pool": pool(1, 2, 3, 4)}],
           "tiles": [{"env": "springboards", "anchor": "0,0"}], "order": ["vhrak", "ulwazi"], "active": "vhrak"}
    st = scenario(params, pos, {"d6": [5]})
    st.apply("move 0,0", 0)
    assert sorted(texts(st)) == ["choose -1,0", "choose 1,0"]  # the fastest human paths it (TB-ENV)
    st.apply("choose 1,0", 0)
    assert at(st, "vhrak") == "1,0"
    assert hp(st, "vhrak") == 175 - 5  # Throw 2 stopped by the wall after 1: a collision


LINE = {"id": "line", "name": "a corridor", "hexes": ["-1,0", "0,0", "1,0", "2,0", "3,0"], "central": ["-1,0"]}


def _content_with(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads((DATA_DIR / "champions.json").read_text())
    edit(data)
    (tmp_path / "champions.json").write_text(json.dumps(data))
    return str(tmp_path)


def test_kw_fly_a_flying_champion_from_content_passes_figures_and_ignores_hazards(tmp_path: Path) -> None:
    def flying_vhrak(data: dict[str, Any]) -> None:
        data["items"][0]["flying"] = True

    params = {"players": 2, "champions": ["vhrak", "maere"], "boss": None,
              "content": _content_with(tmp_path, flying_vhrak)}
    pos = {"arena": LINE, "units": [{"id": "vhrak", "hex": "-1,0"}, {"id": "maere", "hex": "3,0"},
                                    {"id": "samalira", "hex": "0,0"}],
           "tiles": [{"env": "spectral_thorns", "anchor": "2,0", "owner": "maere"}],
           "order": ["vhrak", "maere"], "active": "vhrak"}
    st = scenario(params, pos, {"d20": [9]})
    assert st.board.units["vhrak"].is_flying
    assert "move 1,0" in texts(st)  # through Samalira's space (0,0) in a corridor: only Flying passes an enemy
    assert "move 0,0" not in texts(st)  # but may not end there
    st.apply("move 2,0", 0)  # into the Thorns: no hazard for a flyer
    assert hp(st, "vhrak") == 175


def test_kw_fly_scenario_units_may_fly_and_a_flying_boss_paths_straight_through_hazards() -> None:
    params = {"players": 2, "champions": ["vhrak", "maere"], "boss": "terror"}
    pos = {"units": [{"id": "terror", "hex": "-2,1", "flying": True}, {"id": "maere", "hex": "1,0"},
                     {"id": "vhrak", "hex": "3,-3", "hp": 50}],
           "tiles": [{"env": "spectral_thorns", "anchor": "0,0", "owner": "maere"}],
           "order": ["terror", "maere", "vhrak"], "active": "terror"}
    st = scenario(params, pos, {"d6": [1, 2, 3, 4], "d20": [9], "decks": {"actions:terror": ["thick_hide"]}})
    # every path is safe for a flyer (spec 2.1): the 2-step ends through the Thorns tie (EX-8a walks 4)
    assert sorted(texts(st)) == ["choose 0,0", "choose 0,1"]
    st.apply("choose 0,1", 1)
    assert at(st, "terror") == "0,1"
    assert hp(st, "terror") == st.board.units["terror"].max_hp


def test_kw_fly_the_fly_effect_grants_flying_until_the_end_of_the_turn(tmp_path: Path) -> None:
    def fly_pact(data: dict[str, Any]) -> None:
        data["items"][0]["pacts"][0]["ability"] = {"select": "self", "options": [[{"op": "fly", "who": "self"}]]}
        data["items"][0]["pacts"][0]["cost"] = 0

    params = {"players": 2, "champions": ["vhrak", "maere"], "boss": None,
              "content": _content_with(tmp_path, fly_pact)}
    pos = {"arena": LINE, "units": [{"id": "vhrak", "hex": "-1,0"}, {"id": "maere", "hex": "3,0"},
                                    {"id": "samalira", "hex": "0,0"}],
           "order": ["vhrak", "maere"], "active": "vhrak", "tiles": []}
    st = scenario(params, pos)
    vhrak = st.board.units["vhrak"]
    pact = next(t for t in texts(st) if t.startswith("pact "))
    assert "move 1,0" not in texts(st)  # Samalira blocks the way
    st.apply(pact, 0)
    assert vhrak.is_flying
    assert "move 1,0" in texts(st)
    st.apply("move 1,0", 0)
    st.apply("end", 0)
    assert not vhrak.is_flying
    assert not vhrak.flying


def test_spec_2_5_three_wall_steps_are_one_outcome_and_ask_nobody() -> None:
    params = {"players": 2, "champions": ["vhrak", "maere"], "boss": "terror"}
    pos = {"units": [{"id": "terror", "hex": "5,0"}, {"id": "vhrak", "hex": "6,0"},
                     {"id": "maere", "hex": "-3,0", "hp": 20}],
           "order": ["terror", "maere", "vhrak"], "active": "terror", "tiles": []}
    st = scenario(params, pos, {"d6": [2, 2, 5, 1, 4], "decks": {"actions:terror": ["thick_hide"]}})
    # Gore pushes Vhrak from the corner: 7,0, 7,-1 and 6,1 are all the Arena wall, the same collision
    assert st.board.pending is None
    assert at(st, "vhrak") == "6,0"
    assert sum("collides with the Arena wall" in t for t in st.event_log(None)) == 1
    assert hp(st, "vhrak") == 175 - (2 + 2 + 5 + 2) - 4


def test_n11_search_toward_a_target_keeps_every_route_within_range_of_it() -> None:
    """N11 / TB4 (issue 23): the route search an NPC's move reads (`explore_within`: states
    that can no longer reach Range of the target are not expanded) gives, for every end hex
    within Range of the target, exactly the full search's Pareto routes (same paths, same
    order), hazard tiles included; positions of a random game with a Boss tile on the board."""
    import bloodforge
    from bloodforge.core import Rng
    from bloodforge.games.arena.movement import explore, explore_within

    state = bloodforge.load_game("arena", players=3, seed=5).new_initial_state()
    rng = Rng(5)
    compared = 0
    for ply in range(120):
        if state.is_terminal():
            break
        if ply % 6 == 0:
            figures = [u for u in state.board.units.values() if u.alive and u.hex is not None]
            for u in figures:
                for steps in (2, 3, 5):
                    for t in figures:
                        if t is u:
                            continue
                        for reach in (0, 1, 2):
                            state.route_memo = None
                            near = explore_within(state, u, steps, t.hex, reach)
                            state.route_memo = None
                            full = explore(state, u, steps)
                            want = {h: rs for h, rs in full.items() if distance(h, t.hex) <= reach}
                            got = {h: rs for h, rs in near.items() if distance(h, t.hex) <= reach}
                            assert list(got) == list(want), f"ply {ply}, {u.uid} -> {t.uid}"
                            assert got == want, f"ply {ply}, {u.uid} -> {t.uid}"
                            compared += 1
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    assert compared > 200
