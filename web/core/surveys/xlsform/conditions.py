"""A split-ballot experiment in XLSForm (:mod:`web.core.surveys.xlsform`).

- ``settings`` sheet: ``rr_conditions``, the conditions and their shares, ``direct:1;spin:1``.
- ``survey`` sheet: a question asked by condition is a row per condition it is asked in, each
  with its condition's design in the usual ``rr_`` columns, ``rr_condition`` naming the
  condition and ``rr_question`` the question's id; its ``name`` is ``<id>_<condition>`` (XLSForm
  names must be distinct, and ``@`` is no name's), and its options list is named the same. The
  rows of one question share its wording and options. ``rr_known_prevalence`` is an item's known
  share, ``rr_correct`` a comprehension check's right option.

ODK and pyxform read every row as a question of its own: only this app's page draws the
condition and shows one condition's rows.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from web.core.surveys.flow.conditions import Condition, grouped_for_file

CONDITION_COLUMNS = ("rr_condition", "rr_question", "rr_known_prevalence", "rr_correct")


def conditions_cell(conditions: tuple[Condition, ...]) -> str:
    """The ``rr_conditions`` setting: ``id:share`` pairs, ``;`` between them."""
    return ";".join(f"{condition.id}:{float(condition.share):.15g}" for condition in conditions)


def conditions_from_cell(value: Any) -> list[dict] | str:
    """The conditions a ``rr_conditions`` setting states, as a survey file writes them; or what
    is wrong with its form (the survey file's checks name the rest)."""
    conditions = []
    for part in str(value).split(";"):
        name, colon, share = part.strip().partition(":")
        try:
            number: Any = float(share)
        except ValueError:
            number = share
        if not colon or not name.strip():
            return _("rr_conditions must be id:share pairs separated by ';', got %(value)r",
                     value=value)  # fmt: skip
        conditions.append({"id": name.strip(), "share": number})
    return conditions


def row_name(key: str, condition: str | None) -> str:
    """A question row's ``name`` in the survey sheet."""
    return key if condition is None else f"{key}_{condition}"


def condition_cells(question) -> list[Any]:
    """A question row's cells of :data:`CONDITION_COLUMNS`."""
    return [
        question.condition,
        question.key if question.condition is not None else None,
        question.known_prevalence,
        question.correct,
    ]


def experiment_fields(cells: dict) -> dict:
    """What a row's experiment columns add to its question."""
    fields: dict[str, Any] = {}
    for column, name in (("rr_known_prevalence", "known_prevalence"), ("rr_correct", "correct")):
        if cells.get(column) is not None:
            value = cells[column]
            fields[name] = str(value) if name == "correct" else _float_or_text(value)
    return fields


def grouped_questions(questions: list[dict], rows: list[int], cells_of: list[dict]):
    """The sheet's questions with a question's rows by condition made one (with ``asked``), and
    the sheet row of each; or the rows that disagree on what a question shares."""
    tagged: list[tuple[str | None, dict]] = []
    first_row: dict[str, int] = {}
    shared: dict[str, tuple] = {}
    problems = []
    numbers = []
    for question, number, cells in zip(questions, rows, cells_of, strict=True):
        condition = cells.get("rr_condition")
        if condition is None:
            tagged.append((None, question))
            numbers.append(number)
            continue
        key = str(cells.get("rr_question") or "")
        question = question | {"id": key}
        common = (question.get("text"), question.get("options"), question.get("type"))
        if key in shared and shared[key] != common:
            problems.append(
                _(
                    "survey row %(row)d: the rows of question %(id)r must share its wording, type "
                    "and options",
                    row=number,
                    id=key,
                )  # fmt: skip
            )
        shared.setdefault(key, common)
        if key not in first_row:
            first_row[key] = number
            numbers.append(number)
        tagged.append((str(condition), question))
    return grouped_for_file(tagged), numbers, problems


def _float_or_text(value: Any) -> Any:
    try:
        return float(value)
    except (TypeError, ValueError):
        return value
