"""A position pickled to a search worker answers for its own layouts there.

The server sends positions to search workers pickled (`server/aiwork.py`). The arena's route
answers are memoised by the board's layout token, a number unique in one process only
(`model.new_layout`). A worker hands out its own numbers, so a position that brought the
server's tokens (on its board, and as the keys of the route memo it shared with its clones)
could meet a worker's token of the same number for another layout and be answered for that
one. Found on 2026-11-29: with the worker's counter overlapping the server's, 17 of 20 seeds
listed another layout's moves within 60 plies. Fixed by pickling the state without its route
memo and giving an unpickled board a fresh token.
"""

from __future__ import annotations

import itertools
import pickle

import pytest
from tests.random_play import played

from bloodforge.core import Rng
from bloodforge.games.arena import model
from bloodforge.games.arena.game import ArenaState


def _played(seed: int, plies: int) -> ArenaState:
    state = played("arena", {"players": 2}, plies, seed)
    assert isinstance(state, ArenaState)
    return state


@pytest.mark.parametrize("seed", range(8))
def test_a_worker_whose_layout_tokens_overlap_the_servers_lists_the_positions_own_moves(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the "server": its tokens from 1, 25 plies of memoised route answers
    monkeypatch.setattr(model, "_LAYOUTS", itertools.count(1))
    data = pickle.dumps(_played(seed, 25), protocol=pickle.HIGHEST_PROTOCOL)
    # the "worker": a process of its own, handing out the same numbers again
    monkeypatch.setattr(model, "_LAYOUTS", itertools.count(1))
    worker = pickle.loads(data)
    assert worker.route_memo is None, "the server's route memo travelled to the worker"
    rng = Rng(seed + 100)
    for _ in range(60):
        if worker.is_terminal():
            break
        seat = rng.choice(worker.actors())
        unmemoised = worker.clone()
        unmemoised.route_memo = None  # the same position answered from scratch
        legal = worker.legal_actions(seat)
        assert [str(a) for a in legal] == [str(a) for a in unmemoised.legal_actions(seat)]
        worker.apply_unchecked(rng.choice(legal), seat)


def test_an_unpickled_board_takes_a_fresh_layout_token_and_keeps_the_position() -> None:
    state = _played(3, 40)
    board = state.board
    copy = pickle.loads(pickle.dumps(board, protocol=pickle.HIGHEST_PROTOCOL))
    assert copy.to_json() == board.to_json()
    assert copy.layout != board.layout
    assert copy.touched is None
    assert copy.in_use is None
    assert copy.gone == board.gone
