"""The game log: events with a visibility set, the same for every game.

Fog of war and secret draws mean one log line can be readable by one seat, by a team or by
everyone, and a seat outside the set may still learn that *something* happened ("P2 drew a
card"). Keeping that rule in one type lets the server, the CLI and agents read any game's log
for a seat without knowing the game, and lets a single test check that nothing leaks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True, unsafe_hash=True)
class LogEvent:
    """One line of the log. Treat it as immutable: it is compared and hashed by its fields.
    (Not a frozen dataclass: every game logs several lines per action, and a frozen one
    costs about three times as much to make, through `object.__setattr__`; issue 23.)

    `visible`: the seats that read `text`; None means everyone, spectators included. Seats
    outside the set read `masked` instead when it is given (the public face of a secret event),
    and nothing otherwise. `kind` and `data` carry a machine-readable form (dice rolled, tiles
    counted) that UIs may show richly; `data` is shown under the same visibility as `text`.
    """

    text: str
    visible: frozenset[int] | None = None
    masked: str | None = None
    kind: str = ""
    data: Mapping[str, Any] | None = field(default=None, compare=False)

    def readable_by(self, seat: int | None) -> bool:
        return self.visible is None or (seat is not None and seat in self.visible)

    def text_for(self, seat: int | None) -> str | None:
        """What `seat` (None: spectator) reads of this event, or None if it sees nothing."""
        if self.visible is None or (seat is not None and seat in self.visible):
            return self.text
        return self.masked

    def view_for(self, seat: int | None) -> dict[str, Any] | None:
        """A JSON-safe dict of what `seat` reads: text, kind and data (data only with the
        real text: a seat that reads the masked face gets no data, which may name the secret)."""
        text = self.text_for(seat)
        if text is None:
            return None
        out: dict[str, Any] = {"text": text}
        if self.kind:
            out["kind"] = self.kind
        if self.data is not None and self.readable_by(seat):
            out["data"] = dict(self.data)
        return out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text}
        if self.visible is not None:
            out["visible"] = sorted(self.visible)
        if self.masked is not None:
            out["masked"] = self.masked
        if self.kind:
            out["kind"] = self.kind
        if self.data is not None:
            out["data"] = dict(self.data)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LogEvent:
        visible = data.get("visible")
        return cls(
            text=str(data["text"]),
            visible=None if visible is None else frozenset(int(s) for s in visible),
            masked=data.get("masked"),
            kind=str(data.get("kind", "")),
            data=data.get("data"),
        )


def seats(*members: int | Iterable[int]) -> frozenset[int]:
    """A visibility set from seats and groups of seats: `seats(2)`, `seats(team)`, `seats(0, 3)`."""
    out: set[int] = set()
    for m in members:
        if isinstance(m, int):
            out.add(m)
        else:
            out.update(m)
    return frozenset(out)


#: An event as `EventLog.add` stores it before anyone reads it: LogEvent's fields in order,
#: where the text may still be a `LazyText` and the data a `LazyData` (see `add_public`).
Row = tuple[str | tuple[Any, ...], frozenset[int] | None, str | None, str, Mapping[str, Any] | tuple[Any, ...] | None]


def _event(row: Row) -> LogEvent:
    """The `LogEvent` of a stored row: a lazy text `(template, *values)` is
    `template.format(*values)`, lazy data `(keys, *values)` is `dict(zip(keys, values))`."""
    text, visible, masked, kind, data = row
    if type(text) is tuple:
        text = text[0].format(*text[1:])
    if type(data) is tuple:
        data = dict(zip(data[0], data[1:], strict=True))
    return LogEvent(text, visible, masked, kind, data)  # type: ignore[arg-type]  # both made plain above


class EventLog:
    """An append-only list of events that clones share until one of them appends.

    Search clones a state thousands of times and most clones never log anything, so copying a
    long log on every clone would dominate; copy-on-write keeps `clone` O(1) here.

    `add` stores a plain tuple of the event's fields, made into its `LogEvent` (in place) when
    the event is first read. *Why:* games log several lines per action and most are never
    read in a playout; each `LogEvent` is an object the cyclic garbage collector tracks until
    the game ends, and those objects were nearly all of what made it run (about a tenth of an
    arena playout, issue 23), while a tuple of strings is untracked by the collector at its
    first pass. Reading gives the same `LogEvent` values as before; the list may be shared with
    copies, which is safe because a row and its event are equal.
    """

    __slots__ = ("_events", "_private", "_public", "_ready", "_shared")

    def __init__(self, events: Iterable[LogEvent] = ()) -> None:
        #: the events in order, each a `LogEvent` or a `Row` not yet read
        self._events: list[LogEvent | Row] = []
        #: [n]: the first n entries are `LogEvent`s already. Shared with the copies that share
        #: `_events`, so a log read by one copy is not walked again by the others (a search
        #: reads the log of every clone of one root)
        self._ready = [0]
        self._shared = False
        #: lines everyone may read (public or with a masked face), and private lines per seat:
        #: counted as events arrive so `count_for` (asked by every observation) is O(1)
        self._public = 0
        self._private: dict[int, int] = {}
        for event in events:
            self.append(event)

    def append(self, event: LogEvent) -> None:
        if self._shared:
            self._unshare()
        events = self._events
        if self._ready[0] == len(events):
            self._ready[0] += 1
        events.append(event)
        if event.visible is None or event.masked is not None:
            self._public += 1
        else:
            for seat in event.visible:
                self._private[seat] = self._private.get(seat, 0) + 1

    def add(
        self,
        text: str,
        *,
        to: int | Iterable[int] | None = None,
        masked: str | None = None,
        kind: str = "",
        data: Mapping[str, Any] | None = None,
    ) -> None:
        """Append an event readable by `to` (a seat or seats; None: everyone)."""
        if self._shared:
            self._unshare()
        if to is None:  # the usual public line
            self._events.append((text, None, masked, kind, data))
            self._public += 1
            return
        visible = seats(to)
        self._events.append((text, visible, masked, kind, data))
        if masked is not None:
            self._public += 1
        else:
            for seat in visible:
                self._private[seat] = self._private.get(seat, 0) + 1

    def add_public(
        self, text: str | tuple[Any, ...], kind: str, data: Mapping[str, Any] | tuple[Any, ...] | None
    ) -> None:
        """`add(text, kind=kind, data=data)`: a line everyone reads, with no masked face.
        Positional: the arena logs about five lines a ply, and the keyword call through
        `add` was a measurable part of that (issue 23).

        Lazy parts: `text` may be `(template, *values)`, read as `template.format(*values)`,
        and `data` may be `(keys, *values)`, read as `dict(zip(keys, values))`; they are put
        together when the event is first read (most lines of a playout never are). *Why:* an
        f-string with a few values and a dict of four facts cost 0.4-0.7 us a line, a tuple
        of the same values about a third of that (issue 23). The values must be what the
        eager form would have held at this moment: strings, numbers, None, or lists nobody
        changes afterwards (a dict of them holds the same objects)."""
        if self._shared:
            self._unshare()
        self._events.append((text, None, None, kind, data))
        self._public += 1

    def _unshare(self) -> None:
        """Copy-on-write: this log's own list (and counts) before it appends."""
        self._events = list(self._events)
        self._ready = [self._ready[0]]
        self._private = dict(self._private)
        self._shared = False

    def _all(self) -> list[LogEvent]:
        """The list with every row made into its event (each at most once)."""
        events = self._events
        ready = self._ready
        n = len(events)
        if ready[0] < n:
            for i in range(ready[0], n):
                e = events[i]
                if type(e) is tuple:
                    events[i] = _event(e)
            ready[0] = n
        return events  # type: ignore[return-value]  # every entry is a LogEvent now

    def copy(self) -> EventLog:
        new = EventLog.__new__(EventLog)
        new._events = self._events
        new._ready = self._ready
        new._public = self._public
        new._private = self._private
        new._shared = True
        self._shared = True
        return new

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[LogEvent]:
        return iter(self._all())

    def __getitem__(self, index: int) -> LogEvent:
        e = self._events[index]
        if type(e) is tuple:
            e = self._events[index] = _event(e)
        return e  # type: ignore[return-value]  # made into a LogEvent above

    def texts_for(self, seat: int | None) -> list[str]:
        """Every line `seat` may read, oldest first."""
        out = []
        for e in self._all():
            text = e.text_for(seat)
            if text is not None:
                out.append(text)
        return out

    def tail_for(self, seat: int | None, n: int) -> list[str]:
        """The last `n` lines `seat` may read, without walking the whole log."""
        tail: list[str] = []
        events = self._events
        for i in range(len(events) - 1, -1, -1):
            e = events[i]
            if type(e) is tuple:
                e = events[i] = _event(e)
            text = e.text_for(seat)  # type: ignore[union-attr]  # a LogEvent now
            if text is not None:
                tail.append(text)
                if len(tail) == n:
                    break
        tail.reverse()
        return tail

    def count_for(self, seat: int | None) -> int:
        """How many lines `seat` may read."""
        return self._public + (0 if seat is None else self._private.get(seat, 0))

    def views_for(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        out = []
        for e in self._all()[start:]:
            view = e.view_for(seat)
            if view is not None:
                out.append(view)
        return out

    def to_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self._all()]

    @classmethod
    def from_json(cls, rows: Iterable[Mapping[str, Any]]) -> EventLog:
        return cls(LogEvent.from_json(r) for r in rows)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EventLog) and other._all() == self._all()

    def __repr__(self) -> str:
        return f"EventLog({len(self._events)} events)"
