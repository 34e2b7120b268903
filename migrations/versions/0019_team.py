"""A survey's team: the accounts it is shared with and their roles (``survey_member``), and the
audit log of what researchers did to it (``audit_event``, to the minute); web/core/models/team.py.

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "survey_member",
        sa.Column("survey_id", sa.Integer(), sa.ForeignKey("survey.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("user.id"), nullable=False),
        sa.Column("role", sa.String(10), nullable=False),
        sa.PrimaryKeyConstraint("survey_id", "user_id"),
    )
    op.create_index("ix_survey_member_user_id", "survey_member", ["user_id"])
    op.create_table(
        "audit_event",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("survey_id", sa.Integer(), sa.ForeignKey("survey.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("user.id"), nullable=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_audit_event_survey_id", "audit_event", ["survey_id"])


def downgrade():
    op.drop_index("ix_audit_event_survey_id", "audit_event")
    op.drop_table("audit_event")
    op.drop_index("ix_survey_member_user_id", "survey_member")
    op.drop_table("survey_member")
