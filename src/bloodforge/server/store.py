"""Data functions over the database, synchronous and keyword-only (called in worker threads;
`append_now`, SQLite's move write that never waits, on the event loop).

Each function opens and commits its own session, so that "an action is committed before anyone
is told of it" is a property of one call: `append_entries` returns only after COMMIT.
"""

from __future__ import annotations

import contextlib
import threading
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
#: The `ply` of a NOTIFY that says a finished table's rematch was made (not a new entry).
REMATCH_MADE = -2


class StaleWrite(Exception):  # noqa: N818 - reads as a condition, like StopIteration
    """Another writer appended this ply first (only possible with several server processes)."""


class RematchTaken(Exception):  # noqa: N818 - reads as a condition, like StopIteration
    """The finished table has its rematch already (two players clicking at once, perhaps on
    two server processes): the new table was not made."""


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
    #: The rematch of this (finished) table, once made.
    rematch_id: str | None = None

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
            hints=bool(row.hints), rematch_id=row.rematch_id,
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
_APPEND_KEYS = ("table_id", "ply", "seat", "text", "created_at")


class WouldBlock(Exception):  # noqa: N818 - reads as a condition, like StopIteration
    """SQLite's write lock is held elsewhere: write from the writer thread instead."""


#: SQLite result codes of a lock held elsewhere.
_SQLITE_BUSY = (5, 6)


class _SqliteAppender:
    """SQLite's move write on one DBAPI connection of the engine's pool, kept between moves:
    the UPDATE and INSERT compiled once for the dialect, values converted by the columns' own
    bind processors (the stored text is exactly what the Core statements store), inside an
    explicit BEGIN IMMEDIATE ... COMMIT. *Why:* SQLAlchemy's per-execution work (a Connection,
    a transaction object, an execution context, parameter processing) cost three times the
    database's own work on every move.

    `now=True` is the event loop's own appender: it never waits for SQLite's lock (busy
    timeout 0: `WouldBlock`, and the move is written by the writer thread instead) and never
    checkpoints (the writer thread does, `Store.checkpoint`), so a write holds the loop for the
    few dozen microseconds SQLite takes to append to its WAL and nothing more. *Why:* handing
    each move to a thread and back cost the server more CPU than the write itself (a fifth of
    its CPU per move on a busy machine). A lock keeps other threads out of the connection."""

    def __init__(self, engine: Engine, *, now: bool = False) -> None:
        dialect = engine.dialect
        self.engine = engine
        self.now = now
        advance = _ADVANCE.compile(dialect=dialect)
        append = _APPEND.compile(dialect=dialect, column_keys=list(_APPEND_KEYS))
        if advance.positiontup is None or list(append.positiontup or ()) != list(_APPEND_KEYS):
            raise RuntimeError("the SQLite dialect was expected to bind positionally")
        self.advance_sql, self.advance_keys = advance.string, tuple(advance.positiontup)
        self.append_sql = append.string

        def processor(table: Table, column: str) -> Any:
            return table.c[column].type.dialect_impl(dialect).bind_processor(dialect)

        columns = {"v_updated_at": "updated_at", "v_actors": "actors", "v_deadlines": "deadlines",
                   "v_result": "result"}
        self.advance_procs = {key: processor(_TABLES, col) for key, col in columns.items()}
        self.created_proc = processor(_ACTIONS, "created_at")
        self.lock = threading.Lock()
        self.conn: Any = None  # a pool connection (its PRAGMAs set on connect), kept

    def append(self, table_id: str, ply: int, entries: list[Entry], values: dict[str, Any], now: datetime) -> None:
        params = []
        for key in self.advance_keys:
            value = values[key]
            proc = self.advance_procs.get(key)
            params.append(value if proc is None else proc(value))
        created = now if self.created_proc is None else self.created_proc(now)
        rows = [(table_id, ply + i, seat, text, created) for i, (seat, text) in enumerate(entries)]
        if not self.lock.acquire(blocking=not self.now):
            raise WouldBlock("the loop's connection is in use")
        try:
            if self.conn is None:
                self.conn = self.engine.raw_connection()
                raw = self.conn.dbapi_connection
                raw.isolation_level = None  # transactions are explicit below
                if self.now:
                    raw.execute("PRAGMA busy_timeout=0")
                    raw.execute("PRAGMA wal_autocheckpoint=0")
            raw = self.conn.dbapi_connection
            cur = raw.cursor()
            try:
                cur.execute("BEGIN IMMEDIATE")
                cur.execute(self.advance_sql, params)
                if cur.rowcount != 1:
                    raise StaleWrite(f"table {table_id} is no longer at ply {ply}")
                if rows:
                    cur.executemany(self.append_sql, rows)
                cur.execute("COMMIT")
            except BaseException as err:
                try:
                    if raw.in_transaction:
                        cur.execute("ROLLBACK")
                except Exception:
                    self.close()  # the connection's state is unknown: the next move takes a new one
                    raise err from None
                if isinstance(err, (StaleWrite, self.engine.dialect.loaded_dbapi.IntegrityError)):
                    raise
                if self.now and getattr(err, "sqlite_errorcode", None) in _SQLITE_BUSY:
                    raise WouldBlock(str(err)) from None
                self.close()
                raise
            finally:
                cur.close()
        finally:
            self.lock.release()

    def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()


