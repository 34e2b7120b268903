"""A questionnaire's pages, display rules and drawn orders: a survey's ``pages``, a question's
``display_rule`` and ``shuffle_options``, an option's ``fixed``.

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("survey") as batch:
        batch.add_column(sa.Column("pages", sa.JSON(none_as_null=True), nullable=True))
    with op.batch_alter_table("question") as batch:
        batch.add_column(sa.Column("display_rule", sa.JSON(none_as_null=True), nullable=True))
        batch.add_column(
            sa.Column("shuffle_options", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("option") as batch:
        batch.add_column(
            sa.Column("fixed", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table("option") as batch:
        batch.drop_column("fixed")
    with op.batch_alter_table("question") as batch:
        batch.drop_column("shuffle_options")
        batch.drop_column("display_rule")
    with op.batch_alter_table("survey") as batch:
        batch.drop_column("pages")
