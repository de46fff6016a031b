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


class EventLog:
    """An append-only list of events that clones share until one of them appends.

    Search clones a state thousands of times and most clones never log anything, so copying a
    long log on every clone would dominate; copy-on-write keeps `clone` O(1) here.
    """

    __slots__ = ("_events", "_private", "_public", "_shared")

    def __init__(self, events: Iterable[LogEvent] = ()) -> None:
        self._events: list[LogEvent] = []
        self._shared = False
        #: lines everyone may read (public or with a masked face), and private lines per seat:
        #: counted as events arrive so `count_for` (asked by every observation) is O(1)
        self._public = 0
        self._private: dict[int, int] = {}
        for event in events:
            self.append(event)

    def append(self, event: LogEvent) -> None:
        if self._shared:
            self._events = list(self._events)
            self._private = dict(self._private)
            self._shared = False
        self._events.append(event)
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
    ) -> LogEvent:
        """Append an event readable by `to` (a seat or seats; None: everyone) and return it."""
        if to is None:  # `append` inlined for the usual public line: games log several per action
            event = LogEvent(text, None, masked, kind, data)
            if self._shared:
                self._events = list(self._events)
                self._private = dict(self._private)
                self._shared = False
            self._events.append(event)
            self._public += 1
            return event
        event = LogEvent(text, seats(to), masked, kind, data)
        self.append(event)
        return event

    def copy(self) -> EventLog:
        new = EventLog.__new__(EventLog)
        new._events = self._events
        new._public = self._public
        new._private = self._private
        new._shared = True
        self._shared = True
        return new

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[LogEvent]:
        return iter(self._events)

    def __getitem__(self, index: int) -> LogEvent:
        return self._events[index]

    def texts_for(self, seat: int | None) -> list[str]:
        """Every line `seat` may read, oldest first."""
        out = []
        for e in self._events:
            text = e.text_for(seat)
            if text is not None:
                out.append(text)
        return out

    def tail_for(self, seat: int | None, n: int) -> list[str]:
        """The last `n` lines `seat` may read, without walking the whole log."""
        tail: list[str] = []
        for e in reversed(self._events):
            text = e.text_for(seat)
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
        for e in self._events[start:]:
            view = e.view_for(seat)
            if view is not None:
                out.append(view)
        return out

    def to_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self._events]

    @classmethod
    def from_json(cls, rows: Iterable[Mapping[str, Any]]) -> EventLog:
        return cls(LogEvent.from_json(r) for r in rows)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EventLog) and other._events == self._events

    def __repr__(self) -> str:
        return f"EventLog({len(self._events)} events)"
