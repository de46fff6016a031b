"""States of a table at any earlier ply, for the replay viewer.

Rebuilt by replaying the committed log through the engine (the same way a restart does), from
the nearest cached checkpoint, in a worker thread. A viewer gets only what its seat saw at that
ply: observation(seat) and event_log(seat) of that state, never anything newer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import bloodforge
from bloodforge.core import State

from .store import Store, TableRecord

CHECKPOINT_EVERY = 25


class ReplayCache:
    def __init__(self, store: Store, max_states: int = 512) -> None:
        self.store = store
        self.max_states = max_states
        self._states: OrderedDict[tuple[str, int], State] = OrderedDict()
        self._logs: OrderedDict[tuple[str, int], list[tuple[int, str]]] = OrderedDict()
        self._lock = threading.Lock()

    def actions(self, record: TableRecord, upto: int) -> list[tuple[int, str]]:
        """(seat, text) of the first `upto` actions; refreshed from the database when needed."""
        key = (record.id, 0)
        cached = self._logs.get(key)
        if cached is None or len(cached) < upto:
            cached = self.store.action_texts(table_id=record.id)
            self._logs[key] = cached
            while len(self._logs) > 64:
                self._logs.popitem(last=False)
        return cached[:upto]

    def state_at(self, record: TableRecord, ply: int) -> State:
        """A fresh state after the first `ply` actions of the table (the caller may keep it)."""
        with self._lock:
            return self._state_at(record, ply)

    def _state_at(self, record: TableRecord, ply: int) -> State:
        actions = self.actions(record, ply)
        start = (ply // CHECKPOINT_EVERY) * CHECKPOINT_EVERY
        while start > 0 and (record.id, start) not in self._states:
            start -= CHECKPOINT_EVERY
        base = self._states.get((record.id, start))
        state = base.clone() if base is not None else _initial(record)
        for i in range(start, ply):
            state.apply(actions[i][1])
            if (i + 1) % CHECKPOINT_EVERY == 0 and (record.id, i + 1) not in self._states:
                self._remember((record.id, i + 1), state.clone())
        return state

    def _remember(self, key: tuple[str, int], state: State) -> None:
        self._states[key] = state
        while len(self._states) > self.max_states:
            self._states.popitem(last=False)


def _initial(record: TableRecord) -> State:
    if record.scenario is not None:
        return bloodforge.load_scenario(record.scenario)
    return bloodforge.load_game(record.game, seed=record.seed, **record.params).new_initial_state()


def replay_view(state: State, seat: int | None, ply: int, plies: int) -> dict[str, Any]:
    return {
        "type": "replay",
        "ply": ply,
        "plies": plies,
        "seat": seat,
        "current_player": state.current_player,
        "phase": state.phase_name(),
        "terminal": state.is_terminal(),
        "observation": state.observation(seat),
        "log": state.event_log(seat),
    }
