"""When a seat's clock starts, keeps running and stops (server/clocks.py, a pure function)."""

from __future__ import annotations

from bloodforge.core import State
from bloodforge.server.clocks import (
    RULE,
    TURN,
    Deadline,
    clock_for,
    deadlines_from_json,
    deadlines_to_json,
    next_deadlines,
)
from tests.toy_bids import BidsGame

NOW = 1_000_000


def bids(**params: float) -> State:
    return BidsGame.create(seed=3, **{"players": 3, "prizes": 3, **params}).new_initial_state()


def step(state: State, act: tuple[int, str] | None = None, timeout: int | None = None) -> list[tuple[int | None, str]]:
    before = len(state.history)
    if act is not None:
        state.apply(act[1], act[0])
    if timeout is not None:
        state.apply_timeout(timeout)
    return state.moves()[before:]


def test_every_human_actor_gets_a_clock_of_the_shorter_kind() -> None:
    st = bids(bid_seconds=30)
    assert clock_for(st, 0, None) == (30, RULE)
    assert clock_for(st, 0, 10.0) == (10.0, TURN), "a shorter turn clock wins: the AI takes over"
    assert clock_for(st, 0, 60.0) == (30, RULE)
    got = next_deadlines({}, st, st.moves(), humans={0, 1}, turn_clock=None, now=NOW)
    assert got == {0: Deadline(NOW + 30_000, RULE), 1: Deadline(NOW + 30_000, RULE)}, "AI seat 2 has none"


def test_a_clock_keeps_running_while_only_others_commit() -> None:
    st = bids()
    first = next_deadlines({}, st, st.moves(), {0, 1, 2}, None, NOW)
    entries = step(st, (0, "bid 1"))
    later = next_deadlines(first, st, entries, {0, 1, 2}, None, NOW + 5000)
    assert 0 not in later, "seat 0 committed: no longer waited for"
    assert later[1] == first[1]
    assert later[2] == first[2]


def test_a_timeout_counts_as_the_seat_acting_and_a_game_step_restarts_every_clock() -> None:
    st = bids()
    first = next_deadlines({}, st, st.moves(), {0, 1, 2}, None, NOW)
    entries = step(st, timeout=1)
    assert entries == [(None, "timeout 1")]
    after = next_deadlines(first, st, entries, {0, 1, 2}, None, NOW + 30_000)
    assert set(after) == {0, 2}
    assert after[0] == first[0], "another seat's timeout gives seat 0 no more time"
    step(st, (0, "bid 2"))
    entries = step(st, (2, "bid 3"))
    assert [s for s, _ in entries] == [2, None, None], "the last bid, the reveal and the next prize"
    fresh = next_deadlines(after, st, entries, {0, 1, 2}, None, NOW + 40_000)
    assert fresh == {s: Deadline(NOW + 70_000, RULE) for s in (0, 1, 2)}, "a new round: new clocks"


def test_no_clocks_once_over_and_deadlines_round_trip_as_json() -> None:
    st = bids(prizes=1)
    for seat in (0, 1, 2):
        st.apply("bid 1", seat)
    assert st.is_terminal()
    assert next_deadlines({0: Deadline(NOW, RULE)}, st, [], {0, 1, 2}, 5.0, NOW) == {}
    deadlines = {0: Deadline(NOW, RULE), 2: Deadline(NOW + 1, TURN)}
    assert deadlines_from_json(deadlines_to_json(deadlines)) == deadlines
