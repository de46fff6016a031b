"""The designer's workbench: content variants (versioned, with parents) and experiments.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lab_variants",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(40), nullable=False, index=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("parent_id", sa.Integer, sa.ForeignKey("lab_variants.id"), nullable=True),
        sa.Column("content", sa.JSON, nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("operator", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game", "name", "version", name="uq_lab_variants_version"),
    )
    op.create_table(
        "lab_experiments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game", sa.String(40), nullable=False, index=True),
        sa.Column("variant_id", sa.Integer, sa.ForeignKey("lab_variants.id"), nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("summary", sa.JSON, nullable=True),
        sa.Column("sentence", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("operator", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("lab_experiments")
    op.drop_table("lab_variants")
