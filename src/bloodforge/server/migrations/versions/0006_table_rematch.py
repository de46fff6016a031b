"""A finished table's rematch, kept in the database (it was in one server process's memory).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A column and its index only (in place on SQLite too, see 0002): an older finished table has
    # no rematch, and a rematch offered before this migration lived in memory only.
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.add_column(sa.Column("rematch_id", sa.String(32), nullable=True))
    # unique: a new table is the rematch of one table at most; it also finds the finished table
    # from its rematch (a seat's credential there opens its seat of the rematch)
    op.create_index("ix_tables_rematch_id", "tables", ["rematch_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_tables_rematch_id", "tables")
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.drop_column("rematch_id")
