"""Invitations to a survey's team for colleagues with no account yet (``invitation``): a
single-use link, kept as its SHA-256, that expires; web/core/models/invitations.py.

Revision ID: 0021
Revises: 0020
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "invitation",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("survey_id", sa.Integer(), sa.ForeignKey("survey.id"), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("invited_by", sa.Integer(), sa.ForeignKey("user.id"), nullable=True),
    )
    op.create_index("ix_invitation_survey_id", "invitation", ["survey_id"])


def downgrade():
    op.drop_index("ix_invitation_survey_id", "invitation")
    op.drop_table("invitation")
