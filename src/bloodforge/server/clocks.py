"""Clocks of human seats: when each running decision must be made, decided from the entries.

The rules only say how long a decision may take (`state.rule_clock(seat)`); the table may add a
`turn_clock` for every human decision. Clocks live here, outside the rules, so states stay pure
and replays exact: what a clock does is recorded as the entry `timeout <seat>` (seat None).

A seat's clock starts when it becomes an actor; it keeps running while only other seats commit
(a secret simultaneous commitment: the others' bids do not give a seat more time). A table's
turn clock starts again after the seat acted itself or the game took its own steps (each
decision gets its time). A rules clock covers a stretch of the seat's own decisions: it keeps
running across the seat's own actions for as long as the rules keep giving it a clock (Five
Forts: one minute for the whole planning phase, recruiting included), and starts again only
after the game's own steps or once it had stopped. AI seats have no clocks.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bloodforge.core import State

#: A rules clock: when it runs out the game decides what happens (`apply_timeout`).
RULE = "rule"
#: The table's turn clock: `timeout <seat>`, then the server's AI plays the seat.
TURN = "turn"


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Deadline:
    at: int  #: unix milliseconds
    kind: str  #: RULE or TURN

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "kind": self.kind}


def deadlines_to_json(deadlines: Mapping[int, Deadline]) -> dict[str, Any]:
    return {str(seat): d.to_json() for seat, d in sorted(deadlines.items())}


def deadlines_from_json(data: Mapping[str, Any] | None) -> dict[int, Deadline]:
    return {int(seat): Deadline(int(d["at"]), str(d["kind"])) for seat, d in (data or {}).items()}


def clock_for(state: State, seat: int, turn_clock: float | None) -> tuple[float, str] | None:
    """Seconds and kind of `seat`'s clock now: the shorter of the rules' and the table's."""
    rule = state.rule_clock(seat)
    if turn_clock is not None and (rule is None or turn_clock < rule):
        return turn_clock, TURN
    if rule is not None:
        return rule, RULE
    return None


def next_deadlines(
    old: Mapping[int, Deadline],
    state: State,
    entries: Sequence[tuple[int | None, str]],
    humans: set[int],
    turn_clock: float | None,
    now: int,
) -> dict[int, Deadline]:
    """The running clocks after `entries` were added to `state`'s history (see the module doc)."""
    if state.is_terminal():
        return {}
    acted: set[int] = set()
    stepped = False
    for seat, text in entries:
        if seat is not None:
            acted.add(seat)
        elif text.startswith("timeout "):
            acted.add(int(text.split()[1]))
        else:
            stepped = True
    out: dict[int, Deadline] = {}
    for seat in state.actors():
        if seat not in humans:
            continue
        clock = clock_for(state, seat, turn_clock)
        if clock is None:
            continue
        seconds, kind = clock
        kept = old.get(seat)
        own_actions_only = not stepped and (seat not in acted or kind == RULE)
        if kept is not None and kept.kind == kind and own_actions_only and not _timed_out(seat, entries):
            out[seat] = kept
        else:
            out[seat] = Deadline(now + round(seconds * 1000), kind)
    return out


def _timed_out(seat: int, entries: Sequence[tuple[int | None, str]]) -> bool:
    return any(who is None and text == f"timeout {seat}" for who, text in entries)
