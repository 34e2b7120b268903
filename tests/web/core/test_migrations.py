"""Schema migrations: they make the models' schema, and a database from the first release that
stored responses (made before migrations existed) upgrades with every row intact."""

import datetime
import json

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    Boolean,
    Column,
    Date,
    Double,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    inspect,
)

from tests.conftest import ON_POSTGRES
from web.core.infrastructure.database import MIGRATIONS, upgrade_database
from web.core.infrastructure.extensions import db
from web.core.models import (
    ApiToken,
    GroupTally,
    Option,
    PendingResponse,
    Question,
    Response,
    Survey,
    User,
)
from web.core.results.figures import survey_results

HEAD = "0023"


def empty_database():
    """Drop every table, the version table too: a database as a first deployment finds it."""
    db.drop_all()
    with db.engine.begin() as connection:
        connection.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")


def current_revision() -> str | None:
    with db.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def test_the_migrations_make_the_schema_of_the_models(app):
    with app.app_context():
        empty_database()
        upgrade_database()
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert differences == []
        assert current_revision() == HEAD


def first_release_schema() -> MetaData:
    """The tables as `db.create_all()` made them at commit 4f8ccd1, written out by hand."""
    metadata = MetaData()
    Table(
        "user",
        metadata,
        Column("id", Integer, primary_key=True),
        Column("email", String(254), nullable=False, unique=True),
        Column("password_hash", String(256), nullable=False),
    )
    Table(
        "api_token",
        metadata,
        Column("id", Integer, primary_key=True),
        Column("user_id", ForeignKey("user.id"), nullable=False, index=True),
        Column("token_hash", String(64), nullable=False, unique=True),
        Column("label", String(100), nullable=False),
        Column("created_on", Date, nullable=False),
        Column("revoked", Boolean, nullable=False),
    )
    Table(
        "survey",
        metadata,
        Column("id", Integer, primary_key=True),
        Column("slug", String(64), nullable=False, unique=True),
        Column("title", String(200), nullable=False),
        Column("description", Text, nullable=False),
        Column("status", String(10), nullable=False),
        Column("owner_id", ForeignKey("user.id"), index=True),
        Column("response_count", Integer, nullable=False),
    )
    Table(
        "question",
        metadata,
        Column("id", Integer, primary_key=True),
        Column("survey_id", ForeignKey("survey.id"), nullable=False, index=True),
        Column("key", String(64), nullable=False),
        Column("position", Integer, nullable=False),
        Column("kind", String(10), nullable=False),
        Column("text", Text, nullable=False),
        Column("epsilon", Double, nullable=False),
        Column("procedure", String(20), nullable=False),
        Column("n", Integer, nullable=False),
        Column("noisy_yes", Integer, nullable=False),
        UniqueConstraint("survey_id", "key"),
    )
    Table(
        "option",
        metadata,
        Column("id", Integer, primary_key=True),
        Column("question_id", ForeignKey("question.id"), nullable=False, index=True),
        Column("key", String(64), nullable=False),
        Column("position", Integer, nullable=False),
        Column("text", Text, nullable=False),
        Column("n", Integer, nullable=False),
        Column("noisy_yes", Integer, nullable=False),
        UniqueConstraint("question_id", "key"),
    )
    Table(
        "response",
        metadata,
        Column("id", Integer, primary_key=True),
        Column("survey_id", ForeignKey("survey.id"), nullable=False, index=True),
        Column("bits", Text, nullable=False),
    )
    return metadata  # fmt: skip


RESPONSES = [{"cheated": 1, "drugs": {"a": 0, "b": 1}}, {"cheated": 0, "drugs": {"a": 1, "b": 1}}]


