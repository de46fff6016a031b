"""Database rows of the designer's workbench: named, versioned content variants and experiments.

A variant is content (every data file of the game as JSON), never a path: it is validated by
the game's own models before it is stored, and versions of one name form a chain through
`parent_id`, so a designer can see what each save changed. Kept on the server's declarative
base, so the same Alembic history creates them (migration 0004).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, utcnow


class LabVariantRow(Base):
    __tablename__ = "lab_variants"
    __table_args__ = (UniqueConstraint("game", "name", "version", name="uq_lab_variants_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    name: Mapped[str] = mapped_column(String(80))
    #: 1 for a name's first save, then one more for every save under the same name.
    version: Mapped[int] = mapped_column(Integer)
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("lab_variants.id"), nullable=True)
    content: Mapped[dict[str, Any]] = mapped_column(JSON)
    content_hash: Mapped[str] = mapped_column(String(64))
    #: sha256 prefix of the operator token that saved it.
    operator: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LabExperimentRow(Base):
    __tablename__ = "lab_experiments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    game: Mapped[str] = mapped_column(String(40), index=True)
    variant_id: Mapped[int] = mapped_column(ForeignKey("lab_variants.id"))
    #: The lab experiment (what `bloodforge lab run` reads), variant content inline.
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: "queued", "running", "done", "cancelled" or "failed".
    status: Mapped[str] = mapped_column(String(16), default="queued")
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    sentence: Mapped[str | None] = mapped_column(Text, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    operator: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
