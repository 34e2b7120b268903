"""API tokens get a scope: read-only (what every token was, and stays) or read and write.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("api_token") as batch:
        batch.add_column(
            sa.Column("scope", sa.String(length=10), nullable=False, server_default="read")
        )


def downgrade():
    with op.batch_alter_table("api_token") as batch:
        batch.drop_column("scope")
