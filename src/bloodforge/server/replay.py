"""States of a table at any earlier position, for the replay viewer and the history.

Positions are the table's history entries, the game's own steps included, so each step (a
prize turned up, bids revealed, a rival's turn) is a position of its own. They are rebuilt
through the one game record format, `bloodforge.match.Record` (`states()` from the start,
`State.step_entry` from the nearest cached checkpoint), in a worker thread. A viewer gets only
what its seat saw at that position: observation(seat) and event_log(seat) of that state.

Replays are the one request anybody can make that costs real work (a late ply of a long game
steps up to CHECKPOINT_EVERY entries from a checkpoint), so they run on a small pool of their
own (they can never take the threads health checks and table loads use), each table has its
own lock (one long game does not queue the others), finished views are remembered (the same
ply asked again costs nothing), and the API rate-limits them per client.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bloodforge.core import State

from .live import record_of
from .store import Entry, Store, TableRecord
from .summary import summary_of

CHECKPOINT_EVERY = 25


class ReplayCache:
    def __init__(self, store: Store, max_states: int = 512) -> None:
        self.store = store
        self.max_states = max_states
        self._states: OrderedDict[tuple[str, int], State] = OrderedDict()
        self._logs: OrderedDict[str, list[Entry]] = OrderedDict()
        self._lock = threading.Lock()  # guards the caches themselves (held briefly)
        self._table_locks: dict[str, threading.Lock] = {}
        self._views: OrderedDict[tuple[str, int, int | None, int], dict[str, Any]] = OrderedDict()
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="replay")

    async def view(self, record: TableRecord, ply: int, seat: int | None, plies: int,
                   static: dict[str, Any]) -> dict[str, Any]:
        """`replay_view` of ply `ply` for `seat` (with the end summary on a final position),
        from the cache when it was built before for the same table length."""
        key = (record.id, ply, seat, plies)
        with self._lock:
            cached = self._views.get(key)
            if cached is not None:
                self._views.move_to_end(key)
                return cached

        def build() -> dict[str, Any]:
            state = self.state_at(record, ply)
            out = replay_view(state, seat, ply, plies)
            if state.is_terminal():
                out["summary"] = summary_of(state, static)
            return out

        made = await asyncio.get_running_loop().run_in_executor(self.pool, build)
        with self._lock:
            self._views[key] = made
            while len(self._views) > 256:
                self._views.popitem(last=False)
        return made

    def entries(self, record: TableRecord, upto: int) -> list[Entry]:
        """(seat or None, text) of the first `upto` entries; refreshed from the database when needed."""
        cached = self._logs.get(record.id)
        if cached is None or len(cached) < upto:
            cached = self.store.entries(table_id=record.id)
            with self._lock:
                self._logs[record.id] = cached
                while len(self._logs) > 64:
                    self._logs.popitem(last=False)
        return cached[:upto]

    def state_at(self, record: TableRecord, ply: int) -> State:
        """A fresh state after the first `ply` entries of the table (the caller may keep it)."""
        with self._lock:
            lock = self._table_locks.setdefault(record.id, threading.Lock())
            if len(self._table_locks) > 4096:
                for key in [k for k, v in self._table_locks.items() if not v.locked()][:1024]:
                    del self._table_locks[key]
        with lock:
            return self._state_at(record, ply)

    def _state_at(self, record: TableRecord, ply: int) -> State:
        entries = self.entries(record, ply)
        start = (ply // CHECKPOINT_EVERY) * CHECKPOINT_EVERY
        while start > 0 and (record.id, start) not in self._states:
            start -= CHECKPOINT_EVERY
        base = self._states.get((record.id, start))
        if base is None:
            state = record_of(record, entries).initial_state()
            start = 0
        else:
            state = base.clone()
        for i in range(start, ply):
            seat, text = entries[i]
            state.step_entry(seat, text)
            if (i + 1) % CHECKPOINT_EVERY == 0 and (record.id, i + 1) not in self._states:
                self._remember((record.id, i + 1), state.clone())
        return state

    def _remember(self, key: tuple[str, int], state: State) -> None:
        with self._lock:
            self._states[key] = state
            while len(self._states) > self.max_states:
                self._states.popitem(last=False)


def replay_view(state: State, seat: int | None, ply: int, plies: int) -> dict[str, Any]:
    return {
        "type": "replay",
        "ply": ply,
        "plies": plies,
        "seat": seat,
        "current_player": state.current_player,
        "actors": state.actors(),
        "by": state.history_seats[-1] if state.history else None,
        "phase": state.phase_name(),
        "terminal": state.is_terminal(),
        "observation": state.observation(seat),
        "log": state.event_log(seat),
    }
