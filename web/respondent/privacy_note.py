"""What the survey page's privacy note says of the survey as a whole."""

from __future__ import annotations

import math
from dataclasses import dataclass

from web.core.models import Survey
from web.core.surveys.designs.page_draw import PageDraw


@dataclass(frozen=True)
class PrivacyNote:
    """How often each question that states it sends the true answer; whether any protected
    question is drawn with the respondent's own randomizer; whether any is answered directly, and
    whether any in the respondent's own words; of those answered directly, whether any must be
    answered and whether any may be left out."""

    chances: tuple[float, ...]
    own_draw: bool
    direct: bool
    written: bool = False
    direct_required: bool = False
    direct_optional: bool = False
    # The page parts of the designs with no ε bound the survey asks with (the lie detector's, a
    # list's), each saying what its answers give away.
    unbounded: tuple[PageDraw, ...] = ()

    @classmethod
    def of(cls, survey: Survey) -> PrivacyNote:
        asked = [(question, question.asked_with) for question in survey.questions]
        return cls(
            chances=tuple(
                design.truth_probability(question)
                for question, design in asked
                if design.protects and design.page.states_chance
            ),
            # A design with no ε bound says what it gives away in its own note.
            own_draw=any(
                design.protects
                and design.page.own_randomizer(question.design)
                and math.isfinite(question.epsilon)
                for question, design in asked
            ),
            direct=any(not design.protects for _, design in asked),
            written=any(question.type.written for question, _ in asked),
            direct_required=any(q.required for q, design in asked if not design.protects),
            direct_optional=any(not q.required for q, design in asked if not design.protects),
            unbounded=tuple(
                dict.fromkeys(
                    design.page for q, design in asked if design.protects and math.isinf(q.epsilon)
                )
            ),
        )
