"""How small the analysis's groups get, for the builder's warning: the analysis compares the
groups of one direct question at a time (its options), or one randomized page's positions, and
shows a group once it has the minimum n; the grouping with the most groups decides how many
respondents the survey needs."""

from __future__ import annotations

from typing import NamedTuple

from web.core.infrastructure.i18n import shown
from web.core.models import Survey
from web.core.results.by_position import position_groupings
from web.core.results.cells import direct_questions

# The class a survey with no responses yet is judged by, for the builder's warning.
TYPICAL_CLASS = 40


class GroupSizes(NamedTuple):
    """How the grouping with the most groups splits the respondents."""

    name: str  # the direct question's words, or the randomized page's title (or id)
    groups: int  # its options, or the page's positions
    min_n: int  # respondents a group needs before its figures are shown
    needed: int  # respondents in all for every group to reach min_n if they spread evenly
    planned: int  # the respondents the warning is judged for
    size: float  # respondents per group at that number

    @property
    def too_small(self) -> bool:
        return self.size < self.min_n


def group_sizes(survey: Survey, min_n: int) -> GroupSizes | None:
    """The survey's widest grouping judged at its responses so far (or a class of 40 before
    any); None where nothing groups its respondents."""
    splits = [(shown(q.texts).text, len(q.options)) for q in direct_questions(survey.questions)]
    splits += [
        (shown(page.title).text if page.title else page.page, page.count)
        for page in position_groupings(survey)
    ]
    if not splits:
        return None
    name, groups = max(splits, key=lambda split: split[1])
    planned = survey.response_count or TYPICAL_CLASS
    least = max(min_n, 1)
    return GroupSizes(name, groups, least, groups * least, planned, planned / groups)
