"""Refusals: malformed and illegal actions, bad parameters and scenarios; exact `cancel`."""

from __future__ import annotations

from typing import Any

import pytest

import bloodforge
from bloodforge.core.errors import ActionSyntaxError, IllegalAction, ParameterError, ScenarioError

from .helpers import make, position_digest, run, scenario_dict


@pytest.fixture
def contested():  # type: ignore[no-untyped-def]
    return make(
        ["dragon_riders", "horse_lords"],
        units=[
            (27, 0, {"citadel": 1}),
            (22, 0, {"swords": 1}),
            (22, 1, {"swords": 1}),
            (16, 0, {"swords": 1}),
            (60, 1, {"citadel": 1}),
        ],
        hands=[{"skirmishers": 1, "shields": 1}, {}],
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty action"),
        ("   ", "empty action"),
        ("fly 22", "unknown action 'fly'"),
        ("battle 22", "expected `battle <area> <seat>`"),
        ("move 22 swords extra", "expected `move <area> <unit>`"),
        ("done now", "expected `done`"),
    ],
)
def test_malformed_action_raises_syntax_error_state_unchanged(
    contested, text: str, words: str
) -> None:  # type: ignore[no-untyped-def]
    before = contested.position_digest()
    with pytest.raises(ActionSyntaxError, match=words):
        contested.apply(text)
    assert contested.position_digest() == before


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("done", r"all battles must be resolved first \(contested area\(s\): \[22\]\)"),
        ("move 22 swords", "units may not leave area 22: it holds enemy units"),
        ("move 99 swords", "there is no area 99"),
        ("move 14 swords", "you have no swords in area 14"),
        ("build dragon 27", "you hold no dragon tile"),
        ("build shields 22", "not one of the legal `build` actions"),
        ("battle 16 1", "not one of the legal `battle` actions"),
        ("battle x 1", "'x 1' is not a valid area number"),
        ("pay shields", "`pay` is not possible now"),
        ("cancel", "`cancel` is not possible now"),
        ("citadel 5", "`citadel` is not possible now"),
    ],
)
def test_illegal_action_raises_with_reason_state_unchanged(
    contested, text: str, words: str
) -> None:  # type: ignore[no-untyped-def]
    before = contested.position_digest()
    with pytest.raises(IllegalAction, match=words):
        contested.apply(text)
    assert contested.position_digest() == before


def test_illegal_action_during_pending_choice_says_finish_or_cancel(contested) -> None:  # type: ignore[no-untyped-def]
    run(contested, "build shields 27")
    before = contested.position_digest()
    with pytest.raises(IllegalAction, match="finish or cancel the build"):
        contested.apply("battle 22 1")
    assert contested.position_digest() == before


def test_actions_after_the_game_is_over_are_refused() -> None:
    from .test_turn import _empty_bag_player

    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(60, 1, {"citadel": 1})],
        players=[_empty_bag_player(regroups=2), {"regroups": 3}],
        phase="construct_villages",
    )
    run(st, "done")
    assert st.is_terminal()
    with pytest.raises(IllegalAction, match="the game is over"):
        st.apply("done")


# -- parameters -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"players": 2, "factions": ["dragon_riders", "elves"]}, "unknown faction 'elves'"),
        ({"players": 2, "factions": ["dragon_riders", "dragon_riders"]}, "one player only"),
        (
            {"players": 2, "factions": ["corsairs", "horse_lords"]},
            "corsairs only with 3 or more players",
        ),
        (
            {"players": 3, "factions": ["chaos_horde", "horse_lords", "hill_folk"]},
            "chaos_horde only with 4 or more players",
        ),
        ({"players": 5, "map": "map1"}, "map 'map1' is marked for 1-4 players, not 5"),
        ({"players": 7}, "players"),
        ({"players": 1}, "players"),
        (
            {"players": 3, "factions": ["dragon_riders", "horse_lords"]},
            "lists 2 factions for 3 players",
        ),
        ({"players": 2, "colour": "red"}, "colour"),
        ({"players": 2, "map": "atlantis"}, "map: Input should be 'map1' or 'grand'"),
        ({"players": 2, "map": "map1", "map_file": "x.json"}, "either map .* or map_file"),
    ],
)
def test_bad_parameters_raise_parameter_error(params: dict[str, Any], words: str) -> None:
    with pytest.raises(ParameterError, match=words):
        bloodforge.load_game("bloodstones", seed=1, **params)


def test_unrecommended_combinations_allowed_on_request() -> None:
    g = bloodforge.load_game(
        "bloodstones",
        players=2,
        seed=1,
        factions=["corsairs", "chaos_horde"],
        allow_unrecommended=True,
    )
    assert g.new_initial_state().factions == ["corsairs", "chaos_horde"]
    g = bloodforge.load_game("bloodstones", players=5, seed=1, map="map1", allow_unrecommended=True)
    assert g.num_players == 5


# -- scenarios ------------------------------------------------------------------------------------
def _bad(**kw: Any) -> dict[str, Any]:
    return scenario_dict(["dragon_riders", "horse_lords"], **kw)


