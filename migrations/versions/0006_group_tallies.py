"""Published counts per cell of direct answers, for results by group.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "group_tally",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("survey_id", sa.Integer(), nullable=False),
        sa.Column("item_kind", sa.String(length=10), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("cell", sa.Text(), nullable=False),
        sa.Column("published_n", sa.Integer(), nullable=False),
        sa.Column("published_yes", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["survey_id"], ["survey.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("item_kind", "item_id", "cell"),
    )
    op.create_index("ix_group_tally_survey_id", "group_tally", ["survey_id"])


def downgrade():
    op.drop_index("ix_group_tally_survey_id", table_name="group_tally")
    op.drop_table("group_tally")
