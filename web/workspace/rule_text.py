"""A rule of several conditions in the builder, written as XLSForm's ``relevant`` is
(``${student} = 'yes' and ${age} >= 18``), both ways: the builder's fields state one condition,
and this text any rule a survey file may hold (``all``, ``any``, parentheses). The builder's
quotas are written the same way (web/workspace/quota_form.py)."""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext as _

from web.core.surveys.editing import EditError
from web.core.surveys.flow.display import Rule, read_rule
from web.core.surveys.problems import Problem
from web.core.surveys.xlsform.columns import YES_NO_LIST
from web.core.surveys.xlsform.flow import RelevantError, relevant_from_rule, rule_from_relevant

# The choice a rule's list shows where the rule is written out (the text is the rule).
WRITTEN_RULE = "@written"


def rule_reader(survey) -> Callable[[str], dict]:
    """How the builder reads a rule written for ``survey`` (as a file's ``show_if``; raises
    :class:`RelevantError`): a grid's row as ``${views.fair}`` or ``${views_fair}``, and a yes/no
    question's answers as ``'yes'``/``'no'`` or, as XLSForm writes them, ``'1'``/``'0'``."""
    names = {
        f"{row.question_id}_{grid_row.key}": f"{row.question_id}.{grid_row.key}"
        for row in survey.questions
        for grid_row in row.design.rows or ()
    }
    yes_no = {row.question_id for row in survey.questions if row.type.xlsform_list == YES_NO_LIST}
    # Each question's answers (a grid's row: the grid's), so that != reads as every other one.
    answers = {row.question_id: [option.key for option in row.options] for row in survey.questions}
    answers |= {name: answers[grid] for name in names.values()
                for grid in [name.split(".", 1)[0]]}  # fmt: skip
    return lambda text: rule_from_relevant(text, yes_no, names, answers)


def rule_text(rule: Rule | None) -> str:
    """A rule as the builder writes it (empty for none)."""
    return "" if rule is None else relevant_from_rule(rule, set())


def rule_from_text(text: str, read: Callable[[str], dict], place: str) -> Rule:
    """The rule written in ``text`` (``read`` by :func:`rule_reader`); raises :class:`EditError`
    on the field ``place`` names."""
    try:
        rule, problems = read_rule(read(text), place)
    except RelevantError as error:
        raise EditError([Problem(place, str(error))]) from None
    if problems or rule is None:
        message = problems[0].message if problems else _("must state a condition")
        raise EditError([Problem(place, message)])
    return rule
