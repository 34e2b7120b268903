"""Results by group: every randomized item's estimate among the respondents who gave each answer
to one direct question, from the published counts per cell (:class:`GroupTally`).

A group's figures are withheld below the minimum n, like a whole question's; they move only with
the published snapshot, so the batches apply per group too.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from web.core.infrastructure.extensions import db
from web.core.models import GroupTally, Question, Survey
from web.core.results.by_position import PositionError, position_figures, position_grouping
from web.core.results.cells import direct_questions
from web.core.results.figures import (
    ESTIMATE_FIELDS,
    ItemResult,
    as_mean,
    item_results,
    significant,
)
from web.core.surveys.questions import QUESTION_TYPES, Tallied
from web.core.surveys.texts import Texts


class GroupingError(ValueError):
    """A grouping the survey cannot give: the message says why."""


@dataclass(frozen=True)
class GroupResult:
    """One group of a direct question: its respondents and every item's figures among them."""

    option: str
    text: Texts  # the group's option, in every language of the survey
    n: int
    withheld: bool
    items: tuple[ItemResult, ...]

    def figures(self, index: int, counts: bool = False) -> dict:
        """The API's entry for item ``index`` in this group: withheld below the minimum n; with
        ``counts``, its reports of 1 too."""
        if self.withheld:
            return {"id": self.option, "withheld": True}
        item = self.items[index]
        return {
            "id": self.option,
            "n": item.n,
            **({"noisy_yes": item.noisy_yes} if counts else {}),
            **{
                name: significant(getattr(item, name))
                for name in ESTIMATE_FIELDS
                if name != "estimated_count"
            },
        }


def direct_question(survey: Survey, key: str) -> Question:
    """The survey's direct question ``key``, or GroupingError saying why it cannot group."""
    found = next((question for question in survey.questions if question.key == key), None)
    if found is None:
        raise GroupingError(f"the survey has no question {key!r}")
    if found not in direct_questions(survey.questions):
        raise GroupingError(f"question {key!r} is randomized: group by a direct question")
    return found


def published_cells(survey: Survey) -> dict[tuple[str, int], list[tuple[dict, int, int]]]:
    """(tally table, tally id) → [(cell answers, n, reported yes)] of the published snapshot."""
    cells: dict[tuple[str, int], list[tuple[dict, int, int]]] = defaultdict(list)
    rows = db.session.execute(
        db.select(
            GroupTally.item_kind,
            GroupTally.item_id,
            GroupTally.cell,
            GroupTally.published_n,
            GroupTally.published_yes,
        ).where(GroupTally.survey_id == survey.id)
    )
    for kind, item, cell, n, yes in rows:
        cells[(kind, item)].append((json.loads(cell), n, yes))
    return cells


def by_group(survey: Survey, key: str, min_n: int) -> dict[str, list[GroupResult]]:
    """Per randomized question, its figures in each group of direct question ``key``; or, for
    ``position:<page>``, per yes/no item of that randomized page, its figures at each position
    (:mod:`web.core.results.by_position`)."""
    try:
        positions = position_grouping(survey, key)
    except PositionError as error:
        raise GroupingError(str(error)) from None
    if positions is not None:
        languages = survey.language_list
        return {
            item: [
                GroupResult(str(position), Texts((code, str(position)) for code in languages), n,
                            n < max(min_n, 1), items)
                for position, n, _yes, items in found
            ]
            for item, found in position_figures(survey, positions, min_n).items()
        }  # fmt: skip
    grouping = direct_question(survey, key)
    cells = published_cells(survey)
    results = {}
    directs = direct_questions(survey.questions)
    for question in survey.questions:
        if question in directs:
            continue
        groups = []
        for group in grouping.options:
            counts = []
            for option in question.type.spun(question.options):
                entries = cells.get(Tallied.of(question, option).key, [])
                matching = [
                    (n, yes) for answers, n, yes in entries if answers.get(key) == group.key
                ]
                counts.append((sum(yes for _, yes in matching), sum(n for n, _ in matching)))
            items = item_results(question, counts)
            n = counts[0][1] if counts else 0
            groups.append(GroupResult(group.key, group.texts, n, n < max(min_n, 1), items))
        results[question.key] = groups
    return results


def with_groups(document: dict, groups: dict[str, list[GroupResult]], key: str) -> dict:
    """The results document with each randomized item's figures per group under ``groups``
    (withheld groups say so and nothing else); the whole question stays withheld if it is."""
    questions = []
    for question in document["questions"]:
        entries = groups.get(question["id"])
        if entries is None or question.get("withheld"):
            questions.append(question)
            continue
        question = dict(question)
        if "options" in question:
            question["options"] = [
                {**option, "groups": [group.figures(index) for group in entries]}
                for index, option in enumerate(question["options"])
            ]
        elif QUESTION_TYPES[question["type"]].has_range:  # its figures are means in units
            question["groups"] = [as_mean(group.figures(0, counts=True)) for group in entries]
        else:
            question["groups"] = [group.figures(0) for group in entries]
        questions.append(question)
    return {**document, "by": key, "questions": questions}
