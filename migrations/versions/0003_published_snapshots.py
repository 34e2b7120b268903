"""Published snapshots and unordered storage.

Responses get random keys (existing ones are re-keyed, and on PostgreSQL written again in key
order) and a published flag; surveys and tallies get the published snapshot, which starts with
everything already stored, and each survey its batch size and a count of its edits.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TALLIES = ("question", "option")


def upgrade():
    postgres = op.get_bind().dialect.name == "postgresql"
    with op.batch_alter_table("survey") as batch:
        for column in ("published_count", "publication", "edits"):
            batch.add_column(sa.Column(column, sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(
            sa.Column("results_batch", sa.Integer(), nullable=False, server_default="5")
        )
    for table in TALLIES:
        with op.batch_alter_table(table) as batch:
            for column in ("published_n", "published_yes"):
                batch.add_column(
                    sa.Column(column, sa.Integer(), nullable=False, server_default="0")
                )
    with op.batch_alter_table("response") as batch:
        batch.add_column(
            sa.Column("published", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        if postgres:
            batch.alter_column("id", type_=sa.BigInteger(), server_default=None)
    op.drop_index("ix_response_survey_id", table_name="response")
    op.create_index("ix_response_survey_id_published", "response", ["survey_id", "published"])
    if postgres:
        op.execute("DROP SEQUENCE IF EXISTS response_id_seq CASCADE")
        # random() has 52 random bits: enough to leave the old order behind.
        op.execute("UPDATE response SET id = 1 + floor(random() * 9223372036854775000)::bigint")
        op.execute(
            "WITH moved AS (DELETE FROM response RETURNING id, survey_id, bits) "
            "INSERT INTO response (id, survey_id, bits) SELECT * FROM moved ORDER BY id"
        )
    else:
        # The key is SQLite's rowid, which orders the table: a random key leaves no order.
        op.execute("UPDATE response SET id = 1 + (random() & 9223372036854775806)")
    # Everything stored before this version was already shown: it is the first snapshot.
    op.execute("UPDATE response SET published = " + ("TRUE" if postgres else "1"))
    op.execute(
        "UPDATE survey SET published_count = response_count, "
        "publication = CASE WHEN response_count > 0 THEN 1 ELSE 0 END"
    )
    for table in TALLIES:
        op.execute(f'UPDATE "{table}" SET published_n = n, published_yes = noisy_yes')


def downgrade():
    op.drop_index("ix_response_survey_id_published", table_name="response")
    op.create_index("ix_response_survey_id", "response", ["survey_id"])
    with op.batch_alter_table("response") as batch:
        batch.drop_column("published")
    for table in TALLIES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("published_yes")
            batch.drop_column("published_n")
    with op.batch_alter_table("survey") as batch:
        for column in ("edits", "results_batch", "publication", "published_count"):
            batch.drop_column(column)
