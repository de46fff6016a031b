"""PREPARATION and the start of THE BATTLE (rulebook steps 1-8)."""

from __future__ import annotations

from collections import Counter

import pytest
from witch_helpers import check_invariants, new_game, texts

import bloodforge
from bloodforge.core import IllegalAction, ParameterError
from bloodforge.games.witch.model import BOARD, SOLDIERS, UNPLACED, WITCH


def test_preparation_step4_blood_stones_on_cards_from_starting_blood() -> None:
    game = new_game(1)
    state = game.new_initial_state()
    c = game.content
    for uid in c.roster:
        assert state.units[uid].blood == c.units[uid].starting_blood
    assert state.supply == 42 - sum(c.units[u].starting_blood for u in c.roster)
    check_invariants(state)


def test_preparation_step5_both_decks_shuffled_face_down_and_hands_empty() -> None:
    state = new_game(1).new_initial_state()
    c = state.content
    assert Counter(state.decks[SOLDIERS].pile) == Counter(c.phantom_deck)
    assert Counter(state.decks[WITCH].pile) == Counter(c.blood_deck)
    assert len(c.blood_deck) == 16
    assert len(c.phantom_deck) == 8
    assert state.hands == [[], []]
    orders = {tuple(new_game(s).new_initial_state().decks[WITCH].pile) for s in range(8)}
    assert len(orders) > 1, "different seeds must shuffle differently"


def test_preparation_step6_witch_places_her_witch_and_4_minions_on_witch_start_tiles_first() -> (
    None
):
    game = new_game(2)
    state = game.new_initial_state()
    zone = {game.content.square_names[sq] for sq in game.content.witch_start}
    assert state.current_player == WITCH
    for _ in range(5):
        acts = state.legal_actions()
        assert {a.kind for a in acts} == {"place"}
        assert {a.args[1] for a in acts} <= zone
        assert len({a.args[0] for a in acts}) == 1
        state.apply(acts[-1])
    assert all(state.units[u].where == BOARD for u in ("witch", "minion1", "minion4"))
    assert state.current_player == SOLDIERS
    check_invariants(state)


def test_preparation_step7_soldiers_place_on_soldier_start_tiles_then_step8_soldiers_go_first() -> (
    None
):
    game = new_game(3)
    state = game.new_initial_state()
    soldier_zone = {game.content.square_names[sq] for sq in game.content.soldier_start}
    while state.phase == "place":
        acts = state.legal_actions()
        if state.current_player == SOLDIERS:
            assert {a.args[1] for a in acts} <= soldier_zone
        state.apply(acts[0])
    assert state.phase == "turn"
    assert state.turn_number == 1
    assert state.current_player == SOLDIERS, "The Soldier begins the game with the first turn"
    assert "end" in texts(state)


def test_preparation_a_start_tile_holds_one_piece() -> None:
    state = new_game(4).new_initial_state()
    state.apply("place witch e9")
    with pytest.raises(IllegalAction, match="not a free"):
        state.apply("place minion1 e9")
    with pytest.raises(IllegalAction, match="card order"):
        state.apply("place minion2 d9")


def test_preparation_pieces_cannot_start_outside_their_zone() -> None:
    state = new_game(4).new_initial_state()
    with pytest.raises(IllegalAction):
        state.apply("place witch e2")
    assert state.units["witch"].where == UNPLACED


def test_preset_setup_uses_the_content_layout_and_starts_the_battle() -> None:
    game = new_game(5, setup="preset")
    state = game.new_initial_state()
    preset = game.content.data.board.preset
    for uid, name in preset.items():
        assert game.content.square_names[state.units[uid].square] == name  # type: ignore[index]
    assert state.phase == "turn"
    assert state.current_player == SOLDIERS


def test_seat_zero_is_the_soldiers_and_seat_one_the_witch() -> None:
    game = new_game(0, setup="preset")
    obs = game.new_initial_state().observation(0)
    assert obs["you"] == "soldiers"
    assert game.new_initial_state().observation(1)["you"] == "witch"


def test_load_game_with_players_and_seed_alone_is_a_valid_game() -> None:
    game = bloodforge.load_game("witch", players=2, seed=11)
    state = game.new_initial_state()
    assert state.legal_actions()
    assert game.info.id == "witch"
    assert any(g["id"] == "witch" for g in bloodforge.list_games())


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"players": 3}, "2-2 players"),
        ({"players": 2, "max_turns": 1}, "max_turns"),
        ({"players": 2, "blood_spells_per_turn": 0}, "blood_spells_per_turn"),
        ({"players": 2, "setup": "random"}, "setup"),
        ({"players": 2, "colour": "red"}, "colour"),
    ],
)
def test_bad_parameters_raise_parameter_error_naming_them(
    params: dict[str, object], needle: str
) -> None:
    with pytest.raises(ParameterError, match=needle):
        bloodforge.load_game("witch", seed=0, **params)
