"""Groups of respondents formed by the direct questions, and how small they may get."""

from __future__ import annotations

import math
from typing import NamedTuple

from web.core.models import Survey

# The class a survey with no responses yet is judged by, for the builder's warning.
TYPICAL_CLASS = 40


class GroupCells(NamedTuple):
    """How the direct questions together split the respondents."""

    count: int  # groups: the product of the direct questions' option counts
    min_n: int  # respondents a group needs before its figures are shown
    needed: int  # respondents in all for every group to reach min_n if they spread evenly
    planned: int  # the respondents the warning is judged for
    size: float  # respondents per group at that number

    @property
    def too_small(self) -> bool:
        return self.size < self.min_n


def group_cells(survey: Survey, min_n: int) -> GroupCells | None:
    """The cells of the survey's direct questions crossed, judged at its responses so far (or a
    class of 40 before any); None without direct questions."""
    sizes = [len(question.options) for question in survey.questions if not question.type.randomized]
    if not sizes:
        return None
    count = math.prod(sizes)
    planned = survey.response_count or TYPICAL_CLASS
    return GroupCells(count, max(min_n, 1), count * max(min_n, 1), planned, planned / count)
