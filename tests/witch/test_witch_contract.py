"""The game contract for Blood Stone: determinism, serialisation, clones, action texts, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from witch_helpers import check_invariants, new_game, scenario, texts

import bloodforge
from bloodforge.agents import make_agent
from bloodforge.core import (
    Action,
    ActionSyntaxError,
    DataFileError,
    IllegalAction,
    ParameterError,
    Rng,
)
from bloodforge.games.witch.content import DEFAULT_CONTENT
from bloodforge.games.witch.game import WitchState
from bloodforge.lab.selfplay import play_game


def random_playout(seed: int, plies: int = 10_000) -> WitchState:
    state = new_game(seed).new_initial_state()
    rng = Rng(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_determinism_same_seed_and_actions_give_the_same_digest() -> None:
    a = random_playout(3)
    game = new_game(3)
    b = game.new_initial_state()
    for text in a.history:
        b.apply(text)
    assert a.position_digest() == b.position_digest()
    rec1, _ = play_game(new_game(4), ["random", "random"])
    rec2, _ = play_game(new_game(4), ["random", "random"])
    assert rec1.digest == rec2.digest
    assert rec1.moves == rec2.moves


def test_different_seeds_give_different_games() -> None:
    digests = {random_playout(s, 60).position_digest() for s in range(5)}
    assert len(digests) == 5


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_json_round_trip_is_exact_and_play_continues_identically(seed: int) -> None:
    game = new_game(seed)
    state = game.new_initial_state()
    rng = Rng(seed + 100)
    for step in range(400):
        if state.is_terminal():
            break
        if step % 37 == 0:
            data = json.loads(json.dumps(state.to_json()))
            copy = game.state_from_json(data)
            assert copy.position_digest() == state.position_digest()
            assert copy.observation(0) == state.observation(0)
            tail = Rng(step)
            for _ in range(25):
                if state.is_terminal():
                    break
                action = tail.copy().choice(state.legal_actions())
                tail.next_u64()
                assert action in copy.legal_actions()
                state.apply(action)
                copy.apply(action)
                assert copy.position_digest() == state.position_digest()
            continue
        state.apply(rng.choice(state.legal_actions()))
    assert bloodforge.state_from_json(state.to_json()).position_digest() == state.position_digest()


def test_clone_is_independent() -> None:
    state = random_playout(5, 40)
    before = state.position_digest()
    twin = state.clone()
    assert twin.position_digest() == before
    for _ in range(30):
        if twin.is_terminal():
            break
        twin.apply(twin.legal_actions()[-1])
    assert state.position_digest() == before
    assert twin.position_digest() != before


def test_action_text_round_trips_through_parse_action_for_every_legal_action() -> None:
    game = new_game(6)
    state = game.new_initial_state()
    rng = Rng(6)
    for _ in range(300):
        if state.is_terminal():
            break
        for action in state.legal_actions():
            assert game.parse_action(state, str(action)) == action
            assert game.parse_action(state, str(action).upper()) == action
        state.apply(rng.choice(state.legal_actions()))


def test_illegal_action_says_why_and_leaves_the_state_unchanged() -> None:
    state = scenario({"swordsman": {"square": "e3"}})
    before = state.position_digest()
    cases = {
        "move swordsman e7": "orthogonal steps",
        "attack archer witch": "attack range",
        "cast rally": "not in the Soldiers' hand",
        "pay 2": "not possible now",
        "done": "not possible now",
        "place witch e9": "already placed",
        "move witch e8": "only with soldiers",
    }
    for text, why in cases.items():
        with pytest.raises(IllegalAction, match=why):
            state.apply(text)
        assert state.position_digest() == before
    with pytest.raises(IllegalAction):
        state.apply(Action("move", ("swordsman", "e9")))
    assert state.position_digest() == before


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("fly witch e5", "unknown action"),
        ("move swordsman", "expected `move <unit> <square>`"),
        ("move nobody e5", "no unit called 'nobody'"),
        ("move swordsman z99", "not a square of the board"),
        ("move swordsman e10", "not a square of the board"),
        ("attack swordsman e5", "no unit called 'e5'"),
        ("cast fireball", "no spell card called 'fireball'"),
        ("pay two", "whole number"),
        ("pay 0", "whole number"),
        ("target nowhere", "neither a unit"),
        ("end now", "expected `end`"),
    ],
)
def test_malformed_action_text_raises_action_syntax_error(text: str, why: str) -> None:
    state = scenario()
    before = state.position_digest()
    with pytest.raises(ActionSyntaxError, match=why):
        state.apply(text)
    assert state.position_digest() == before


def test_non_action_input_is_refused() -> None:
    state = scenario()
    with pytest.raises(ActionSyntaxError):
        state.apply(42)  # type: ignore[arg-type]


WORDS = st.sampled_from(
    [
        "move", "attack", "cast", "target", "pay", "discard", "done", "end", "cancel", "place",
        "witch", "archer", "minion2", "swordsman", "manipulate", "rally", "e5", "A1", "i9", "j1",
        "0", "3", "07", "x", "", "e", "zombify", "-1",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, min_size=0, max_size=4))
def test_parser_property_any_text_is_legal_or_a_clear_error_and_never_changes_state(
    words: list[str],
) -> None:
    state = scenario({"swordsman": {"square": "e3"}}, hands={"soldiers": []})
    before = state.position_digest()
    text = " ".join(words)
    try:
        action = state.game.parse_action(state, text)
    except (ActionSyntaxError, IllegalAction) as err:
        message = str(err)
    else:
        assert action in state.legal_actions()
        assert state.game.parse_action(state, str(action)) == action
        return
    assert message
    assert state.position_digest() == before


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, 10_000), min_size=1, max_size=120))
def test_random_action_sequences_keep_every_invariant(seed: int, picks: list[int]) -> None:
    state = new_game(seed % 1000).new_initial_state()
    for pick in picks:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal, "a live state always has a legal action"
        state.apply(legal[pick % len(legal)])
        check_invariants(state)


def test_cancel_is_offered_whenever_a_partial_choice_exists() -> None:
    state = new_game(8).new_initial_state()
    rng = Rng(8)
    seen = 0
    for _ in range(3000):
        if state.is_terminal():
            break
        legal = texts(state)
        if state.pending is not None:
            assert "cancel" in legal
            seen += 1
        else:
            assert "cancel" not in legal
        state.apply(rng.choice(state.legal_actions()))
    assert seen > 0


def test_bad_content_file_raises_data_file_error_naming_file_field_and_reason(
    tmp_path: Path,
) -> None:
    data = json.loads(DEFAULT_CONTENT.read_text())
    data["units"][5]["movement"] = -1
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataFileError, match=r"broken\.json.*units\.5.*movement"):
        bloodforge.load_game("witch", players=2, content=str(path))
    data = json.loads(DEFAULT_CONTENT.read_text())
    data["blood_spells"][1]["targets"] = ["minion"]
    path.write_text(json.dumps(data))
    with pytest.raises(DataFileError, match="zombify' needs targets"):
        bloodforge.load_game("witch", players=2, content=str(path))
    data = json.loads(DEFAULT_CONTENT.read_text())
    data["board"]["darkened"].append("e9")
    path.write_text(json.dumps(data))
    with pytest.raises(DataFileError, match=r"witch_start.*darkened"):
        bloodforge.load_game("witch", players=2, content=str(path))
    with pytest.raises(DataFileError, match="cannot read"):
        bloodforge.load_game("witch", players=2, content=str(tmp_path / "missing.json"))


def test_a_designer_copy_of_the_content_changes_the_game(tmp_path: Path) -> None:
    data = json.loads(DEFAULT_CONTENT.read_text())
    assert data["house_content"] is True
    next(u for u in data["units"] if u["id"] == "witch")["starting_blood"] = 9
    path = tmp_path / "designer.json"
    path.write_text(json.dumps(data))
    game = bloodforge.load_game("witch", players=2, content=str(path), setup="preset")
    assert game.new_initial_state().units["witch"].blood == 9


def test_preset_setup_needs_a_preset_in_the_content(tmp_path: Path) -> None:
    data = json.loads(DEFAULT_CONTENT.read_text())
    del data["board"]["preset"]
    path = tmp_path / "no_preset.json"
    path.write_text(json.dumps(data))
    assert bloodforge.load_game("witch", players=2, content=str(path)).new_initial_state()
    with pytest.raises(ParameterError, match=r"board\.preset"):
        bloodforge.load_game("witch", players=2, content=str(path), setup="preset")


def test_render_text_shows_board_blood_hand_turn_and_log() -> None:
    state = scenario(side="witch", hands={"witch": ["manipulate", "zombify"]})
    game = state.game
    text = game.render_text(state.observation(1))
    assert "the Witch to move" in text
    assert "Manipulate" in text
    assert "X > d4" in text
    witch = state.content.units["witch"]
    assert f"blood {witch.starting_blood}/{witch.blood_cap}" in text
    assert "Recent log" in text
    spectator = game.render_text(state.observation(None))
    assert "Manipulate" not in spectator
    soldier = game.render_text(state.observation(0))
    assert "Zombify" not in soldier
    assert "Witch holds 2" in soldier


def test_agents_play_through_the_contract_with_checked_actions() -> None:
    for names in (["random", "greedy"], ["greedy", "random"]):
        rec, state = play_game(new_game(9), names, checked=True)
        assert state.is_terminal()
        assert rec.plies == sum(1 for seat, _ in rec.moves if seat is not None)
    agent = make_agent("greedy", seat=0, seed=1)
    assert agent.select_action(new_game(2, setup="preset").new_initial_state()).kind in {
        "move",
        "attack",
        "end",
    }
