"""Five Forts: victory, control, units, the turn, recruitment and food (F1-F25, A1-A13, A30-A34)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forts_helpers import army, legal_texts, scenario, terr, units_at

import bloodforge
from bloodforge.core import IllegalAction
from bloodforge.games.forts.game import FortsState

CONTENT = Path(bloodforge.games.forts.__file__).parent / "data" / "content.json"

FIVE_FORTS = {
    "redhall": army(0, 1),
    "ironkeep": army(0, 1),
    "ashgate": army(0, 1),
    "thornwall": army(0, 1),
    "sandgate": army(0, 1),
    "greymere": army(0, 1),  # a second food resource: quota 6 for six units
    "brassdale": army(1, 0, 3),
}


def five_forts() -> FortsState:
    return scenario(FIVE_FORTS, phase="action", currency=[0, 0])


# -- F1, A30, T11 -----------------------------------------------------------------------------
def test_f1_a30_t11_five_forts_win_only_after_a_full_round() -> None:
    state = five_forts()
    obs = state.observation(0)
    assert obs["forts"][0] == 5
    assert obs["held_since"] == [1, None]
    state.apply("end", 0)
    assert not state.is_terminal(), "reaching 5 forts does not win at once"
    assert state.observation(None)["turn"]["seat"] == 1
    state.apply("end", 1)
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0]
    assert state.outcome() is not None
    assert state.observation(None)["end_reason"].startswith("held 5 forts")


def test_f1_a30_t11_losing_a_fort_during_the_round_breaks_the_count() -> None:
    state = five_forts()
    state.m.dice.rigged = [6, 1]
    state.apply("end", 0)
    state.apply("attack brassdale sandgate 0 3", 1)
    state.apply("advance", 1)
    assert units_at(state, "sandgate") == (0, 3)
    assert state.observation(None)["held_since"][0] is None
    state.apply("end", 1)
    assert not state.is_terminal()


# -- F2, F3, A9, A10, T10 ---------------------------------------------------------------------
def test_f2_f3_t10_an_empty_home_is_controlled_and_recruits() -> None:
    state = scenario({"copperdale": army(0, 1), "greenhall": army(1, 1)})
    assert terr(state, "redhall")["owner"] is None
    assert terr(state, "redhall")["controller"] == 0
    assert terr(state, "copperdale")["controller"] == 0
    assert "recruit redhall infantry" in legal_texts(state)
    assert "recruit redhall cavalry" in legal_texts(state)
    state.apply("move copperdale ashgate 1 0", 0)
    assert terr(state, "copperdale")["controller"] is None, "F2: no unit, no control"
    assert terr(state, "ashgate")["controller"] == 0


def test_a9_a10_another_players_empty_home_must_be_attacked_and_gives_plus_4() -> None:
    state = scenario({"tinvale": army(0, 3), "marshland": army(1, 1)}, dice=[1, 1])
    assert "attack tinvale greenhall 1 0" in legal_texts(state)
    assert not any(t.startswith("move tinvale greenhall") for t in legal_texts(state))
    state.apply("attack tinvale greenhall 3 0", 0)
    data = [e for e in state.events if e.kind == "battle"][-1].data
    assert data["defence"] == [0, 4, 0, 1, 5], "A22: strength 0 + home bonus 4 + die"


# -- F4, F5 -----------------------------------------------------------------------------------
def test_f4_f5_f26_f28_f30_f33_army_strength_plus_one_die_each() -> None:
    state = scenario({"ironkeep": army(0, 2, 1), "moorland": army(1, 1)}, dice=[1, 6])
    state.apply("attack ironkeep moorland 2 1", 0)
    data = [e for e in state.events if e.kind == "battle"][-1].data
    assert data is not None
    assert data["attack"] == [4, 0, 1, 5], "2 infantry + 1 cavalry, no heroes, die 1"
    assert data["defence"] == [1, 1, 0, 6, 8], "1 infantry, +1, no heroes, die 6"
    assert data["verdict"] == "defender wins"


# -- F6, F7, F14, A8 --------------------------------------------------------------------------
def test_f6_f7_f14_planning_then_action_then_the_next_player() -> None:
    state = bloodforge.load_game("forts", players=2, seed=3).new_initial_state()
    seat = state.current_player
    assert seat is not None
    assert state.moves()[0] == (None, "begin")
    assert state.phase_name() == "planning"
    state.apply("act", seat)
    assert state.phase_name() == "action"
    kinds = {a.kind for a in state.legal_actions(seat)}
    assert "recruit" not in kinds
    assert "buy" not in kinds
    assert "act" not in kinds
    state.apply("end", seat)
    assert state.current_player == 1 - seat
    assert state.moves()[-1] == (None, "begin")
    assert state.phase_name() == "planning"


def test_f6_first_player_by_seed_then_seat_order_and_rounds() -> None:
    firsts = {bloodforge.load_game("forts", players=4, seed=s).new_initial_state().current_player for s in range(12)}
    assert len(firsts) > 1
    state = bloodforge.load_game("forts", players=3, seed=1).new_initial_state()
    first = state.current_player
    assert first is not None
    order = []
    for _ in range(4):
        seat = state.current_player
        assert seat is not None
        order.append((seat, state.observation(None)["turn"]["round"]))
        state.apply("end", seat)
    assert order == [(first, 1), ((first + 1) % 3, 1), ((first + 2) % 3, 1), (first, 2)]


# -- F8, F13 (the clock's length; bribery itself in test_forts_bribery) -----------------------
def test_f8_the_planning_clock_runs_until_the_first_unit_action() -> None:
    state = scenario({"redhall": army(0, 1), "greenhall": army(1, 1)})
    assert state.rule_clock(0) == 60.0
    assert state.rule_clock(1) is None
    assert state.observation(1)["clock"] == {"seat": 0, "seconds": 60}
    state.apply("recruit redhall cavalry", 0)
    assert state.rule_clock(0) == 60.0, "recruiting does not stop the clock"
    state.apply("move redhall copperdale 1 0", 0)
    assert state.rule_clock(0) is None
    assert state.observation(1)["clock"] is None


def test_f8_clock_length_is_a_table_option_and_0_means_none() -> None:
    fast = scenario({"redhall": army(0, 1)}, params={"planning_seconds": 15})
    assert fast.rule_clock(0) == 15.0
    off = scenario({"redhall": army(0, 1)}, params={"planning_seconds": 0})
    assert off.rule_clock(0) is None
    with pytest.raises(IllegalAction, match="timeout"):
        off.apply_timeout(0)


# -- F9, F19-F23, A3, A5, T4 ------------------------------------------------------------------
def test_f9_f21_f22_f23_t4_recruitment_options_at_forts_and_great_forts() -> None:
    state = scenario({"redhall": army(0, 1), "ashgate": army(0, 1), "greymere": army(0, 1),
                      "wheatfield": army(0, 1)})
    texts = legal_texts(state)
    assert "recruit redhall infantry" in texts
    assert "recruit redhall cavalry" in texts
    assert "recruit ashgate infantry" in texts
    assert "recruit ashgate cavalry" not in texts
    state.apply("recruit redhall infantry", 0)
    assert units_at(state, "redhall") == (3, 0), "F22: a great fort recruits 2 infantry"
    assert not any(t.startswith("recruit redhall") for t in legal_texts(state)), "A3: once per turn"
    state.apply("recruit ashgate infantry", 0)
    assert units_at(state, "ashgate") == (2, 0), "F23: a fort recruits 1 infantry"
    # F21, A5: recruits are placed in the fort and may act this turn
    assert terr(state, "ashgate")["ready"] == [2, 0]


def test_f20_t4_the_food_quota_blocks_recruitment_beyond_it() -> None:
    # one food (the home): quota 3; 2 units: room for 1
    state = scenario({"redhall": army(0, 1), "ashgate": army(0, 1)})
    assert state.observation(0)["quota"][0] == 3
    state.apply("recruit redhall infantry", 0)
    assert units_at(state, "redhall") == (2, 0), "only one infantry fits the quota"
    assert not any(t.startswith("recruit") for t in legal_texts(state))
    state2 = scenario({"redhall": army(0, 1), "ashgate": army(0, 1)})
    state2.apply("recruit redhall cavalry", 0)
    assert units_at(state2, "redhall") == (1, 1)


def test_f19_recruitment_only_in_planning_and_only_at_controlled_forts() -> None:
    state = scenario({"redhall": army(0, 1), "ironkeep": army("independent", 0, 2)})
    assert not any("ironkeep" in t for t in legal_texts(state) if t.startswith("recruit"))
    state.apply("act", 0)
    assert not any(t.startswith("recruit") for t in legal_texts(state))


# -- F10, A6, T12, F54 ------------------------------------------------------------------------
def test_f10_f54_t12_income_is_one_per_currency_resource_at_turn_start() -> None:
    state = scenario({"redhall": army(0, 1), "copperdale": army(0, 1), "silverbrook": army(0, 1),
                      "greymere": army(0, 1), "greenhall": army(1, 1)},
                     phase="action", turn_seat=1, currency=[0, 0])
    state.apply("end", 1)
    assert state.observation(0)["currency"][0] == 3, "home + copperdale + silverbrook"
    assert state.observation(0)["income"][0] == 3


# -- F11, A7 ----------------------------------------------------------------------------------
def test_f11_a7_one_hero_purchase_per_turn_for_3_currency_drawn_face_down() -> None:
    state = scenario({"redhall": army(0, 1), "greenhall": army(1, 1)}, currency=[7, 0], deck=["knight", "squire"])
    state.apply("buy", 0)
    obs0, obs1 = state.observation(0), state.observation(1)
    assert obs0["hand"] == [{"id": "knight", "name": "Knight"}]
    assert obs0["currency"][0] == 4
    assert obs1["hand"] == []
    assert obs1["hand_sizes"] == [1, 0]
    assert "buy" not in legal_texts(state), "A7: one purchase per turn"
    assert "Red buys Knight (a hero card)" in state.event_log(0)
    assert "Red buys a hero card" in state.event_log(1)
    assert all("Knight" not in line for line in state.event_log(1))


def test_a7_hand_limit_and_price_block_buying() -> None:
    full = scenario({"redhall": army(0, 1)}, currency=[9, 0], hands=[["squire", "squire", "knight"], []])
    assert "buy" not in legal_texts(full)
    poor = scenario({"redhall": army(0, 1)}, currency=[2, 0])
    assert "buy" not in legal_texts(poor)


# -- F12, A2 ----------------------------------------------------------------------------------
def test_f12_a2_the_first_unit_action_ends_planning() -> None:
    state = scenario({"redhall": army(0, 2), "greenhall": army(1, 1)}, currency=[5, 0])
    assert state.phase_name() == "planning"
    state.apply("move redhall copperdale 1 0", 0)
    assert state.phase_name() == "action"
    kinds = {a.kind for a in state.legal_actions(0)}
    assert kinds == {"move", "end"}


# -- F15, F16, A12, A13 -----------------------------------------------------------------------
def test_f15_each_unit_acts_once_per_turn() -> None:
    state = scenario({"redhall": army(0, 2)})
    state.apply("move redhall copperdale 1 0", 0)
    assert terr(state, "copperdale")["ready"] == [0, 0]
    assert not any(t.startswith("move copperdale") for t in legal_texts(state))
    assert "move redhall wheatfield 1 0" in legal_texts(state)
    state.apply("move redhall wheatfield 1 0", 0)
    assert legal_texts(state) == ["end"]


def test_f16_f17_f18_moves_go_to_empty_or_own_neighbours_attacks_to_rivals_and_independents() -> None:
    state = scenario({"moorland": army(0, 1, 1), "ironkeep": army(0, 1), "thornwall": army("independent", 2),
                      "pennybrook": army(1, 1)})
    texts = legal_texts(state)
    assert "move moorland ironkeep 1 1" in texts, "own"
    assert "move moorland greymere 0 1" in texts, "empty sea (F52, A11)"
    assert not any(t.startswith("move moorland thornwall") for t in texts)
    assert not any(t.startswith("move moorland pennybrook") for t in texts)
    assert "attack moorland thornwall 1 1" in texts, "F18: independents are attacked"
    assert "attack moorland pennybrook 0 1" in texts, "F17: a rival's territory is attacked"
    assert not any(t.startswith("move moorland moorland") for t in texts)


def test_f52_a11_sea_territories_are_controlled_and_carry_food() -> None:
    state = scenario({"redhall": army(0, 1), "moorland": army(0, 1)})
    assert state.observation(0)["quota"][0] == 3
    state.apply("move moorland greymere 1 0", 0)
    assert terr(state, "greymere")["controller"] == 0
    assert state.observation(0)["quota"][0] == 6


# -- F24, F25, A34, T13 -----------------------------------------------------------------------
def test_f24_f25_t13_losing_food_forces_immediate_disbanding() -> None:
    # Red: home food + wheatfield food = quota 6 with 6 units; moving off wheatfield loses it
    state = scenario({"redhall": army(0, 4), "wheatfield": army(0, 1), "thornwall": army(0, 1)})
    assert state.observation(0)["quota"][0] == 6
    state.apply("move wheatfield ironkeep 1 0", 0)  # ironkeep is empty in an empty base
    assert state.observation(0)["quota"][0] == 3
    assert state.phase_name() == "disband"
    assert {a.kind for a in state.legal_actions(0)} == {"disband"}
    assert state.rule_clock(0) is None
    for _ in range(3):
        state.apply(state.legal_actions(0)[0], 0)
    assert state.observation(0)["units"][0] == 3
    assert state.phase_name() == "action"


# -- A33 --------------------------------------------------------------------------------------
def test_a33_a_player_with_no_units_and_a_lost_home_is_out() -> None:
    state = scenario({"tinvale": army(0, 0, 3), "greenhall": army(1, 1)}, players=3, dice=[6, 1])
    state.apply("attack tinvale greenhall 0 3", 0)
    if state.phase_name() == "battle: advance":
        state.apply("advance", 0)
    assert terr(state, "greenhall")["owner"] == 0
    obs = state.observation(None)
    assert obs["eliminated"] == [False, False, True], "seat 2's home is Greenhall in a 3-player game"
    state.apply("end", 0)
    assert state.current_player == 1, "seat 1 has no units but still its home: still in"
    state.apply("end", 1)
    assert state.current_player == 0, "the eliminated seat's turns are skipped"


def test_a33_last_player_standing_wins() -> None:
    state = scenario({"tinvale": army(0, 0, 3), "greenhall": army(1, 1)}, dice=[6, 1])
    state.apply("attack tinvale greenhall 0 3", 0)
    if not state.is_terminal():
        state.apply("advance", 0)
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0]


# -- house cap ---------------------------------------------------------------------------------
def test_max_rounds_cap_ends_with_most_forts_then_strength() -> None:
    state = scenario({"redhall": army(0, 1), "ashgate": army(0, 1), "greenhall": army(1, 3)},
                     params={"max_rounds": 1}, phase="action")
    state.apply("end", 0)
    state.apply("end", 1)
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0]
    assert state.scores() == [2.0, 1.0]
    assert "round cap" in state.observation(None)["end_reason"]


@pytest.mark.parametrize(("green_forts", "returns"), [(["oakgate", "dunewall"], [0.0, 1.0]), (["oakgate"], [0.5, 0.5])])
def test_a31_several_qualify_at_once_more_forts_then_shared(
    tmp_path: Path, green_forts: list[str], returns: list[float]
) -> None:
    data = json.loads(CONTENT.read_text())
    data["forts_to_win"] = 2
    path = tmp_path / "two_forts.json"
    path.write_text(json.dumps(data))
    terrs = {"ashgate": army(0, 1), **{t: army(1, 1) for t in green_forts}}
    state = scenario(terrs, phase="action", params={"content": str(path)})
    assert state.observation(None)["held_since"] == [1, 1]
    state.apply("end", 0)
    assert not state.is_terminal()
    state.apply("end", 1)
    assert state.is_terminal()
    assert state.returns() == returns
