"""How a ``flask`` command refuses: a mistake the user can cause is one line on stderr and exit
status 1, never a traceback."""

from __future__ import annotations

import functools

import click
from sqlalchemy.exc import IntegrityError, OperationalError

from web.core.infrastructure.extensions import db
from web.core.infrastructure.sqlite_guard import AnotherWriter


def refusals_as_errors(command):
    """Turn the refusals a user can cause into one line on stderr and exit status 1, not a
    traceback: another process writing the SQLite file, a database that cannot be reached or is
    busy, a unique value taken by a concurrent writer, a file that cannot be read or written."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except AnotherWriter as error:
            raise click.ClickException(str(error)) from None
        except IntegrityError:
            db.session.rollback()
            raise click.ClickException(
                "not saved: another process stored the same value just now"
            ) from None
        except OperationalError as error:
            raise click.ClickException(f"the database refused: {_first_line(error.orig)}") from None
        except OSError as error:
            raise click.ClickException(f"{error.filename or 'file'}: {error.strerror}") from None

    return run


def _first_line(error: BaseException | None) -> str:
    return (
        str(error).strip().splitlines()[0]
        if error is not None and str(error).strip()
        else "no reason given"
    )
