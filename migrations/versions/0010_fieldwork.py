"""Fieldwork: a submission's idempotency key (hashed), and links for shared field devices.

``submission_key`` holds a keyed hash of every submission id a page sent, so that a resend after a
lost reply is answered as the first send was and stores nothing; on SQLite it has no rowid, so the
table is kept in the order of its random hashes, not of arrival. ``field_device`` holds the links
that set up an interviewer's tablet (the SHA-256 of each secret, a label, whether revoked).

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "submission_key",
        sa.Column("key_hash", sa.LargeBinary(length=16), nullable=False),
        sa.Column("survey_id", sa.Integer(), nullable=False),
        sa.Column("reports_hash", sa.LargeBinary(length=16), nullable=False),
        sa.ForeignKeyConstraint(["survey_id"], ["survey.id"]),
        sa.PrimaryKeyConstraint("key_hash"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "field_device",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("survey_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=100), nullable=False),
        sa.Column("created_on", sa.Date(), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["survey_id"], ["survey.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_field_device_survey_id", "field_device", ["survey_id"])


def downgrade():
    op.drop_index("ix_field_device_survey_id", table_name="field_device")
    op.drop_table("field_device")
    op.drop_table("submission_key")
