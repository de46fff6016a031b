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
