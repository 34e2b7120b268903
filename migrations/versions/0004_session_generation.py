"""Accounts get a session generation: bumping it ends every session of the account.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("user") as batch:
        batch.add_column(
            sa.Column("session_generation", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade():
    with op.batch_alter_table("user") as batch:
        batch.drop_column("session_generation")
