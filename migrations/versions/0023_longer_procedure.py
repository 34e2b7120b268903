"""A question's procedure holds a design's name up to 40 characters (``stochastic_lie_detector``
has 23; the column held 20, which PostgreSQL enforces and SQLite does not).

Revision ID: 0023
Revises: 0022
"""

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("question") as batch:
        batch.alter_column(
            "procedure", type_=sa.String(40), existing_type=sa.String(20), existing_nullable=False
        )


def downgrade():
    with op.batch_alter_table("question") as batch:
        batch.alter_column(
            "procedure", type_=sa.String(20), existing_type=sa.String(40), existing_nullable=False
        )
