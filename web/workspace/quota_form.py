"""The builder's quotas: one per line, ``id (limit): condition``, the condition written as the
builder writes a rule of several conditions (web/workspace/rule_text.py), both ways."""

from __future__ import annotations

from flask_babel import gettext as _

from web.core.surveys.editing import EditError
from web.core.surveys.flow.quotas import stored_quotas
from web.core.surveys.problems import Problem
from web.core.surveys.xlsform.flow import RelevantError, quotas_cell, quotas_from_cell
from web.workspace.rule_text import rule_reader


def quotas_text(survey) -> str:
    """The survey's quotas as the form shows them, one per line."""
    return quotas_cell(stored_quotas(survey.quotas), set(), "\n")


def quotas_from_text(text: str, survey) -> list[dict] | None:
    """The quotas typed (a file's ``quotas``), or None for none; raises :class:`EditError` with
    the line that cannot be read."""
    if not text.strip():
        return None
    try:
        return quotas_from_cell(text, rule_reader(survey))
    except RelevantError as error:
        raise EditError([Problem("quotas", str(error))]) from None


def on_quota_field(problem: Problem) -> Problem:
    """A quota's mistake on the quotas' field, naming the quota by its line."""
    if not problem.place.startswith("quotas["):
        return problem
    number = int(problem.place.split("[", 1)[1].split("]", 1)[0]) + 1
    return Problem("quotas", _("Quota %(number)d: %(message)s", number=number,
                               message=problem.message))  # fmt: skip
