"""Quotas and screen-outs: a survey's quotas (``quotas``, web/core/surveys/flow/quotas.py), and the
counts the fieldwork keeps apart from any response (``fieldwork_count``: completes per quota,
respondents screened out per page; no time).

Revision ID: 0018
Revises: 0017
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("survey") as batch:
        batch.add_column(sa.Column("quotas", sa.JSON(none_as_null=True), nullable=True))
    op.create_table(
        "fieldwork_count",
        sa.Column("survey_id", sa.Integer(), sa.ForeignKey("survey.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("quota_limit", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("survey_id", "kind", "key"),
    )


def downgrade():
    op.drop_table("fieldwork_count")
    with op.batch_alter_table("survey") as batch:
        batch.drop_column("quotas")
