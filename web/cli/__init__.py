"""The ``flask`` commands, one module per group: surveys in and out (``surveys``), accounts and a
survey's team (``accounts``), results and analysis (``results``), fieldwork and shared devices
(``fieldwork``), series and planning (``planning``), and a copy of the embedded database
(``backup``). Each command looks a survey or an account up
by name (``lookup``) and refuses a user's mistake in one line (``refusals``). Commands use
``web.core`` and ``rr``, never a blueprint's module."""

from __future__ import annotations

from flask import Flask

from web.cli import accounts, backup, fieldwork, planning, results, surveys

COMMANDS = (
    surveys.import_survey,
    surveys.export_survey,
    surveys.simulate,
    accounts.create_user,
    accounts.create_token,
    accounts.reset_password,
    accounts.end_sessions,
    accounts.share,
    accounts.audit,
    accounts.roles,
    results.results,
    results.methods,
    results.regress,
    results.joint,
    results.synthesize,
    results.experiment,
    fieldwork.fieldwork,
    fieldwork.field_device,
    planning.plan_change,
    planning.trend,
    planning.next_wave_command,
    backup.backup,
)


def init_app(app: Flask) -> None:
    """Register every command on ``app``."""
    for command in COMMANDS:
        app.cli.add_command(command)
