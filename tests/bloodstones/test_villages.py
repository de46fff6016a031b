"""Phase 1 Capture Villages, Phase 4 Construct Villages, Chaos Horde capture, wipe-outs."""

from __future__ import annotations

from bloodforge.games.bloodstones.model import Phase

from .helpers import legal, legal_of, make, run


def _areas(st, verb: str) -> set[int]:  # type: ignore[no-untyped-def]
    return {int(a.split()[1]) for a in legal_of(st, verb)}


def test_construct_villages_adjacent_to_villages_citadel_and_new_villages() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        villages=[(14, 0)],
        hands=[{"resources": 1}, {}],
        phase="construct_villages",
    )
    assert _areas(st, "village") == {18, 26, 28} | {4, 5, 13, 15, 21, 22} | {14}
    run(st, "village 28")
    assert 36 in _areas(st, "village")
    assert 29 in _areas(st, "village")


def test_construct_villages_through_chain_of_units_incl_areas_with_enemy_villages() -> None:
    # citadel 27, own units in 28 (where the Dragon Riders have a village) and 29
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[
            (27, 0, {"citadel": 1}),
            (28, 0, {"swords": 1}),
            (29, 0, {"swords": 1}),
            (60, 1, {"citadel": 1}),
        ],
        villages=[(28, 1)],
        hands=[{"resources": 1}, {}],
        phase="construct_villages",
    )
    options = _areas(st, "village")
    assert {37, 38, 30, 20} <= options  # next to the unit in 29, reached through 28
    assert 28 not in options  # another player's village is there


def test_construct_villages_not_where_other_players_have_pieces_nor_citadel_nor_bad_terrain() -> (
    None
):
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(22, 0, {"citadel": 1}), (21, 1, {"swords": 1}), (60, 1, {"citadel": 1})],
        villages=[(15, 1)],
        hands=[{"resources": 1}, {}],
        phase="construct_villages",
    )
    options = _areas(st, "village")
    assert options == {14, 16, 30}  # 21: enemy unit, 15: enemy village, 23: mountains, 22: citadel


def test_construct_villages_two_per_plains_one_per_forest_or_hills() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(20, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        villages=[(19, 0, 2), (29, 0)],
        hands=[{"resources": 1}, {}],
        phase="construct_villages",
    )
    options = _areas(st, "village")
    assert 19 not in options
    assert 29 not in options
    assert {21, 28, 30} <= options
    run(st, "village 21")
    assert 21 in _areas(st, "village")  # a second village in the plains
    run(st, "village 21")
    assert 21 not in _areas(st, "village")
    run(st, "village 30")  # hills: 2 pips, 4 so far
    assert 30 not in _areas(st, "village")


def test_construct_villages_one_tile_per_phase_and_supply_limit() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(20, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        hands=[{"shields": 1, "skirmishers": 1}, {}],
        phase="construct_villages",
        players=[{"village_supply": 2}, {}],
    )
    run(st, "village 21", "village 28")
    assert _areas(st, "village") == set()  # supply exhausted
    assert legal_of(st, "pay") == {"pay shields", "pay skirmishers"}
    run(st, "pay skirmishers")  # 2 pips cover both
    assert st.active == 1  # only one tile, then the turn goes on to the draw
    assert st.discards[0] == {"skirmishers": 1}


def test_construct_villages_pips_limited_by_best_single_tile() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(20, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        hands=[{"skirmishers": 3}, {}],
        phase="construct_villages",
    )
    run(st, "village 21", "village 28")
    assert _areas(st, "village") == set()  # two pips is the most one tile gives
    assert "pay skirmishers" in legal(st)


def test_capture_villages_costs_plains_forest_one_hills_two() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[
            (22, 0, {"swords": 1}),
            (29, 0, {"swords": 1}),
            (30, 0, {"swords": 1}),
            (60, 1, {"citadel": 1}),
        ],
        villages=[(22, 1, 2), (29, 1), (30, 1)],
        hands=[{"skirmishers": 1, "lizardmen": 1}, {}],
        phase="start_of_turn",
    )
    assert st.phase is Phase.CAPTURE
    assert _areas(st, "capture") == {22, 29, 30}
    run(st, "capture 30")
    assert st.pending is not None
    assert st.pending.cost == 2
    assert _areas(st, "capture") == set()  # best tile gives 2 pips
    run(st, "cancel", "capture 22", "capture 22")
    assert st.pending is not None
    assert st.pending.cost == 2
    run(st, "pay lizardmen")
    assert 22 not in st.villages
    assert st.captured_villages[0] == 2
    assert st.phase is Phase.MAIN  # one tile per phase


