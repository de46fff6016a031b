"""Claim-once seat links: a seat's first opener gets its own credential; the host re-invites.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Columns only (in place on SQLite too, see 0002): a seat of an older table is unclaimed, so
    # the first browser to open its link claims it, as for a new table.
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.add_column(sa.Column("host_hash", sa.String(64), nullable=True))
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.add_column(sa.Column("claimed", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.drop_column("invite_hash")
        batch.drop_column("claimed")
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.drop_column("host_hash")
