"""What the two spinners share: their ε is stated, every randomized question type may use them,
and what a report means depends on the question's type (one bit, an option among k, a value), so
the numbers and words come from the type (:mod:`web.core.surveys.questions`)."""

from __future__ import annotations

from typing import ClassVar

from flask_babel import gettext as _

import rr
from web.core.surveys.designs.base import SurveyDesign
from web.core.surveys.designs.page_draw import PageDraw
from web.core.surveys.designs.parameters import DesignParameters
from web.core.surveys.designs.r_code import RModels


class SpunPage(PageDraw):
    """A spinner's page: a two-share wheel whose dark share does what rr says, the question's
    type's part, and its words."""

    design: TypeSpun

    @property
    def descriptor(self) -> dict:
        """What the page's scripts need of it: its name and what dark does."""
        return {"name": self.design.name, "dark": self.design.dark}

    def template(self, question) -> str:
        return question.type.respond_template

    def respondent_words(self, question) -> str:
        if question.epsilon_permanent is not None:
            # Each wave spins on the device's kept permanent report, not on the answer itself.
            if self.design.dark == "coin":
                return _("light: this device's kept stand-in for your true answer; dark: chance "
                         "decides")  # fmt: skip
            return _("light: this device's kept stand-in for your true answer; dark: another "
                     "answer")  # fmt: skip
        return question.type.dark_words(self.design)


class TypeSpun(SurveyDesign):
    """A spinner whose dark share does one thing; the question's type does the rest."""

    Page = SpunPage
    derived: ClassVar[bool] = False
    every_type: ClassVar[bool] = True
    keeps_permanent: ClassVar[bool] = True
    # The lab's names for it: in its table of what one spin reveals, and for a single-choice
    # question (a die on dark).
    short_label: ClassVar[object]
    choice_label: ClassVar[object]

    @property
    def dark(self) -> str:
        """What its dark share does (rr owns the rule, :func:`rr.dark_report`): "coin" or
        "opposite", as the page's script names it too."""
        return rr.dark_report(self.name)

    def epsilon_of(self, epsilon: float | None, parameters: DesignParameters) -> float:
        assert epsilon is not None, "a spinner's ε is stated"
        return epsilon

    def problems(self, epsilon, parameters: DesignParameters) -> list[tuple[str, str]]:
        return []  # ε and the range are checked with the question's type

    def light_fraction(self, question) -> float:
        return question.type.light_fraction(question.epsilon, self.name, len(question.options))

    def truth_probability(self, question) -> float:
        return question.type.truth_probability(question.epsilon, len(question.options))

    def noise_line(self, question) -> tuple[float, float]:
        return question.type.noise_line(question.epsilon, len(question.options))

    def codebook(self, question) -> dict:
        return question.type.codebook(self, question)

    def line_entry(self, light: float) -> dict:
        """The codebook's words for one spin whose light share is ``light``."""
        raise NotImplementedError

    def r_models(self, light: float) -> RModels:
        """R's models of one spin whose light share is ``light``."""
        raise NotImplementedError

    def plan(self, numbers: dict, n: int) -> dict:
        raise ValueError(f"{self.name}'s plan is read with its ε (GET /api/plan?epsilon=…)")
