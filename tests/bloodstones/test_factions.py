"""Faction powers: Necromancers, Corsairs, Horse Lords, Hill Folk, Chaos Horde, the Cutiecorn."""

from __future__ import annotations

from bloodforge.games.bloodstones.model import Phase

from .helpers import legal, legal_of, make, run, start_battle

CORS = ["corsairs", "horse_lords", "hill_folk"]
H = {"skirmishers": 1, "resources": 1}
HN = {"skirmishers": 1, "goblins": 1}


# -- Necromancers ---------------------------------------------------------------------------------
def test_necromancers_turn_beaten_units_into_undead() -> None:
    # the beaten Horse Lords have no retreat (26: seas and a Necromancer area): both eliminated
    st = make(
        ["necromancers", "horse_lords"],
        units=[
            (26, 0, {"necromancer": 1, "swords": 2}),
            (26, 1, {"swords": 1, "shields": 1}),
            (27, 0, {"goblins": 1}),
        ],
        hands=[HN, H],
        attacker_tiles=[5, 5, 4],
        defender_tiles=[2, 2, 3],
    )
    start_battle(st, 26, 1)
    run(st, "keep", "keep", "casualty swords")
    assert st.current_player == 0
    assert legal(st) == {"raise 0", "raise 1", "raise 2"}
    run(st, "raise 2")
    assert st.units_at(26, 0) == {"necromancer": 1, "swords": 2, "undead": 2}
    assert st.undead_pool[0] == 2
    assert st.vp[0] == 2


def test_necromancers_raise_limited_by_pool_and_needs_a_necromancer() -> None:
    st = make(
        ["necromancers", "horse_lords"],
        units=[
            (26, 0, {"necromancer": 1, "swords": 2, "undead": 3}),
            (26, 1, {"swords": 2}),
            (27, 0, {"goblins": 1}),
        ],
        hands=[HN, H],
        attacker_tiles=[5, 5, 4, 4],
        defender_tiles=[2, 2, 3],
    )
    start_battle(st, 26, 1)
    run(st, "keep", "keep")
    assert legal(st) == {"raise 0", "raise 1"}  # two eliminated, one Undead left in the pool
    st = make(
        ["necromancers", "horse_lords"],
        units=[(26, 0, {"goblins": 3}), (26, 1, {"swords": 2}), (27, 0, {"goblins": 1})],
        hands=[HN, H],
        attacker_tiles=[5, 5, 4],
        defender_tiles=[2, 2, 3],
    )
    start_battle(st, 26, 1)
    run(st, "keep", "keep")
    assert st.battle is None  # no Necromancer in the victorious force: nothing to raise
    assert st.units_at(26, 0) == {"goblins": 3}


def test_necromancers_raise_counts_the_casualty_only_when_rest_retreats() -> None:
    st = make(
        ["necromancers", "horse_lords"],
        units=[(22, 0, {"necromancer": 1, "swords": 2}), (22, 1, {"swords": 2})],
        hands=[HN, H],
        attacker_tiles=[5, 5, 4],
        defender_tiles=[2, 2, 3],
    )
    start_battle(st, 22, 1)
    run(st, "keep", "keep", "retreat 30")
    assert legal(st) == {"raise 0", "raise 1"}


# -- Corsairs -------------------------------------------------------------------------------------
def test_corsairs_substitute_last_after_seeing_opponent_tiles() -> None:
    st = make(
        CORS,
        units=[(22, 0, {"axes": 1}), (22, 1, {"swords": 1})],
        hands=[H, H, {}],
        attacker_tiles=[3, 3, 2],
        defender_tiles=[4, 4, 3],
    )
    start_battle(st, 22, 1)
    # the Corsairs attack, yet the Horse Lords decide first
    assert st.current_player == 1
    view = st.observation(0)["battle"]["sides"][1]
    assert view["tiles"] is None
    run(st, "substitute skirmishers")
    assert st.current_player == 0
    view = st.observation(0)["battle"]["sides"][1]
    assert view["tiles"] == [4, 4, 3]
    assert view["substitute"] == "skirmishers"
    # everyone sees the revealed tiles
    assert st.observation(2)["battle"]["sides"][1]["tiles"] == [4, 4, 3]
    run(st, "substitute resources")
    # 3+3+5 +1 = 12 against 4+4+2 +1 = 11: one VP for the unit beaten, one for the Corsairs
    assert st.vp == [2, 0, 0]


