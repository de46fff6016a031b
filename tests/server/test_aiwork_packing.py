"""How a position travels to an AI worker (server/aiwork.py `pack` / `decide_packed`).

The state goes without its game and without the game's own parts (content, ruleset, config),
which the worker has in its copy of the game: they were most of every decision's bytes
(Blood Stone's content alone 240 kB). These tests check that the position a worker gets is the
same position, that it shares the worker's game parts rather than copies, and that a table's
game is pickled once."""

from __future__ import annotations

import io
import pickle

import pytest

from bloodforge.core import Rng, State
from bloodforge.server.aiwork import _shared_parts, _Unpickler, pack
from tests.random_play import played

GAMES = [("bloodstones", {"players": 2}), ("witch", {}), ("forts", {"players": 2}),
         ("kingdoms", {"players": 2}), ("arena", {"players": 2})]  # fmt: skip


def unpack_in_a_fresh_worker(game_bytes: bytes, state_bytes: bytes) -> State:
    worker_game = pickle.loads(game_bytes)
    state = _Unpickler(io.BytesIO(state_bytes), worker_game).load()
    assert isinstance(state, State)
    assert state.game is worker_game
    return state


@pytest.mark.parametrize(("game_id", "params"), GAMES, ids=[g for g, _ in GAMES])
def test_a_packed_position_is_the_same_position_and_plays_on_the_same(game_id: str, params: dict[str, int]) -> None:
    state = played(game_id, params, 80)
    _key, game_bytes, state_bytes = pack(state)
    copy = unpack_in_a_fresh_worker(game_bytes, state_bytes)
    assert copy.digest() == state.digest()
    for seat in range(state.num_players):
        assert copy.observation(seat) == state.observation(seat)
    rng_a, rng_b = Rng(11), Rng(11)  # the same random continuation on both
    for _ in range(40):
        if state.is_terminal():
            break
        seat = rng_a.choice(state.actors())
        assert rng_b.choice(copy.actors()) == seat
        legal = state.legal_actions(seat)
        assert copy.legal_actions(seat) == legal
        action = rng_a.choice(legal)
        rng_b.choice(legal)
        state.apply(action, seat)
        copy.apply(action, seat)
        assert copy.digest() == state.digest()


@pytest.mark.parametrize(("game_id", "params"), GAMES, ids=[g for g, _ in GAMES])
def test_a_packed_position_shares_the_workers_game_parts_instead_of_copying_them(
    game_id: str, params: dict[str, int]
) -> None:
    state = played(game_id, params, 80)
    parts = _shared_parts(state.game)
    held = {name: parts[id(value)] for name, value in vars(state).items() if id(value) in parts}
    assert held, "every game's state holds a part of its game (its content, ruleset or config)"
    _key, game_bytes, state_bytes = pack(state)
    copy = unpack_in_a_fresh_worker(game_bytes, state_bytes)
    for attribute, part in held.items():
        assert getattr(copy, attribute) is getattr(copy.game, part), attribute
    # the parts are not in the state's bytes: fewer bytes than the parts alone pickled
    parts_bytes = sum(len(pickle.dumps(getattr(state.game, part), protocol=5)) for part in set(held.values()))
    whole = len(pickle.dumps({k: v for k, v in vars(state).items() if k != "game"}, protocol=5))
    assert len(state_bytes) < whole - parts_bytes // 2


def test_a_tables_game_is_pickled_once_and_a_new_game_afresh() -> None:
    state = played("witch", {}, 10)
    key, first, _ = pack(state)
    key_again, again, _ = pack(state.clone())
    assert key_again == key
    assert again is first  # the same bytes object: not pickled again
    other = played("witch", {}, 10, seed=4)
    other_key, other_bytes, _ = pack(other)
    assert other_key != key
    assert pickle.loads(other_bytes).seed == 4


def test_an_unknown_reference_in_a_packed_position_is_refused() -> None:
    state = played("forts", {"players": 2}, 5)
    game = state.game

    class Stranger(pickle.Pickler):
        def persistent_id(self, obj: object) -> str | None:
            return "no_such_part" if obj is game else None

    buf = io.BytesIO()
    Stranger(buf, protocol=5).dump(state)
    with pytest.raises(pickle.UnpicklingError, match="unknown reference 'no_such_part'"):
        _Unpickler(io.BytesIO(buf.getvalue()), game).load()
