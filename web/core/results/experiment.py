"""A split-ballot experiment's analysis, from the published snapshot: respondents per condition
against the declared shares (the allocation check), each item's estimate in every condition
through the design it was asked with there, and each condition's contrast with the condition that
asked directly (or the first, where none did), by :mod:`rr.experiment`.

Batches and the minimum n hold per condition: a condition's figures are withheld until its
published n reaches the minimum, and a contrast needs both sides shown.
"""

from __future__ import annotations

import rr
from web.core.models import Question, Survey
from web.core.results.comprehension import Comprehension, Counts, comprehension
from web.core.results.figures import significant
from web.core.results.list_experiments import ListResult, list_results
from web.core.results.published import published_answers
from web.core.surveys.designs import ArmsDesign
from web.core.surveys.flow.conditions import condition_markers, response_condition


class NotAnExperiment(ValueError):
    """A survey with no conditions: there is nothing to compare."""


def experiment_document(survey: Survey, min_n: int) -> dict:
    """The experiment's figures as the API gives them (see ``docs/statistics.md`` §20).

    Raises
    ------
    NotAnExperiment
        If the survey declares no conditions.
    """
    conditions = survey.condition_list
    if not conditions:
        raise NotAnExperiment(f"survey {survey.slug!r} has no conditions: it is not an experiment")
    submitted = respondents_by_condition(survey)
    counts = [submitted.get(condition.id, 0) for condition in conditions]
    allocation = rr.allocation_check(counts, [condition.share for condition in conditions])
    items = compared_items(survey)
    # The checks count one bit per response: the rows reported through one line.
    checked = comprehension(
        survey, [row for asked in items.values() for row in asked if one_line(row)]
    )
    counted = {(found.key, found.condition): found for found in list_results(survey, 1)}
    return {
        "slug": survey.slug,
        "min_n": min_n,
        "conditions": [
            {"id": condition.id, "share": condition.share, "n": n}
            for condition, n in zip(conditions, counts, strict=True)
        ],
        "allocation": {
            "chi_square": significant(allocation.chi_square),
            "df": allocation.df,
            "p_value": significant(allocation.p_value),
        },
        "method": rr.experiment.METHOD,
        "checks": [] if checked is None else _checks(survey, checked, max(min_n, 1)),
        "items": [
            _item(key, asked, max(min_n, 1), checked, counted) for key, asked in items.items()
        ],
    }


def respondents_by_condition(survey: Survey) -> dict[str, int]:
    """The published responses submitted in each condition, whatever they answered: a response
    keeps every row its condition asked (a skipped one as null), so its rows name its condition
    even where no row of it feeds a tally (a condition whose own row is a direct check)."""
    markers = condition_markers(survey.questions)
    counts: dict[str, int] = {}
    for answers in published_answers(survey):
        condition = response_condition(answers, markers)
        if condition is not None:
            counts[condition] = counts.get(condition, 0) + 1
    return counts


def rows_by_question(survey: Survey) -> dict[str, dict[str, Question]]:
    """Each question asked by condition: its row in each condition."""
    rows: dict[str, dict[str, Question]] = {}
    for question in survey.questions:
        if question.condition is not None:
            rows.setdefault(question.question_id, {})[question.condition] = question
    return rows


def compared_items(survey: Survey) -> dict[str, list[Question]]:
    """The items an experiment compares: each question of one share asked in two conditions or
    more, as its rows in the conditions' order."""
    ids = [condition.id for condition in survey.condition_list]
    return {
        key: [asked[name] for name in ids if name in asked]
        for key, asked in rows_by_question(survey).items()
        if len(asked) > 1 and all(one_share(row) for row in asked.values())
    }


def reference_row(asked: list[Question]) -> Question:
    """The row every other condition is compared with: the one asked directly, else the first."""
    return next((row for row in asked if not row.asked_with.protects), asked[0])


def one_line(question: Question) -> bool:
    """Whether the item is one share reported through one line (a yes/no question; not one
    with options, a number, or a design of two arms)."""
    kind = question.type
    if kind.has_options or kind.has_range:
        return False
    try:
        question.type.line_of(question)  # noqa: B018 - raises for a design with no single line
    except ValueError:
        return False
    return True


def one_share(question: Question) -> bool:
    """Whether the item is one yes/no share: through one line, a design of two arms whose
    estimate is that share (the lie detector's carriers, cheating detection's honest yes), or a
    list experiment's difference in means."""
    return (
        one_line(question)
        or isinstance(question.asked_with, ArmsDesign)
        or question.design.controls is not None
    )


# A list experiment's published counts and figures, by (question key, condition).
Counted = dict[tuple[str, str | None], ListResult]


def _share_figures(row: Question, counted: Counted) -> tuple[float, float, float, float] | None:
    """(estimate, standard error, interval) of a row's published share through its design, or
    None while a design of two arms (or a list) has fewer than two respondents in an arm."""
    if row.design.controls is not None:
        listed = counted[row.key, row.condition].estimate
        if listed is None:
            return None
        return listed.estimate, listed.std_error, listed.ci_low, listed.ci_high
    if not isinstance(row.asked_with, ArmsDesign):
        found = row.type.line_of(row).estimate(row.published_yes, row.published_n)
        return (float(found.estimate), float(found.std_error), float(found.ci_low),
                float(found.ci_high))  # fmt: skip
    arm_yes, arm_n = row.published_arm_yes, row.published_arm_n
    first_n = row.published_n - arm_n
    if arm_n < 2 or first_n < 2:
        return None
    share = (
        row.asked_with.arm_model(row.design)
        .estimate([row.published_yes - arm_yes, arm_yes], [first_n, arm_n])
        .prevalence
    )
    return share.estimate, share.std_error, share.ci_low, share.ci_high


