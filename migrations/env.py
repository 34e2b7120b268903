import logging
from logging.config import fileConfig

from alembic import context
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import current_app
from sqlalchemy import inspect

# this is the Alembic Config object, which provides
# access to the values within the .ini file in use.
config = context.config

# Interpret the config file for Python logging.
# This line sets up loggers basically.
# Keep the app's own loggers (and their filters) as they are.
fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")


def get_engine():
    return current_app.extensions["migrate"].db.engine


def get_engine_url():
    return get_engine().url.render_as_string(hide_password=False).replace("%", "%%")


# add your model's MetaData object here
# for 'autogenerate' support
# from myapp import mymodel
# target_metadata = mymodel.Base.metadata
config.set_main_option("sqlalchemy.url", get_engine_url())
target_db = current_app.extensions["migrate"].db

# other values from the config, defined by the needs of env.py,
# can be acquired:
# my_important_option = config.get_main_option("my_important_option")
# ... etc.


def get_metadata():
    if hasattr(target_db, "metadatas"):
        return target_db.metadatas[None]
    return target_db.metadata


def run_migrations_offline():
    """Run migrations in 'offline' mode.

    This configures the context with just a URL
    and not an Engine, though an Engine is acceptable
    here as well.  By skipping the Engine creation
    we don't even need a DBAPI to be available.

    Calls to context.execute() here emit the given string to the
    script output.

    """
    url = config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=get_metadata(), literal_binds=True)

    with context.begin_transaction():
        context.run_migrations()


def stamp_unversioned(connection):
    """A database made before migrations existed has tables but no version: record the release
    that made it, so that upgrading changes only what came later and keeps every row. Ends the
    transaction its reads began, so that the migrations run (and commit) in their own."""
    try:
        migration = MigrationContext.configure(connection)
        inspector = inspect(connection)
        if migration.get_current_revision() is not None or not inspector.has_table("survey"):
            return  # versioned already, or empty: every migration runs
        columns = {column["name"] for column in inspector.get_columns("survey")}
        # 0001 is the first release with responses; 0002 added survey.revision and join_code;
        # 0003 the published snapshot (a database made by the models' create_all, as tests do).
        made_by = "0001"
        if {"revision", "join_code"} <= columns:
            made_by = "0003" if "published_count" in columns else "0002"
            user_columns = {column["name"] for column in inspector.get_columns("user")}
            if made_by == "0003" and "session_generation" in user_columns:
                made_by = "0004"
            if made_by == "0004" and "archived" in columns:
                made_by = "0005"
            if made_by == "0005" and inspector.has_table("group_tally"):
                made_by = "0006"
            if made_by == "0006" and "languages" in columns:
                made_by = "0007"
            question_columns = {column["name"] for column in inspector.get_columns("question")}
            if made_by == "0007" and "design_parameters" in question_columns:
                made_by = "0008"
            if made_by == "0008" and inspector.has_table("pending_response"):
                made_by = "0009"
            if made_by == "0009" and inspector.has_table("submission_key"):
                made_by = "0010"
            if made_by == "0010" and "series" in columns:
                made_by = "0011"
            token_columns = {column["name"] for column in inspector.get_columns("api_token")}
            if made_by == "0011" and "scope" in token_columns:
                made_by = "0012"
            if made_by == "0012" and "conditions" in columns:
                made_by = "0013"
            response_key = inspector.get_pk_constraint("response")["constrained_columns"]
            if made_by == "0013" and response_key == ["survey_id", "id"]:
                made_by = "0014"
            if made_by == "0014" and "required" in question_columns:
                made_by = "0015"
            if made_by == "0015" and "pages" in columns:
                made_by = "0016"
            if made_by == "0016" and "panel" in columns:
                made_by = "0017"
            if made_by == "0017" and "quotas" in columns:
                made_by = "0018"
            if made_by == "0018" and inspector.has_table("survey_member"):
                made_by = "0019"
            if made_by == "0019" and inspector.has_table("researcher_session"):
                made_by = "0020"
            if made_by == "0020" and inspector.has_table("invitation"):
                made_by = "0021"
            if made_by == "0021" and "hint" in question_columns:
                made_by = "0022"
        logger.info("Unversioned database made by release %s: recorded before upgrading", made_by)
        migration.stamp(ScriptDirectory.from_config(config), made_by)
    finally:
        connection.commit()


def run_migrations_online():
    """Run migrations in 'online' mode.

    In this scenario we need to create an Engine
    and associate a connection with the context.

    """

    # this callback is used to prevent an auto-migration from being generated
    # when there are no changes to the schema
    # reference: http://alembic.zzzcomputing.com/en/latest/cookbook.html
    def process_revision_directives(context, revision, directives):
        if getattr(config.cmd_opts, "autogenerate", False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info("No changes in schema detected.")

    conf_args = current_app.extensions["migrate"].configure_args
    if conf_args.get("process_revision_directives") is None:
        conf_args["process_revision_directives"] = process_revision_directives

    connectable = get_engine()

    with connectable.connect() as connection:
        stamp_unversioned(connection)
        # SQLite alters a table by copying it and dropping the old one, which its foreign keys
        # forbid while other rows point at it; they are checked again once the migrations ran.
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()  # end the transaction SQLAlchemy began, or nothing is committed
        context.configure(connection=connection, target_metadata=get_metadata(), **conf_args)
        with context.begin_transaction():
            context.run_migrations()
        if sqlite:
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()
            if broken:
                raise RuntimeError(f"the migration left rows whose references are gone: {broken}")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
