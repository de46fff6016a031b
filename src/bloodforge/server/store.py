"""Data functions over the database, synchronous and keyword-only (called in worker threads).

Each function opens and commits its own session, so that "an action is committed before anyone
is told of it" is a property of one call: `append_action` returns only after COMMIT.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from .models import ActionRow, SeatRow, TableRow, utcnow


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

    @classmethod
    def of(cls, row: TableRow) -> TableRecord:
        return cls(
            id=row.id, name=row.name, game=row.game, game_version=row.game_version,
            params=dict(row.params), seed=row.seed, scenario=row.scenario,
            created_at=row.created_at, updated_at=row.updated_at, ply=row.ply, to_move=row.to_move,
            status=row.status, result=row.result,
            seats=tuple(
                SeatSpec(s.seat, s.name, s.kind, s.agent, s.strength, s.token_hash) for s in row.seats
            ),
        )


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
        to_move: int | None,
    ) -> TableRecord:
        now = utcnow()
        row = TableRow(
            id=table_id, name=name, game=game, game_version=game_version, params=params, seed=seed,
            scenario=scenario, created_at=now, updated_at=now, ply=0, to_move=to_move,
            status="playing" if to_move is not None else "over", result=None,
        )
        row.seats = [
            SeatRow(seat=s.seat, name=s.name, kind=s.kind, agent=s.agent, strength=s.strength,
                    token_hash=s.token_hash)
            for s in seats
        ]
        with self.sessions.begin() as session:
            session.add(row)
            session.flush()
            return TableRecord.of(row)

    def get_table(self, *, table_id: str) -> TableRecord | None:
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            return None if row is None else TableRecord.of(row)

    def action_texts(self, *, table_id: str) -> list[tuple[int, str]]:
        """(seat, text) of every action of a table, in ply order."""
        with self.sessions() as session:
            rows = session.execute(
                select(ActionRow.seat, ActionRow.text).where(ActionRow.table_id == table_id).order_by(ActionRow.ply)
            ).all()
            return [(int(seat), str(text)) for seat, text in rows]

    def append_action(
        self,
        *,
        table_id: str,
        ply: int,
        seat: int,
        text: str,
        to_move: int | None,
        result: dict[str, Any] | None,
    ) -> None:
        """Insert action `ply` and advance the table's summary, atomically; StaleWrite if another
        writer got there first (the unique (table_id, ply) key or the ply guard refuses it)."""
        now = utcnow()
        engine = self.engine
        try:
            # Core statements on one connection: this is the hot path of every move.
            with engine.begin() as conn:
                moved = conn.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.ply == ply)
                    .values(
                        ply=ply + 1, to_move=to_move, updated_at=now,
                        status="playing" if to_move is not None else "over", result=result,
                    )
                )
                if moved.rowcount != 1:
                    raise StaleWrite(f"table {table_id} is no longer at ply {ply}")
                conn.execute(insert(ActionRow).values(
                    table_id=table_id, ply=ply, seat=seat, text=text, created_at=now
                ))
        except IntegrityError as err:
            raise StaleWrite(f"ply {ply} of table {table_id} was written by someone else") from err

    def list_tables(self, *, limit: int = 200, status: str | None = None) -> list[TableRecord]:
        with self.sessions() as session:
            query = select(TableRow).order_by(TableRow.updated_at.desc()).limit(limit)
            if status is not None:
                query = query.where(TableRow.status == status)
            return [TableRecord.of(r) for r in session.scalars(query)]

    def count_tables(self) -> int:
        with self.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(TableRow)) or 0)

    def tables_waiting_for_agents(self) -> list[str]:
        """Ids of unfinished tables whose seat to move is an AI seat (to resume on startup)."""
        with self.sessions() as session:
            rows = session.execute(
                select(TableRow.id)
                .join(SeatRow, (SeatRow.table_id == TableRow.id) & (SeatRow.seat == TableRow.to_move))
                .where(TableRow.status == "playing", SeatRow.kind == "agent")
            ).all()
            return [str(r[0]) for r in rows]
