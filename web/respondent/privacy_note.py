"""What the survey page's privacy note says of the survey as a whole."""

from __future__ import annotations

from dataclasses import dataclass

from web.core.models import Survey


@dataclass(frozen=True)
class PrivacyNote:
    """How often each question that states it sends the true answer; whether any protected
    question is drawn with the respondent's own randomizer; whether any is answered directly, and
    whether any in the respondent's own words."""

    chances: tuple[float, ...]
    own_draw: bool
    direct: bool
    written: bool = False

    @classmethod
    def of(cls, survey: Survey) -> PrivacyNote:
        asked = [(question, question.asked_with) for question in survey.questions]
        return cls(
            chances=tuple(
                design.truth_probability(question)
                for question, design in asked
                if design.protects and design.page.states_chance
            ),
            own_draw=any(
                design.protects and design.page.own_randomizer(question.design)
                for question, design in asked
            ),
            direct=any(not design.protects for _, design in asked),
            written=any(question.type.written for question, _ in asked),
        )
