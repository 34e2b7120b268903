"""A list experiment regressed on direct questions and numbers asked directly: Imai's (2011)
maximum-likelihood model (``list::ictreg(y ~ x, method = "ml")``, :func:`rr.list_regression`),
each respondent's count, list and covariates read from the published responses; with the share
predicted for each group, at the numbers' means."""

from __future__ import annotations

from collections import defaultdict
from statistics import NormalDist

import numpy as np

import rr
from rr.list_regression import Coefficient
from web.core.models import Question, Survey
from web.core.results.analysis import factor_levels, is_number, number_covariates
from web.core.results.by_group import GroupingError, direct_question
from web.core.results.figures import significant
from web.core.results.published import published_answers
from web.core.surveys.questions.item_count import ARMS

Z = NormalDist().inv_cdf(0.975)  # 95% Wald intervals
# A logit past this (a share below 1 in 20,000 or above its complement), or a standard error of
# 0, is a fit run off to the edge of the space, where the ML model is not identified.
EDGE = 10.0


def listed_item(survey: Survey, item: str) -> Question | None:
    """The list question ``item`` names, or None where it names another question."""
    return next(
        (q for q in survey.questions if q.key == item and q.design.controls is not None), None
    )


def list_regression(
    survey: Survey, question: Question, on: list[str], min_n: int, reference: dict[str, str]
) -> dict:
    """``question``'s ML fit on the direct questions (dummy-coded against their reference level,
    else their first with respondents) and numbers ``on``; GroupingError where a group is below
    the minimum n, the model has too few respondents, or it cannot be fitted."""
    if question.design.double_list:
        raise GroupingError(
            f"{question.key!r} is a double list: the codebook's ictreg calls regress each list"
        )
    if not on or len(set(on)) != len(on):
        raise GroupingError(
            "on must name one or more different direct questions or numbers asked directly"
        )
    unknown = sorted(set(reference) - set(on))
    if unknown:
        raise GroupingError(f"the reference names {unknown[0]!r}, which the model is not on")
    numbers = [key for key in on if key in number_covariates(survey)]
    factors = [key for key in on if key not in numbers]
    groupings = [direct_question(survey, key) for key in factors]
    rows = _rows(survey, question.key, factors, numbers)
    if len(rows) < max(min_n, 1):
        raise GroupingError(f"the regression has fewer than {min_n} respondents")
    sizes: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for cell, _arm, _count in rows:
        sizes[cell][0] += 1
    levels = factor_levels(groupings, sizes, reference, min_n)
    terms = ["(intercept)", *(f"{g.key}={level}" for g, present in zip(groupings, levels,
             strict=True) for level in present[1:]), *numbers]  # fmt: skip

    def covariates(cell: tuple) -> list[float]:
        dummies = [float(cell[p] == level) for p, present in enumerate(levels)
                   for level in present[1:]]  # fmt: skip
        return [1.0, *dummies, *(float(value) for value in cell[len(factors) :])]

    x = [covariates(cell) for cell, _arm, _count in rows]
    try:
        fit = rr.list_regression(
            question.design.control_count, [count for *_, count in rows],
            [arm == ARMS[1] for _cell, arm, _count in rows], x, terms,
        )  # fmt: skip
    except ValueError as error:
        raise GroupingError(f"the model cannot be fitted: {error}") from None
    means = dict(zip(numbers, np.mean([cell[len(factors) :] for cell, *_ in rows], axis=0)
                     if numbers else [], strict=True))  # fmt: skip
    groups: dict[tuple, int] = defaultdict(int)
    for cell, _arm, _count in rows:
        groups[cell[: len(factors)]] += 1
    return {
        "item": question.key,
        "on": on,
        "reference": {g.key: present[0] for g, present in zip(groupings, levels, strict=True)},
        "model": "list",
        "method": 'list::ictreg(y ~ x, method = "ml"): Imai (2011), binomial, constrained',
        "n": fit.n,
        "log_likelihood": significant(fit.log_likelihood),
        # A fit at the edge: its coefficients and intervals mean nothing (too few respondents,
        # or a group where no one, or everyone, holds the item).
        "at_boundary": any(
            abs(c.estimate) > EDGE or c.std_error == 0 for c in (*fit.sensitive, *fit.control)
        ),
        "coefficients": [_coefficient(c) for c in fit.sensitive],
        "control_coefficients": [_coefficient(c) for c in fit.control],
        "at": {key: significant(float(value)) for key, value in means.items()},
        "predicted": [
            {
                "group": dict(zip(factors, group, strict=True)),
                "n": n,
                "estimate": significant(fit.share(covariates(group + tuple(means.values())))),
            }
            for group, n in groups.items()
            if n >= max(min_n, 1)
        ],  # fmt: skip
    }


def _coefficient(found: Coefficient) -> dict:
    """A logit coefficient with its Wald interval and odds ratio."""
    low, high = found.estimate - Z * found.std_error, found.estimate + Z * found.std_error
    return {
        "term": found.name,
        "estimate": significant(found.estimate),
        "std_error": significant(found.std_error),
        "ci_low": significant(low),
        "ci_high": significant(high),
        "odds_ratio": significant(float(np.exp(found.estimate))),
    }


def _rows(survey: Survey, key: str, factors: list[str], numbers: list[str]) -> list:
    """(answers to ``factors`` then values of ``numbers``, list, count) of each published
    respondent who gave a count and every covariate."""
    rows = []
    for answers in published_answers(survey):
        answer = answers.get(key)
        cell = tuple(answers.get(name) for name in (*factors, *numbers))
        values = cell[len(factors) :]
        if not isinstance(answer, dict) or None in cell:
            continue
        if not all(is_number(value) for value in values):
            continue
        rows.append((cell, answer["arm"], answer["count"]))
    return rows
