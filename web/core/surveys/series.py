"""Repeated surveys: a survey may be one wave of a named series, owned as its waves are.

Waves share their question ids. Once any wave has a response to an item, what respondents spin
for it (type, ε, ε∞, procedure, a design's numbers, option ids) is fixed across the whole series,
so every wave's estimate is on the same scale as the others' and the permanent reports a browser
keeps for the series (static/js/permanent.js) still mean what they meant. Texts may change.
"""

from __future__ import annotations

import dataclasses
import math

from flask_babel import force_locale
from flask_babel import gettext as _

import rr
from web.core.infrastructure.extensions import db
from web.core.models import Option, Question, Survey
from web.core.surveys.limits import MAX_TITLE, MAX_WAVE
from web.core.surveys.problems import Problem
from web.core.surveys.specs import QuestionSpec, SurveySpec
from web.core.surveys.texts import Texts


def spun_parameters(question: Question | QuestionSpec) -> tuple:
    """What a respondent spins for a question, which no response may see change."""
    epsilon = question.derived_epsilon if isinstance(question, QuestionSpec) else question.epsilon
    return (
        question.kind,
        epsilon,
        question.epsilon_permanent,
        question.procedure,
        tuple(option.key for option in question.options),
        question.design.numbers(),
    )


def permanent_report(question: Question) -> rr.PermanentResponse | None:
    """Its permanent randomized response over the series' waves (ε∞ over all of them, ε per
    wave), or None where every wave draws afresh."""
    if question.epsilon_permanent is None:
        return None
    values = question.type.permanent_values(len(question.options))
    return rr.permanent_response(question.epsilon_permanent, question.epsilon, values)


def page_light(question: Question) -> float:
    """The light share the respondent's page spins with: each wave's, on the kept permanent
    report, for a question with one (rr.PermanentResponse.wave_light); else its design's."""
    layers = permanent_report(question)
    if layers is None:
        return question.asked_with.light_fraction(question)
    return layers.wave_light(question.asked_with.page.descriptor["dark"])


def wave_costs(survey: Survey) -> tuple[float, float]:
    """A wave's two privacy costs: what it costs on the questions drawn afresh every wave (no
    ε∞), added up over the waves a browser answers; and the bound over every wave on the
    questions with a permanent report while the answers stay the same (ε∞ per spin). A
    question with no ε bound is in neither, as it is in no survey's total."""
    fresh = rr.survey_epsilon(
        question.type.cost(question)
        for question in survey.questions
        if question.asked_with.protects
        and question.epsilon_permanent is None
        and math.isfinite(question.epsilon)
    )
    kept = rr.survey_epsilon(
        rr.question_epsilon(
            question.epsilon_permanent, question.type.spin_count(len(question.options))
        )
        for question in survey.questions
        if question.epsilon_permanent is not None
    )
    return fresh, kept


def waves_of(series: str, owner_id: int | None) -> list[Survey]:
    """The surveys of ``series`` with this owner (None: the unowned ones), in wave order."""
    query = db.select(Survey).where(Survey.series == series, _owned_by(owner_id))
    return list(db.session.scalars(query.order_by(Survey.wave)))


def _owned_by(owner_id: int | None):
    """A series is its owner's: the condition on a survey's owner (None: unowned surveys)."""
    return Survey.owner_id.is_(None) if owner_id is None else Survey.owner_id == owner_id


def answered_elsewhere(survey: Survey, key: str) -> Question | None:
    """A question ``key`` of another wave of the survey's series that has responses (read from
    the database now), whose spun parameters this survey's question must keep; else None."""
    if survey.series is None:
        return None
    return _answered_in_series(survey.series, survey.owner_id, survey.id, key).get(key)


def _answered_in_series(
    series: str, owner_id: int | None, other_than: int | None, key: str | None = None
) -> dict[str, Question]:
    """The questions (``key`` only, or all) that have responses in the waves of ``series`` other
    than survey ``other_than``, by id; read from the database now."""
    answered = db.or_(
        Question.n > 0,
        db.select(Option.id).where(Option.question_id == Question.id, Option.n > 0).exists(),
    )
    query = (
        db.select(Question)
        .join(Survey)
        .where(Survey.series == series, _owned_by(owner_id), Survey.id != other_than)
        .where(answered)
    )
    if key is not None:
        query = query.where(Question.key == key)
    return {question.key: question for question in db.session.scalars(query)}


def wave_problems(spec: SurveySpec, owner_id: int | None, survey_id: int | None = None) -> list:
    """Whether ``spec`` may be wave ``spec.wave`` of its series: the wave is not another survey's,
    and every item another wave has responses to is asked as it was there."""
    if spec.series is None:
        return []
    siblings = [wave for wave in waves_of(spec.series, owner_id) if wave.id != survey_id]
    problems = []
    if any(wave.wave == spec.wave for wave in siblings):
        problems.append(
            Problem("wave", _("wave %(wave)d of series %(series)r exists already",
                              wave=spec.wave, series=spec.series))
        )  # fmt: skip
    answered = _answered_in_series(spec.series, owner_id, survey_id)
    for index, question in enumerate(spec.questions):
        before = answered.get(question.key)
        if before is not None and spun_parameters(before) != spun_parameters(question):
            problems.append(Problem(f"questions[{index}].epsilon", fixed_in_series(before)))
    return problems


def fixed_in_series(question: Question) -> str:
    """Why an item of a series cannot change how it is asked."""
    return _(
        "Wave %(wave)d of this series has responses to %(id)r, so its type, ε, ε∞, procedure and "
        "options are fixed across the series: only its wording can change.",
        wave=question.survey.wave,
        id=question.key,
    )


def next_wave_number(survey: Survey) -> int:
    """The number the survey's series gives its next wave (2 for a survey on its own)."""
    if survey.series is None:
        return 2
    return max(wave.wave or 0 for wave in waves_of(survey.series, survey.owner_id)) + 1


def next_wave(survey: Survey, slug: str) -> Survey:
    """A draft of the series' next wave with the same questions (ids, design, ε, ε∞), texts and
    settings, and no responses. A survey not yet in a series becomes wave 1 of one named after its
    address."""
    number = next_wave_number(survey)
    if survey.series is None:
        survey.series, survey.wave = survey.slug, 1
        survey.edits += 1
    if number > MAX_WAVE:
        raise ValueError(f"series {survey.series!r} has its {MAX_WAVE} waves already")
    titles = {}
    for language, title in survey.texts("title").items():
        with force_locale(language):
            titles[language] = _("%(title)s (wave %(wave)d)", title=_base_title(title),
                                 wave=number)[:MAX_TITLE]  # fmt: skip
    spec = dataclasses.replace(survey.to_spec(), slug=slug, title=Texts(titles), wave=number)
    wave = Survey.from_spec(spec, owner=survey.owner)
    wave.status = "draft"
    return wave


def _base_title(title: str) -> str:
    """A wave's title without a "(wave k)" this module added."""
    head, bracket, tail = title.rpartition(" (")
    return head if bracket and tail.endswith(")") and any(ch.isdigit() for ch in tail) else title
