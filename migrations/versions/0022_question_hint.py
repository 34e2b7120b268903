"""A question's help text (XLSForm's ``hint``), shown under its text: ``question.hint``, by
language tag; null for none.

Revision ID: 0022
Revises: 0021
"""

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("question") as batch:
        batch.add_column(sa.Column("hint", sa.JSON(none_as_null=True), nullable=True))


def downgrade():
    with op.batch_alter_table("question") as batch:
        batch.drop_column("hint")
