"""A position pickled to a search worker lists its own legal actions there.

The server sends positions to search workers pickled (`server/aiwork.py`). Bloodstones keys its
caches (the legal actions, the movement searches, the citadels) by version numbers unique in
one process only (`model.new_version`). A worker hands out its own numbers; a position that
brought the server's caches along could meet a worker's number equal to one of them for another
content and be answered for that content. Found on 2026-11-29: a worker whose counter reached
the server's position's number within 8 numbers listed wrong legal actions in 32 of 320 tries.
Fixed by pickling positions without those caches and numbering an unpickled one afresh.
"""

from __future__ import annotations

import itertools
import pickle

import pytest

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.bloodstones import model
from bloodforge.games.bloodstones.game import BloodstonesState
from tests.random_play import played


def _played(seed: int, plies: int) -> BloodstonesState:
    state = played("bloodstones", {"players": 3}, plies, seed)
    assert isinstance(state, BloodstonesState)
    return state


@pytest.mark.parametrize("seed", range(4))
def test_a_worker_whose_numbers_meet_the_servers_lists_the_positions_own_actions(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    wrong = []
    for plies in (30, 60, 90, 120):
        state = _played(seed, plies)
        if state.is_terminal():
            continue
        state.legal_actions(state.actors()[0])  # listed on the server: in its legal memo
        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        for ahead in range(8):
            # a worker (a process of its own) whose counter reaches the server's number soon
            monkeypatch.setattr(model, "_VERSIONS", itertools.count(max(1, state.version - ahead)))
            worker = pickle.loads(data)
            rng = Rng(seed * 1000 + ahead)
            seat = worker.actors()[0]
            worker.apply_unchecked(rng.choice(worker.legal_actions(seat)), seat)
            if worker.is_terminal():
                continue
            seat = worker.actors()[0]
            fresh = bloodforge.load_game("bloodstones", players=3, seed=seed).state_from_json(worker.to_json())
            if worker.legal_actions(seat) != fresh.legal_actions(seat):
                wrong.append((plies, ahead))
    assert not wrong, f"(plies, numbers ahead) where the worker listed another content's actions: {wrong}"


def test_a_pickled_position_carries_no_cache_and_keeps_the_game() -> None:
    state = _played(2, 70)
    state.legal_actions(state.actors()[0])
    copy = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    assert copy.legal_memo is None
    assert copy.reach_cache == {}
    assert copy.reach_cache is not state.reach_cache
    assert copy.version != state.version
    assert copy.to_json() == state.to_json()
    assert copy.digest() == state.digest()
    assert copy.legal_actions(copy.actors()[0]) == state.legal_actions(state.actors()[0])
