"""Data functions over the database, synchronous and keyword-only (called in worker threads).

Each function opens and commits its own session, so that "an action is committed before anyone
is told of it" is a property of one call: `append_entries` returns only after COMMIT.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, Table, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from .models import ActionRow, SeatRow, TableRow, utcnow
from .notify import notify

#: One history entry: the seat that made it (None: the game itself or the server's timeout), text.
Entry = tuple[int | None, str]

#: The `ply` of a NOTIFY that says a seat's credential changed (not a new entry).
CREDENTIALS_CHANGED = -1


class StaleWrite(Exception):  # noqa: N818 - reads as a condition, like StopIteration
    """Another writer appended this ply first (only possible with several server processes)."""


@dataclass(frozen=True)
class SeatSpec:
    seat: int
    name: str
    kind: str
    agent: str | None
    strength: int | None
    token_hash: str | None
    taken_over: bool = False
    #: The link was opened (claim-once): token_hash is the opener's credential, invite_hash the spent link's.
    claimed: bool = False
    invite_hash: str | None = None


@dataclass(frozen=True)
class TableRecord:
    """A table row with its seats, detached from any session."""

    id: str
    name: str
    game: str
    game_version: int
    params: dict[str, Any]
    seed: int
    scenario: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    ply: int
    to_move: int | None
    status: str
    result: dict[str, Any] | None
    seats: tuple[SeatSpec, ...]
    actors: tuple[int, ...] = ()
    turn_clock: float | None = None
    deadlines: dict[str, Any] | None = None
    host_hash: str | None = None
    hints: bool = False

    @classmethod
    def of(cls, row: TableRow) -> TableRecord:
        return cls(
            id=row.id, name=row.name, game=row.game, game_version=row.game_version,
            params=dict(row.params), seed=row.seed, scenario=row.scenario,
            created_at=row.created_at, updated_at=row.updated_at, ply=row.ply, to_move=row.to_move,
            status=row.status, result=row.result,
            seats=tuple(
                SeatSpec(s.seat, s.name, s.kind, s.agent, s.strength, s.token_hash, bool(s.taken_over),
                         bool(s.claimed), s.invite_hash)
                for s in row.seats
            ),
            actors=tuple(row.actors) if row.actors is not None else (() if row.to_move is None else (row.to_move,)),
            turn_clock=row.turn_clock, deadlines=row.deadlines, host_hash=row.host_hash,
            hints=bool(row.hints),
        )


_TABLES: Table = TableRow.__table__  # type: ignore[assignment]  # declarative tables are Tables
#: The two statements of every move, built once: building them per call (coercing every value,
#: computing the cache key) was most of a move's database CPU. Values are bound parameters.
_ADVANCE = (
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("w_id"), _TABLES.c.ply == bindparam("w_ply"))
    .values(ply=bindparam("v_ply"), to_move=bindparam("v_to_move"), actors=bindparam("v_actors"),
            updated_at=bindparam("v_updated_at"), status=bindparam("v_status"), result=bindparam("v_result"),
            deadlines=bindparam("v_deadlines"))
)
_ACTIONS: Table = ActionRow.__table__  # type: ignore[assignment]
_APPEND = insert(_ACTIONS)


class Store:
    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self.engine: Engine = sessions.kw["bind"]
        self.dialect: str = self.engine.dialect.name

    def create_table(
        self,
        *,
        table_id: str,
        name: str,
        game: str,
        game_version: int,
        params: dict[str, Any],
        seed: int,
        scenario: dict[str, Any] | None,
        seats: list[SeatSpec],
        entries: list[Entry],
        actors: list[int],
        result: dict[str, Any] | None,
        turn_clock: float | None,
        deadlines: dict[str, Any] | None,
        host_hash: str | None = None,
        hints: bool = False,
    ) -> TableRecord:
        """The table, its seats and the game's own first steps (`entries`), in one transaction."""
        now = utcnow()
        over = result is not None
        row = TableRow(
            id=table_id, name=name, game=game, game_version=game_version, params=params, seed=seed,
            scenario=scenario, created_at=now, updated_at=now, ply=len(entries),
            to_move=actors[0] if actors else None, actors=actors,
            status="over" if over else "playing", result=result, turn_clock=turn_clock,
            deadlines=deadlines or None, host_hash=host_hash, hints=hints,
        )
        row.seats = [
            SeatRow(seat=s.seat, name=s.name, kind=s.kind, agent=s.agent, strength=s.strength,
                    token_hash=s.token_hash, claimed=False)
            for s in seats
        ]
        with self.sessions.begin() as session:
            session.add(row)
            session.flush()
            if entries:
                session.execute(insert(ActionRow), [
                    {"table_id": table_id, "ply": i, "seat": seat, "text": text, "created_at": now}
                    for i, (seat, text) in enumerate(entries)
                ])
            notify(session.connection(), table_id, len(entries))
            return TableRecord.of(row)

    def get_table(self, *, table_id: str) -> TableRecord | None:
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            return None if row is None else TableRecord.of(row)

    def entries(self, *, table_id: str, since: int = 0) -> list[Entry]:
        """(seat or None, text) of every entry of a table from ply `since` on, in ply order."""
        with self.sessions() as session:
            rows = session.execute(
                select(ActionRow.seat, ActionRow.text)
                .where(ActionRow.table_id == table_id, ActionRow.ply >= since)
                .order_by(ActionRow.ply)
            ).all()
            return [(None if seat is None else int(seat), str(text)) for seat, text in rows]

    def append_entries(
        self,
        *,
        table_id: str,
        ply: int,
        entries: list[Entry],
        actors: list[int],
        result: dict[str, Any] | None,
        deadlines: dict[str, Any],
        take_over: SeatSpec | None = None,
    ) -> None:
        """Insert entries `ply`, `ply + 1`, ... (a seat's action and the game's own steps that
        followed it), advance the table's summary and, for a clock that ran out, hand the seat to
        the AI: atomically. StaleWrite if another writer got there first (the unique
        (table_id, ply) key or the ply guard refuses it)."""
        now = utcnow()
        over = result is not None
        try:
            # Core statements on one connection: this is the hot path of every move.
            with self.engine.begin() as conn:
                moved = conn.execute(_ADVANCE, {
                    "w_id": table_id, "w_ply": ply, "v_ply": ply + len(entries),
                    "v_to_move": actors[0] if actors else None, "v_actors": actors, "v_updated_at": now,
                    "v_status": "over" if over else "playing", "v_result": result, "v_deadlines": deadlines or None,
                })
                if moved.rowcount != 1:
                    raise StaleWrite(f"table {table_id} is no longer at ply {ply}")
                if entries:
                    conn.execute(_APPEND, [
                        {"table_id": table_id, "ply": ply + i, "seat": seat, "text": text, "created_at": now}
                        for i, (seat, text) in enumerate(entries)
                    ])
                if take_over is not None:
                    conn.execute(
                        update(SeatRow)
                        .where(SeatRow.table_id == table_id, SeatRow.seat == take_over.seat)
                        .values(kind=take_over.kind, agent=take_over.agent, strength=take_over.strength,
                                taken_over=True)
                    )
                notify(conn, table_id, ply + len(entries))
        except IntegrityError as err:
            raise StaleWrite(f"ply {ply} of table {table_id} was written by someone else") from err

    def set_credentials(self, *, table_id: str, seat: int, expect_hash: str, token_hash: str, claimed: bool,
                        invite_hash: str | None) -> bool:
        """Replace a seat's credential if it is still `expect_hash` (False: someone else changed
        it first, e.g. two browsers claiming one link at once). NOTIFY with ply -1 tells other
        server processes to drop their copy of the seats."""
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.token_hash == expect_hash)
                .values(token_hash=token_hash, claimed=claimed, invite_hash=invite_hash)
            )
            if moved.rowcount != 1:
                return False
            notify(conn, table_id, CREDENTIALS_CHANGED)
            return True

    def list_tables(self, *, limit: int = 200, status: str | None = None) -> list[TableRecord]:
        with self.sessions() as session:
            query = select(TableRow).order_by(TableRow.updated_at.desc()).limit(limit)
            if status is not None:
                query = query.where(TableRow.status == status)
            return [TableRecord.of(r) for r in session.scalars(query)]

    def count_tables(self) -> int:
        with self.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(TableRow)) or 0)

    def tables_to_resume(self, *, overdue_ms: int | None = None, stalled_before: datetime | None = None) -> list[str]:
        """Ids of unfinished tables where the server has work: an AI seat is among the actors,
        or a clock is running (restarts keep deadlines). With `overdue_ms` / `stalled_before`
        (the sweep for tables a dead process held): only clocks that ran out before
        `overdue_ms` and AI turns not moved since `stalled_before`."""
        with self.sessions() as session:
            agents: dict[str, set[int]] = {}
            for table_id, seat in session.execute(
                select(SeatRow.table_id, SeatRow.seat)
                .join(TableRow, SeatRow.table_id == TableRow.id)
                .where(TableRow.status == "playing", SeatRow.kind == "agent")
            ):
                agents.setdefault(str(table_id), set()).add(int(seat))
            out = []
            rows = session.execute(
                select(TableRow.id, TableRow.actors, TableRow.to_move, TableRow.deadlines, TableRow.updated_at)
                .where(TableRow.status == "playing")
            )
            for table_id, actors, to_move, deadlines, updated_at in rows:
                acting = set(actors) if actors is not None else {to_move}
                clock = bool(deadlines)
                ai = bool(acting & agents.get(str(table_id), set()))
                if overdue_ms is not None and clock:
                    clock = min(int(d["at"]) for d in deadlines.values()) < overdue_ms
                if stalled_before is not None and ai:
                    moved = updated_at if updated_at.tzinfo is not None else updated_at.replace(tzinfo=UTC)
                    ai = moved < stalled_before
                if clock or ai:
                    out.append(str(table_id))
            return out
