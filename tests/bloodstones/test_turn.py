"""Playing The Game: the five phases, Move Undead, Draw Tiles, deserts, regroups, end trigger."""

from __future__ import annotations

from typing import Any

from bloodforge.games.bloodstones.model import Phase

from .helpers import legal, legal_of, make, run

DR_ALL = {
    "resources": 2,
    "lizardmen": 4,
    "swords": 4,
    "shields": 4,
    "skirmishers": 4,
    "cavalry": 4,
    "castle": 4,
    "ship": 5,
    "siege_engine": 2,
    "leader": 1,
    "dragon": 2,
}


def _empty_bag_player(**extra: Any) -> dict[str, Any]:
    """A Dragon Riders player whose 36 tiles are all in the discard pile."""
    return {"hand": {}, "discard": dict(DR_ALL), "bag": {}, **extra}


def test_five_phases_in_order_for_the_necromancers() -> None:
    st = make(
        ["necromancers", "horse_lords"],
        units=[
            (27, 0, {"citadel": 1}),
            (22, 0, {"undead": 1, "swords": 1}),
            (60, 1, {"citadel": 1}),
        ],
        villages=[(22, 1)],
        hands=[{"goblins": 2, "swords": 1}, {}],
        phase="start_of_turn",
    )
    assert st.phase is Phase.CAPTURE
    assert legal(st) == {"capture 22", "done"}
    run(st, "done")
    assert st.phase is Phase.UNDEAD
    assert "done" in legal(st)
    assert legal_of(st, "undead")
    run(st, "done")
    assert st.phase is Phase.MAIN
    run(st, "done")
    assert st.phase is Phase.CONSTRUCT
    run(st, "done")
    # draw phase: refilled to six, next player's turn
    assert st.hand_size(0) == 6
    assert st.active == 1


def test_phases_with_nothing_to_do_are_passed_over() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        hands=[{"swords": 1}, {}],
        phase="start_of_turn",
    )
    assert st.phase is Phase.MAIN  # nothing to capture, no Undead


def test_phase_2_move_undead_two_land_areas_free_incl_mountains_not_seas() -> None:
    st = make(
        ["necromancers", "horse_lords"],
        units=[(22, 0, {"undead": 2}), (21, 1, {"swords": 1}), (60, 1, {"citadel": 1})],
        hands=[{"goblins": 1}, {}],
        phase="move_undead",
    )
    dests = {int(a.split()[2]) for a in legal_of(st, "undead")}
    assert 23 in dests  # mountains
    assert 24 in dests
    assert 31 in dests
    assert 32 in dests
    assert 21 in dests  # may enter an area with enemy units...
    assert 19 not in dests  # ...but not move on through it (19 is two steps only via 21)
    assert not any(st.game.board.is_sea(a) for a in dests)
    assert all(st.game.board.graph.distance(22, a) in (1, 2) for a in dests)
    run(st, "undead 22 23")
    run(st, "undead 22 16")
    assert st.phase is Phase.MAIN  # each Undead moves once; nothing left to move
    assert st.units_at(23, 0) == {"undead": 1}
    assert st.units_at(16, 0) == {"undead": 1}
    assert st.hands[0] == {"goblins": 1}  # no pips spent


def test_phase_2_undead_use_ship_passage_but_cannot_stop_at_sea() -> None:
    st = make(
        ["necromancers", "horse_lords"],
        units=[(26, 0, {"undead": 1}), (25, 0, {"ship": 1}), (60, 1, {"citadel": 1})],
        hands=[{"goblins": 1}, {}],
        phase="move_undead",
    )
    dests = {int(a.split()[2]) for a in legal_of(st, "undead")}
    assert {34, 43, 44} <= dests  # across ship 25 to 34 (one step), then one more
    assert 25 not in dests


def test_phase_2_undead_cannot_leave_area_with_enemy_units_nor_move_in_main_actions() -> None:
    st = make(
        ["necromancers", "horse_lords"],
        units=[
            (22, 0, {"undead": 1, "swords": 1}),
            (22, 1, {"swords": 1}),
            (60, 1, {"citadel": 1}),
        ],
        hands=[{"goblins": 1}, {}],
        phase="start_of_turn",
    )
    assert st.phase is Phase.MAIN
    assert not any(a.startswith("move 22") for a in legal(st))