def _item(
    key: str, asked: list[Question], min_n: int, checked: Comprehension | None, counted: Counted
) -> dict:
    """One item: its figures in each condition it is asked in (and among those who passed the
    condition's checks) and the contrasts with the reference condition."""
    figures = [_condition_figures(row, min_n, counted) for row in asked]
    if checked is not None:
        with_checks = {condition for _key, condition in checked.checks}
        for row, entry in zip(asked, figures, strict=True):
            counts = checked.among_passed.get(row.key)
            entry["among_passed"] = None
            if counts is not None and row.condition in with_checks:
                entry["among_passed"] = _passed_figures(row, counts, min_n)
    reference = reference_row(asked)
    base = figures[asked.index(reference)]
    contrasts = []
    for row, entry in zip(asked, figures, strict=True):
        if row is reference:
            continue
        contrast = None
        if entry["estimate"] is not None and base["estimate"] is not None:
            contrast = _contrast(row, reference, counted)
        contrasts.append(
            {
                "condition": row.condition,
                "versus": reference.condition,
                "difference": contrast and significant(contrast.difference),
                "ci_low": contrast and significant(contrast.ci_low),
                "ci_high": contrast and significant(contrast.ci_high),
                "p_more": contrast and significant(contrast.p_more),
            }
        )
    known = asked[0].known_prevalence
    return {
        "id": key,
        "known_prevalence": known,
        "by_condition": [
            entry | ({"versus_known": _against(entry, known)} if known is not None else {})
            for entry in figures
        ],
        "contrasts": contrasts,
    }


def _contrast(row: Question, reference: Question, counted: Counted) -> rr.Contrast:
    """The row's share less the reference's: through both lines (unclipped limits), or from the
    figures of a design of two arms."""
    if one_line(row) and one_line(reference):
        return rr.contrast(
            row.type.line_of(row), row.published_yes, row.published_n,
            reference.type.line_of(reference), reference.published_yes, reference.published_n,
        )  # fmt: skip
    return rr.contrast_of(_share_figures(row, counted), _share_figures(reference, counted))


def _condition_figures(row: Question, min_n: int, counted: Counted) -> dict:
    """An item's estimate in one condition through its design there; withheld below min n (a
    list's n: the respondents who gave a count)."""
    listed = counted.get((row.key, row.condition))
    n = row.published_n if listed is None else listed.n
    entry = {
        "condition": row.condition,
        "procedure": row.procedure,
        "epsilon": rr.bound(row.epsilon) if row.asked_with.protects else None,
        # Whether it is randomized: an ε of null is then a design with no ε bound.
        "randomized": row.asked_with.protects,
        "n": n,
        "estimate": None,
        "std_error": None,
        "ci_low": None,
        "ci_high": None,
    }
    if n < min_n:
        return entry | {"withheld": True}
    reports = {} if listed is not None else {"noisy_yes": row.published_yes}
    found = _share_figures(row, counted)
    if found is None:
        return entry | reports
    estimate, std_error, ci_low, ci_high = found
    return (
        entry
        | reports
        | {
            "estimate": significant(estimate),
            "std_error": significant(std_error),
            "ci_low": significant(ci_low),
            "ci_high": significant(ci_high),
        }
    )


def _passed_figures(row: Question, counts: Counts, min_n: int) -> dict:
    """An item's estimate among the respondents who passed their condition's checks."""
    if counts.n < min_n or not one_line(row):  # two arms: the checks' counts have no arm
        return {"n": counts.n, "estimate": None, "ci_low": None, "ci_high": None}
    found = row.type.line_of(row).estimate(counts.hits, counts.n)
    return {
        "n": counts.n,
        "estimate": significant(float(found.estimate)),
        "ci_low": significant(float(found.ci_low)),
        "ci_high": significant(float(found.ci_high)),
    }


def _checks(survey: Survey, checked: Comprehension, min_n: int) -> list[dict]:
    """Each check's pass rate in each condition it is asked in, with its exact interval."""
    return [
        _pass_rate(question, condition, checked.checks[question.key, condition], min_n)
        for question in survey.questions
        if question.correct is not None
        for condition in sorted(name for key, name in checked.checks if key == question.key)
    ]


def _pass_rate(question: Question, condition: str, counts: Counts, min_n: int) -> dict:
    """A check's pass rate in one condition; withheld below min n."""
    entry = {"id": question.question_id, "condition": condition, "correct": question.correct,
             "n": counts.n}  # fmt: skip
    if counts.n < min_n:
        return entry | {"pass_rate": None, "ci_low": None, "ci_high": None}
    rate = rr.asked_directly().estimate(counts.hits, counts.n)
    return entry | {
        "passed": counts.hits,
        "pass_rate": significant(float(rate.estimate)),
        "ci_low": significant(float(rate.ci_low)),
        "ci_high": significant(float(rate.ci_high)),
    }


def _against(entry: dict, known: float) -> dict | None:
    """The estimate less the known prevalence, with its interval: above 0 where the condition
    finds more than there is (false positives, for a zero-prevalence item)."""
    if entry["estimate"] is None:
        return None
    return {
        "difference": significant(entry["estimate"] - known),
        "ci_low": significant(entry["ci_low"] - known),
        "ci_high": significant(entry["ci_high"] - known),
    }
