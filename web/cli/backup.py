"""``flask backup``: a consistent copy of the embedded database, taken while the app runs."""

from __future__ import annotations

import contextlib
import os
import sqlite3

import click
from flask.cli import with_appcontext

from web.cli.refusals import refusals_as_errors
from web.core.infrastructure.extensions import db


@click.command("backup")
@click.argument("target", type=click.Path(dir_okay=False))
@with_appcontext
@refusals_as_errors
def backup(target: str) -> None:
    """Copy the SQLite database to TARGET (a new file, readable by its owner only).

    SQLite's online backup reads one consistent state of the file, so the server may keep taking
    answers meanwhile. A PostgreSQL database is backed up with its own tools (pg_dump).
    """
    url = db.engine.url
    if url.get_backend_name() != "sqlite":
        raise click.ClickException(
            "the database is PostgreSQL: back it up with pg_dump (docs/run/production.md)"
        )
    # The target is made new and private before anything is written to it: a backup holds every
    # response and every account's password hash.
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(descriptor)
    source = sqlite3.connect(f"file:{url.database}?mode=ro", uri=True)
    with contextlib.closing(source), contextlib.closing(sqlite3.connect(target)) as copy:
        source.backup(copy)
    click.echo(f"Backed up the database to {target}.")
