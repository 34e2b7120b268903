"""A yes/no question's design parameters (forced response, unrelated question, crosswise,
cheating detection), and the counts of cheating detection's second arm.

Existing questions keep their spinner procedure and get an empty object: their numbers do not
change.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

ARM_COUNTS = ("arm_n", "arm_yes", "published_arm_n", "published_arm_yes")


def upgrade():
    with op.batch_alter_table("question") as batch:
        batch.add_column(
            sa.Column(
                "design_parameters", sa.JSON(), nullable=False, server_default=sa.text("'{}'")
            )
        )
        for name in ARM_COUNTS:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))


def downgrade():
    with op.batch_alter_table("question") as batch:
        for name in ARM_COUNTS:
            batch.drop_column(name)
        batch.drop_column("design_parameters")
