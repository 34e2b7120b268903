"""The crosswise model (Yu, Tian & Tang 2008): with an innocuous question of known prevalence
q ≠ ½, the respondent reports only whether the two true answers are the same (report 1) or
differ; nothing is drawn, so the page asks for the report alone. λ₁ = q, λ₀ = 1 − q
(:func:`rr.crosswise`; RRreg "Crosswise")."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from rr.errors import NO_INFORMATION, OUT_OF_RANGE
from web.core.surveys.designs.base import (
    LabRow,
    SurveyDesign,
    line_codebook,
    register,
    share_words,
)
from web.core.surveys.designs.fields import DesignFields
from web.core.surveys.designs.own_draw import OwnDraw
from web.core.surveys.designs.page_draw import PageDraw
from web.core.surveys.designs.parameters import DesignParameters
from web.core.surveys.designs.r_code import RModels


class CrosswisePage(PageDraw):
    """Nothing drawn: the respondent reports whether two answers are the same."""

    states_chance = False
    draws = False

    def own_randomizer(self, parameters: DesignParameters) -> bool:
        return True  # nothing is drawn: the respondent states the sameness

    def own_draw(self, parameters: DesignParameters) -> OwnDraw:
        return OwnDraw(
            _(
                "Think of your true answer to the question above and to this everyday question, "
                "without writing either down:"
            ),
            after=_(
                "Then report only whether the two answers are the same (both yes or both no) or "
                "different."
            ),
            innocuous=True,
        )

    def respondent_words(self, question) -> str:
        return _(
            "Your answer is never sent: only whether it matches your answer to an everyday question"
        )

    def report_words(self, parameters: DesignParameters) -> tuple[str, str]:
        return _("Different"), _("Both the same")


@register
class Crosswise(SurveyDesign):
    name = "crosswise"
    Page = CrosswisePage
    listed = 50
    label = _l("Crosswise: “are both answers the same?” (yes/no only)")
    literature = _l("the crosswise model (Yu, Tian & Tang 2008)")
    reference = (
        "Yu, J.-W., Tian, G.-L., & Tang, M.-L. (2008). Two new models for survey sampling with "
        "sensitive characteristic: design and analysis. Metrika, 67, 251–263."
    )
    lab = LabRow(_l("Crosswise: “are both answers the same?”, no spinner"))
    fields = DesignFields(("innocuous",))

    refusals = {
        OUT_OF_RANGE: _l("the innocuous prevalence must be strictly between 0 and 1"),
        NO_INFORMATION: _l(
            "a prevalence of 0.5 gives no information: 'the same' is then as likely under "
            "either true answer"
        ),
    }

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        return rr.crosswise(parameters.share("prevalence"))

    def light_fraction(self, question) -> float:
        return 0.0

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        return _("Crosswise: innocuous yes %(q)s", q=share_words(parameters.share("prevalence")))

    def codebook(self, question) -> dict:
        return line_codebook(
            self,
            question,
            RModels("Crosswise", question.design.share("prevalence")),
            column="1 = both answers the same (both yes or both no), 0 = different",
        )
