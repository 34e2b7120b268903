"""Unpublished responses wait in a table of their own, and the publication moves each batch.

Before, every response was written once into ``response`` with ``published`` false, flagged at
its publication, and PostgreSQL's rows of a survey were written again in key order at most
publications (quadratic in the survey's size). Now a response is written into
``pending_response`` and moved into ``response`` by the publication that takes it: two writes,
whatever the survey's size. Unpublished rows move to the new table; ``published`` goes.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

KEY = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade():
    op.create_table(
        "pending_response",
        sa.Column("id", KEY, autoincrement=False, nullable=False),
        sa.Column("survey_id", sa.Integer(), nullable=False),
        sa.Column("bits", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["survey_id"], ["survey.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_pending_response_survey_id", "pending_response", ["survey_id"])
    unpublished = "published = " + ("FALSE" if _postgres() else "0")
    op.execute(
        "INSERT INTO pending_response (id, survey_id, bits) "
        f"SELECT id, survey_id, bits FROM response WHERE {unpublished}"
    )
    op.execute(f"DELETE FROM response WHERE {unpublished}")
    op.drop_index("ix_response_survey_id_published", table_name="response")
    with op.batch_alter_table("response") as batch:
        batch.drop_column("published")
    op.create_index("ix_response_survey_id", "response", ["survey_id"])


def downgrade():
    op.drop_index("ix_response_survey_id", table_name="response")
    with op.batch_alter_table("response") as batch:
        batch.add_column(
            sa.Column("published", sa.Boolean(), nullable=False, server_default=sa.true())
        )
    op.create_index("ix_response_survey_id_published", "response", ["survey_id", "published"])
    op.execute(
        "INSERT INTO response (id, survey_id, bits, published) "
        "SELECT id, survey_id, bits, "
        + ("FALSE" if _postgres() else "0")
        + " FROM pending_response"
    )
    op.drop_index("ix_pending_response_survey_id", table_name="pending_response")
    op.drop_table("pending_response")


def _postgres() -> bool:
    return op.get_bind().dialect.name == "postgresql"
