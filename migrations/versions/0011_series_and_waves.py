"""Repeated surveys: a survey may be one wave of a named series, and a question may keep a
permanent randomized response on the respondent's device (its bound over all waves, ε∞).

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("survey") as batch:
        batch.add_column(sa.Column("series", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("wave", sa.Integer(), nullable=True))
        batch.create_index("ix_survey_series", ["series"])
    with op.batch_alter_table("question") as batch:
        batch.add_column(sa.Column("epsilon_permanent", sa.Double(), nullable=True))


def downgrade():
    with op.batch_alter_table("question") as batch:
        batch.drop_column("epsilon_permanent")
    with op.batch_alter_table("survey") as batch:
        batch.drop_index("ix_survey_series")
        batch.drop_column("wave")
        batch.drop_column("series")
