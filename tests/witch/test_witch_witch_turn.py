"""THE BATTLE - The Witch & Minions: Turns & Acts, Moving, Manipulate, Blood Spells."""

from __future__ import annotations

from collections import Counter

import pytest
from witch_helpers import check_invariants, scenario, texts

from bloodforge.core import IllegalAction
from bloodforge.games.witch.model import SOLDIERS, WITCH
from bloodforge.games.witch.queries import chance_number, pass_probability, passes


def test_witch_turn_blood_spells_drawn_up_to_three_at_the_start_of_the_turn() -> None:
    state = scenario(hands={"witch": ["manipulate"]}, rig={"blood_deck": ["zombify", "blood_bolt"]})
    state.apply("end")  # the Soldiers end; the Witch's turn begins with the draw
    assert state.current_player == WITCH
    assert Counter(state.hands[WITCH]) == Counter(["manipulate", "zombify", "blood_bolt"])
    check_invariants(state)


def test_witch_turn_she_moves_once_up_to_her_movement_and_never_attacks() -> None:
    state = scenario(side="witch", units={"swordsman": {"square": "e8"}})
    assert not any(t.startswith("attack") for t in texts(state))
    moves = [t for t in texts(state) if t.startswith("move")]
    assert moves
    assert all(t.startswith("move witch") for t in moves)
    with pytest.raises(IllegalAction, match="can't attack"):
        state.apply("attack witch swordsman")
    state.apply(moves[0])
    assert not any(t.startswith("move") for t in texts(state))
    with pytest.raises(IllegalAction, match="already moved"):
        state.apply("move witch e9")


def test_witch_turn_only_the_witch_acts_minions_need_a_spell() -> None:
    state = scenario(side="witch", units={"minion1": {"square": "e5"}})
    with pytest.raises(IllegalAction, match="only the Witch Acts"):
        state.apply("move minion1 e4")


def test_blood_spells_used_twice_per_turn_before_or_after_moving() -> None:
    state = scenario(
        side="witch",
        units={
            "witch": {"square": "e7"},
            "minion1": {"square": "e6"},
            "swordsman": {"square": "e5"},
        },
        hands={"witch": ["blood_feast", "blood_feast", "transfusion"]},
    )
    state.apply("cast blood_feast")
    state.apply("target minion1")
    state.apply("move witch c7")
    assert "cast transfusion" in texts(state)
    state.apply("cast transfusion")
    state.apply("target minion1")
    assert not any(t.startswith("cast") for t in texts(state)), "TWO Blood Spells per turn"
    with pytest.raises(IllegalAction, match="2 spells per turn"):
        state.apply("cast blood_feast")
    check_invariants(state)


def test_blood_spells_per_turn_parameter_one_plays_the_other_reading() -> None:
    state = scenario(
        side="witch",
        units={"witch": {"square": "e7"}, "minion1": {"square": "e6"}},
        hands={"witch": ["blood_feast", "blood_feast"]},
        params={"blood_spells_per_turn": 1},
    )
    state.apply("cast blood_feast")
    state.apply("target minion1")
    assert not any(t.startswith("cast") for t in texts(state))


@pytest.mark.parametrize(("roll", "passes"), [(1, True), (2, True), (3, False), (4, False)])
def test_spell_cards_chance_x_greater_than_d4_worked_example(roll: int, passes: bool) -> None:
    """Rulebook: X > d4 with 2 blood given passes on a 1 or 2 and fails on a 3 or 4."""
    state = scenario(
        side="witch",
        units={"minion1": {"square": "e8"}},
        hands={"witch": ["manipulate"]},
        rig={"dice": [roll]},
    )
    blood = state.units["witch"].blood
    state.apply("cast manipulate")
    state.apply("pay 2")
    assert state.units["witch"].blood == blood - 2, "the blood is given whatever the roll"
    cast = [e for e in state.observation(WITCH)["log"] if e["kind"] == "cast"][-1]
    assert cast["roll"] == roll
    assert cast["passed"] is passes
    assert (state.grant is not None) is passes
    assert "manipulate" in state.decks[WITCH].discards, "used cards go next to the deck"
    check_invariants(state)


def test_spell_cards_chance_fixed_value_and_always() -> None:
    state = scenario(
        side="witch",
        units={"witch": {"square": "e6"}, "swordsman": {"square": "e3"}},
        hands={"witch": ["thorn_bind", "shadow_step"]},
        rig={"dice": [4]},
    )
    state.apply("cast thorn_bind")
    state.apply("target swordsman")
    cast = [e for e in state.observation(None)["log"] if e["kind"] == "cast"][-1]
    assert cast["roll"] == 4
    assert cast["passed"] is False, "3 > d4 fails on a 4"
    assert not state.units["swordsman"].bound
    state.apply("cast shadow_step")
    state.apply("target c7")
    cast = [e for e in state.observation(None)["log"] if e["kind"] == "cast"][-1]
    assert "roll" not in cast, "100% spells are not rolled"
    assert state.units["witch"].square == state.content.squares_by_name["c7"]


