"""Shareable synthetic microdata (:mod:`rr.synthetic`) from a survey's published snapshot.

The model is the joint table of true answers (:mod:`web.core.results.joint`) over every item that
has one: yes/no questions (any design but cheating detection), each multi-select option, single-
choice and direct questions. Its posterior draws give m datasets of n rows on the true scale (0/1,
option ids, direct answers), which any software analyses; a CSV holds them all with an ``.imp``
column (1…m), as R's mice and synthpop expect. The file's first lines, starting with ``#``, say
what was left out or merged. Below the minimum n nothing is offered; a direct question's option
chosen by fewer than the minimum n is merged into ``other`` (or, if ``other`` is still too small,
its respondents are left out).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from rr.joint import bootstrap_tables, joint_em, joint_gibbs, margin_table
from rr.synthetic import combine, expand, interval_overlap, synthesize
from web.core.infrastructure.formula_guard import csv_row, csv_value
from web.core.models import Survey
from web.core.results.by_group import GroupingError
from web.core.results.figures import significant
from web.core.results.joint import (
    GIBBS_CELLS,
    JointItem,
    interval_draws,
    joint_items,
    reported_patterns,
)
from web.core.surveys.questions import ARM

MAX_M = 100
THIN = 25  # Gibbs sweeps between the draws the datasets come from


def N_(message: str) -> str:  # noqa: N802 (Babel's marker for a message translated later)
    """Mark ``message`` for the catalog; the file keeps it in English, the page translates it."""
    return message


class Note(NamedTuple):
    """One line about what the file leaves out or merges: a message and its values."""

    message: str
    values: dict

    def __str__(self) -> str:
        return self.message % self.values


class SyntheticUnavailable(ValueError):
    """Synthetic data cannot be offered now (too few responses); the message says why."""


@dataclass(frozen=True)
class SyntheticData:
    """m datasets (counts per true pattern), the model's items, and what the file must say."""

    items: list[JointItem]
    levels: list[tuple]  # each item's levels after merging small direct groups
    counts: np.ndarray  # shape (m, k_1, …, k_m)
    observed: np.ndarray  # respondents per reported pattern, after merging
    notes: list[Note]
    seed: int

    @property
    def m(self) -> int:
        return len(self.counts)

    @property
    def n(self) -> int:
        return int(self.observed.sum())

    @property
    def matrices(self) -> list[np.ndarray]:
        """Each item's report matrix over its levels (after merging)."""
        return _matrices(self.items, self.levels)


def model_items(survey: Survey) -> tuple[list[str], list[Note]]:
    """The names of every item with a joint table, and a note for each question left out."""
    names: list[str] = []
    notes: list[Note] = []
    for question in survey.questions:
        if question.design.scale is not None:
            notes.append(Note(N_("%(item)s: a number question (only its mean is known): left out"),
                              {"item": question.key}))  # fmt: skip
            continue
        if ARM in question.type.spun(question.options):
            notes.append(Note(N_("%(item)s: cheating detection (two arms): left out"),
                              {"item": question.key}))  # fmt: skip
            continue
        names += question.type.items_of(question)  # a multi-select's one per option
    return names, notes


def synthetic_data(survey: Survey, m: int, seed: int, min_n: int) -> SyntheticData:
    """m synthetic datasets of the published snapshot's size; SyntheticUnavailable below the
    minimum n, GroupingError when the survey has no such model."""
    if survey.published_count < max(min_n, 1):
        raise SyntheticUnavailable(
            f"fewer than {min_n} published responses: synthetic data are not offered yet"
        )
    names, notes = model_items(survey)
    if len(names) < 2:
        raise GroupingError("synthetic data need two or more items with a joint table")
    items = joint_items(survey, names)
    observed = reported_patterns(survey, items)
    observed, levels, merged = _merge_small_groups(observed, items, min_n)
    notes += merged
    if observed.sum() < max(min_n, 1):
        raise SyntheticUnavailable(f"fewer than {min_n} respondents answered every item")
    matrices = _matrices(items, levels)
    if observed.size <= GIBBS_CELLS:
        chain = joint_gibbs(observed, matrices, draws=m * THIN, burn_in=500, seed=seed)
        tables = chain[THIN - 1 :: THIN]
        notes.append(Note(N_("%(m)d posterior draws of the joint table (Gibbs, every %(thin)dth sweep)"),
                          {"m": m, "thin": THIN}))  # fmt: skip
    else:
        tables = bootstrap_tables(observed, matrices, replicates=m, seed=seed)
        notes.append(
            Note(N_("%(m)d parametric-bootstrap refits of the joint table (EM)"), {"m": m})
        )
    counts = synthesize(tables, int(observed.sum()), seed=seed)
    return SyntheticData(items, levels, counts, observed, notes, seed)


def _matrices(items: list[JointItem], levels: list[tuple]) -> list[np.ndarray]:
    """Each item's report matrix over its levels (a direct item's identity follows merging)."""
    return [
        np.eye(len(level)) if item.direct else item.matrix
        for item, level in zip(items, levels, strict=True)
    ]


