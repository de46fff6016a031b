"""Every history entry (the game's own steps with seat NULL), actors, clocks, AI take-over.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


# SQLite: `actions` must be copied to change a column (batch mode, env.py); `tables` and
# `seats` only gain or lose columns, which SQLite does in place (recreate="never"). Copying
# `tables` would drop the original, and with foreign keys on that deletes every seat and
# action through ON DELETE CASCADE.


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.alter_column("seat", existing_type=sa.Integer, nullable=True)
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.add_column(sa.Column("actors", sa.JSON, nullable=True))
        batch.add_column(sa.Column("turn_clock", sa.Float, nullable=True))
        batch.add_column(sa.Column("deadlines", sa.JSON, nullable=True))
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.add_column(sa.Column("taken_over", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    # Entries of the game itself cannot be dropped without breaking their tables' replays.
    steps = op.get_bind().execute(sa.text("SELECT count(*) FROM actions WHERE seat IS NULL")).scalar()
    if steps:
        raise RuntimeError(f"cannot downgrade below 0002: {steps} log entries are the games' own steps")
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.drop_column("taken_over")
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.drop_column("deadlines")
        batch.drop_column("turn_clock")
        batch.drop_column("actors")
    with op.batch_alter_table("actions") as batch:
        batch.alter_column("seat", existing_type=sa.Integer, nullable=False)
