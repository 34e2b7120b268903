"""Responses are keyed by survey, then by their random key; on SQLite the rows live in that key.

Before, ``response`` and ``pending_response`` were keyed by the random key alone, with an index on
``survey_id`` beside it: every response stored or published wrote a page at a random place in the
table and another in the index. Now the primary key is (survey_id, id), the index goes, and
SQLite keeps each table as that one B-tree (``WITHOUT ROWID``). PostgreSQL keeps its heap and
swaps the two indexes for the one of the new key.

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

KEY = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TABLES = ("response", "pending_response")


def upgrade():
    for table in TABLES:
        op.drop_index(f"ix_{table}_survey_id", table_name=table)
        if _postgres():
            op.drop_constraint(f"{table}_pkey", table, type_="primary")
            op.create_primary_key(f"{table}_pkey", table, ["survey_id", "id"])
        else:
            _rebuild(table, ["survey_id", "id"], sqlite_with_rowid=False)


def downgrade():
    for table in TABLES:
        if _postgres():
            op.drop_constraint(f"{table}_pkey", table, type_="primary")
            op.create_primary_key(f"{table}_pkey", table, ["id"])
        else:
            _rebuild(table, ["id"])
        op.create_index(f"ix_{table}_survey_id", table, ["survey_id"])


def _rebuild(table: str, key: list[str], **options) -> None:
    """SQLite: the table made again with ``key`` as its primary key, its rows copied over."""
    new = f"{table}_rebuilt"
    op.create_table(
        new,
        sa.Column("survey_id", sa.Integer(), nullable=False),
        sa.Column("id", KEY, autoincrement=False, nullable=False),
        sa.Column("bits", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["survey_id"], ["survey.id"]),
        sa.PrimaryKeyConstraint(*key),
        **options,
    )
    op.execute(f"INSERT INTO {new} (survey_id, id, bits) SELECT survey_id, id, bits FROM {table}")
    op.drop_table(table)
    op.rename_table(new, table)


def _postgres() -> bool:
    return op.get_bind().dialect.name == "postgresql"
