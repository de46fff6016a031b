"""core.log: what each seat may read, and copy-on-write between clones."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bloodforge.core import EventLog, LogEvent

SEATS = range(4)

events = st.builds(
    LogEvent,
    text=st.sampled_from(["a", "b", "c"]),
    visible=st.one_of(st.none(), st.frozensets(st.sampled_from(list(SEATS)), min_size=1)),
    masked=st.one_of(st.none(), st.just("someone did something")),
)


def readable(log: EventLog, seat: int | None) -> int:
    """The count the slow way: every line whose text or masked face the seat may read."""
    return sum(1 for e in log if e.text_for(seat) is not None)


@given(st.lists(events, max_size=30), st.lists(events, max_size=10), st.lists(events, max_size=10))
def test_count_for_counts_every_line_a_seat_may_read_in_both_copies(
        first: list[LogEvent], left: list[LogEvent], right: list[LogEvent]) -> None:
    log = EventLog(first)
    other = log.copy()
    for e in left:
        log.append(e)
    for e in right:
        other.append(e)
    for copy, extra in ((log, left), (other, right)):
        assert len(copy) == len(first) + len(extra)
        for seat in [None, *SEATS]:
            assert copy.count_for(seat) == readable(copy, seat) == len(copy.texts_for(seat))


@given(st.lists(events, max_size=30), st.integers(min_value=1, max_value=8))
def test_tail_for_is_the_end_of_what_the_seat_may_read(rows: list[LogEvent], n: int) -> None:
    log = EventLog(rows)
    for seat in [None, *SEATS]:
        assert log.tail_for(seat, n) == log.texts_for(seat)[-n:]


def test_a_masked_event_shows_its_data_only_to_the_seats_that_read_its_text() -> None:
    """`data` has the visibility of `text`: the seats reading the masked face get none (the
    data of a secret event, a card bought face down, may name the secret)."""
    log = EventLog()
    log.add("P0 buys Sellswords", to=0, masked="P0 buys a card", kind="buy", data={"card": "sellswords"})
    log.add("P1 rolls 5", kind="roll", data={"roll": 5})
    secret, public = log[0], log[1]
    assert secret.view_for(0) == {"text": "P0 buys Sellswords", "kind": "buy", "data": {"card": "sellswords"}}
    for other in (1, None):
        assert secret.view_for(other) == {"text": "P0 buys a card", "kind": "buy"}
        assert public.view_for(other) == {"text": "P1 rolls 5", "kind": "roll", "data": {"roll": 5}}
