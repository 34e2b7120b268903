"""A list experiment by group: its estimate among the respondents who gave each answer to one
direct question, and the difference between two groups, from the published responses (the counts
are read from the rows, as the list's own results are: :mod:`web.core.results.list_experiments`).

A group's estimate is the list's own on the group's respondents (the difference in means with its
HC3 standard error, a double list's mean of its two lists), withheld below the minimum n. Two
groups are independent samples, so their difference has the standard errors added in quadrature,
with a Wald interval and test (:func:`rr.difference.wald_difference`).
"""

from __future__ import annotations

from collections import defaultdict

from rr.difference import wald_difference
from web.core.models import Question, Survey
from web.core.results import analysis
from web.core.results.by_group import GroupingError, GroupResult, direct_question
from web.core.results.figures import ItemResult, difference_entry
from web.core.results.list_experiments import ListResult, gave_counts, list_result
from web.core.results.list_regression import listed_item
from web.core.results.published import published_answers

METHOD = (
    "each group's list estimate (difference in means, HC3 standard error; a double list's mean "
    "of its two lists), their difference with a Wald interval and two-sided test"
)


def list_by_group(survey: Survey, question: Question, key: str, min_n: int) -> list[GroupResult]:
    """``question``'s estimate in each group of direct question ``key``; a group below ``min_n``
    respondents withheld (its n too), one with fewer than two in a list without an estimate."""
    grouping = direct_question(survey, key)
    answers = _answers_by(survey, question, key, min_n)
    groups = []
    for option in grouping.options:
        found = list_result(question, answers.get(option.key, []), min_n, tests=False)
        groups.append(GroupResult(option.key, option.texts, found.n, found.withheld,
                                  (_item(found),)))  # fmt: skip
    return groups


def list_group_difference(
    survey: Survey, question: Question, key: str, first: str, second: str, min_n: int
) -> dict:
    """``question``'s estimate in group ``first`` of direct question ``key`` less its estimate
    in ``second`` (each as :func:`list_by_group` gives it); GroupingError where a group is not
    one of the question's options, is below ``min_n`` or has fewer than two respondents in a
    list."""
    groups = list_by_group(survey, question, key, min_n)
    return groups_difference(question.key, key, groups, first, second, min_n)


def groups_difference(
    item: str, key: str, groups: list[GroupResult], first: str, second: str, min_n: int
) -> dict:
    """List item ``item``'s difference between two of ``groups`` (:func:`list_by_group`'s, of
    direct question ``key``), refused as :func:`list_group_difference` says."""
    by_option = {group.option: group for group in groups}
    found, figures = [], []
    for name in (first, second):
        group = by_option.get(name)
        if group is None:
            raise GroupingError(f"{key!r} has no option {name!r}")
        if group.withheld:
            raise GroupingError(f"group {key}={name} has fewer than {min_n} respondents")
        figured = group.items[0]
        if figured.estimate is None or figured.std_error is None:
            raise GroupingError(f"group {key}={name} has fewer than two respondents in a list")
        found.append(group)
        figures.append((figured.estimate, figured.std_error))
    difference = wald_difference(figures[0], figures[1], 0.95, METHOD)
    counts = [(0, group.n) for group in found]
    return difference_entry(item, key, [first, second], counts, difference)


def with_list_groups(document: dict, survey: Survey, key: str, min_n: int) -> dict:
    """The results document with each list's figures per group of direct question ``key``
    under ``groups`` (as each randomized item's are: withheld below the minimum n); a list
    withheld as a whole, or a grouping by position, adds none."""
    for entry in document.get("lists", []):
        question = listed_item(survey, entry["id"])
        if entry["withheld"] or question is None:
            continue
        try:
            groups = list_by_group(survey, question, key, min_n)
        except GroupingError:
            continue  # by position: a list is grouped by a direct question only
        entry["groups"] = [group.figures(0) for group in groups]
    return document


def difference_of(survey: Survey, item: str, by: str, first: str, second: str, min_n: int) -> dict:
    """``item``'s difference between groups ``first`` and ``second`` of ``by``: a list
    experiment's, or a randomized item's (:func:`web.core.results.analysis.group_difference`)."""
    listed = listed_item(survey, item)
    if listed is not None:
        return list_group_difference(survey, listed, by, first, second, min_n)
    return analysis.group_difference(survey, item, by, first, second, min_n)


def _answers_by(survey: Survey, question: Question, key: str, min_n: int) -> dict[str, list]:
    """The published answers to ``question`` (each a count, or a double list's two) per answer
    to direct question ``key``; none while fewer than ``min_n`` responses are published."""
    grouped: dict[str, list] = defaultdict(list)
    if survey.published_count < max(min_n, 1):
        return grouped
    for answers in published_answers(survey):
        answer, group = answers.get(question.key), answers.get(key)
        if group is not None and gave_counts(answer):
            grouped[group].append(answer)
    return grouped


def _item(found: ListResult) -> ItemResult:
    """A group's figures as the page reads an item's: its estimate and interval, or none."""
    estimate = found.estimate
    if estimate is None:
        return ItemResult(None, None, found.n, 0, None, None, None, None, None)
    return ItemResult(None, None, found.n, 0, estimate.estimate, estimate.std_error,
                      estimate.ci_low, estimate.ci_high, None)  # fmt: skip
