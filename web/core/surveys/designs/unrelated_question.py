"""The unrelated question (Greenberg et al. 1969): the sensitive question with probability t,
otherwise an innocuous one whose prevalence q is known. On the page: light → the true answer,
dark → the true answer to the innocuous question. λ₁ = t + (1 − t)q, λ₀ = (1 − t)q
(:func:`rr.unrelated_question`; RRreg "UQTknown", rr "unrelated-known")."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs.base import (
    LabRow,
    SurveyDesign,
    line_codebook,
    register,
    share_words,
)
from web.core.surveys.designs.fields import DesignFields
from web.core.surveys.designs.page_draw import PageDraw
from web.core.surveys.designs.parameters import DesignParameters
from web.core.surveys.designs.r_code import RModels


class UnrelatedQuestionPage(PageDraw):
    """A wheel of the sensitive and the everyday question, or the respondent's own die or coin."""

    def own_shares(self, parameters: DesignParameters) -> list[tuple[str, float]]:
        truth = parameters.share("p_truth")
        return [("truth", truth), ("innocuous", 1 - truth)]

    def sectors(self, parameters: DesignParameters) -> list[dict]:
        if self.own_randomizer(parameters):
            return []
        truth = parameters.share("p_truth")
        return [{"share": truth, "reports": "truth"}, {"share": 1 - truth, "reports": "innocuous"}]

    def respondent_words(self, question) -> str:
        if self.own_randomizer(question.design):
            return _("your own die or coin decides which question you answer")
        return _("light: your true answer; dark: your answer to an everyday question")


@register
class UnrelatedQuestion(SurveyDesign):
    name = "unrelated_question"
    Page = UnrelatedQuestionPage
    listed = 40
    label = _l("Unrelated question (yes/no only)")
    literature = _l(
        "the unrelated-question design with a known innocuous share (Greenberg et al. 1969)"
    )
    reference = (
        "Greenberg, B. G., Abul-Ela, A.-L. A., Simmons, W. R., & Horvitz, D. G. (1969). The "
        "unrelated question randomized response model: theoretical framework. Journal of the "
        "American Statistical Association, 64, 520–539."
    )
    lab = LabRow(_l("Unrelated question, innocuous prevalence 25%"))
    fields = DesignFields(
        ("p_truth", "innocuous"),
        shares={"p_truth": (_l("Share answering truthfully"), 0.75)},
        own=True,
    )

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        return rr.unrelated_question(parameters.share("p_truth"), parameters.share("prevalence"))

    def refusal(self, parameters: DesignParameters) -> tuple[str, str] | None:
        p_truth, prevalence = parameters.share("p_truth"), parameters.share("prevalence")
        if p_truth == 1:
            return "procedure", _("p_truth must be below 1: at 1 every report is the true answer")
        if p_truth == 0:
            return "procedure", _("p_truth must be above 0: otherwise the reports say nothing")
        if prevalence in (0, 1):
            return "procedure", _("the innocuous prevalence must be strictly between 0 and 1")
        return None

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        words = _(
            "Unrelated question: truth %(truth)s, innocuous yes %(q)s",
            truth=share_words(parameters.share("p_truth")),
            q=share_words(parameters.share("prevalence")),
        )
        if self.page.own_randomizer(parameters):
            words += _(" (the respondent's own die or coin)")
        return words

    def codebook(self, question) -> dict:
        parameters = question.design
        truth, innocuous = parameters.share("p_truth"), parameters.share("prevalence")
        models = RModels(
            "UQTknown", [truth, innocuous], "unrelated-known", {"p": truth, "q": innocuous}
        )
        return line_codebook(self, question, models)
