"""The stochastic lie detector (Moshagen, Musch & Erdfelder 2012): two arms, one drawn per
respondent by the page. A carrier is told to answer truthfully; a non-carrier is told to say "no"
with their arm's p_no and "yes" otherwise. The arms' two lines identify the carriers' share π and
the share t of carriers who say so (:class:`rr.LieDetector`; RRreg "SLD"). A carrier is never told
to say "no", so a "no" is not protected: the design has no ε bound, and says so."""

from __future__ import annotations

import math

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs.arms import ArmsDesign, two_arms
from web.core.surveys.designs.base import register, share_words
from web.core.surveys.designs.fields import DesignFields
from web.core.surveys.designs.page_draw import PageDraw
from web.core.surveys.designs.parameters import DesignParameters, is_probability
from web.core.surveys.designs.r_code import r_column, r_vector, rruni

SHARES = ("p_no",)


def lie_detector_sectors(p_no: float) -> list[dict]:
    """An arm's wheel: the truth with p_no, a told "yes" otherwise (a carrier's truth is "yes",
    so a carrier says "yes" on either sector)."""
    return [{"share": p_no, "reports": "truth"}, {"share": 1 - p_no, "reports": "yes"}]


class LieDetectorPage(PageDraw):
    """Two wheels of truth and a told “yes”, one drawn per respondent with its arm."""

    def arm_sectors(self, parameters: DesignParameters) -> list[list[dict]]:
        return [lie_detector_sectors(p_no) for (p_no,) in parameters.arms]

    def template(self, question) -> str:
        return question.type.respond_template

    def respondent_words(self, question) -> str:
        return _(
            "a random one of two wheels; light: your true answer; dark: “yes”. A “no” is only "
            "ever your own answer, so it is not hidden"
        )


@register
class StochasticLieDetector(ArmsDesign):
    name = "stochastic_lie_detector"
    Page = LieDetectorPage
    listed = 65
    label = _l("Stochastic lie detector: two arms, estimates honesty (yes/no only; no ε bound)")
    literature = _l("the stochastic lie detector (Moshagen, Musch & Erdfelder 2012)")
    reference = (
        "Moshagen, M., Musch, J., & Erdfelder, E. (2012). A stochastic lie detector. Behavior "
        "Research Methods, 44, 222–231."
    )
    fields = DesignFields(("arms",), arm_fields=SHARES)
    second_figure = "honesty"
    second_words = _l("honest carriers (t)")
    interval_words = _l("Wald, on the closed-form standard error of RRreg, clipped to 0–100%")

    def arm_model(self, parameters: DesignParameters) -> rr.LieDetector:
        return rr.lie_detector([p_no for (p_no,) in parameters.arms])

    def posterior(self, parameters: DesignParameters, arm_yes, arm_n):
        return rr.lie_detector_posterior(self.arm_model(parameters), arm_yes, arm_n)

    def epsilon_of(self, epsilon: float | None, parameters: DesignParameters) -> float:
        return math.inf

    def problems(self, epsilon, parameters: DesignParameters) -> list[tuple[str, str]]:
        arms = parameters.arms
        if not two_arms(arms, 1):
            return [("arms", _("needs two arms, each with p_no"))]
        problems = [
            (f"arms[{index}].p_no", _("must be a number from 0 to 1, got %(value)r", value=p_no))
            for index, (p_no,) in enumerate(arms)
            if not is_probability(p_no)
        ]
        if parameters.randomizer != "page":
            problems.append(("randomizer", _("the lie detector's arms are drawn by the page")))
        if problems:
            return problems
        if math.isclose(arms[0][0], arms[1][0], abs_tol=1e-12):
            return [
                (
                    "arms[1].p_no",
                    _(
                        "the two arms must differ: with the same p_no in both, carriers and "
                        "honest answers cannot be told apart"
                    ),
                )
            ]
        if epsilon is not None and not (isinstance(epsilon, float) and math.isinf(epsilon)):
            return [("epsilon", _("the lie detector has no epsilon bound: leave epsilon out"))]
        return []

    def light_fraction(self, question) -> float:
        return question.design.arms[0][0]

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        first, second = parameters.arms
        return _(
            "Stochastic lie detector: arms told “no” (non-carriers) %(first)s and %(second)s",
            first=share_words(first[0]),
            second=share_words(second[0]),
        )

    def codebook(self, question) -> dict:
        """In the literature's words, with RRreg's model: its ``p`` is the arms' p_no, and its
        group is the arm + 1."""
        parameters = question.design
        p = [p_no for (p_no,) in parameters.arms]
        model = self.arm_model(parameters)
        reported, arm = question.type.items_of(question)
        return {
            "design": self.name,
            "arms": [{"p_no": value} for value in p],
            "p_report_1_given_yes": [line.yes_given_yes for line in model.arms],
            "p_report_1_given_no": [line.yes_given_no for line in model.arms],
            "epsilon": None,
            "note": "no epsilon bound: a carrier is never told to say no, so a no is not "
            "protected; the survey's total epsilon leaves this question out",
            "column_meaning": "<id>.reported: the report (0/1); <id>.arm: its arm (0/1, drawn half "
            "and half by the page)",
            "RRreg_model": "SLD",
            "RRreg_p": p,
            "RRreg_group": "<id>.arm + 1",
            "R": [rruni(r_column(reported), "SLD", r_vector(p), f"{r_column(arm)} + 1", True)],
            "RRreg_note": "MLest = FALSE keeps RRreg's closed form, which the app gives: with "
            "its default, RRreg refits by maximum likelihood on the boundary where t or pi "
            "falls outside 0 to 1",
            "randomizer": "page",
            "recompute": "rr.lie_detector(p_no).estimate([yes in arm 0, yes in arm 1], "
            "[n in arm 0, n in arm 1])",
        }

    def plan(self, numbers: dict, n: int) -> dict:
        parameters, model = self.planned_model(numbers)
        return {
            "procedure": self.name,
            "second_figure": self.second_figure,
            "arms": [{"p_no": p_no} for (p_no,) in parameters.arms],
            "epsilon": None,
            "bounded": False,
            "n": n,
            # The half-width for π at ½ with every carrier honest (a planning figure).
            "margin_of_error": model.margin_of_error(max(n, 4)),
            "arm_probabilities": [[line.yes_given_yes, line.yes_given_no] for line in model.arms],
            "sectors": lie_detector_sectors(parameters.arms[0][0]),
        }