def test_corsairs_defending_decide_after_attacker_reveals() -> None:
    st = make(
        ["horse_lords", "corsairs", "hill_folk"],
        units=[(22, 0, {"swords": 2}), (22, 1, {"axes": 1})],
        hands=[H, H, {}],
        attacker_tiles=[4, 4, 3, 3],
        defender_tiles=[5, 5, 4],
    )
    start_battle(st, 22, 1)
    assert st.current_player == 0
    assert st.observation(1)["battle"]["sides"][0]["tiles"] is None
    run(st, "keep")
    assert st.current_player == 1
    assert st.observation(1)["battle"]["sides"][0]["tiles"] == [4, 4, 3, 3]


def test_corsairs_gain_one_extra_vp_for_winning_a_battle() -> None:
    st = make(
        CORS,
        units=[(22, 0, {"axes": 2}), (22, 1, {"swords": 1})],
        hands=[H, H, {}],
        attacker_tiles=[5, 5, 4, 4],
        defender_tiles=[2, 2, 3],
    )
    start_battle(st, 22, 1)
    run(st, "keep", "keep")
    assert st.vp[0] == 2


def test_corsairs_always_withdraw_by_sea_unless_attacked_by_dragons() -> None:
    st = make(
        ["horse_lords", "corsairs", "hill_folk"],
        units=[(26, 0, {"cavalry": 2}), (26, 1, {"axes": 1}), (25, 1, {"ship": 1})],
        hands=[H, H, {}],
    )
    run(st, "battle 26 1")
    # fewer cavalry, but along the ship in 25: 34 or 27 (8 has no ship; 35 no ship)
    assert legal_of(st, "withdraw") == {"withdraw 27", "withdraw 34"}
    st = make(
        ["dragon_riders", "corsairs", "hill_folk"],
        units=[(26, 0, {"dragon": 1}), (26, 1, {"axes": 1}), (25, 1, {"ship": 1})],
        hands=[H, H, {}],
    )
    run(st, "battle 26 1")
    assert not legal_of(st, "withdraw")


def test_corsairs_attacking_next_to_own_ship_defender_needs_cavalry_to_withdraw() -> None:
    # no cavalry on either side: normally the defender may withdraw; not next to a Corsair ship
    base = [(22, 1, {"swords": 1})]
    st = make(
        CORS,
        units=[(26, 0, {"axes": 1}), (26, 1, {"swords": 1}), (25, 0, {"ship": 1})],
        hands=[H, H, {}],
    )
    run(st, "battle 26 1")
    assert not legal_of(st, "withdraw")
    st = make(CORS, units=[(22, 0, {"axes": 1}), *base], hands=[H, H, {}])
    run(st, "battle 22 1")
    assert legal_of(st, "withdraw")  # inland, no ship: the usual rule
    st = make(
        CORS,
        units=[(26, 0, {"axes": 1}), (26, 1, {"cavalry": 1}), (25, 0, {"ship": 1})],
        hands=[H, H, {}],
    )
    run(st, "battle 26 1")
    assert legal_of(st, "withdraw")  # one cavalry suffices


def test_cutiecorn_adds_to_corsairs_notional_cavalry() -> None:
    st = make(
        CORS,
        units=[(26, 0, {"axes": 1, "cutiecorn": 1}), (26, 1, {"cavalry": 1}), (25, 0, {"ship": 1})],
        hands=[H, H, {}],
        cutiecorn=True,
    )
    run(st, "battle 26 1")
    assert not legal_of(st, "withdraw")
    st = make(
        CORS,
        units=[(26, 0, {"axes": 1, "cutiecorn": 1}), (26, 1, {"cavalry": 2}), (25, 0, {"ship": 1})],
        hands=[H, H, {}],
        cutiecorn=True,
    )
    run(st, "battle 26 1")
    assert legal_of(st, "withdraw")


