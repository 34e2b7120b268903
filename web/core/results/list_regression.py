"""A list experiment regressed on direct questions and numbers asked directly: Imai's (2011)
maximum-likelihood model (``list::ictreg(y ~ x, method = "ml")``, :func:`rr.list_regression`;
a double list's two lists at once, :meth:`rr.DoubleList.regression`), each respondent's counts,
list and covariates read from the published responses; with the share predicted for each group,
at the numbers' means."""

from __future__ import annotations

from collections import defaultdict
from statistics import NormalDist

import numpy as np

import rr
from rr.list_regression import Coefficient
from web.core.models import Question, Survey
from web.core.results.analysis import factor_levels, is_number, number_covariates, regression
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


def regressed(survey: Survey, item: str, on: list[str], min_n: int, reference: dict) -> dict:
    """``item`` regressed on ``on``: a list experiment's ML model, or a randomized item's
    regression (:func:`web.core.results.analysis.regression`)."""
    listed = listed_item(survey, item)
    if listed is not None:
        return list_regression(survey, listed, on, min_n, reference)
    return regression(survey, item, on, min_n, reference)


def list_regression(
    survey: Survey, question: Question, on: list[str], min_n: int, reference: dict[str, str]
) -> dict:
    """``question``'s ML fit on the direct questions (dummy-coded against their reference level,
    else their first with respondents) and numbers ``on``; GroupingError where a group is below
    the minimum n, the model has too few respondents, or it cannot be fitted."""
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
    for cell, *_ in rows:
        sizes[cell][0] += 1
    levels = factor_levels(groupings, sizes, reference, min_n)
    terms = ["(intercept)", *(f"{g.key}={level}" for g, present in zip(groupings, levels,
             strict=True) for level in present[1:]), *numbers]  # fmt: skip

    def covariates(cell: tuple) -> list[float]:
        dummies = [float(cell[p] == level) for p, present in enumerate(levels)
                   for level in present[1:]]  # fmt: skip
        return [1.0, *dummies, *(float(value) for value in cell[len(factors) :])]

    x = [covariates(cell) for cell, *_ in rows]
    try:
        fit = _fit(question, rows, x, terms)
    except ValueError as error:
        raise GroupingError(f"the model cannot be fitted: {error}") from None
    means = dict(zip(numbers, np.mean([cell[len(factors) :] for cell, *_ in rows], axis=0)
                     if numbers else [], strict=True))  # fmt: skip
    groups: dict[tuple, int] = defaultdict(int)
    for cell, *_ in rows:
        groups[cell[: len(factors)]] += 1
    return {
        "item": question.key,
        "on": on,
        "reference": {g.key: present[0] for g, present in zip(groupings, levels, strict=True)},
        "model": "list",
        "method": _method(question),
        "n": fit.n,
        "log_likelihood": significant(fit.log_likelihood),
        # A fit at the edge: its coefficients and intervals mean nothing (too few respondents,
        # or a group where no one, or everyone, holds the item).
        "at_boundary": any(
            abs(c.estimate) > EDGE or c.std_error == 0
            for c in (*fit.sensitive, *fit.control, *fit.control_b)
        ),
        "coefficients": [_coefficient(c) for c in fit.sensitive],
        # A double list's control items of list A; list B's under control_coefficients_b.
        "control_coefficients": [_coefficient(c) for c in fit.control],
        **(
            {"control_coefficients_b": [_coefficient(c) for c in fit.control_b]}
            if fit.control_b
            else {}
        ),
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


def _fit(question: Question, rows: list, x: list, terms: list[str]) -> rr.ListRegression:
    """The model on each row's list and counts: a single list's, or a double list's two lists at
    once."""
    design = question.design
    arms = [arm for _cell, arm, _counts in rows]
    if design.double_list:
        lists = rr.double_list(design.control_count, len(design.controls_b or ()))
        counts_a, counts_b = ([counts[index] for *_, counts in rows] for index in range(2))
        return lists.regression(arms, counts_a, counts_b, x, terms)
    return rr.list_regression(
        design.control_count, [counts[0] for *_, counts in rows],
        [arm == ARMS[1] for arm in arms], x, terms,
    )  # fmt: skip


def _method(question: Question) -> str:
    """The model fitted, in the words of its source."""
    if question.design.double_list:
        return (
            'list::ictreg(y ~ x, method = "ml")\'s model (Imai 2011, binomial, constrained) on '
            "both lists at once: the sensitive item's coefficients shared, each list's control "
            "items its own"
        )
    return 'list::ictreg(y ~ x, method = "ml"): Imai (2011), binomial, constrained'


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
    """(answers to ``factors`` then values of ``numbers``, list, counts) of each published
    respondent who gave their counts (one, or a double list's A and B) and every covariate."""
    rows = []
    for answers in published_answers(survey):
        answer = answers.get(key)
        cell = tuple(answers.get(name) for name in (*factors, *numbers))
        values = cell[len(factors) :]
        if not isinstance(answer, dict) or None in cell:
            continue
        if not all(is_number(value) for value in values):
            continue
        counts = (answer["count"],) if "count" in answer else (answer["count_a"], answer["count_b"])
        rows.append((cell, answer["arm"], counts))
    return rows
