"""Forced response (Boruch 1971): the truth with probability t, a forced "yes" with f₁, a forced
"no" with f₀ (t + f₁ + f₀ = 1, each forced share > 0). On the page: one wheel of three sectors;
with the respondent's own die or coin, faces for each outcome. λ₁ = t + f₁, λ₀ = f₁
(:func:`rr.forced_response`; RRreg "FR", rr "forced-known")."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from rr.errors import INFINITE_EPSILON, NO_INFORMATION, NOT_ONE
from web.core.surveys.designs.base import (
    LabRow,
    SurveyDesign,
    line_codebook,
    refusal_words,
    register,
    share_words,
)
from web.core.surveys.designs.fields import DesignFields
from web.core.surveys.designs.page_draw import PageDraw
from web.core.surveys.designs.parameters import DesignParameters
from web.core.surveys.designs.r_code import RModels

SHARES = ("p_truth", "p_forced_yes", "p_forced_no")


def forced_sectors(p_truth: float, p_forced_yes: float, p_forced_no: float) -> list[dict]:
    """A forced-response wheel for the page: truth, then "yes", then "no", clockwise."""
    return [
        {"share": p_truth, "reports": "truth"},
        {"share": p_forced_yes, "reports": "yes"},
        {"share": p_forced_no, "reports": "no"},
    ]


# rr's refusals of forced-response shares, in the researcher's words.
FORCED_REFUSALS = {
    NOT_ONE: _l("p_truth + p_forced_yes + p_forced_no must be 1, got %(value)g"),
    INFINITE_EPSILON: _l(
        "each forced share must be above 0: otherwise one report can come from only one "
        "true answer (infinite epsilon)"
    ),
    NO_INFORMATION: _l("p_truth must be above 0: otherwise the reports say nothing"),
}


def forced_refusal(p_truth: float, p_forced_yes: float, p_forced_no: float) -> str | None:
    """Why shares in [0, 1] still make no forced-response design (rr's check), in the viewer's
    language; None if they make one."""
    try:
        rr.forced_response(p_truth, p_forced_yes, p_forced_no)
    except rr.ParameterError as error:
        return refusal_words(error, FORCED_REFUSALS)
    return None


class ForcedResponsePage(PageDraw):
    """A wheel of truth, forced “yes” and forced “no”, or the respondent's own die or coin."""

    def own_shares(self, parameters: DesignParameters) -> list[tuple[str, float]]:
        return [
            (outcome, parameters.share(name))
            for outcome, name in zip(("truth", "yes", "no"), SHARES, strict=True)
        ]

    def sectors(self, parameters: DesignParameters) -> list[dict]:
        if self.own_randomizer(parameters):
            return []
        return forced_sectors(*(parameters.share(name) for name in SHARES))

    def respondent_words(self, question) -> str:
        if self.own_randomizer(question.design):
            return _("your own die or coin decides: your true answer, or a forced “yes” or “no”")
        return _("light: your true answer; the other sectors: a forced “yes” or “no”")


@register
class ForcedResponse(SurveyDesign):
    name = "forced_response"
    Page = ForcedResponsePage
    listed = 30
    label = _l("Forced response (yes/no only)")
    literature = _l("the forced-response design (Boruch 1971)")
    reference = (
        "Boruch, R. F. (1971). Assuring confidentiality of responses in social research: a note "
        "on strategies. The American Sociologist, 6, 308–311."
    )
    lab = LabRow(_l("Forced response, a forced “yes” twice as likely as a forced “no”"))
    refusals = FORCED_REFUSALS
    fields = DesignFields(
        SHARES,
        shares={
            "p_truth": (_l("Share answering truthfully"), 0.75),
            "p_forced_yes": (_l("Share told to say “yes”"), 1 / 6),
            "p_forced_no": (_l("Share told to say “no”"), 1 / 12),
        },
        own=True,
    )

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        return rr.forced_response(*(parameters.share(name) for name in SHARES))

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        words = _(
            "Forced response: truth %(truth)s, forced yes %(yes)s, forced no %(no)s",
            truth=share_words(parameters.share("p_truth")),
            yes=share_words(parameters.share("p_forced_yes")),
            no=share_words(parameters.share("p_forced_no")),
        )
        if self.page.own_randomizer(parameters):
            words += _(" (the respondent's own die or coin)")
        return words

    def codebook(self, question) -> dict:
        parameters = question.design
        truth, yes, no = (parameters.share(name) for name in SHARES)
        models = RModels(
            "FR", [no, yes], "forced-known", {"p": truth, "p1": yes, "p0": no}, yes_at="[2]"
        )
        return line_codebook(self, question, models)