@pytest.mark.parametrize(
    ("scenario", "words"),
    [
        (_bad(units=[(99, 0, {"swords": 1})]), "there is no area 99"),
        (_bad(units=[(22, 0, {"giant": 1})]), "dragon_riders has no unit 'giant'"),
        (_bad(units=[(22, 0, {"ship": 1})]), r"area 22 \(plains\): ship cannot stand there"),
        (_bad(units=[(35, 0, {"swords": 1})]), r"area 35 \(sea\): swords cannot stand there"),
        (_bad(units=[(22, 0, {"swords": 5})]), "seat 0 uses 5 swords tiles; dragon_riders has 4"),
        (_bad(units=[(22, 0, {"citadel": 1}), (27, 0, {"citadel": 1})]), "at most 1 citadel"),
        (_bad(villages=[(22, 0, 3)]), r"area 22 \(plains\) holds at most 2 villages"),
        (_bad(villages=[(29, 0, 2)]), r"area 29 \(forest\) holds at most 1 villages"),
        (_bad(villages=[(22, 0), (22, 1)]), "area 22 already holds villages of seat 0"),
        (_bad(villages=[(23, 0)]), r"area 23 \(mountains\) holds at most 0"),
        (_bad(hands=[{"giant": 1}, {}]), "seat 0 hand: dragon_riders has no 'giant' tiles"),
        (
            _bad(rig_bags={0: ["dragon", "dragon", "dragon"]}),
            r"rig.bags\[0\] draws 3 dragon but the bag holds 2",
        ),
        (_bad(rig_bags={5: ["swords"]}), r"rig.bags: seat 5 does not exist"),
        (_bad(units=[(22, 3, {"swords": 1})]), "seat 3 does not exist"),
        (_bad(phase="dancing"), "phase"),
        (_bad(order=[0, 0]), r"order \[0, 0\] must list each seat"),
        (_bad(players=[{}, {}, {}]), "position.players has 3 entries for 2 players"),
        (
            _bad(units=[(22, 0, {"cutiecorn": 1})]),
            "the Cutiecorn is only in play with params.cutiecorn",
        ),
        (_bad(attacker_tiles=[6]), "battle"),
        (
            {"game": "bloodstones", "params": {"players": 2}, "position": {}},
            "must name the factions",
        ),
        (
            {
                "game": "bloodstones",
                "params": {"players": 2, "factions": ["dragon_riders", "horse_lords"]},
                "position": {"players": [{"bag": {"swords": 1}}, {}]},
            },
            "resources tiles in hand, discard, bag and map add up to 0, the faction has 2",
        ),
    ],
)
def test_bad_scenario_raises_scenario_error_naming_the_problem(
    scenario: dict[str, Any], words: str
) -> None:
    with pytest.raises(ScenarioError, match=words):
        bloodforge.load_scenario(scenario)


# -- cancel ---------------------------------------------------------------------------------------
def test_cancel_move_restores_everything(contested) -> None:  # type: ignore[no-untyped-def]
    before = position_digest(contested)
    run(contested, "move 16 swords", "to 15", "move 15 swords", "to 5", "pay skirmishers")
    assert contested.pending is not None  # 2 pips of 3
    assert contested.units_at(5, 0) == {"swords": 1}
    run(contested, "cancel")
    assert position_digest(contested) == before
    assert contested.units_at(16, 0) == {"swords": 1}


def test_cancel_build_restores_everything() -> None:
    st = make(
        ["horse_lords", "dragon_riders"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        hands=[{"castle": 1, "swords": 1, "shields": 1}, {}],
        cutiecorn=True,
    )
    before = position_digest(st)
    run(st, "build castle 27", "pay swords", "cancel")
    assert position_digest(st) == before
    run(st, "build cutiecorn 27", "pay swords", "cancel")
    assert position_digest(st) == before
    assert st.cutiecorn_free


def test_cancel_capture_and_village_restore_everything() -> None:
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(22, 0, {"swords": 1}), (27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        villages=[(22, 1, 2)],
        hands=[{"skirmishers": 1}, {}],
        phase="start_of_turn",
    )
    before = position_digest(st)
    run(st, "capture 22", "capture 22", "cancel")
    assert position_digest(st) == before
    st = make(
        ["dragon_riders", "horse_lords"],
        units=[(27, 0, {"citadel": 1}), (60, 1, {"citadel": 1})],
        hands=[{"skirmishers": 1}, {}],
        phase="construct_villages",
    )
    before = position_digest(st)
    run(st, "village 28", "village 28", "cancel")
    assert position_digest(st) == before


def test_cancel_chaos_horde_place_restores_everything() -> None:
    st = make(
        ["chaos_horde", "horse_lords", "hill_folk", "necromancers"],
        units=[(60, 1, {"citadel": 1})],
        hands=[{"cavalry": 1, "hordes": 1}, {}, {}, {}],
        phase="start_of_turn",
    )
    before = position_digest(st)
    run(st, "place cavalry 22", "cancel")
    assert position_digest(st) == before


def test_impossible_battle_rig_raises_scenario_error_state_unchanged() -> None:
    """A rig asking one draw for three 3s (the bag holds two) is refused when it is reached."""
    import yaml

    from bloodforge.games.bloodstones.content import DATA_DIR

    data = yaml.safe_load((DATA_DIR.parent / "scenarios" / "worked_example_battle.yaml").read_text())
    data["rig"]["battle"]["attacker"] = [3, 3, 3, 2]
    state = bloodforge.load_scenario(data)
    before = state.position_digest()
    with pytest.raises(ScenarioError, match=r"rig cannot be honoured.*'3'"):
        state.apply("battle 27 1")
    assert state.position_digest() == before
    assert state.observation(0)["battle"] is None