# -- Horse Lords, Hill Folk (see also test_turn, test_movement, test_build) ----------------------
def test_horse_lords_hand_of_seven_after_setup_and_each_draw() -> None:
    st = make(
        ["horse_lords", "hill_folk"],
        units=[(60, 1, {"citadel": 1})],
        hands=[{}, {}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.hand_size(0) == 7
    assert st.game.faction_rules("horse_lords").faction.hand_size == 7


# -- Cutiecorn ------------------------------------------------------------------------------------
def test_cutiecorn_moves_free_with_other_units_never_alone() -> None:
    st = make(
        ["horse_lords", "hill_folk"],
        units=[(22, 0, {"swords": 1, "cutiecorn": 1}), (60, 1, {"citadel": 1})],
        hands=[{"skirmishers": 1}, {}],
        cutiecorn=True,
    )
    assert "move 22 cutiecorn" not in legal(st)
    run(st, "move 22 swords", "move 22 cutiecorn", "to 21")
    assert st.pending is not None
    assert st.pending.cost == 1
    run(st, "pay skirmishers")
    assert st.units_at(21, 0) == {"swords": 1, "cutiecorn": 1}


def test_cutiecorn_taken_with_three_extra_vp_when_its_side_loses() -> None:
    st = make(
        ["horse_lords", "hill_folk"],
        units=[(22, 0, {"swords": 3}), (22, 1, {"swords": 1, "cutiecorn": 1})],
        hands=[H, H],
        attacker_tiles=[5, 5, 4, 4],
        defender_tiles=[2, 2, 3],
        cutiecorn=True,
    )
    start_battle(st, 22, 1)
    run(st, "keep", "keep")
    assert st.vp[0] == 2 + 3
    assert st.units_at(22, 0) == {"swords": 3, "cutiecorn": 1}
    assert st.discards[1] == {"swords": 1}  # the casualty is never the Cutiecorn


def test_cutiecorn_alone_with_enemy_units_changes_control() -> None:
    # built alone into a village area the Hill Folk occupy: it joins the Hill Folk at once
    st = make(
        ["horse_lords", "hill_folk"],
        units=[(22, 1, {"swords": 1}), (60, 1, {"citadel": 1}), (27, 0, {"citadel": 1})],
        villages=[(22, 0)],
        hands=[{"skirmishers": 1, "shields": 1, "swords": 1}, {}],
        cutiecorn=True,
    )
    run(st, "build cutiecorn 22", "pay skirmishers", "pay shields")
    assert st.units_at(22, 1) == {"swords": 1, "cutiecorn": 1}
    assert st.units_at(22, 0) == {}


def test_cutiecorn_dies_in_desert_and_returns_to_map_edge() -> None:
    st = make(
        ["horse_lords", "hill_folk"],
        units=[(72, 0, {"swords": 1, "cutiecorn": 1}), (60, 1, {"citadel": 1})],
        hands=[{}, {}],
        phase="construct_villages",
        cutiecorn=True,
    )
    run(st, "done")
    assert st.units_at(72, 0) == {}
    assert st.cutiecorn_free


def test_chaos_horde_start_with_ten_vp_and_score_two_per_captured_village() -> None:
    st = make(
        ["chaos_horde", "horse_lords", "hill_folk", "necromancers"],
        units=[(22, 0, {"hordes": 1})],
        hands=[{}, {}, {}, {}],
        players=[{"captured_villages": 3}, {}, {}, {}],
        phase="main_actions",
    )
    assert st.vp[0] == 10
    assert st.game.faction_rules("chaos_horde").faction.captured_village_vp == 2
    assert st.phase is Phase.MAIN


def test_hill_folk_may_withdraw_and_retreat_into_mountains() -> None:
    st = make(
        ["horse_lords", "hill_folk"],
        units=[(22, 0, {"swords": 3}), (22, 1, {"shields": 2})],
        hands=[H, {"skirmishers": 1}],
        attacker_tiles=[5, 5, 4, 4],
        defender_tiles=[2, 2, 3],
    )
    run(st, "battle 22 1")
    assert "withdraw 23" in legal(st)  # mountains: open to the Hill Folk
    run(st, "stay", "keep", "keep")
    assert "retreat 23" in legal(st)
    run(st, "retreat 23")
    assert st.units_at(23, 1) == {"shields": 1}
