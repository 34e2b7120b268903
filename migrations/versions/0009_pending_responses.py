"""Unpublished responses wait in a table of their own, and the publication moves each batch.

Before, every response was written once into ``response`` with ``published`` false, flagged at
its publication, and PostgreSQL's rows of a survey were written again in key order at most
publications (quadratic in the survey's size). Now a response is written into
``pending_response`` and moved into ``response`` by the publication that takes it: two writes,
whatever the survey's size. Unpublished rows move to the new table; ``published`` goes.

The counts per cell of direct answers run with every response, as every other tally does (the
writer adds its group's cells; a publication copies them to the published pair), instead of being
counted from the rows at each publication: their running pair starts as the published one plus
the cells of the responses not yet published.

Revision ID: 0009
Revises: 0008
"""

import json

import sqlalchemy as sa
from alembic import op

from web.core.results.cells import cell_counts, layout

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
    with op.batch_alter_table("group_tally") as batch:
        for name in RUNNING:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
    op.execute("UPDATE group_tally SET n = published_n, noisy_yes = published_yes")
    _count_pending_cells(op.get_bind())


RUNNING = ("n", "noisy_yes")
LAYOUT = (
    "SELECT q.id, q.key, q.kind, q.procedure, o.id, o.key FROM question q "
    "LEFT JOIN option o ON o.question_id = q.id WHERE q.survey_id = :survey "
    "ORDER BY q.position, o.position"
)


def _count_pending_cells(connection) -> None:
    """Add each pending response's cells to the running counts per cell, survey by survey."""
    surveys = connection.execute(sa.text("SELECT DISTINCT survey_id FROM pending_response"))
    for (survey_id,) in surveys.fetchall():
        direct, tallies = layout(connection.execute(sa.text(LAYOUT), {"survey": survey_id}))
        if not direct or not tallies:
            continue
        rows = connection.execute(
            sa.text("SELECT bits FROM pending_response WHERE survey_id = :survey"),
            {"survey": survey_id},
        )
        answers = [json.loads(bits) for (bits,) in rows]
        for (kind, item, cell), (n, yes) in cell_counts(answers, direct, tallies).items():
            updated = connection.execute(
                sa.text(
                    "UPDATE group_tally SET n = n + :n, noisy_yes = noisy_yes + :yes "
                    "WHERE item_kind = :kind AND item_id = :item AND cell = :cell"
                ),
                {"n": n, "yes": yes, "kind": kind, "item": item, "cell": cell},
            )
            if updated.rowcount == 0:
                connection.execute(
                    sa.text(
                        "INSERT INTO group_tally (survey_id, item_kind, item_id, cell, n, "
                        "noisy_yes, published_n, published_yes) "
                        "VALUES (:survey, :kind, :item, :cell, :n, :yes, 0, 0)"
                    ),
                    {"survey": survey_id, "kind": kind, "item": item, "cell": cell, "n": n,
                     "yes": yes},
                )  # fmt: skip


def downgrade():
    with op.batch_alter_table("group_tally") as batch:
        for name in RUNNING:
            batch.drop_column(name)
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