class Store:
    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self.engine: Engine = sessions.kw["bind"]
        self.dialect: str = self.engine.dialect.name
        self._fast = _SqliteAppender(self.engine) if self.dialect == "sqlite" else None
        self._now = _SqliteAppender(self.engine, now=True) if self.dialect == "sqlite" else None
        #: The driver's own IntegrityError (the fast path runs without SQLAlchemy's wrapping).
        self._integrity_errors: tuple[type[Exception], ...] = (
            (IntegrityError, self.engine.dialect.loaded_dbapi.IntegrityError) if self._fast is not None
            else (IntegrityError,))

    def close(self) -> None:
        """Give back the connections the SQLite fast paths keep (before the engine is disposed)."""
        for appender in (self._fast, self._now):
            if appender is not None:
                appender.close()

    def append_now(self, **kw: Any) -> bool:
        """`append_entries` on the calling thread (the event loop) if SQLite can take it at once:
        True when committed; False when this database has no such path or its write lock is
        held elsewhere (then call `append_entries` in the writer thread). StaleWrite as there."""
        if self._now is None or kw.get("take_over") is not None:
            return False
        try:
            self._now.append(kw["table_id"], kw["ply"], kw["entries"], *self._advance_values(**kw))
        except WouldBlock:
            return False
        except self._integrity_errors as err:
            raise StaleWrite(f"ply {kw['ply']} of table {kw['table_id']} was written by someone else") from err
        return True

    def checkpoint(self) -> tuple[int, int]:
        """Copy SQLite's write-ahead log into the database (PASSIVE: writers go on meanwhile);
        the writer thread does it for the event loop's appender, which never does it itself.
        (frames in the log, frames copied); (0, 0) on other databases."""
        if self.dialect != "sqlite":
            return 0, 0
        with self.engine.connect() as conn:
            row = conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
            return int(row[1]), int(row[2])

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
        rematch_of: str | None = None,
    ) -> TableRecord:
        """The table, its seats and the game's own first steps (`entries`), in one transaction;
        with `rematch_of`, as that finished table's rematch, recorded there in the same
        transaction if it has none yet (else `RematchTaken`, and nothing is made)."""
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
            if rematch_of is not None:
                marked = session.connection().execute(
                    update(_TABLES).where(_TABLES.c.id == rematch_of, _TABLES.c.rematch_id.is_(None))
                    .values(rematch_id=table_id)
                )
                if marked.rowcount != 1:
                    raise RematchTaken(f"table {rematch_of} has its rematch already")
                notify(session.connection(), rematch_of, REMATCH_MADE)
            notify(session.connection(), table_id, len(entries))
            return TableRecord.of(row)

    def get_table(self, *, table_id: str) -> TableRecord | None:
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            return None if row is None else TableRecord.of(row)

    def rematch_source(self, *, table_id: str) -> str | None:
        """The finished table whose rematch `table_id` is, if it is one."""
        with self.sessions() as session:
            found = session.scalar(select(TableRow.id).where(TableRow.rematch_id == table_id))
            return None if found is None else str(found)

    def entries(self, *, table_id: str, since: int = 0) -> list[Entry]:
        """(seat or None, text) of every entry of a table from ply `since` on, in ply order."""
        with self.sessions() as session:
            rows = session.execute(
                select(ActionRow.seat, ActionRow.text)
                .where(ActionRow.table_id == table_id, ActionRow.ply >= since)
                .order_by(ActionRow.ply)
            ).all()
            return [(None if seat is None else int(seat), str(text)) for seat, text in rows]

    @staticmethod
    def _advance_values(*, table_id: str, ply: int, entries: list[Entry], actors: list[int],
                        result: dict[str, Any] | None, deadlines: dict[str, Any], **_: Any,
                        ) -> tuple[dict[str, Any], datetime]:
        now = utcnow()
        return {
            "w_id": table_id, "w_ply": ply, "v_ply": ply + len(entries),
            "v_to_move": actors[0] if actors else None, "v_actors": actors, "v_updated_at": now,
            "v_status": "over" if result is not None else "playing", "v_result": result,
            "v_deadlines": deadlines or None,
        }, now

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
        values, now = self._advance_values(table_id=table_id, ply=ply, entries=entries, actors=actors,
                                           result=result, deadlines=deadlines)
        try:
            if self._fast is not None and take_over is None:  # SQLite: the hot path of every move
                self._fast.append(table_id, ply, entries, values, now)
                return
            # Core statements on one connection
            with self.engine.begin() as conn:
                moved = conn.execute(_ADVANCE, values)
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
        except self._integrity_errors as err:
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
