"""Five Forts and the engine contract: invariants in random playouts, hidden information,
content and scenario files, the board for the browser, the greedy policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forts_helpers import army, check_invariants, scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bloodforge
from bloodforge.core import ActionSyntaxError, IllegalAction, ParameterError, Rng, ScenarioError
from bloodforge.games.forts.game import FortsGame, FortsState
from bloodforge.lab.selfplay import play_game

CONTENT = Path(bloodforge.games.forts.__file__).parent / "data" / "content.json"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_keep_every_invariant(players: int) -> None:
    for seed in range(2):
        state = bloodforge.load_game("forts", players=players, seed=seed, max_rounds=15).new_initial_state()
        assert isinstance(state, FortsState)
        rng = Rng(seed + 100)
        while not state.is_terminal():
            check_invariants(state)
            seat = rng.choice(state.actors())
            if state.rule_clock(seat) is not None and rng.random() < 0.15:
                state.apply_timeout(seat)
                continue
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        check_invariants(state)
        assert abs(sum(state.returns()) - 1.0) < 1e-9


def test_same_seed_same_game_and_json_round_trip() -> None:
    a = bloodforge.load_game("forts", players=3, seed=5).new_initial_state()
    b = bloodforge.load_game("forts", players=3, seed=5).new_initial_state()
    rng_a, rng_b = Rng(1), Rng(1)
    for _ in range(200):
        if a.is_terminal():
            break
        a.apply(rng_a.choice(a.legal_actions()))
        b.apply(rng_b.choice(b.legal_actions()))
    assert a.position_digest() == b.position_digest()
    again = a.game.state_from_json(json.loads(json.dumps(a.to_json())))
    assert again.position_digest() == a.position_digest()


# -- hidden information -----------------------------------------------------------------------
def test_other_hands_and_the_deck_order_never_show() -> None:
    one = scenario({"redhall": army(0, 1), "greenhall": army(1, 1)}, currency=[3, 0], deck=["warlord"])
    two = scenario({"redhall": army(0, 1), "greenhall": army(1, 1)}, currency=[3, 0], deck=["squire"])
    one.apply("buy", 0)
    two.apply("buy", 0)
    assert one.observation(1) == two.observation(1)
    assert one.event_log(1) == two.event_log(1)
    assert one.observation(None) == two.observation(None)
    assert one.observation(0)["hand"] == [{"id": "warlord", "name": "Warlord"}]
    assert two.observation(0)["hand"] == [{"id": "squire", "name": "Squire"}]


def test_committed_cards_are_hidden_until_the_reveal() -> None:
    hands = [["knight"], ["champion"]]
    one = scenario({"ironkeep": army(0, 1), "moorland": army(1, 1)}, hands=hands)
    two = scenario({"ironkeep": army(0, 1), "moorland": army(1, 1)}, hands=[["squire"], ["champion"]])
    for s, card in ((one, "knight"), (two, "squire")):
        s.apply("attack ironkeep moorland 1 0", 0)
        s.apply(f"hero {card}", 0)
    assert one.observation(1) == two.observation(1)
    assert one.event_log(1) == two.event_log(1)


def test_resample_hidden_keeps_the_seats_view_and_redraws_the_rest() -> None:
    state = scenario({"ironkeep": army(0, 1), "moorland": army(1, 1)}, hands=[["knight"], ["champion", "squire"]])
    state.apply("attack ironkeep moorland 1 0", 0)
    state.apply("hero champion", 1)
    seen = set()
    for k in range(12):
        sample = state.resample_hidden(0, Rng(k))
        assert sample.observation(0) == state.observation(0)
        seen.add(tuple(sample.m.hands[1]) + tuple(sample.m.battle.committed[1]))  # type: ignore[union-attr]
        assert sample.m.hands[0] == ["knight"]
    assert len(seen) > 1


# -- content and scenario files ---------------------------------------------------------------
def test_a_broken_content_file_names_the_file_and_the_field(tmp_path: Path) -> None:
    data = json.loads(CONTENT.read_text())
    data["links"].append(["redhall", "atlantis"])
    bad = tmp_path / "map.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ParameterError, match=r"map\.json.*atlantis"):
        bloodforge.load_game("forts", players=2, content=str(bad))
    data = json.loads(CONTENT.read_text())
    data["territories"][0]["fort"] = "fort"
    bad.write_text(json.dumps(data))
    with pytest.raises(ParameterError, match="great fort"):
        bloodforge.load_game("forts", players=2, content=str(bad))


def test_a_designers_content_file_changes_the_game(tmp_path: Path) -> None:
    data = json.loads(CONTENT.read_text())
    data["start"]["currency"] = 9
    data["food_per_resource"] = 4
    path = tmp_path / "rich.json"
    path.write_text(json.dumps(data))
    state = bloodforge.load_game("forts", players=2, content=str(path)).new_initial_state()
    obs = state.observation(0)
    assert obs["quota"] == [4, 4]
    assert sorted(obs["currency"]) == [9, 10], "the first player has collected its income"


def test_the_content_is_marked_as_house_content() -> None:
    data = json.loads(CONTENT.read_text())
    assert data["house_content"] is True
    assert "HOUSE CONTENT" in data["design_note"]
    assert FortsGame.create(players=4).static_info()["house_content"] is True


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ({"territories": {"atlantis": {"owner": 0, "infantry": 1}}}, "atlantis"),
        ({"territories": {"moorland": {"owner": 5, "infantry": 1}}}, "seat 5"),
        ({"territories": {"moorland": {"owner": 0}}}, "needs units"),
        ({"hands": [["warlord", "warlord"], []]}, "warlord"),
        ({"currency": [1]}, "currency"),
        ({"phase": "lunch"}, "phase"),
    ],
)
def test_a_bad_scenario_is_refused_with_the_field(position: dict[str, object], message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        bloodforge.load_scenario({"game": "forts", "params": {"players": 2}, "position": position})


def test_packaged_scenarios_load_and_play() -> None:
    folder = FortsGame.create(players=2).scenario_dir()
    assert folder is not None
    paths = sorted(folder.glob("*.yaml"))
    assert len(paths) >= 3
    for path in paths:
        state = bloodforge.load_scenario(str(path))
        assert isinstance(state, FortsState)
        check_invariants(state)
    worked = bloodforge.load_scenario(str(folder / "worked_example_casualties.yaml"))
    worked.apply("attack ironkeep moorland 0 3", 0)
    assert sorted(str(a) for a in worked.legal_actions(1)) == ["lose 0 1", "lose 2 0"]
    bribery = bloodforge.load_scenario(str(folder / "bribery.yaml"))
    assert bribery.rule_clock(1) == 60.0
    bribery.apply_timeout(1)
    assert bribery.actors() == [2]
    assert "bribe stormkeep" in [str(a) for a in bribery.legal_actions(2)]


# -- the browser board and the terminal -------------------------------------------------------
def test_static_info_board_follows_the_browser_contract() -> None:
    game = FortsGame.create(players=4)
    board = game.static_info()["board"]
    assert board["geometry"] == "areas"
    ids = {a["id"] for a in board["areas"]}
    assert len(ids) == 36
    assert all(0 <= a["x"] <= 1 and 0 <= a["y"] <= 1 for a in board["areas"])
    assert {a["kind"] for a in board["areas"]} == {"land", "sea"}
    assert all(x in ids and y in ids for x, y in board["links"])
    assert [s["seat"] for s in board["seats"]] == [0, 1, 2, 3]
    spec = game.grammar()
    assert spec["attack"].arg_types() == ("area", "area", "number", "number")
    assert spec["bribe"].arg_types() == ("area",)
    assert spec["hero"].arg_types() == ("card",)


def test_observation_board_pieces_marks_and_hand_use_action_words() -> None:
    state = scenario({"redhall": army(0, 2, 1), "ironkeep": army("independent", 0, 2)}, hands=[["knight"], []])
    board = state.observation(0)["board"]
    pieces = {p["at"]: p for p in board["pieces"]}
    assert pieces["redhall"]["owner"] == 0
    assert pieces["redhall"]["label"] == "2i 1c"
    assert pieces["ironkeep"]["kind"] == "independent"
    assert {"at": "ashgate", "kind": "fort", "label": "fort"} in board["marks"]
    assert board["hand"] == [{"id": "knight", "label": "Knight", "kind": "card"}]
    assert state.observation(1)["board"]["hand"] == []
    text = state.game.render_text(state.observation(0))
    assert "redhall" in text
    assert "Red" in text


def test_canonical_action_text() -> None:
    state = scenario({"redhall": army(0, 2)})
    action = state.game.parse_action(state, "MOVE Redhall Copperdale 01 0", 0)
    assert str(action) == "move redhall copperdale 1 0"


def test_odds_command_hook() -> None:
    odds = FortsGame.create(players=2).battle_odds("0 2", "2 0", {"bonus": "great"})
    assert odds is not None
    assert odds["attack"] == 4
    assert odds["defence"] == 4
    with pytest.raises(ParameterError):
        FortsGame.create(players=2).battle_odds("two", "2 0", {})


# -- the greedy policy ------------------------------------------------------------------------
def test_greedy_policy_beats_random() -> None:
    greedy = 0.0
    games = 8
    for seed in range(games):
        agents = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        game = bloodforge.load_game("forts", players=2, seed=seed)
        record, _ = play_game(game, agents)
        greedy += record.returns[agents.index("greedy")]
    assert greedy >= games - 1


# -- any text: a clear refusal or a legal action, never a crash or a half-applied change -------
WORDS = ["move", "attack", "recruit", "buy", "act", "end", "hero", "commit", "lose", "retreat", "advance",
         "stay", "bribe", "pass", "disband", "begin", "roll", "reveal", "timeout", "redhall", "copperdale",
         "ironkeep", "infantry", "cavalry", "knight", "0", "1", "2", "03", "-1", "x", ""]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(WORDS), min_size=0, max_size=6))
def test_any_action_text_is_applied_or_refused_cleanly(words: list[str]) -> None:
    state = scenario({"redhall": army(0, 2, 1), "greenhall": army(1, 1)}, currency=[5, 0])
    before = state.position_digest()
    text = " ".join(words)
    try:
        state.apply(text, 0)
    except (ActionSyntaxError, IllegalAction):
        assert state.position_digest() == before
    else:
        assert any(str(state.game.parse_text(text)) == h for h in state.history)


def test_start_currency_by_turn_position_knob(tmp_path: Path) -> None:
    data = json.loads(CONTENT.read_text())
    data["start"]["currency_by_turn_position"] = [0, 3]
    path = tmp_path / "later.json"
    path.write_text(json.dumps(data))
    state = bloodforge.load_game("forts", players=2, seed=4, content=str(path)).new_initial_state()
    assert isinstance(state, FortsState)
    first = state.m.first_seat
    income = state.observation(None)["income"][first]
    assert state.m.currency[first] == 2 + income
    assert state.m.currency[1 - first] == 2 + 3


def test_independent_armies_by_player_count(tmp_path: Path) -> None:
    data = json.loads(CONTENT.read_text())
    data["independent_by_players"] = {"3": {"sunkeep": {"cavalry": 4}}}
    path = tmp_path / "three.json"
    path.write_text(json.dumps(data))
    three = bloodforge.load_game("forts", players=3, content=str(path)).new_initial_state()
    four = bloodforge.load_game("forts", players=4, content=str(path)).new_initial_state()
    assert next(t for t in three.observation(None)["territories"] if t["id"] == "sunkeep")["cavalry"] == 4
    assert next(t for t in four.observation(None)["territories"] if t["id"] == "sunkeep")["cavalry"] == 2
    data["independent_by_players"] = {"5": {"sunkeep": {"cavalry": 4}}}
    path.write_text(json.dumps(data))
    with pytest.raises(ParameterError, match="independent_by_players"):
        bloodforge.load_game("forts", players=3, content=str(path))


def test_greedy_sees_only_what_its_seat_sees() -> None:
    """The policy's choice is the same on any state consistent with the seat's observation."""
    game = bloodforge.load_game("forts", players=3, seed=9)
    policy = game.policy()
    state = game.new_initial_state()
    rng = Rng(3)
    checked = 0
    for _ in range(400):
        if state.is_terminal():
            break
        seat = state.actors()[0]
        if len(state.legal_actions(seat)) > 1:
            twin = state.resample_hidden(seat, Rng(checked))
            assert policy.choose(state, seat, Rng(1)) == policy.choose(twin, seat, Rng(1))
            checked += 1
        state.apply(policy.choose(state, seat, rng), seat)
    assert checked > 50
