"""A survey's revision (bumped when what respondents spin changes) and its classroom join code.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("survey") as batch:
        # Existing surveys start at revision 1, as new ones do.
        batch.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="1"))
        batch.add_column(sa.Column("join_code", sa.String(length=8), nullable=True))
        batch.create_unique_constraint("uq_survey_join_code", ["join_code"])


def downgrade():
    with op.batch_alter_table("survey") as batch:
        batch.drop_constraint("uq_survey_join_code", type_="unique")
        batch.drop_column("join_code")
        batch.drop_column("revision")
