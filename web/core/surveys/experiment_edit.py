"""Declaring a survey's split ballot from the builder: its conditions with their shares, and for
each question whether every condition asks it the same way or how each one asks it (the
builder's form of a file's ``conditions`` and ``asked``, :mod:`web.core.surveys.flow.conditions`).
The survey is checked whole by the one validator, then its questions' rows are made again from
it: a survey with responses keeps its experiment."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from flask_babel import gettext as _

from web.core.infrastructure.extensions import db
from web.core.models import Question, Survey
from web.core.surveys.designs import NO_PARAMETERS, design_named
from web.core.surveys.editing import EditError, new_revision
from web.core.surveys.flow.conditions import Condition
from web.core.surveys.problems import Problem
from web.core.surveys.specs import QuestionSpec, SurveySpec
from web.core.surveys.survey_checks import survey_problems


@dataclass(frozen=True)
class Asking:
    """How one condition asks a question: its procedure, and ε where the procedure takes one
    (a spinner's; a design's comes from its parameters, kept from the question's rows)."""

    procedure: str
    epsilon: float | None = None


def experiment_spec(
    survey: Survey,
    conditions: tuple[Condition, ...],
    asked: Mapping[str, Mapping[str, Asking]],
) -> SurveySpec:
    """The survey with ``conditions`` and each question as ``asked`` says, by question id: how
    each condition that asks it asks it (a condition left out does not ask it), or, for a question
    not in ``asked``, the same way in every condition (as its first row asks it now). Without
    conditions every question is asked one way."""
    spec = survey.to_spec()
    rows: dict[str, list[QuestionSpec]] = {}
    for question in spec.questions:
        rows.setdefault(question.key, []).append(question)
    questions: list[QuestionSpec] = []
    for key, found in rows.items():
        each = asked.get(key) if conditions else None
        if not each:
            questions.append(replace(found[0], condition=None))
            continue
        for condition in conditions:
            if condition.id in each:
                questions.append(_asked_in(found, condition.id, each[condition.id]))
    return replace(spec, conditions=conditions, questions=tuple(questions))


def _asked_in(found: list[QuestionSpec], condition: str, asking: Asking) -> QuestionSpec:
    """A question's row for one condition: its design's parameters kept from the row that asks
    it so now (that condition's first, then any), none for a spinner or a new design."""
    same = [row for row in found if row.procedure == asking.procedure]
    same.sort(key=lambda row: row.condition != condition)
    design = same[0].design if same else NO_PARAMETERS
    spinner = not design_named(asking.procedure).derived
    return replace(
        found[0],
        condition=condition,
        procedure=asking.procedure,
        epsilon=asking.epsilon if spinner else None,
        design=design,
    )


def set_experiment(
    survey: Survey,
    conditions: tuple[Condition, ...],
    asked: Mapping[str, Mapping[str, Asking]],
) -> None:
    """Declare the survey's split ballot (:func:`experiment_spec`), after the checks a survey file
    goes through; its questions' rows are made again, in the same order. Refused once the survey
    has responses: every estimate uses the design its responses were collected under."""
    new_revision(survey)
    if survey.response_count > 0:
        raise EditError([Problem("conditions", _(
            "The survey has responses, so its experiment is fixed."))])  # fmt: skip
    spec = experiment_spec(survey, conditions, asked)
    problems = survey_problems(spec, complete=False)
    if problems:
        raise EditError(problems)
    languages = survey.language_list
    for row in list(survey.questions):
        survey.questions.remove(row)
        db.session.delete(row)
    db.session.flush()  # the old rows go first: a new row may take an old one's key
    for position, asked_spec in enumerate(spec.questions):
        survey.questions.append(Question.from_spec(asked_spec, position, languages))
    survey.conditions = [condition.to_dict() for condition in conditions] or None
    survey.edits += 1
