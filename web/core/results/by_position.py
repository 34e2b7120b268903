"""A randomized page's positions as a grouping, like a direct question's answers: each yes/no
item of the page estimated among the respondents shown it first, second, …, from the published
responses (their ``order:<page>`` says where each item stood), each position withheld below the
minimum n; and the difference between two positions through the item's own design. The grouping
is named ``position:<page>`` wherever a direct question's id groups (the analysis by group, the
results API's ``by``, the estimates CSV)."""

from __future__ import annotations

from dataclasses import dataclass

from web.core.models import Question, Survey
from web.core.results.figures import difference_entry, item_results
from web.core.results.published import published_answers
from web.core.surveys.flow import PAGE_ORDER, survey_flow
from web.core.surveys.pages import stored_pages
from web.core.surveys.texts import Texts

POSITION = "position:"


class PositionError(ValueError):
    """A grouping by position the survey cannot give: the message says why."""


@dataclass(frozen=True)
class PositionGrouping:
    """One randomized page's positions: its grouping key, its page and title, how many
    questions it orders, and the yes/no items on it (each by its key)."""

    key: str
    page: str
    title: Texts
    count: int
    items: tuple[str, ...]


def position_groupings(survey: Survey) -> list[PositionGrouping]:
    """Every randomized page with a yes/no item (a survey asked by condition has none: its
    pages' orders differ by condition)."""
    items = positioned_items(survey)
    titles = {str(page.key): page.title for page in stored_pages(survey.pages)}
    found = []
    for page in survey_flow(survey).pages:
        on_page = tuple(key for key in page.questions if key in items)
        if page.randomize and on_page:
            found.append(PositionGrouping(f"{POSITION}{page.key}", str(page.key),
                                          titles.get(str(page.key), Texts()),
                                          len(page.questions), on_page))  # fmt: skip
    return found


def position_grouping(survey: Survey, key: str) -> PositionGrouping | None:
    """The grouping ``key`` names, if it names a page's positions; PositionError where it names
    a page that has none."""
    if not key.startswith(POSITION):
        return None
    found = next((each for each in position_groupings(survey) if each.key == key), None)
    if found is None:
        raise PositionError(
            f"{key[len(POSITION) :]!r} is not a randomized page with a yes/no item: group by "
            "the position on one that is"
        )
    return found


def positioned_items(survey: Survey) -> dict[str, Question]:
    """The items whose estimate by position the app gives: the yes/no questions asked one way
    in every condition (one bit of their own, through their design's line)."""
    return {
        question.key: question
        for question in survey.questions
        if question.condition is None
        and question.type.estimated
        and not question.type.has_range
        and question.type.spun([]) == [None]
    }


def position_counts(
    survey: Survey, groupings: list[PositionGrouping]
) -> dict[tuple[str, str, int], list[int]]:
    """(page, item, position) → [respondents shown it there who answered, their reports of 1],
    from the published responses (one pass)."""
    items = positioned_items(survey)
    counts: dict[tuple[str, str, int], list[int]] = {}
    for answers in published_answers(survey):
        for grouping in groupings:
            order = answers.get(f"{PAGE_ORDER}{grouping.page}")
            for position, key in enumerate(order if isinstance(order, list) else (), start=1):
                answer = answers.get(key) if key in grouping.items else None
                if answer is None:
                    continue
                tally = counts.setdefault((grouping.page, key, position), [0, 0])
                tally[0] += 1
                tally[1] += items[key].type.bit(answer, None)
    return counts


def position_figures(survey: Survey, grouping: PositionGrouping, min_n: int) -> dict:
    """Per item of the page, (position, respondents, reports of 1, its figures) at each
    position (nothing counted while fewer than ``min_n`` responses are published)."""
    items = positioned_items(survey)
    counts = position_counts(survey, [grouping]) if survey.published_count >= max(min_n, 1) else {}
    results = {}
    for key in grouping.items:
        found = []
        for position in range(1, grouping.count + 1):
            n, yes = counts.get((grouping.page, key, position), [0, 0])
            found.append((position, n, yes, item_results(items[key], [(yes, n)])))
        results[key] = found
    return results


def position_difference(
    survey: Survey, item: str, grouping: PositionGrouping, first: str, second: str, min_n: int
) -> dict:
    """π(first) − π(second) of a yes/no item of the page between two positions, with its MOVER
    interval through the item's design (the analysis by group's difference, by position)."""
    if item not in grouping.items:
        raise PositionError(f"{item!r} is not a yes/no item of the page {grouping.page!r}")
    counts = position_counts(survey, [grouping])
    found = []
    for position in (first, second):
        if not position.isdigit() or not 1 <= int(position) <= grouping.count:
            raise PositionError(f"the page has no position {position!r}")
        n, yes = counts.get((grouping.page, item, int(position)), [0, 0])
        if n < max(min_n, 1):
            raise PositionError(f"position {position} has fewer than {min_n} respondents")
        found.append((yes, n))
    question = positioned_items(survey)[item]
    design = question.type.line_of(question)
    result = design.difference(*found[0], *found[1])
    return difference_entry(item, grouping.key, [first, second], found, result)