@pytest.mark.parametrize(
    ("kind", "die", "value", "x", "phantoms", "expected"),
    [
        ("blood", 4, None, 2, 0, 0.5),  # the worked example: X = 2 passes on a 1 or 2
        ("blood", 4, None, 6, 0, 1.0),  # more than the die always passes
        ("phantoms", 4, None, 0, 3, 0.75),
        ("fixed", 4, 3, 0, 0, 0.75),
        ("always", None, None, 0, 0, 1.0),
    ],
)
def test_spell_cards_chance_exported_query(
    kind: str, die: int | None, value: int | None, x: int, phantoms: int, expected: float
) -> None:
    """The chance rule the spells use, exported for agents: N > dD passes when N >= the roll."""
    assert pass_probability(kind, die, value, x, phantoms) == expected
    if die is not None:
        n = chance_number(kind, value, x, phantoms)
        assert [passes(n, roll) for roll in range(1, die + 1)].count(True) == expected * die


def test_pay_x_from_one_to_the_die_keeping_one_stone_on_the_witch() -> None:
    state = scenario(
        side="witch", units={"minion1": {"square": "e8"}}, hands={"witch": ["manipulate"]}
    )
    state.apply("cast manipulate")
    assert {t for t in texts(state) if t.startswith("pay")} == {"pay 1", "pay 2", "pay 3", "pay 4"}
    low = scenario(
        side="witch",
        units={"minion1": {"square": "e8"}, "witch": {"square": "e9", "blood": 3}},
        hands={"witch": ["manipulate"]},
    )
    low.apply("cast manipulate")
    assert {t for t in texts(low) if t.startswith("pay")} == {"pay 1", "pay 2"}
    one = scenario(
        side="witch",
        units={"minion1": {"square": "e8"}, "witch": {"square": "e9", "blood": 1}},
        hands={"witch": ["manipulate"]},
    )
    assert "cast manipulate" not in texts(one)
    with pytest.raises(IllegalAction, match="at least 2 blood"):
        one.apply("cast manipulate")


def test_cancel_drops_the_partial_cast_and_changes_nothing() -> None:
    def position() -> object:
        return scenario(
            side="witch",
            units={"witch": {"square": "e6"}, "swordsman": {"square": "e4", "blood": 3}},
            hands={"witch": ["zombify"]},
        )

    state = position()
    untouched = position().to_json()
    state.apply("cast zombify")
    assert "cancel" in texts(state)
    state.apply("target swordsman")
    assert "cancel" in texts(state)
    state.apply("cancel")
    after = state.to_json()
    assert after["history"] == ["cast zombify", "target swordsman", "cancel"]
    assert after["position"] == untouched["position"]
    assert after["rng"] == untouched["rng"]


def test_manipulate_up_to_x_minions_in_range_each_move_and_attack_once() -> None:
    state = scenario(
        side="witch",
        units={
            "minion1": {"square": "e8"},
            "minion2": {"square": "d7"},
            "minion3": {"square": "f8"},
            "swordsman": {"square": "e6"},
        },
        hands={"witch": ["manipulate"]},
        rig={"dice": [1]},
    )
    state.apply("cast manipulate")
    state.apply("pay 2")
    g = state.grant
    assert g is not None
    assert g.slots == 2
    assert set(g.units) >= {"minion1", "minion2", "minion3"}
    assert "done" in texts(state)
    assert "cancel" not in texts(state)
    state.apply("move minion1 e7")
    state.apply("attack minion1 swordsman")
    assert not any(t.split()[1:2] == ["minion1"] for t in texts(state)), "each Act once"
    state.apply("attack minion2 swordsman")
    assert not any(t.startswith(("move minion3", "attack minion3")) for t in texts(state)), (
        "only X = 2 units may Act"
    )
    assert state.units["swordsman"].blood == state.content.units["swordsman"].starting_blood - 2
    state.apply("move minion2 c7")
    assert state.grant is None, "the grant ends when its units have no Act left"
    check_invariants(state)


