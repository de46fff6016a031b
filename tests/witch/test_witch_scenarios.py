"""Scenario files: the packaged examples load and play as described; bad ones are refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from witch_helpers import BASE_UNITS, check_invariants, new_game, scenario, texts

import bloodforge
from bloodforge.core import ScenarioError
from bloodforge.games.witch.game import WitchState
from bloodforge.games.witch.model import SOLDIERS

SCENARIOS = sorted(
    (Path(bloodforge.__file__).parent / "games" / "witch" / "scenarios").glob("*.yaml")
)


def load(name: str) -> WitchState:
    state = bloodforge.load_scenario(next(p for p in SCENARIOS if p.stem == name))
    assert isinstance(state, WitchState)
    return state


def test_there_are_example_scenarios() -> None:
    assert len(SCENARIOS) >= 4


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_example_scenario_loads_into_a_live_valid_position(path: Path) -> None:
    state = bloodforge.load_scenario(path)
    assert isinstance(state, WitchState)
    assert not state.is_terminal()
    assert state.legal_actions()
    check_invariants(state)
    again = new_game().load_scenario(path)
    assert again.position_digest() == state.position_digest(), "a scenario loads deterministically"


def test_scenario_worked_example_pays_two_and_passes_on_the_rigged_two() -> None:
    state = load("worked_example")
    state.apply("cast manipulate")
    state.apply("pay 2")
    assert state.grant is not None
    assert state.grant.slots == 2
    assert state.units["witch"].blood == 10


def test_scenario_zombie_uprising_the_zombified_swordsman_strikes_his_comrade() -> None:
    state = load("zombie_uprising")
    state.apply("cast manipulate")
    state.apply("pay 1")
    assert "attack swordsman spearman" in texts(state)
    state.apply("attack swordsman spearman")
    assert state.units["spearman"].blood == 2
    state.apply("done")
    state.apply("cast zombify")
    state.apply("target archer")
    state.apply("pay 2")
    assert state.units["archer"].zombified
    state.apply("end")
    assert state.current_player == SOLDIERS


def test_scenario_phantoms_rise_draws_the_rigged_phantom_spells_and_haunt_hits() -> None:
    state = load("phantoms_rise")
    assert state.hands[SOLDIERS] == ["haunt", "possession"]
    state.apply("cast haunt")
    state.apply("target witch")
    assert state.units["witch"].blood == 4


def test_scenario_last_stand_the_soldiers_can_kill_the_witch() -> None:
    state = load("last_stand")
    state.apply("cast rally")
    state.apply("move swordsman f8")
    state.apply("attack swordsman witch")
    state.apply("move spearman e7")
    state.apply("attack spearman witch")
    assert state.returns() == [1.0, 0.0]
    assert state.current_player is None


BASE = BASE_UNITS


@pytest.mark.parametrize(
    ("position", "rig", "why"),
    [
        ({"units": {"witch": {"square": "e9"}}}, None, "missing units"),
        ({"units": {**BASE, "ghost": {"square": "a2"}}}, None, "unknown units"),
        ({"side": "neither"}, None, "side"),
        ({"units": {**BASE, "minion1": {"square": "d4"}}}, None, "darkened"),
        ({"units": {**BASE, "minion1": {"square": "e9"}}}, None, "taken by witch"),
        ({"units": {**BASE, "minion1": {"square": "q1"}}}, None, "not a square"),
        (
            {"units": {**BASE, "minion1": {"square": "a8", "zombified": True}}},
            None,
            "only soldiers",
        ),
        ({"units": {**BASE, "witch": "realm"}}, None, "Realm"),
        ({"units": {**BASE, "archer": {"square": "a1", "blood": 9}}}, None, "outside 1..3"),
        ({"units": {**BASE, "archer": {"where": "board"}}}, None, "square exactly"),
        ({"hands": {"witch": ["rally"]}}, None, "not blood spell cards"),
        ({"hands": {"witch": ["zombify"] * 4}}, None, "more copies"),
        ({"hands": {"soldiers": ["rally", "haunt", "spirit_mend"]}}, None, "at most 2"),
        ({}, {"dice": [7]}, "not a face"),
        ({}, {"blood_deck": ["fireball"]}, "not blood spell cards"),
        ({}, {"shoe": []}, "shoe"),
        ({"turn": {"moved": ["nobody"]}}, None, "unknown units"),
    ],
)
def test_bad_scenarios_raise_scenario_error_naming_the_field(
    position: dict[str, Any], rig: dict[str, Any] | None, why: str
) -> None:
    data = {"units": BASE, **position}
    with pytest.raises(ScenarioError, match=why):
        new_game().load_scenario({"game": "witch", "position": data, "rig": rig})


def test_a_rigged_roll_impossible_on_the_spells_die_is_refused_without_change() -> None:
    state = scenario(
        side="witch",
        units={"minion1": {"square": "e8"}},
        hands={"witch": ["manipulate"]},
        rig={"dice": [6]},
    )
    state.apply("cast manipulate")
    before = state.position_digest()
    with pytest.raises(ScenarioError, match="impossible on a d4"):
        state.apply("pay 2")
    assert state.position_digest() == before


def test_scenario_for_another_game_is_refused() -> None:
    with pytest.raises(ScenarioError, match="not 'witch'"):
        new_game().load_scenario({"game": "chess", "position": {}})


def test_scenario_turn_record_carries_acts_already_used() -> None:
    state = scenario({"swordsman": {"square": "e3"}}, turn={"acts_used": 2, "moved": ["swordsman"]})
    assert not any(t.startswith("move swordsman") for t in texts(state))
    state.apply("move archer b1")
    assert not any(t.startswith(("move", "attack")) for t in texts(state))
