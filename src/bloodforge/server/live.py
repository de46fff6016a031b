"""One live table: its record, state, clocks and the views built for each seat.

Every payload for a seat is built here from `observation(seat)`, `event_log(seat)` and, for an
acting human seat, `legal_actions(seat)`; nothing else of the state leaves the server.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from bloodforge.agents import Agent
from bloodforge.core import Game, State, UnknownGame, game_class
from bloodforge.match import Record

from .clocks import Deadline, deadlines_from_json
from .schemas import SeatPublic, TablePublic
from .store import Entry, SeatSpec, TableRecord
from .summary import summary_of

#: Versions whose actors a table remembers, for rebasing simultaneous commitments.
REBASE_WINDOW = 64


@dataclass
class LiveTable:
    record: TableRecord
    game: Game
    state: State
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: int = 0
    last_used: float = field(default_factory=time.monotonic)
    ai_task: asyncio.Task[None] | None = None
    agents: dict[int, Agent] = field(default_factory=dict)
    #: Running clocks of human seats (persisted with every entry).
    deadlines: dict[int, Deadline] = field(default_factory=dict)
    timer: asyncio.TimerHandle | None = None
    #: version -> the seats that could act at it (recent versions only): for rebases.
    actors_at: dict[int, tuple[int, ...]] = field(default_factory=dict)
    _static: dict[str, Any] | None = None
    #: (version, changes, record, `public()` as JSON) of the last view made
    _public: tuple[int, int, TableRecord, dict[str, Any]] | None = None
    #: (record, `public()` as JSON) made through pydantic for that record
    _public_base: tuple[TableRecord, dict[str, Any]] | None = None
    _changes: int = 0

    def __post_init__(self) -> None:
        self.actors_at[self.version] = tuple(self.state.actors())

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def version(self) -> int:
        """Number of entries in the table's history."""
        return len(self.state.history)

    @property
    def seats(self) -> tuple[SeatSpec, ...]:
        return self.record.seats

    def humans(self) -> set[int]:
        return {s.seat for s in self.seats if s.kind == "human"}

    def static_info(self) -> dict[str, Any]:
        if self._static is None:
            self._static = self.game.static_info()
        return self._static

    def agents_to_move(self) -> list[int]:
        """AI seats among the actors: each decides (several during simultaneous commitments)."""
        return [s for s in self.state.actors() if self.seats[s].kind == "agent"]

    def public(self) -> TablePublic:
        return table_public(self.record, game_name=self.game.info.name, ply=self.version,
                            actors=self.state.actors(), result=result_of(self.state),
                            deadlines=self.deadlines)

    def public_json(self) -> dict[str, Any]:
        """`public().model_dump(mode="json")`, made once per version; while the game runs, only
        the fields a move changes are filled in over what pydantic made for this record. *Why:*
        validating and dumping the whole table model on every move was a twentieth of the
        server's CPU per move, and all but seven of its fields belong to the record."""
        made = self._public
        if made is not None and made[0] == self.version and made[1] == self._changes and made[2] is self.record:
            return made[3]
        base = self._public_base
        st = self.state
        if base is None or base[0] is not self.record or st.is_terminal():
            out = self.public().model_dump(mode="json")
            self._public_base = (self.record, out)
        else:
            actors = st.actors()
            out = {**base[1], "status": "playing", "ply": self.version, "to_move": actors[0] if actors else None,
                   "actors": list(actors), "deadlines": {str(s): d.at for s, d in sorted(self.deadlines.items())},
                   "result": None, "seed": None}
        self._public = (self.version, self._changes, self.record, out)
        return out

    def view(self, seat: int | None, *, log_from: int = 0) -> dict[str, Any]:
        """Everything `seat` (None: spectator) may know now: built only from observation(seat),
        event_log(seat) and, for an acting human seat, its legal actions."""
        st = self.state
        actors = st.actors()
        event_log = st.event_log(seat)
        start = log_from if 0 <= log_from <= len(event_log) else 0
        legal: list[str] = []
        if seat is not None and seat in actors and self.seats[seat].kind == "human":
            legal = [str(a) for a in st.legal_actions(seat)]
        return {
            "type": "state",
            "table": self.public_json(),
            "version": self.version,
            "seat": seat,
            "current_player": st.current_player,
            "actors": actors,
            "deadlines": {str(s): d.at for s, d in sorted(self.deadlines.items())},
            "phase": st.phase_name(),
            "terminal": st.is_terminal(),
            "result": result_of(st),
            "summary": summary_of(st, self.static_info()) if st.is_terminal() else None,
            "observation": st.observation(seat),
            "log_start": start,
            "log": event_log[start:],
            "legal": legal,
        }

    def may_rebase(self, seat: int, version: int) -> bool:
        """May `seat`'s action made at an older `version` be applied now (see the module doc)?"""
        if not 0 <= version < self.version:
            return False
        before = self.actors_at.get(version)
        if before is None or seat not in before:
            return False
        return all(s is not None and s != seat for s in self.state.history_seats[version:])


def result_of(state: State) -> dict[str, Any] | None:
    outcome = state.outcome()
    if outcome is None:
        return None
    return {"scores": outcome.scores, "returns": outcome.returns, "winners": outcome.winners}


def table_public(
    record: TableRecord, *, game_name: str, ply: int, actors: list[int] | tuple[int, ...],
    result: dict[str, Any] | None, deadlines: dict[int, Deadline] | None = None,
) -> TablePublic:
    over = result is not None
    shown = deadlines if deadlines is not None else deadlines_from_json(record.deadlines)
    return TablePublic(
        id=record.id, name=record.name, game=record.game, game_name=game_name, params=public_params(record),
        players=len(record.seats),
        seats=[SeatPublic(seat=s.seat, name=s.name, kind=s.kind, agent=s.agent, strength=s.strength,
                          taken_over=s.taken_over, claimed=s.kind == "human" and s.claimed)
               for s in record.seats],
        status="over" if over else "playing", ply=ply, to_move=actors[0] if actors else None,
        actors=list(actors), turn_clock=record.turn_clock, hints=record.hints,
        deadlines={str(s): d.at for s, d in sorted(shown.items())},
        created_at=record.created_at, updated_at=record.updated_at, result=result,
        from_scenario=record.scenario is not None,
        seed=record.seed if over else None,
    )


def public_params(record: TableRecord) -> dict[str, Any]:
    """The table's parameters without file parameters: a workbench playtest's content lives in
    a server folder, and no server path is ever shown to clients."""
    try:
        files = set(game_class(record.game).info.params_model.file_parameters())
    except UnknownGame:
        files = set()
    return {k: v for k, v in record.params.items() if k not in files}


def record_of(table: TableRecord, entries: list[Entry]) -> Record:
    """The table as the one game record format: replaying it rebuilds every position."""
    return Record(game=table.game, version=table.game_version, params=table.params, seed=table.seed,
                  scenario=table.scenario, moves=list(entries))