def test_phase_5_draw_tiles_desert_kills_all_but_goblins_lizardmen_dragons_undead() -> None:
    st = make(
        ["dragon_riders", "necromancers"],
        units=[
            (72, 0, {"swords": 1, "lizardmen": 1, "dragon": 1, "cavalry": 1}),
            (73, 1, {"goblins": 1, "undead": 1, "swords": 1}),
            (60, 1, {"citadel": 1}),
        ],
        hands=[{}, {}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.units_at(72, 0) == {"lizardmen": 1, "dragon": 1}
    assert st.discards[0] == {"swords": 1, "cavalry": 1}
    # only the active player's units: the Necromancers' swords survive until their own draw
    assert st.units_at(73, 1) == {"goblins": 1, "undead": 1, "swords": 1}
    while st.active == 1:  # the Necromancers pass their whole turn
        run(st, "done")
    assert st.units_at(73, 1) == {"goblins": 1, "undead": 1}
    assert st.discards[1] == {"swords": 1}


def test_phase_5_draw_back_to_six_and_horse_lords_to_seven() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        hands=[{"swords": 1}, {"swords": 1}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.hand_size(0) == 6
    run(st, "done")
    if st.phase is Phase.CONSTRUCT:
        run(st, "done")
    assert st.hand_size(1) == 7


def test_phase_5_no_draw_when_hand_already_full() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(60, 1, {"citadel": 1})],
        hands=[{"swords": 4, "shields": 4}, {}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.hand_size(0) == 8


def test_regrouping_discards_back_into_bag_scores_villages_and_marks_regroup() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        villages=[(28, 0), (26, 0, 2), (59, 1)],
        players=[_empty_bag_player(), {}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.regroups[0] == 1
    assert st.vp[0] == 3  # one VP per village on the map
    assert st.discards[0] == {}
    assert st.hand_size(0) == 6
    assert len(st.bags[0]) == 30
    assert any("regroups and scores 3 VP" in line for line in st.event_log(None))


def test_regrouping_scores_villages_only_until_target() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        villages=[(28, 0)],
        players=[_empty_bag_player(regroups=3, vp=7), {"regroups": 0}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.regroups[0] == 4
    assert st.vp[0] == 7  # two players: only three regroups score
    st = make(
        ["dragon_riders", "horse_lords", "hill_folk"],
        units=[(27, 0, {"citadel": 1})],
        villages=[(28, 0)],
        players=[_empty_bag_player(regroups=2, vp=7), {}, {}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.regroups[0] == 3
    assert st.vp[0] == 7


def test_regroup_with_empty_bag_and_empty_discard_does_nothing() -> None:
    # ruling 19: every tile on the map or in hand, nothing to regroup
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        villages=[(28, 0)],
        players=[{"hand": dict(DR_ALL), "bag": {}}, {}],
        phase="construct_villages",
    )
    st.hands[0] = {"swords": 1}
    st.discards[0] = {}
    st.units[27][0].update({k: v for k, v in DR_ALL.items() if k != "swords"})
    st.units[27][0]["swords"] = 3
    run(st, "done")
    assert st.regroups[0] == 0
    assert st.vp[0] == 0
    assert st.hand_size(0) == 1


def test_ending_the_game_two_players_three_regroups_each() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        villages=[(28, 0, 2)],
        players=[_empty_bag_player(regroups=2), {"regroups": 3}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.regroups == [3, 3]
    assert st.vp[0] == 2  # the trigger player still scores its villages
    assert st.is_terminal()
    assert st.end_trigger == 0


def test_ending_the_game_two_players_not_before_both_have_three() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        players=[_empty_bag_player(regroups=2), {"regroups": 2}],
        phase="construct_villages",
    )
    run(st, "done")
    assert not st.is_terminal()
    assert st.end_trigger is None


def test_ending_the_game_three_players_two_regroups_each() -> None:
    st = make(
        ["dragon_riders", "horse_lords", "hill_folk"],
        units=[(27, 0, {"citadel": 1})],
        players=[_empty_bag_player(regroups=1), {"regroups": 2}, {"regroups": 2}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.is_terminal()
