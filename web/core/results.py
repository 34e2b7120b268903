"""Estimates for a survey, from its tallies: the cost does not grow with the number of responses."""

from __future__ import annotations

import rr
from web.core.models import Question, Survey, Tally

ESTIMATE_FIELDS = ("estimate", "std_error", "ci_low", "ci_high", "estimated_count")


def survey_results(survey: Survey) -> dict:
    """The results document of the API: the survey, its total ε and each question's estimates."""
    return {
        "slug": survey.slug,
        "title": survey.title,
        "status": survey.status,
        "n": survey.response_count,
        "epsilon_total": survey.epsilon_total,
        "questions": [question_results(question) for question in survey.questions],
    }


def question_results(question: Question) -> dict:
    """One question's parameters and estimates; a multi-select question has one entry per option."""
    result = {
        "id": question.key,
        "type": question.kind,
        "text": question.text,
        "procedure": question.procedure,
        "epsilon": question.epsilon,
        "epsilon_total": question.epsilon_total,
        "light_fraction": question.light_fraction,
    }
    if question.kind == "multi":
        result["options"] = [
            {"id": option.key, "text": option.text, **tally_estimate(option, question)}
            for option in question.options
        ]
    else:
        result.update(tally_estimate(question, question))
    return result


def tally_estimate(tally: Tally, question: Question) -> dict:
    """n, reported yes and the estimate with its interval; the numbers are None while n is 0."""
    if tally.n == 0:
        return {"n": 0, "noisy_yes": 0} | dict.fromkeys(ESTIMATE_FIELDS)
    estimate = rr.estimate_proportion(
        tally.noisy_yes, tally.n, question.epsilon, question.procedure
    )
    return {"n": estimate.n, "noisy_yes": estimate.noisy_yes} | {
        name: getattr(estimate, name) for name in ESTIMATE_FIELDS
    }