def fill(connection, tables) -> None:
    connection.execute(
        tables["user"].insert(),
        [{"id": 1, "email": "ada@example.org", "password_hash": "scrypt:x"}],
    )
    connection.execute(
        tables["api_token"].insert(),
        [
            {
                "id": 1,
                "user_id": 1,
                "token_hash": "f" * 64,
                "label": "r",
                "created_on": datetime.date(2026, 11, 1),
                "revoked": False,
            }
        ],
    )
    connection.execute(
        tables["survey"].insert(),
        [
            {
                "id": 1,
                "slug": "old",
                "title": "Old",
                "description": "",
                "status": "open",
                "owner_id": 1,
                "response_count": 2,
            }
        ],
    )
    connection.execute(
        tables["question"].insert(),
        [
            {
                "id": 1,
                "survey_id": 1,
                "key": "cheated",
                "position": 0,
                "kind": "yesno",
                "text": "Cheated?",
                "epsilon": 1.0,
                "procedure": "spinner_coin",
                "n": 2,
                "noisy_yes": 1,
            },
            {
                "id": 2,
                "survey_id": 1,
                "key": "drugs",
                "position": 1,
                "kind": "multi",
                "text": "Used?",
                "epsilon": 0.5,
                "procedure": "spinner",
                "n": 0,
                "noisy_yes": 0,
            },
        ],
    )
    connection.execute(
        tables["option"].insert(),
        [
            {
                "id": 1,
                "question_id": 2,
                "key": "a",
                "position": 0,
                "text": "A",
                "n": 2,
                "noisy_yes": 1,
            },
            {
                "id": 2,
                "question_id": 2,
                "key": "b",
                "position": 1,
                "text": "B",
                "n": 2,
                "noisy_yes": 2,
            },
        ],
    )
    rows = [
        {"id": i + 1, "survey_id": 1, "bits": json.dumps(bits)} for i, bits in enumerate(RESPONSES)
    ]
    connection.execute(tables["response"].insert(), rows)


def test_a_database_of_the_first_release_upgrades_with_its_data(app):
    with app.app_context():
        empty_database()
        old = first_release_schema()
        old.create_all(db.engine)
        with db.engine.begin() as connection:
            fill(connection, old.tables)
        assert "revision" not in {
            column["name"] for column in inspect(db.engine).get_columns("survey")
        }

        upgrade_database()

        db.session.remove()
        user = db.session.scalar(db.select(User))
        assert user.email == "ada@example.org" and user.password_hash == "scrypt:x"
        token = db.session.scalar(db.select(ApiToken))
        assert (token.token_hash, token.user_id, token.revoked) == ("f" * 64, 1, False)
        survey = db.session.scalar(db.select(Survey))
        assert (survey.slug, survey.revision, survey.join_code, survey.response_count) == (
            "old",
            1,
            None,
            2,
        )
        rows = list(db.session.execute(db.select(Response.id, Response.bits)))
        # Re-keyed at random: the same rows, all published, keys no longer 1, 2, 3, …
        assert sorted(json.dumps(json.loads(row.bits), sort_keys=True) for row in rows) == sorted(
            json.dumps(response, sort_keys=True) for response in RESPONSES
        )
        assert db.session.scalar(db.select(db.func.count()).select_from(PendingResponse)) == 0
        assert sorted(row.id for row in rows) != list(range(1, len(rows) + 1))
        assert [
            (q.key, q.n, q.noisy_yes)
            for q in db.session.scalars(db.select(Question).order_by(Question.id))
        ] == [("cheated", 2, 1), ("drugs", 0, 0)]
        assert [
            (o.key, o.n, o.noisy_yes)
            for o in db.session.scalars(db.select(Option).order_by(Option.id))
        ] == [("a", 2, 1), ("b", 2, 2)]
        # What was shown before the upgrade is the first published snapshot.
        results = survey_results(survey, min_n=1)
        assert results.n == 2 and results.publication == 1
        assert results.questions[0].items[0].n == 2 and results.questions[1].items[1].noisy_yes == 2
        upgrade_database()  # a second upgrade finds nothing to do
        assert current_revision() == HEAD


@pytest.mark.parametrize("columns", ["with", "without"])
def test_an_unversioned_database_is_recognised_by_its_columns(app, columns):
    # A database that yesterday's main made already has revision and join_code: nothing to add.
    with app.app_context():
        if columns == "without":
            empty_database()
            first_release_schema().create_all(db.engine)
        upgrade_database()
        names = {column["name"] for column in inspect(db.engine).get_columns("survey")}
        assert {"revision", "join_code"} <= names


GROUPED = {
    "slug": "grouped-old",
    "title": "Grouped",
    "questions": [
        {"id": "year", "type": "direct", "text": "Year?",
         "options": [{"id": "first", "text": "First"}, {"id": "fourth", "text": "Fourth"}]},
        {"id": "cheated", "type": "yesno", "text": "Cheated?", "epsilon": 1.0,
         "procedure": "spinner_coin"},
    ],
}  # fmt: skip


