"""A survey fielded on an online panel: the parameters its address carries and where a finished
respondent goes (``panel``, web/core/surveys/panel.py); never a respondent's panel id.

Revision ID: 0017
Revises: 0016
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("survey") as batch:
        batch.add_column(sa.Column("panel", sa.JSON(none_as_null=True), nullable=True))


def downgrade():
    with op.batch_alter_table("survey") as batch:
        batch.drop_column("panel")
