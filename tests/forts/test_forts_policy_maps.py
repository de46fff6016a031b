"""The greedy policy's map tables belong to the game they were made for.

`FortsPolicy` keeps one table of the map per game, found by the game's id. An id names an
object only while it lives, and a policy outlives the games it played (a lab run, a server
table's agent): an entry left by a game that is gone must not answer for a new game that came
to have the same id. And a policy pickled to the server's search workers leaves the tables
behind (they hold the games they were made for).
"""

from __future__ import annotations

import pickle

import bloodforge
from bloodforge.games.forts.policy import FortsPolicy, _Map


def test_an_entry_left_under_the_same_id_by_another_game_is_not_reused() -> None:
    policy = FortsPolicy()
    old = bloodforge.load_game("forts", players=2, seed=1)
    new = bloodforge.load_game("forts", players=4, seed=2)
    stale = _Map(old.static_info())
    policy._maps[id(new)] = (old, stale)  # as a freed game at the same address would leave it
    got = policy._map(new.new_initial_state())
    assert got is not stale
    assert policy._maps[id(new)][0] is new


def test_a_policy_is_pickled_without_its_map_tables_and_plays_the_same() -> None:
    game = bloodforge.load_game("forts", players=3, seed=4)
    state = game.new_initial_state()
    policy = FortsPolicy()
    seat = state.actors()[0]
    before = policy.plans(state, seat, bloodforge.core.Rng(1))
    assert policy._maps
    copy = pickle.loads(pickle.dumps(policy))
    assert copy._maps == {}
    assert copy.plans(state, seat, bloodforge.core.Rng(1)) == before
