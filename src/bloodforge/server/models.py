"""Persistent records: a table (game record + seats) and its append-only log of entries.

A table is stored as what identifies a game before any entry (game, version, params, seed,
optional scenario) plus every entry of the game's history in order, each with who made it: a
seat, or NULL for the game's own steps and the server's `timeout`s. That is exactly a
`bloodforge.match.Record`, and replaying it through the engine rebuilds every state. `ply`,
`to_move`, `actors` and `deadlines` on the table row are kept in the same transaction as each
entry, so the lobby, AI resumption and clocks never need to replay a game.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of the server tables."""


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(40), index=True)
    game_version: Mapped[int] = mapped_column(Integer)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    scenario: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: Number of entries in the log (the table's version).
    ply: Mapped[int] = mapped_column(Integer, default=0)
    #: First seat to act after the last entry; None once the game is over.
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Every seat that may act now (several during secret simultaneous commitments).
    actors: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    #: Seconds every human decision may take (the table's option), or None.
    turn_clock: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: Running clocks: {"<seat>": {"at": unix ms, "kind": "rule" | "turn"}}; kept across restarts.
    deadlines: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: "playing" or "over".
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    #: Scores and returns once the game is over.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: sha256 of the creator's host token (re-invites a seat), or None.
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Human seats may ask for a hint (the strongest AI's choice); the table's option, off by default.
    hints: Mapped[bool] = mapped_column(Boolean, default=False)
    #: A finished table's rematch (the new table's id), once one was made: offered to every page
    #: of this table, by any server process and after restarts; at most one (set only where NULL,
    #: in the new table's own transaction). The seats' links are not kept (credentials are stored
    #: only hashed): a player's own credential of this table opens its seat of the rematch once.
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True, unique=True, index=True)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", order_by="SeatRow.seat", cascade="all, delete-orphan", lazy="selectin"
    )


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    #: "human" or "agent".
    kind: Mapped[str] = mapped_column(String(16))
    agent: Mapped[str | None] = mapped_column(String(40), nullable=True)
    strength: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: sha256 of the seat's secret token (humans only); the token itself is never stored.
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: A human seat whose turn clock ran out: the server's AI plays it from then on.
    taken_over: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The seat's link was opened: `token_hash` is now the opener's own credential, and the
    #: link's token (`invite_hash`) opens only the spectator view.
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)

    table: Mapped[TableRow] = relationship(back_populates="seats")


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "ply", name="uq_actions_table_ply"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    #: 0-based position in the log; unique per table, so two racing writers cannot both commit.
    ply: Mapped[int] = mapped_column(Integer)
    #: The seat that acted, or NULL: the game's own step or the server's `timeout <seat>`.
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
