"""Texts per language, consent and thank-you texts, completion, schedule and target.

Every existing text becomes its survey's default-language text; a survey's one language is
guessed from its writing (Korean when its title, description or wording has Hangul), as a survey
file without ``languages`` is read.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

from web.core.surveys.texts import guess_language

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

EMPTY = sa.text("'{}'")


def upgrade():
    with op.batch_alter_table("survey") as batch:
        batch.add_column(sa.Column("languages", sa.String(40), nullable=False, server_default="en"))
        batch.add_column(sa.Column("consent", sa.Text(), nullable=False, server_default=""))
        batch.add_column(sa.Column("thanks", sa.Text(), nullable=False, server_default=""))
        batch.add_column(sa.Column("translations", sa.JSON(), nullable=False, server_default=EMPTY))
        batch.add_column(sa.Column("completion_code", sa.String(64), nullable=True))
        batch.add_column(sa.Column("completion_url", sa.String(2000), nullable=True))
        batch.add_column(sa.Column("opens_at", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("closes_at", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("target_n", sa.Integer(), nullable=True))
    for table in ("question", "option"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column("translations", sa.JSON(), nullable=False, server_default=EMPTY)
            )
    connection = op.get_bind()
    surveys = connection.execute(sa.text("SELECT id, title, description FROM survey")).all()
    for survey_id, title, description in surveys:
        wording = connection.execute(
            sa.text(
                "SELECT q.text, o.text FROM question q LEFT JOIN option o "
                "ON o.question_id = q.id WHERE q.survey_id = :id"
            ),
            {"id": survey_id},
        ).all()
        texts = [title, description, *(text for row in wording for text in row if text)]
        if guess_language(texts) != "en":
            connection.execute(
                sa.text("UPDATE survey SET languages = :language WHERE id = :id"),
                {"language": guess_language(texts), "id": survey_id},
            )


def downgrade():
    for table in ("option", "question"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("translations")
    with op.batch_alter_table("survey") as batch:
        for name in (
            "target_n",
            "closes_at",
            "opens_at",
            "completion_url",
            "completion_code",
            "translations",
            "thanks",
            "consent",
            "languages",
        ):
            batch.drop_column(name)
