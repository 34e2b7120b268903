"""Cheating detection (Clark & Desharnais 1998): two forced-response arms, one drawn per
respondent by the page, and respondents who answer "no" whatever they are told. The arms' two
lines identify both the honest "yes" share and the share of cheaters
(:class:`rr.CheatingDetection`; RRreg "CDMsym"). ε is the larger arm's."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs.arms import ArmsDesign, two_arms
from web.core.surveys.designs.base import epsilon_problems, register, share_words
from web.core.surveys.designs.fields import DesignFields
from web.core.surveys.designs.forced_response import forced_refusal, forced_sectors
from web.core.surveys.designs.page_draw import PageDraw
from web.core.surveys.designs.parameters import (
    ARM_FIELDS,
    DesignParameters,
    is_probability,
)
from web.core.surveys.designs.r_code import r_column, r_vector, rruni


def cheating_model(parameters: DesignParameters) -> rr.CheatingDetection:
    """The two arms of a cheating-detection question; assumes checked parameters."""
    return rr.cheating_detection(parameters.arms)


class CheatingDetectionPage(PageDraw):
    """Two forced-response wheels, one drawn per respondent with its arm."""

    def arm_sectors(self, parameters: DesignParameters) -> list[list[dict]]:
        return [forced_sectors(*arm) for arm in parameters.arms]

    def template(self, question) -> str:
        return question.type.respond_template

    def respondent_words(self, question) -> str:
        return _(
            "a random one of two wheels; light: your true answer; the other sectors: a forced “yes” or “no”"
        )


@register
class CheatingDetection(ArmsDesign):
    name = "cheating_detection"
    Page = CheatingDetectionPage
    listed = 60
    label = _l("Cheating detection: two forced-response arms (yes/no only)")
    literature = _l("the cheating-detection model (Clark & Desharnais 1998)")
    reference = (
        "Clark, S. J., & Desharnais, R. A. (1998). Honest answers to embarrassing questions: "
        "detecting cheating in the randomized response model. Psychological Methods, 3, 160–168."
    )
    fields = DesignFields(("arms",))
    second_figure = "cheating"
    second_words = _l("cheaters (gamma)")
    interval_words = _l(
        "MOVER (Zou & Donner 2008) on the two arms' exact Clopper–Pearson limits, clipped to 0–100%"
    )

    def arm_model(self, parameters: DesignParameters) -> rr.CheatingDetection:
        return cheating_model(parameters)

    def posterior(self, parameters: DesignParameters, arm_yes, arm_n):
        return rr.cheating_posterior(cheating_model(parameters), arm_yes, arm_n)

    def problems(self, epsilon, parameters: DesignParameters) -> list[tuple[str, str]]:
        arms = parameters.arms
        if not two_arms(arms, 3):
            return [("arms", _("needs two arms, each with p_truth, p_forced_yes and p_forced_no"))]
        problems = [
            (f"arms[{index}].{name}", _("must be a number from 0 to 1, got %(value)r", value=value))
            for index, arm in enumerate(arms)
            for name, value in zip(ARM_FIELDS, arm, strict=True)
            if not is_probability(value)
        ]
        if parameters.randomizer != "page":
            problems.append(("randomizer", _("cheating detection's arms are drawn by the page")))
        if problems:
            return problems
        problems = [
            (f"arms[{index}]", refusal)
            for index, arm in enumerate(arms)
            if (refusal := forced_refusal(*arm)) is not None
        ]
        if problems:
            return problems
        try:
            model = cheating_model(parameters)
        except ValueError:
            return [
                (
                    "arms",
                    _(
                        "the two arms must differ: with t1·f2 = t2·f1 an honest “no” and a "
                        "cheater cannot be told apart"
                    ),
                )
            ]
        return epsilon_problems(model.epsilon, epsilon)

    def light_fraction(self, question) -> float:
        return question.design.arms[0][0]

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        first, second = parameters.arms
        return _(
            "Cheating detection: arms (truth, forced yes, forced no) %(first)s and %(second)s",
            first=" / ".join(share_words(value) for value in first),
            second=" / ".join(share_words(value) for value in second),
        )

    def codebook(self, question) -> dict:
        """In the literature's words, with RRreg's symmetric model: its ``p`` is (forced yes,
        forced no) of the first arm then the second, and its group is the arm + 1."""
        parameters = question.design
        model = cheating_model(parameters)
        p = [value for arm in parameters.arms for value in (arm[1], arm[2])]
        reported, arm = question.type.items_of(question)
        return {
            "design": self.name,
            "arms": [dict(zip(ARM_FIELDS, arm, strict=True)) for arm in parameters.arms],
            "p_report_1_given_yes": [arm.yes_given_yes for arm in model.arms],
            "p_report_1_given_no": [arm.yes_given_no for arm in model.arms],
            "cheaters": "say no whatever they are told",
            "column_meaning": "<id>.reported: the report (0/1); <id>.arm: its arm (0/1, drawn half "
            "and half by the page)",
            "RRreg_model": "CDMsym",
            "RRreg_p": p,
            "RRreg_group": "<id>.arm + 1",
            "R": [rruni(r_column(reported), "CDMsym", r_vector(p), f"{r_column(arm)} + 1")],
            "randomizer": "page",
            "recompute": "rr.cheating_detection(arms).estimate([yes in arm 0, yes in arm 1], "
            "[n in arm 0, n in arm 1])",
        }

    def plan(self, numbers: dict, n: int) -> dict:
        parameters, model = self.planned_model(numbers)
        return {
            "procedure": self.name,
            "second_figure": self.second_figure,
            "arms": [dict(zip(ARM_FIELDS, arm, strict=True)) for arm in parameters.arms],
            "epsilon": model.epsilon,
            "n": n,
            # The half-width for π at ½ with no cheaters (a planning figure, normal interval).
            "margin_of_error": model.margin_of_error(max(n, 2)),
            "arm_probabilities": [[arm.yes_given_yes, arm.yes_given_no] for arm in model.arms],
            "sectors": forced_sectors(*parameters.arms[0]),
        }