def _merge_small_groups(observed: np.ndarray, items: list[JointItem], min_n: int):
    """Direct options chosen by 1 to min_n − 1 respondents merged into ``other`` (left out if
    ``other`` is still too small); the levels per item and a note per change."""
    levels = [tuple(item.levels) for item in items]
    notes: list[Note] = []
    for axis, item in enumerate(items):
        if not item.direct:
            continue
        sizes = margin_table(observed, (axis,))
        small = [index for index, size in enumerate(sizes) if 0 < size < max(min_n, 1)]
        if not small:
            continue
        keep = [index for index in range(len(levels[axis])) if index not in small]
        merged = np.take(observed, small, axis=axis).sum(axis=axis, keepdims=True)
        kept = np.take(observed, keep, axis=axis)
        names = ", ".join(str(levels[axis][index]) for index in small)
        if merged.sum() >= max(min_n, 1):
            observed = np.concatenate([kept, merged], axis=axis)
            levels[axis] = (*(levels[axis][index] for index in keep), "other")
            notes.append(Note(N_("%(item)s: %(options)s merged into 'other' (fewer than %(min)d each)"),
                              {"item": item.name, "options": names, "min": min_n}))  # fmt: skip
        else:
            observed = kept
            levels[axis] = tuple(levels[axis][index] for index in keep)
            notes.append(Note(N_("%(item)s: respondents answering %(options)s left out (fewer than %(min)d)"),
                              {"item": item.name, "options": names, "min": min_n}))  # fmt: skip
    return observed, levels, notes


def synthetic_csv(data: SyntheticData) -> str:
    """The m datasets in one CSV: notes as ``#`` lines, then ``.imp`` and one column per item."""
    buffer = io.StringIO()
    for note in data.notes:
        buffer.write(f"# {note}\n")  # in English: a file outlives the page's language
    writer = csv.writer(buffer, lineterminator="\n")
    # Names and levels are the survey's keys, which may begin with "-": made inert as every text.
    writer.writerow(csv_row([".imp", *(item.name for item in data.items)]))
    levels = [[csv_value(level) for level in axis] for axis in data.levels]
    for index, counts in enumerate(data.counts, start=1):
        for row in expand(counts, seed=data.seed + index):
            writer.writerow([index, *(levels[axis][level] for axis, level in enumerate(row))])
    return buffer.getvalue()


def utility(data: SyntheticData, published) -> dict:
    """For each yes/no item and each pair of them, the randomized-response estimate (the
    published one for an item, the joint model's for a pair's "both yes") against the pooled
    synthetic one, with both intervals and their overlap (Karr et al. 2006)."""
    bits = [axis for axis, item in enumerate(data.items) if item.one_bit]
    figures = {item.name: _published(published, item) for item in data.items}
    matrices = data.matrices
    fit = joint_em(data.observed, matrices)
    # One set of draws serves every pair's interval.
    draws = interval_draws(data.observed, matrices, data.seed)[0] if len(bits) > 1 else None
    rows = []
    for axis in bits:
        original = figures[data.items[axis].name]
        if original is None:
            continue
        rows.append(_row([data.items[axis].name], original, data, (axis,)))
    for first_index, first in enumerate(bits):
        for second in bits[first_index + 1 :]:
            original = _pair_original(data, fit.table, draws, first, second)
            rows.append(
                _row([data.items[first].name, data.items[second].name], original, data,
                     (first, second))
            )  # fmt: skip
    return {"m": data.m, "n": data.n, "items": [item.name for item in data.items], "rows": rows}


def _published(published, item: JointItem):
    """An item's published estimate and exact interval, or None."""
    question = next(q for q in published.questions if q.key == item.question_key)
    if not question.visible:
        return None
    found = next(
        (row for row in question.items if row.option == item.option_key), question.items[0]
    )
    return (found.estimate, found.ci_low, found.ci_high)


def _pair_original(data: SyntheticData, table, draws, first: int, second: int):
    """The joint model's "both yes" share of two items, with its 95% interval."""
    axes = tuple(a for a in range(table.ndim) if a not in (first, second))
    estimate = float(table.sum(axis=axes)[1, 1])
    both = draws.sum(axis=tuple(a + 1 for a in axes))[:, 1, 1]
    low, high = np.quantile(both, [0.025, 0.975])
    return (estimate, float(low), float(high))


def _row(names: list[str], original, data: SyntheticData, axes: tuple[int, ...]) -> dict:
    """One line of the utility table."""
    others = tuple(a + 1 for a in range(data.counts.ndim - 1) if a not in axes)
    n = data.n  # every dataset has n rows
    shares = data.counts.sum(axis=others)[(slice(None), *([1] * len(axes)))] / n
    pooled = combine(shares, shares * (1 - shares) / n, n, n)
    low_o, high_o = original[1], original[2]
    low_s, high_s = max(pooled.ci_low, 0.0), min(pooled.ci_high, 1.0)
    overlap = (
        interval_overlap((low_o, high_o), (low_s, high_s))
        if high_o > low_o and high_s > low_s
        else None
    )
    return {
        "items": names,
        "original": {
            "estimate": significant(original[0]),
            "ci_low": significant(low_o),
            "ci_high": significant(high_o),
        },
        "synthetic": {
            "estimate": significant(pooled.estimate),
            "ci_low": significant(low_s),
            "ci_high": significant(high_s),
        },
        "overlap": significant(overlap),
    }


__all__ = ["SyntheticUnavailable", "synthetic_csv", "synthetic_data", "utility"]