def test_capture_villages_allowed_in_area_shared_with_enemy_units() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(22, 0, {"swords": 1}), (22, 1, {"swords": 1}), (60, 1, {"citadel": 1})],
        villages=[(22, 1)],
        hands=[{"skirmishers": 1}, {}],
        phase="start_of_turn",
    )
    assert "capture 22" in legal(st)  # ruling 20


def test_chaos_horde_capture_as_a_main_action_once_per_turn() -> None:
    st = make(
        ["chaos_horde", "horse_lords", "hill_folk", "necromancers"],
        units=[(22, 0, {"hordes": 1}), (29, 0, {"cavalry": 1})],
        villages=[(22, 1), (29, 2)],
        hands=[{"hordes": 2}, {}, {}, {}],
        phase="start_of_turn",
    )
    assert st.phase is Phase.MAIN  # no capture phase for the Horde
    assert {"capture 22", "capture 29"} <= legal(st)
    run(st, "capture 22", "capture 29")
    assert st.pending is not None
    assert st.pending.cost == 2
    assert _areas(st, "capture") == set()
    run(st, "pay hordes")
    assert st.phase is Phase.MAIN
    assert st.captured_villages[0] == 2
    assert not legal_of(st, "capture")  # once per turn


def test_chaos_horde_capture_main_action_not_available_again_after_other_actions() -> None:
    st = make(
        ["chaos_horde", "horse_lords", "hill_folk", "necromancers"],
        units=[(22, 0, {"hordes": 1})],
        villages=[(22, 1, 2)],
        hands=[{"hordes": 3}, {}, {}, {}],
        phase="main_actions",
    )
    run(st, "capture 22", "pay hordes", "build hordes 22")
    assert not legal_of(st, "capture")


def test_wiped_out_villages_first_village_anywhere_empty() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(60, 1, {"citadel": 1}), (12, 0, {"swords": 1})],
        villages=[(59, 1)],
        hands=[{"resources": 1}, {}],
        phase="construct_villages",
        players=[{"village_supply": 5}, {}],
    )
    options = _areas(st, "village")
    assert 70 in options
    assert 2 in options
    assert 12 in options
    assert 59 not in options
    assert 60 not in options
    assert 23 not in options
    assert 72 not in options
    run(st, "village 70")
    assert _areas(st, "village") == {68, 69, 70}  # then the standard rules apply


def test_chaos_horde_wiped_out_places_one_unit_in_an_empty_area_and_pays() -> None:
    st = make(
        ["chaos_horde", "horse_lords", "hill_folk", "necromancers"],
        units=[(60, 1, {"citadel": 1})],
        villages=[(59, 1)],
        hands=[{"cavalry": 1, "hordes": 1, "ship": 1}, {}, {}, {}],
        phase="start_of_turn",
    )
    assert st.phase is Phase.RECOVER
    places = legal_of(st, "place")
    assert "place cavalry 22" in places
    assert "place ship 35" in places
    assert "place cavalry 59" not in places
    assert "place cavalry 60" not in places
    assert "place cavalry 23" not in places
    assert "place cavalry 72" not in places
    assert "done" in legal(st)
    run(st, "place cavalry 22", "pay hordes")
    assert st.units_at(22, 0) == {"cavalry": 1}
    assert st.phase is Phase.MAIN  # the turn continues as normal


def test_chaos_horde_wiped_out_with_no_empty_area_is_eliminated() -> None:
    st = make(
        ["chaos_horde", "horse_lords", "hill_folk", "necromancers"],
        units=[(60, 1, {"citadel": 1})],
        hands=[{"cavalry": 1}, {}, {}, {}],
        phase="main_actions",
        order=[1, 0, 2, 3],
        active=1,
    )
    board = st.game.board
    for a in board.area_ids:
        if st.is_empty(a):
            if board.terrain[a] == "desert":  # goblins survive the Horse Lords' draw phase
                st.units.setdefault(a, {})[3] = {"goblins": 1}
            else:
                st.units.setdefault(a, {})[1] = {"ship": 1} if board.is_sea(a) else {"swords": 1}
    st.units[60][1] = {"citadel": 1}
    st.active = 1
    run(st, "done")
    while st.phase is Phase.CONSTRUCT:
        run(st, "done")
    assert st.eliminated[0]
    assert st.active == 2
