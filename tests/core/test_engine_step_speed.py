"""Issue 23 item 1: the engine's per-step fast paths give what the plain calls gave.

*Why:* `State._commit` and `State._advance` inline `_invalidate_legal` and `_record` (a game
takes several own steps per seat action), and `EventLog.add` stores a plain row that becomes
its `LogEvent` (no longer a frozen dataclass) when first read. A slip there (a step recorded
under a seat, a legal-action cache left stale after an own step, a public line not counted, a
clone's log changed by the other's append or read) would still play a plausible game, so
each is checked against the plain path here: `step_entry` (which records through
`_record`), a state rebuilt from JSON (no cache at all) and `EventLog.append`.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from tests.toy_bids import BidsGame

from bloodforge.core import EventLog, LogEvent, Rng


def play(seed: int) -> BidsGame:
    return BidsGame.create(seed=seed, players=3, prizes=5)


def test_issue23_inlined_steps_record_and_invalidate_as_the_plain_calls_did() -> None:
    """Every ply of random toy games: the history (texts and seats, own steps under None)
    equals a step-by-step replay through `step_entry`, and the cached legal actions of every
    actor equal those of a state rebuilt from JSON (which has no cache)."""
    for seed in range(6):
        game = play(seed)
        state = game.new_initial_state()
        rng = Rng(seed)
        while not state.is_terminal():
            fresh = game.state_from_json(state.to_json())
            for seat in state.actors():
                assert state.legal_actions(seat) == fresh.legal_actions(seat)
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
        assert None in state.history_seats  # the game's own steps were recorded as such
        replay = game.new_initial_state(advance=False)
        for who, text in state.moves():
            replay.step_entry(who, text)
        assert replay.moves() == state.moves()
        assert replay.events == state.events
        assert replay.digest() == state.digest()


def test_issue23_log_event_compares_and_hashes_by_its_fields_without_data() -> None:
    """`LogEvent` is no longer a frozen dataclass (cheaper to make); it still compares and
    hashes by text, visibility, masked face and kind, never by data."""
    a = LogEvent("x takes 3", None, None, "damage", {"amount": 3})
    b = LogEvent("x takes 3", None, None, "damage", {"amount": 4})
    assert a == b
    assert hash(a) == hash(b)
    assert a != LogEvent("x takes 3", frozenset({0}), None, "damage")
    assert a != LogEvent("x takes 3", None, "someone", "damage")
    assert a != LogEvent("x takes 3", None, None, "heal")
    assert len({a, b, LogEvent("y")}) == 2


adds = st.lists(st.tuples(st.sampled_from(["a", "b"]), st.one_of(st.none(), st.sampled_from([0, 1, (0, 2)])),
                          st.one_of(st.none(), st.just("masked")), st.sampled_from(["", "k"]), st.booleans()),
                max_size=12)

Row = tuple[str, int | tuple[int, ...] | None, str | None, str, bool]


def same_reads(fast: EventLog, plain: EventLog) -> None:
    """Everything a reader gets from the log: events, counts, texts, tails, views, JSON."""
    assert len(fast) == len(plain)
    for seat in (None, 0, 1, 2):
        assert fast.count_for(seat) == plain.count_for(seat)
        assert fast.tail_for(seat, 3) == plain.tail_for(seat, 3)
        assert fast.texts_for(seat) == plain.texts_for(seat)
        assert fast.views_for(seat, 1) == plain.views_for(seat, 1)
    assert fast.to_json() == plain.to_json()
    assert list(fast) == list(plain)
    assert fast == plain


@given(adds, adds, adds)
def test_issue23_add_equals_append_of_the_same_event_in_both_copies(
        first: list[Row], left: list[Row], right: list[Row]) -> None:
    """`add` (a plain row until the event is read, made into its `LogEvent` in place on the
    first read, even in a list shared with a copy) leaves the log as `append(LogEvent(...))`
    does: the same events, counts and reads, and a copy keeps its own events when the other
    adds, whichever of them read what first."""
    fast, plain = EventLog(), EventLog()

    def both(log_fast: EventLog, log_plain: EventLog, rows: list[Row]) -> None:
        for text, to, masked, kind, read in rows:
            seats = None if to is None else frozenset((to,) if isinstance(to, int) else to)
            log_fast.add(text, to=to, masked=masked, kind=kind, data={"n": len(log_fast)})
            log_plain.append(LogEvent(text, seats, masked, kind, {"n": len(log_plain)}))
            if read:  # some read at once (one event, or all of them), some never until the end
                assert log_fast[-1] == log_plain[-1]
                if len(text) + len(kind) == 2:
                    assert list(log_fast) == list(log_plain)

    both(fast, plain, first)
    fast_copy, plain_copy = fast.copy(), plain.copy()
    both(fast, plain, left)
    both(fast_copy, plain_copy, right)
    same_reads(fast_copy, plain_copy)
    same_reads(fast, plain)
    assert len(fast) == len(first) + len(left)
    assert len(fast_copy) == len(first) + len(right)
    assert [e.data for e in fast] == [e.data for e in plain]  # data too (events compare without it)
