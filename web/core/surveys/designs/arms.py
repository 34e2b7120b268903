"""What a design of two arms answers besides every design's: each respondent is put into one of
two arms at random, and the arms' two lines identify the asked share and one more (cheaters, or
honest carriers). It has no single line: its numbers are rr's model of both arms
(``arm_model``), whose estimate names the asked share ``prevalence``."""

from __future__ import annotations

from typing import Any, ClassVar

import rr
from web.core.surveys.designs.base import SurveyDesign
from web.core.surveys.designs.parameters import DesignParameters


class ArmsDesign(SurveyDesign):
    """A design whose respondents are drawn into two arms, each report sent with its arm."""

    variant = "arms"  # each report goes with its arm (questions/arms.py)
    # The name of the second figure its model estimates, as the results API and the dashboard
    # give it (``cheating``, ``honesty``), and its words on the researcher's pages.
    second_figure: ClassVar[str]
    second_words: ClassVar[object]  # lazily translated
    # How its intervals are made, in words (lazily translated), beside each estimate.
    interval_words: ClassVar[object]

    def arm_model(self, parameters: DesignParameters) -> Any:
        """rr's model of both arms (``epsilon``, ``arms``, ``estimate``, ``difference``,
        ``perturb``, ``margin_of_error``); assumes checked parameters."""
        raise NotImplementedError

    def posterior(self, parameters: DesignParameters, arm_yes, arm_n):
        """The posterior marginals of the asked share and of the second figure (None where that
        is no share: a model test), from the arms' counts with a uniform prior."""
        raise NotImplementedError

    def planned_model(self, numbers: dict) -> tuple[DesignParameters, Any]:
        """The parameters a plan's ``numbers`` state (an innocuous question stands in for each
        arm's where its arms ask one) and rr's model of them.

        Raises
        ------
        ValueError
            Naming every mistake in ``numbers``.
        """
        parameters = self.fields.planned(numbers)
        problems = self.problems(None, parameters)
        if problems:
            raise ValueError("; ".join(f"{field}: {message}" for field, message in problems))
        return parameters, self.arm_model(parameters)

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        raise ValueError(
            "a question of two arms estimates two shares at once: it has no single line to "
            "regress on"
        )

    def epsilon_of(self, epsilon: float | None, parameters: DesignParameters) -> float:
        return self.arm_model(parameters).epsilon

    def truth_probability(self, question) -> float:
        arms = self.arm_model(question.design).arms
        return min(min(arm.yes_given_yes, 1 - arm.yes_given_no) for arm in arms)

    def noise_line(self, question) -> tuple[float, float]:
        first = self.arm_model(question.design).arms[0]  # its honest respondents' line
        return first.offset, first.slope


def two_arms(arms, width: int) -> bool:
    """Whether ``arms`` as stated is two arms of ``width`` shares each (the shares are checked
    apart)."""
    return (
        isinstance(arms, (list, tuple))
        and len(arms) == 2
        and all(isinstance(arm, (list, tuple)) and len(arm) == width for arm in arms)
    )


def arms_design(design: SurveyDesign) -> ArmsDesign:
    """``design`` as a design of two arms; ValueError for a design of one line."""
    if not isinstance(design, ArmsDesign):
        raise ValueError(f"a question asked with {design.name} puts every respondent in one arm")
    return design
