"""The joint distribution of several items' true answers (:mod:`rr.joint`), from the published
snapshot: the counts of reported patterns over the chosen items, each item's report matrix, and
the table of true patterns with intervals (Gibbs draws up to 1,024 cells, a parametric bootstrap
beyond). For two yes/no items it adds P(B | A), P(B | not A) and their correlation.

An item is a yes/no question (any design but cheating detection), one option of a multi-select
question (``question.option``), a single-choice question (its k options) or a direct question (its
options, observed exactly; a respondent who preferred not to say is left out). Number questions
report a value wheel's bit, not a yes/no truth, and have no joint table here. Every output
follows the minimum n: the survey's published responses and every group of a direct item.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rr.joint import (
    MAX_CELLS,
    bootstrap_tables,
    choice_matrix,
    joint_em,
    joint_gibbs,
    margin_table,
    pair_summary,
    report_matrix,
)
from web.core.models import Survey
from web.core.results.by_group import GroupingError
from web.core.results.cells import is_direct
from web.core.results.figures import significant
from web.core.results.published import published_answers

MAX_ITEMS = 16
GIBBS_CELLS = 1024
DRAWS = 2000
SEED = 0  # one version of the results always shows the same figures


@dataclass(frozen=True)
class JointItem:
    """One axis of the table: its name, its levels (0/1, or option ids) and its report matrix."""

    name: str
    question_key: str
    option_key: str | None
    levels: tuple
    matrix: np.ndarray
    # Whether it is a direct question (its answers stored as given, its levels groups of
    # respondents that the minimum n guards), and whether it reports one bit (a yes/no answer or
    # a multi-select option) rather than one option among its levels.
    direct: bool
    one_bit: bool

    def level_of(self, answers: dict) -> int | None:
        """The index of what a stored response reports for this item; None to leave it out."""
        value = answers.get(self.question_key)
        if self.one_bit:
            if self.option_key:
                value = value.get(self.option_key) if isinstance(value, dict) else None
            return value if value in (0, 1) else None
        return self.levels.index(value) if value in self.levels else None


def joint_items(survey: Survey, names: list[str]) -> list[JointItem]:
    """The items ``names`` of the survey, each with its matrix; GroupingError saying why not."""
    if not 2 <= len(names) <= MAX_ITEMS or len(set(names)) != len(names):
        raise GroupingError(f"items must name 2 to {MAX_ITEMS} different items, e.g. items=a,b")
    items = []
    for name in names:
        key, _, option_key = name.partition(".")
        question = next((q for q in survey.questions if q.key == key), None)
        if question is None:
            raise GroupingError(f"the survey has no question {key!r}")
        options = tuple(option.key for option in question.options)
        if is_direct(question):
            items.append(JointItem(name, key, None, options, np.eye(len(options)), True, False))
        elif question.type.sums_to_one:
            matrix = choice_matrix(question.epsilon, len(options))
            items.append(JointItem(name, key, None, options, matrix, False, False))
        elif question.design.scale is not None:
            raise GroupingError(f"{name!r} is a number question: its mean has no joint table here")
        else:
            if question.type.has_options and option_key not in options:
                raise GroupingError(f"name one option of {key!r}, e.g. {key}.{options[0]}")
            if not question.type.has_options and option_key:
                raise GroupingError(f"question {key!r} has no options: name it {key}")
            try:
                design = question.type.line_of(question)
            except ValueError as error:
                raise GroupingError(f"no joint table for {name!r}: {error}") from None
            matrix = report_matrix(design.yes_given_yes, design.yes_given_no)
            items.append(JointItem(name, key, option_key or None, (0, 1), matrix, False, True))
    if int(np.prod([len(item.levels) for item in items])) > MAX_CELLS:
        raise GroupingError(f"too many combinations for one joint table (at most {MAX_CELLS:,})")
    return items


def interval_draws(counts: np.ndarray, matrices: list[np.ndarray], seed: int):
    """Tables to read intervals from, and how they were drawn: the Gibbs sampler's posterior
    draws up to GIBBS_CELLS cells, 200 parametric-bootstrap refits beyond."""
    if counts.size <= GIBBS_CELLS:
        draws = joint_gibbs(counts, matrices, draws=DRAWS, seed=seed)
        return draws, "EM for the estimate; 95% intervals from the Gibbs sampler's posterior draws"
    draws = bootstrap_tables(counts, matrices, replicates=200, seed=seed)
    return draws, "EM for the estimate; 95% intervals from a parametric bootstrap (200 refits)"


def reported_patterns(survey: Survey, items: list[JointItem]) -> np.ndarray:
    """Published respondents per reported pattern of ``items`` (one pass over the snapshot)."""
    counts = np.zeros(tuple(len(item.levels) for item in items))
    for answers in published_answers(survey):
        cell = tuple(item.level_of(answers) for item in items)
        if None not in cell:
            counts[cell] += 1
    return counts


def joint_document(survey: Survey, names: list[str], min_n: int) -> dict:
    """The table of true patterns of ``names`` with 95% intervals, and a pair's summaries."""
    items = joint_items(survey, names)
    if survey.published_count < max(min_n, 1):
        raise GroupingError(f"fewer than {min_n} published responses: no joint table yet")
    counts = reported_patterns(survey, items)
    for axis, item in enumerate(items):
        if not item.direct:
            continue
        sizes = margin_table(counts, (axis,))
        small = [level for level, size in zip(item.levels, sizes, strict=True) if 0 < size < min_n]
        if small:
            raise GroupingError(f"group {item.name}={small[0]} has fewer than {min_n} respondents")
    if counts.sum() < max(min_n, 1):
        raise GroupingError(f"fewer than {min_n} respondents answered all of these items")
    matrices = [item.matrix for item in items]
    fit = joint_em(counts, matrices)
    draws, method = interval_draws(counts, matrices, SEED)
    low, high = np.quantile(draws, [0.025, 0.975], axis=0)
    cells = []
    for index in np.ndindex(counts.shape):
        cell = {item.name: item.levels[level] for item, level in zip(items, index, strict=True)}
        cell |= {
            "estimate": significant(float(fit.table[index])),
            "ci_low": significant(float(low[index])),
            "ci_high": significant(float(high[index])),
        }
        cells.append(cell)
    document = {
        "items": names,
        "n": int(counts.sum()),
        "method": method,
        "converged": fit.converged,
        "cells": cells,
    }
    if len(items) == 2 and all(item.one_bit for item in items):
        document |= _pair(fit.table, draws, names)
    return document


def _pair(table: np.ndarray, draws: np.ndarray, names: list[str]) -> dict:
    """P(B | A), P(B | not A) and the correlation of two yes/no items, with intervals."""
    found = pair_summary(table)
    summaries = [pair_summary(draw) for draw in draws]

    def interval(values) -> dict:
        values = np.array([value for value in values if value == value])
        if not len(values):
            return {"ci_low": None, "ci_high": None}
        low, high = np.quantile(values, [0.025, 0.975])
        return {"ci_low": significant(float(low)), "ci_high": significant(float(high))}

    first, second = names
    return {
        "conditional": [
            {
                "of": second, "given": {first: 1}, "estimate": significant(found.conditional),
                **interval(s.conditional for s in summaries),
            },
            {
                "of": second, "given": {first: 0}, "estimate": significant(found.conditional_not),
                **interval(s.conditional_not for s in summaries),
            },
        ],
        "correlation": {
            "estimate": significant(found.correlation),
            **interval(s.correlation for s in summaries),
            "measure": "phi (Pearson's correlation of the two true answers; RRreg's RRcor)",
        },
    }  # fmt: skip
