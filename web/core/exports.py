"""Exports: reported responses and estimates as CSV, and a codebook to recompute every estimate."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator

from sqlalchemy import func

import rr
from rr.mechanism import noise_line
from web.core.extensions import db
from web.core.models import Response, Survey
from web.core.results import ESTIMATE_FIELDS, SurveyResults

ESTIMATE_COLUMNS = (
    "question",
    "option",
    "type",
    "procedure",
    "epsilon",
    "light_fraction",
    "n",
    "noisy_yes",
    "reported_yes_share",
    "estimate",
    "std_error",
    "ci_low",
    "ci_high",
    "estimated_count",
)


def response_columns(survey: Survey) -> list[tuple[str, str | None]]:
    """One column per yes/no question and per option of a multi-select question."""
    return [
        (question.key, None if option is None else option.key)
        for question, option in survey.spins()
    ]


def responses_csv(survey: Survey) -> Iterator[str]:
    """CSV of reported bits, one row per response, in random order so that the order says nothing
    about who answered when. A question added after a response leaves its cell empty."""
    columns = response_columns(survey)
    yield _line([key if option is None else f"{key}.{option}" for key, option in columns])
    rows = db.session.execute(
        db.select(Response.bits)
        .where(Response.survey_id == survey.id)
        .order_by(func.random())
        .execution_options(yield_per=5000)
    )
    buffer = []
    for (bits,) in rows:
        answers = json.loads(bits)
        buffer.append(_line([_cell(answers, key, option) for key, option in columns]))
        if len(buffer) == 5000:
            yield "".join(buffer)
            buffer = []
    yield "".join(buffer)


def estimates_csv(results: SurveyResults) -> str:
    """CSV of the estimates, one row per tally: a yes/no question, or one option."""
    lines = [_line(ESTIMATE_COLUMNS)]
    for question in results.questions:
        for item in question.items:
            lines.append(
                _line(
                    [
                        question.key,
                        item.option or "",
                        question.kind,
                        question.procedure,
                        question.epsilon,
                        question.light_fraction,
                        item.n,
                        item.noisy_yes,
                        item.reported_share,
                        *(getattr(item, name) for name in ESTIMATE_FIELDS),
                    ]
                )
            )
    return "".join(lines)


def codebook(survey: Survey) -> dict:
    """Everything needed to recompute each estimate with rr from the responses CSV."""
    return {
        "survey": {"slug": survey.slug, "title": survey.title, "description": survey.description},
        "epsilon_total": survey.epsilon_total,
        "privacy": "ε is per spin. A yes/no question costs ε, a multi-select question k·ε for k "
        "options, and the survey the sum over its questions (sequential composition).",
        "estimator": "pi_hat = (noisy_share - a) / b with a = 1/(1 + e^epsilon) and "
        "b = tanh(epsilon/2), for both procedures; 95% interval: Clopper-Pearson on "
        "the noisy share, mapped through the same line and clipped to [0, 1].",
        "recompute": "rr.estimate_proportion(noisy_yes, n, epsilon, procedure)",
        "questions": [_question_entry(question) for question in survey.questions],
    }


def _question_entry(question) -> dict:
    offset, slope = noise_line(question.epsilon)
    entry = {
        "id": question.key,
        "text": question.text,
        "type": question.kind,
        "epsilon": question.epsilon,
        "epsilon_total": question.epsilon_total,
        "procedure": question.procedure,
        "light_fraction": question.light_fraction,
        "truth_probability": rr.truth_probability(question.epsilon),
        "noise_offset": offset,
        "noise_slope": slope,
        "columns": [
            question.key if option is None else f"{question.key}.{option.key}"
            for option in question.spun_options
        ],
    }
    if question.type.has_options:
        entry["options"] = [{"id": option.key, "text": option.text} for option in question.options]
    return entry


def _cell(answers: dict, key: str, option: str | None):
    value = answers.get(key)
    if option is not None:
        value = value.get(option) if isinstance(value, dict) else None
    return "" if value is None else value


def _line(values) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(
        ["" if value is None else value for value in values]
    )
    return buffer.getvalue()
