"""Researchers' sessions kept on the server (``researcher_session``): ending one, here or on the
account page, ends every copy of its cookie; web/core/models/sessions.py. A session opened before
this revision has no row and ends: its researcher logs in again.

Revision ID: 0020
Revises: 0019
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "researcher_session",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("user.id"), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("device", sa.String(40), nullable=False),
        sa.Column("signed_in_at", sa.DateTime(), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_researcher_session_user_id", "researcher_session", ["user_id"])


def downgrade():
    op.drop_index("ix_researcher_session_user_id", "researcher_session")
    op.drop_table("researcher_session")
