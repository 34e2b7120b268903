"""A rule of several conditions in the builder, written as XLSForm's ``relevant`` is
(``${student} = 'yes' and ${age} >= 18``), both ways: the builder's fields state one condition,
and this text any rule a survey file may hold (``all``, ``any``, parentheses)."""

from __future__ import annotations

from flask_babel import gettext as _

from web.core.surveys.display import Rule, read_rule
from web.core.surveys.editing import EditError
from web.core.surveys.problems import Problem
from web.core.surveys.xlsform_flow import RelevantError, relevant_from_rule, rule_from_relevant

# The choice a rule's list shows where the rule is written out (the text is the rule).
WRITTEN_RULE = "@written"


def rule_names(survey) -> dict[str, str]:
    """What a written rule may call a grid's row (``${views_fair}``), with the name a rule gives
    it (``views.fair``)."""
    return {
        f"{row.question_id}_{grid_row.key}": f"{row.question_id}.{grid_row.key}"
        for row in survey.questions
        for grid_row in row.design.rows or ()
    }


def rule_text(rule: Rule | None) -> str:
    """A rule as the builder writes it (empty for none)."""
    return "" if rule is None else relevant_from_rule(rule, set())


def rule_from_text(text: str, names: dict[str, str], place: str) -> Rule:
    """The rule written in ``text``; raises :class:`EditError` on the field ``place`` names."""
    try:
        rule, problems = read_rule(rule_from_relevant(text, set(), names), place)
    except RelevantError as error:
        raise EditError([Problem(place, str(error))]) from None
    if problems or rule is None:
        message = problems[0].message if problems else _("must state a condition")
        raise EditError([Problem(place, message)])
    return rule
