"""The table option `hints`: human seats may ask what the strongest AI would play (issue 21).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A column only (in place on SQLite too, see 0002): older tables have hints off, the default.
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.drop_column("hints")