def test_unpublished_responses_move_to_the_pending_table_and_count_in_their_cells(
    app, import_survey
):
    # A database at 0008 kept every response in one table, flagged published or not, and counted
    # a response in its cell of direct answers only once it was published.
    slug = import_survey(GROUPED)
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=slug))
        survey_id, cheated = survey.id, survey.questions[1].id
        db.session.remove()
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0008")
        flag = {True: "TRUE", False: "FALSE"} if ON_POSTGRES else {True: "1", False: "0"}
        rows = (
            (11, '{"year":"first","cheated":1}', True),
            (12, '{"year":"first","cheated":0}', True),
            (13, '{"year":"fourth","cheated":0}', False),
            (14, '{"year":"first","cheated":1}', False),
        )
        with db.engine.begin() as connection:
            for key, bits, published in rows:
                connection.exec_driver_sql(
                    "INSERT INTO response (id, survey_id, bits, published) "
                    f"VALUES ({key}, {survey_id}, '{bits}', {flag[published]})"
                )
            connection.exec_driver_sql(
                "INSERT INTO group_tally (survey_id, item_kind, item_id, cell, published_n, "
                f"published_yes) VALUES ({survey_id}, 'question', {cheated}, "
                """'{"year": "first"}', 2, 1)"""
            )

        upgrade_database()

        assert sorted(db.session.scalars(db.select(Response.id))) == [11, 12]
        assert sorted(db.session.scalars(db.select(PendingResponse.id))) == [13, 14]
        cells = {
            json.loads(tally.cell)["year"]: (
                tally.n, tally.noisy_yes, tally.published_n, tally.published_yes
            )
            for tally in db.session.scalars(db.select(GroupTally))
        }  # fmt: skip
        assert cells == {"first": (3, 2, 2, 1), "fourth": (1, 0, 0, 0)}
        assert current_revision() == HEAD


def test_a_database_not_yet_upgraded_gets_the_demo_once_it_is(app, app_like):
    # The last release's database, no survey yet: starting the new code must not write the demo
    # through columns the database does not have yet; the upgrade at the server's start adds
    # them, and then the demo.
    from web.core.startup import prepare_database

    with app.app_context():
        empty_database()
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0012")
    started = app_like(DEMO_SURVEY=True)
    with started.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Survey)) == 0
    prepare_database(started)
    with started.app_context():
        assert current_revision() == HEAD
        assert db.session.scalar(db.select(Survey.slug)) == "campus-life"


def clustered(table: str) -> bool:
    """Whether SQLite keeps the table's rows in its primary key (``WITHOUT ROWID``)."""
    with db.engine.connect() as connection:
        sql = connection.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).scalar_one()
    return sql.rstrip().upper().endswith("WITHOUT ROWID")


def test_responses_are_keyed_by_survey_and_keep_their_rows_through_the_change(app, import_survey):
    slug = import_survey(GROUPED)
    with app.app_context():
        survey_id = db.session.scalar(db.select(Survey.id).filter_by(slug=slug))
        db.session.remove()
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0013")
        for table in ("response", "pending_response"):
            assert inspect(db.engine).get_pk_constraint(table)["constrained_columns"] == ["id"]
            assert ON_POSTGRES or not clustered(table)
        with db.engine.begin() as connection:
            for table, key in (("response", 21), ("pending_response", 22)):
                connection.exec_driver_sql(
                    f"INSERT INTO {table} (id, survey_id, bits) "
                    f"VALUES ({key}, {survey_id}, '{{\"cheated\":1}}')"
                )

        upgrade_database()

        schema = inspect(db.engine)
        for table in ("response", "pending_response"):
            key = schema.get_pk_constraint(table)["constrained_columns"]
            assert key == ["survey_id", "id"]
            assert schema.get_indexes(table) == []  # the key serves lookups by survey
            assert ON_POSTGRES or clustered(table)
        assert list(db.session.execute(db.select(Response.survey_id, Response.id))) == [
            (survey_id, 21)
        ]
        assert db.session.scalars(db.select(PendingResponse.id)).all() == [22]
