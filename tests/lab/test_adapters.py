"""The research adapters pass the frameworks' own API tests, for every registered game."""

from __future__ import annotations

import json

import pyspiel
import pytest
from pettingzoo.test import api_test

import bloodforge
from bloodforge.adapters.encoding import AdapterLimitError, decode_observation, encode_observation
from bloodforge.adapters.openspiel_game import register_openspiel_games, short_name
from bloodforge.adapters.pettingzoo_env import env as pettingzoo_env
from bloodforge.core import Rng

GAMES = [(g["id"], g["min_players"] if g["min_players"] > 1 else 2) for g in bloodforge.list_games()]


# api_test warns that a dict observation (bytes + action mask, as its own chess and go use) is
# not a plain array: expected for this adapter.
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_pettingzoo_api_test_passes(game_id: str, players: int) -> None:
    api_test(pettingzoo_env(game_id, players=players), num_cycles=400)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_pettingzoo_plays_a_whole_game_with_the_engine_returns(game_id: str, players: int) -> None:
    # every step compares the whole observation (its log grows with the game): a random Kingdoms
    # game of 15-25 rounds took 11 s; the house round cap (A40) at 10 ends it sooner, as above
    params = {"max_rounds": 10} if game_id == "kingdoms" else {}
    env = pettingzoo_env(game_id, players=players, **params)
    env.reset(seed=3)
    twin = bloodforge.load_game(game_id, players=players, seed=3, **params).new_initial_state()
    rng = Rng(1)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        seat = int(agent.split("_")[1])
        assert decode_observation(obs["observation"]) == twin.observation(seat)
        legal = twin.legal_actions(seat)
        assert int(obs["action_mask"].sum()) == len(legal)
        i = rng.randbelow(len(legal))
        twin.apply(legal[i], seat)
        env.step(i)
    assert twin.is_terminal()
    assert [totals[f"seat_{s}"] for s in range(players)] == twin.returns()


def test_pettingzoo_refuses_an_action_outside_the_legal_list() -> None:
    game_id, players = GAMES[0]
    env = pettingzoo_env(game_id, players=players)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="legal actions"):
        env.step(511)


def test_observation_encoding_round_trips_and_refuses_oversize() -> None:
    obs = {"hand": ["a", "é"], "n": 3}
    assert decode_observation(encode_observation(obs, 64)) == obs
    with pytest.raises(AdapterLimitError, match="max_observation_bytes"):
        encode_observation(obs, 8)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_openspiel_random_simulation_test_passes(game_id: str, players: int) -> None:
    register_openspiel_games()
    # a random Kingdoms game lasts 15-25 rounds, 700-1,500 steps, each checked by OpenSpiel (20 s,
    # the suite's slowest test); the house round cap (A40) at 10 ends it sooner through the same API
    extra = {"params": json.dumps({"max_rounds": 10})} if game_id == "kingdoms" else {}
    game = pyspiel.load_game(short_name(game_id), {"players": players, "seed": 5, **extra})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_states_follow_the_engine() -> None:
    register_openspiel_games()
    game_id, players = GAMES[-1]
    game = pyspiel.load_game(short_name(game_id), {"players": players, "seed": 2})
    state = game.new_initial_state()
    twin = bloodforge.load_game(game_id, players=players, seed=2).new_initial_state()
    rng = Rng(4)
    for _ in range(40):
        if twin.is_terminal():
            break
        seat = twin.actors()[0]
        assert state.current_player() == seat
        legal = twin.legal_actions(seat)
        assert state.legal_actions() == list(range(len(legal)))
        i = rng.randbelow(len(legal))
        assert state.action_to_string(seat, i) == str(legal[i])
        copy = state.clone()
        state.apply_action(i)
        twin.apply(legal[i], seat)
        assert copy.history() == state.history()[:-1], "a clone is independent of the original"
        assert json.loads(state.observation_string(seat)) == twin.observation(seat)
        assert json.loads(state.information_state_string(seat))["log"] == twin.event_log(seat)
    assert len(state.history()) == 40