def test_manipulate_lets_a_zombified_soldier_attack_with_its_own_range() -> None:
    state = scenario(
        side="witch",
        units={
            "spearman": {"square": "e5", "zombified": True},
            "archer": {"square": "e7"},  # two squares up: the spear's reach
        },
        hands={"witch": ["manipulate"]},
        rig={"dice": [1]},
    )
    state.apply("cast manipulate")
    state.apply("pay 1")
    assert "attack spearman archer" in texts(state)
    state.apply("attack spearman archer")
    assert state.units["archer"].blood == state.content.units["archer"].starting_blood - 1


def test_manipulated_unit_may_attack_a_friend_and_done_ends_the_acts() -> None:
    state = scenario(
        side="witch",
        units={"minion1": {"square": "e8"}, "minion2": {"square": "e7"}},
        hands={"witch": ["manipulate"]},
        rig={"dice": [1]},
    )
    state.apply("cast manipulate")
    state.apply("pay 1")
    state.apply("attack minion1 minion2")
    assert state.units["minion2"].blood == state.content.units["minion2"].starting_blood - 1
    state.apply("done")
    assert state.grant is None
    assert state.current_player == WITCH


def test_zombify_turns_a_weakened_soldier_in_range_and_a_failure_bites_back() -> None:
    units = {"witch": {"square": "e7"}, "swordsman": {"square": "e4", "blood": 3}}
    ok = scenario(units, side="witch", hands={"witch": ["zombify"]}, rig={"dice": [2]})
    ok.apply("cast zombify")
    ok.apply("target swordsman")
    ok.apply("pay 2")
    assert ok.units["swordsman"].zombified
    bad = scenario(units, side="witch", hands={"witch": ["zombify"]}, rig={"dice": [3]})
    blood = bad.units["witch"].blood
    bad.apply("cast zombify")
    bad.apply("target swordsman")
    bad.apply("pay 2")
    assert not bad.units["swordsman"].zombified
    assert bad.units["witch"].blood == blood - 2 - 1, "X paid plus the backlash"
    check_invariants(bad)


def test_zombify_needs_a_weakened_soldier() -> None:
    state = scenario(
        {"witch": {"square": "e7"}, "swordsman": {"square": "e4"}},
        side="witch",
        hands={"witch": ["zombify"]},
    )
    assert "cast zombify" not in texts(state)
    with pytest.raises(IllegalAction, match="range"):
        state.apply("cast zombify")


def test_blood_feast_drains_into_the_witch_up_to_her_maximum() -> None:
    cap = scenario().content.units["witch"].blood_cap
    state = scenario(
        {"witch": {"square": "e6", "blood": cap - 1}, "swordsman": {"square": "e5", "blood": 4}},
        side="witch",
        hands={"witch": ["blood_feast"]},
    )
    supply = state.supply
    state.apply("cast blood_feast")
    state.apply("target swordsman")
    assert state.units["swordsman"].blood == 2
    assert state.units["witch"].blood == cap, "one stone fits under her maximum"
    assert state.supply == supply + 1, "the other goes to the supply"
    check_invariants(state)


def test_thorn_bind_roots_a_soldier_for_the_soldiers_next_turn_only() -> None:
    state = scenario(
        {"witch": {"square": "e6"}, "swordsman": {"square": "e3"}},
        side="witch",
        hands={"witch": ["thorn_bind"]},
        rig={"dice": [1]},
    )
    state.apply("cast thorn_bind")
    state.apply("target swordsman")
    state.apply("end")
    assert state.current_player == SOLDIERS
    assert not any(t.startswith("move swordsman") for t in texts(state))
    with pytest.raises(IllegalAction, match="bound"):
        state.apply("move swordsman e2")
    state.apply("end")
    state.apply("end")
    assert any(t.startswith("move swordsman") for t in texts(state))


def test_discarding_any_amount_puts_cards_next_to_the_deck() -> None:
    state = scenario(side="witch", hands={"witch": ["manipulate", "zombify", "zombify"]})
    state.apply("discard zombify")
    state.apply("discard zombify")
    assert state.hands[WITCH] == ["manipulate"]
    assert state.decks[WITCH].discards == ["zombify", "zombify"]
    check_invariants(state)


def test_blood_spell_deck_reshuffles_the_discards_when_it_runs_out() -> None:
    every = list(scenario().content.blood_deck)
    hand = ["manipulate", "manipulate"]
    rest = list((Counter(every) - Counter(hand)).elements())
    state = scenario(side="soldiers", hands={"witch": hand}, discards={"blood": rest})
    assert len(state.decks[WITCH].pile) == 0
    state.apply("end")
    assert len(state.hands[WITCH]) == 3
    assert len(state.decks[WITCH].pile) == len(rest) - 1
    assert state.decks[WITCH].discards == []
    check_invariants(state)
