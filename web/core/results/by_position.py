"""A randomized page's positions as a grouping, like a direct question's answers: each item of the
page estimated among the respondents shown it first, second, …, from the published responses (their
``order:<page>`` says where each question stood), each position withheld below the minimum n; and
the difference between two positions through the item's own design. An item is a tally reported
through one design's line: a yes/no question's, each option of a multi-select or single choice,
and, in a split ballot, each condition's row of a question (``<id>@<condition>``), among the
respondents of that condition. The grouping is named ``position:<page>`` wherever a direct
question's id groups (the analysis by group, the results API's ``by``, the estimates CSV)."""

from __future__ import annotations

from dataclasses import dataclass

from web.core.models import Option, Question, Survey
from web.core.results.figures import difference_entry, item_results
from web.core.results.published import published_answers
from web.core.surveys.flow.conditions import question_id
from web.core.surveys.flow.pages import stored_pages
from web.core.surveys.flow.walk import PAGE_ORDER, survey_flow
from web.core.surveys.questions import ARM
from web.core.surveys.texts import Texts

POSITION = "position:"


class PositionError(ValueError):
    """A grouping by position the survey cannot give: the message says why."""


@dataclass(frozen=True)
class PositionGrouping:
    """One randomized page's positions: its grouping key, its page and title, the questions it
    orders (by id, as the page's flow lists them), and the rows on it estimated by position
    (each by its key)."""

    key: str
    page: str
    title: Texts
    questions: tuple[str, ...]
    items: tuple[str, ...]

    @property
    def count(self) -> int:
        """How many places the page has at most."""
        return len(self.questions)


def position_groupings(survey: Survey) -> list[PositionGrouping]:
    """Every randomized page with a row estimated by position."""
    rows = positioned_rows(survey)
    titles = {str(page.key): page.title for page in stored_pages(survey.pages)}
    found = []
    for page in survey_flow(survey).pages:
        on_page = tuple(key for key, row in rows.items() if row.question_id in page.questions)
        if page.randomize and on_page:
            found.append(PositionGrouping(f"{POSITION}{page.key}", str(page.key),
                                          titles.get(str(page.key), Texts()),
                                          tuple(page.questions), on_page))  # fmt: skip
    return found


def position_grouping(survey: Survey, key: str) -> PositionGrouping | None:
    """The grouping ``key`` names, if it names a page's positions; PositionError where it names
    a page that has none."""
    if not key.startswith(POSITION):
        return None
    found = next((each for each in position_groupings(survey) if each.key == key), None)
    if found is None:
        raise PositionError(
            f"{key[len(POSITION) :]!r} is not a randomized page with a randomized item: group "
            "by the position on one that is"
        )
    return found


def positioned_rows(survey: Survey) -> dict[str, Question]:
    """The question rows whose tallies the app estimates by position: every randomized row
    whose tallies each report through one design's line (not a number's range, not cheating
    detection's arms), a split ballot's in each condition."""
    return {
        question.key: question
        for question in survey.questions
        if question.type.estimated
        and not question.type.has_range
        and ARM not in question.type.spun(question.options)
    }


def positions_of(survey: Survey, grouping: PositionGrouping, row: Question) -> int:
    """How many places the page has for ``row``'s respondents: the page's questions asked in
    the row's condition (every one for a row asked in every condition)."""
    if row.condition is None:
        return grouping.count
    asked = {
        question.question_id
        for question in survey.questions
        if question.condition in (None, row.condition)
    }
    return sum(1 for name in grouping.questions if name in asked)


def position_counts(
    survey: Survey, groupings: list[PositionGrouping]
) -> dict[tuple[str, str, int], list[int]]:
    """(page, row, position) → [respondents shown it there who answered, then their reports of 1
    for each of the row's tallies], from the published responses (one pass)."""
    rows = positioned_rows(survey)
    counts: dict[tuple[str, str, int], list[int]] = {}
    for answers in published_answers(survey):
        for grouping in groupings:
            order = answers.get(f"{PAGE_ORDER}{grouping.page}")
            places = (
                {name: at for at, name in enumerate(order, 1)} if isinstance(order, list) else {}
            )
            for key in grouping.items:
                answer, position = answers.get(key), places.get(question_id(key))
                if answer is None or position is None:
                    continue
                row = rows[key]
                tallies = [row.type.bit(answer, option_key(o)) for o in row.type.spun(row.options)]
                found = counts.setdefault((grouping.page, key, position), [0] * (1 + len(tallies)))
                found[0] += 1
                for index, bit in enumerate(tallies, start=1):
                    found[index] += bit
    return counts


def option_key(option: Option | None) -> str | None:
    """The key a row's tally is read by (None for a yes/no question's own)."""
    return None if option is None else option.key


def position_figures(survey: Survey, grouping: PositionGrouping, min_n: int) -> dict:
    """Per row of the page, (position, respondents, reports of 1 per tally, its figures) at each
    of its positions (nothing counted while fewer than ``min_n`` responses are published)."""
    rows = positioned_rows(survey)
    counts = position_counts(survey, [grouping]) if survey.published_count >= max(min_n, 1) else {}
    results = {}
    for key in grouping.items:
        row, found = rows[key], []
        tallies = len(row.type.spun(row.options))
        for position in range(1, positions_of(survey, grouping, row) + 1):
            n, *yes = counts.get((grouping.page, key, position), [0] * (1 + tallies))
            found.append((position, n, yes, item_results(row, [(each, n) for each in yes])))
        results[key] = found
    return results


def position_difference(
    survey: Survey,
    row: Question,
    option: Option | None,
    grouping: PositionGrouping,
    first: str,
    second: str,
    min_n: int,
) -> dict:
    """π(first) − π(second) of one tally of a row on the page (``option`` None for a yes/no
    question's own) between two positions, with its MOVER interval through the row's design
    (the analysis by group's difference, by position)."""
    item = row.key if option is None else f"{row.key}.{option.key}"
    if row.key not in grouping.items:
        raise PositionError(f"{item!r} is not a randomized item of the page {grouping.page!r}")
    counts = position_counts(survey, [grouping])
    tally = 1 + row.type.spun(row.options).index(option)
    places = positions_of(survey, grouping, row)
    found = []
    for position in (first, second):
        if not position.isdigit() or not 1 <= int(position) <= places:
            raise PositionError(f"the page has no position {position!r}")
        tallied = counts.get((grouping.page, row.key, int(position)))
        n, yes = (tallied[0], tallied[tally]) if tallied else (0, 0)
        if n < max(min_n, 1):
            raise PositionError(f"position {position} has fewer than {min_n} respondents")
        found.append((yes, n))
    result = row.type.line_of(row).difference(*found[0], *found[1])
    return difference_entry(item, grouping.key, [first, second], found, result)
