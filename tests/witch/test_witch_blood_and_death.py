"""Blood Stones & Death, Zombification, and Victory."""

from __future__ import annotations

import pytest
from witch_helpers import check_invariants, scenario, texts

from bloodforge.core import IllegalAction, ScenarioError
from bloodforge.games.witch.model import REALM, REMOVED


def test_blood_stones_a_unit_with_no_blood_stones_dies_and_enters_the_realm() -> None:
    state = scenario({"swordsman": {"square": "e7"}, "minion1": {"square": "e8", "blood": 1}})
    assert state.phantoms() == 0
    state.apply("attack swordsman minion1")
    m = state.units["minion1"]
    assert m.where == REALM
    assert m.square is None
    assert m.blood == 0
    assert state.phantoms() == 1, "dead units in the Realm are Phantoms"
    assert (4, 7) not in state.at
    check_invariants(state)


def test_death_a_dead_soldier_enters_the_realm_as_a_phantom() -> None:
    state = scenario({"swordsman": {"square": "e3"}, "spearman": {"square": "e2", "blood": 1}})
    state.apply("attack swordsman spearman")
    assert state.units["spearman"].where == REALM
    assert state.phantoms() == 1


def test_death_a_zombified_unit_that_dies_is_removed_from_the_game_not_the_realm() -> None:
    state = scenario(
        {"swordsman": {"square": "e3"}, "spearman": {"square": "e2", "blood": 1, "zombified": True}}
    )
    state.apply("attack swordsman spearman")
    assert state.units["spearman"].where == REMOVED
    assert state.phantoms() == 0
    check_invariants(state)


def test_dead_units_can_no_longer_be_used_or_targeted() -> None:
    state = scenario({"swordsman": {"square": "e7"}, "minion1": {"square": "e8", "blood": 1}})
    state.apply("attack swordsman minion1")
    assert not any("minion1" in t for t in texts(state))
    with pytest.raises(IllegalAction, match="not on the board"):
        state.apply("attack spearman minion1")


def test_victory_soldiers_win_by_killing_the_witch() -> None:
    state = scenario({"swordsman": {"square": "e8"}, "witch": {"square": "e9", "blood": 1}})
    state.apply("attack swordsman witch")
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0]
    assert state.units["witch"].where == REMOVED
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply("end")
    check_invariants(state)


def test_victory_witch_wins_when_every_soldier_has_been_zombified_or_killed() -> None:
    state = scenario(
        {
            "archer": "realm",
            "spearman": {"square": "e2", "zombified": True},
            "swordsman": {"square": "e3", "blood": 1},
            "minion2": {"square": "e4"},
        },
        side="witch",
        hands={"witch": ["manipulate"]},
        rig={"dice": [1]},
    )
    state.apply("cast manipulate")
    state.apply("pay 1")
    state.apply("attack minion2 swordsman")
    assert state.is_terminal()
    assert state.returns() == [0.0, 1.0]
    assert state.observation(None)["winner"] == "witch"


def test_victory_zombifying_the_last_active_soldier_wins_at_once() -> None:
    state = scenario(
        {
            "archer": "realm",
            "spearman": "realm",
            "swordsman": {"square": "e6", "blood": 3},
        },
        side="witch",
        hands={"witch": ["zombify", "manipulate"]},
        rig={"dice": [1]},
    )
    state.apply("cast zombify")
    state.apply("target swordsman")
    state.apply("pay 1")
    assert state.units["swordsman"].zombified
    assert state.returns() == [0.0, 1.0]
    assert state.current_player is None


def test_house_rule_turn_limit_ends_the_game_as_a_draw() -> None:
    state = scenario(params={"max_turns": 3})
    for _ in range(3):
        state.apply("end")
    assert state.is_terminal()
    assert state.returns() == [0.5, 0.5]
    assert state.observation(0)["winner"] == "draw"
    check_invariants(state)


def test_scores_are_blood_stones_in_play_per_side() -> None:
    state = scenario({"spearman": {"square": "e2", "zombified": True}})
    c = state.content
    soldiers = c.units["archer"].starting_blood + c.units["swordsman"].starting_blood
    witch_side = sum(c.units[u].starting_blood for u in (c.witch_id, *c.minion_ids, "spearman"))
    assert state.scores() == [soldiers, witch_side]


def test_scenario_refuses_a_game_that_is_already_decided() -> None:
    with pytest.raises(ScenarioError, match="already decided"):
        scenario({"archer": "realm", "spearman": "realm", "swordsman": "realm"})
