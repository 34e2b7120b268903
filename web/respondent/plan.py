"""What the submission path keeps of a survey: its state, and the plan of one revision.

Both the submission service (:mod:`web.respondent.submissions`) and its writer
(:mod:`web.respondent.writer`) read them; neither imports the other for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from web.core.surveys.answers import Shape
from web.core.surveys.flow.quotas import Quota
from web.core.surveys.flow.walk import Flow
from web.core.surveys.questions import Tallied


@dataclass(frozen=True)
class SurveyState:
    id: int
    status: str
    revision: int
    # The schedule (seconds since 1970, UTC) and target, and the responses so far.
    opens_at: int | None = None
    closes_at: int | None = None
    target_n: int | None = None
    response_count: int = 0


@dataclass(frozen=True)
class Plan:
    """What a submission to one revision of a survey must contain and which tallies it feeds."""

    survey_id: int
    revision: int
    shapes: tuple[Shape, ...]
    tallies: tuple[Tallied, ...]
    # The direct questions' keys: a response's answers to them name its cell, in which each of
    # its randomized tallies is counted too.
    direct: tuple[str, ...] = ()
    # An experiment's condition ids: a submission names the one its page drew.
    conditions: tuple[str, ...] = ()
    # Its pages, display rules and drawn orders (web/core/surveys/flow/walk.py); None: one page,
    # every question shown, in the file's order.
    flow: Flow | None = None
    # Its quotas (web/core/surveys/flow/quotas.py): a response counts in those its plain answers meet.
    quotas: tuple[Quota, ...] = ()

    def __hash__(self) -> int:
        # A group of submissions is sorted by plan: hashing every shape and tally each time
        # cost more than storing a key. Equal plans have the same survey and revision.
        return hash((self.survey_id, self.revision))
