"""The extended crosswise model (Heck, Hoffmann & Moshagen 2018): the crosswise question in two
arms whose innocuous questions differ (typically of prevalence q and 1 − q). The page draws each
respondent's arm once, shows that arm's innocuous question, and asks only whether the two true
answers are the same; nothing else is drawn, and the true answer is never asked. One π must fit
both arms: the G² of that fit against the saturated model tests whether respondents followed the
instructions (:class:`rr.ExtendedCrosswise`; ε the larger arm's crosswise ε)."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs.arms import ArmsDesign, two_arms
from web.core.surveys.designs.base import epsilon_problems, register, share_words
from web.core.surveys.designs.crosswise import CrosswisePage
from web.core.surveys.designs.fields import DesignFields
from web.core.surveys.designs.parameters import DesignParameters, is_probability
from web.core.surveys.designs.r_code import r_column, r_vector
from web.core.surveys.limits import MAX_TEXT


class ExtendedCrosswisePage(CrosswisePage):
    """The crosswise question's page, whose everyday question is the drawn arm's."""

    draws_first = True

    def template(self, question) -> str:
        return "respond/_arm_crosswise.html"

    def respondent_words(self, question) -> str:
        return _(
            "Your answer is never sent: only whether it matches your answer to an everyday "
            "question, one of two drawn for you at random"
        )


@register
class ExtendedCrosswise(ArmsDesign):
    name = "extended_crosswise"
    Page = ExtendedCrosswisePage
    listed = 55
    label = _l("Extended crosswise: two everyday questions, tests itself (yes/no only)")
    literature = _l("the extended crosswise model (Heck, Hoffmann & Moshagen 2018)")
    reference = (
        "Heck, D. W., Hoffmann, A., & Moshagen, M. (2018). Detecting nonadherence without loss in "
        "efficiency: A simple extension of the crosswise model. Behavior Research Methods, 50, "
        "1895–1905."
    )
    fields = DesignFields(("arms",), arm_fields=("innocuous",))
    second_figure = "model_test"
    second_words = _l("model test (G², 1 df)")
    interval_words = _l("Wald, on the maximum-likelihood estimate's Fisher information")

    def arm_model(self, parameters: DesignParameters) -> rr.ExtendedCrosswise:
        return rr.extended_crosswise([q for (q,) in parameters.arms])

    def posterior(self, parameters: DesignParameters, arm_yes, arm_n):
        return rr.extended_crosswise_posterior(self.arm_model(parameters), arm_yes, arm_n), None

    def problems(self, epsilon, parameters: DesignParameters) -> list[tuple[str, str]]:
        arms, texts = parameters.arms, parameters.arm_texts or ()
        if not two_arms(arms, 1):
            return [("arms", _("needs two arms, each with its innocuous question"))]
        problems = [
            (
                f"arms[{index}].innocuous.prevalence",
                _("must be a number strictly between 0 and 1, got %(value)r", value=q),
            )
            for index, (q,) in enumerate(arms)
            if not is_probability(q) or q in (0, 1)
        ]
        for index in range(2):
            text = texts[index] if index < len(texts) else None
            if not text:
                place = f"arms[{index}].innocuous.text"
                problems.append((place, _("the innocuous question needs its text")))
            elif any(len(value) > MAX_TEXT for value in text.values()):
                place = f"arms[{index}].innocuous.text"
                problems.append((place, _("at most %(limit)d characters", limit=MAX_TEXT)))
        if problems:
            return problems
        for index, (q,) in enumerate(arms):
            if abs(q - 0.5) < 1e-12:
                return [
                    (
                        f"arms[{index}].innocuous.prevalence",
                        _(
                            "a prevalence of 0.5 gives no information: 'the same' is then as "
                            "likely under either true answer"
                        ),
                    )
                ]
        if abs(arms[0][0] - arms[1][0]) < 1e-12:
            return [
                (
                    "arms[1].innocuous.prevalence",
                    _(
                        "the two arms must differ: with the same prevalence in both the model "
                        "cannot be tested (use q and 1 − q)"
                    ),
                )
            ]
        return epsilon_problems(self.arm_model(parameters).epsilon, epsilon)

    def light_fraction(self, question) -> float:
        return 0.0

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        first, second = parameters.arms
        return _(
            "Extended crosswise: innocuous yes %(first)s and %(second)s",
            first=share_words(first[0]),
            second=share_words(second[0]),
        )

    def codebook(self, question) -> dict:
        """In the literature's words, with R's binomial model of both arms: its coefficient is π,
        its residual deviance the model test's G²."""
        parameters = question.design
        q = [share for (share,) in parameters.arms]
        model = self.arm_model(parameters)
        reported, arm = question.type.items_of(question)
        same, group = r_column(reported), r_column(arm)
        fit = (
            f"glm(cbind(tapply({same}, {group}, sum), tapply(1 - {same}, {group}, sum)) ~ "
            f"0 + I(2 * {r_vector(q)} - 1) + offset(1 - {r_vector(q)}), "
            'family = binomial(link = "identity"))'
        )
        return {
            "design": self.name,
            "arms": [{"innocuous": {"prevalence": share}} for share in q],
            "p_report_1_given_yes": [line.yes_given_yes for line in model.arms],
            "p_report_1_given_no": [line.yes_given_no for line in model.arms],
            "column_meaning": "<id>.reported: 1 = both answers the same, 0 = different; <id>.arm: "
            "its arm (0/1, drawn half and half by the page), whose innocuous question has the "
            "prevalence of its place in arms",
            "model_test": "G² of one π for both arms against each arm's own share, 1 df: the "
            "glm's residual deviance; a small p-value says respondents did not follow the "
            "instructions",
            # π and its standard error; the fit's residual deviance is the model test's G².
            "R": [f"summary({fit})$coefficients"],
            "randomizer": "page (the arm); the respondent states the sameness",
            "recompute": "rr.extended_crosswise(prevalences).estimate([same in arm 0, same in "
            "arm 1], [n in arm 0, n in arm 1])",
        }

    def plan(self, numbers: dict, n: int) -> dict:
        parameters, model = self.planned_model(numbers)
        return {
            "procedure": self.name,
            "second_figure": self.second_figure,
            "arms": [{"innocuous": {"prevalence": q}} for (q,) in parameters.arms],
            "epsilon": model.epsilon,
            "n": n,
            # The half-width for π at ½, every respondent adherent (a planning figure).
            "margin_of_error": model.margin_of_error(max(n, 2)),
            "arm_probabilities": [[line.yes_given_yes, line.yes_given_no] for line in model.arms],
            "sectors": [],
        }
