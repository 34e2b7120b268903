"""Split-ballot experiments: a survey's conditions, the condition a question's row asks in, and
an item's known prevalence, and a comprehension check's right answer.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("survey") as batch:
        batch.add_column(sa.Column("conditions", sa.JSON(), nullable=True))
    with op.batch_alter_table("question") as batch:
        batch.add_column(sa.Column("condition", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("known_prevalence", sa.Double(), nullable=True))
        batch.add_column(sa.Column("correct", sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table("question") as batch:
        batch.drop_column("correct")
        batch.drop_column("known_prevalence")
        batch.drop_column("condition")
    with op.batch_alter_table("survey") as batch:
        batch.drop_column("conditions")
