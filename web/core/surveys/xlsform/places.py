"""A validator's mistake in the workbook's words: the sheet, its row and the column as the
author wrote them (``relevant``, never ``show_if``; never a JSON path)."""

from __future__ import annotations

import re

from flask_babel import gettext as _

from web.core.surveys.xlsform.columns import (
    PAGE_PLACE,
    QUESTION_PLACE,
)

# The survey file's fields as the workbook's columns hold them (a question's row, a group's row).
QUESTION_COLUMN_OF = {
    "show_if": "relevant",
    "text": "label",
    "epsilon": "rr_epsilon",
    "procedure": "rr_procedure",
    "epsilon_permanent": "rr_epsilon_permanent",
    "required": "required",
    "max_length": "constraint",
    "min": "constraint",
    "max": "constraint",
    "step": "parameters",
    "shuffle_options": "parameters",
    "options": "choices",
    "known_prevalence": "rr_known_prevalence",
    "correct": "rr_correct",
    "hint": "hint",
    "asked": "rr_condition",
    "type": "type",
    "id": "name",
}


GROUP_COLUMN_OF = {
    "show_if": "relevant",
    "screen_out_if": "rr_screen_out_if",
    "randomize": "parameters",
    "title": "label",
    "questions": "name",
    "id": "name",
}


SETTING_COLUMN_OF = {
    "quotas": "rr_quotas", "conditions": "rr_conditions", "slug": "form_id",
    "title": "form_title", "panel": "rr_panel_parameters",
}  # fmt: skip


XLSFORM_REFERENCE = re.compile(r"\$\{([A-Za-z][A-Za-z0-9_]*)\}")


FIELD_PLACE = re.compile(r"\A\.([a-z_]+)")


SETTING_PLACE = re.compile(r"\A([a-z_]+)[.\[:]")


def by_row(problem: str, places: tuple[list[int], list[int]]) -> str:
    """A validator's mistake, found in the survey file the sheets were read into, said as the
    workbook's author wrote it: the sheet, its row and the column (``relevant``, never
    ``show_if``; no JSON path)."""
    rows, page_rows = places
    page = PAGE_PLACE.match(problem)
    if page:
        group = page_rows[int(page[1])] if int(page[1]) < len(page_rows) else 0
        at = _("survey row %(row)d", row=group) if group else "survey"
        return at + _in_column(problem[page.end() :], GROUP_COLUMN_OF)
    match = QUESTION_PLACE.match(problem)
    if not match:
        setting = SETTING_PLACE.match(problem)
        if setting and setting[1] in SETTING_COLUMN_OF:
            column = SETTING_COLUMN_OF[setting[1]]
            return _("settings, column %(column)s", column=column) + _message_of(problem)
        return f"settings: {problem}"
    row = rows[int(match[1])] if int(match[1]) < len(rows) else None
    rest = problem[match.end() :]
    where = _("survey row %(row)d", row=row) if row else "survey"
    if match[2] is not None:
        where += " " + _("option %(number)d", number=int(match[2]) + 1)
    return where + _in_column(rest, QUESTION_COLUMN_OF)


def _in_column(rest: str, columns: dict[str, str]) -> str:
    """``.show_if.question: why`` as ``, column relevant: why``; a field of no column of its own
    keeps its message alone."""
    field = FIELD_PLACE.match(rest)
    if field is None:
        return rest
    column = columns.get(field[1])
    message = _message_of(rest)
    return _(", column %(column)s", column=column) + message if column else message


def _message_of(problem: str) -> str:
    """The words after a problem's place: ``: why``."""
    _place, colon, message = problem.partition(": ")
    return f": {message}" if colon else f": {problem}"
