"""A number question: a quantity in a range, reported with one spin."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs import ASKED_PLAINLY, NO_PARAMETERS, DesignParameters
from web.core.surveys.designs.r_code import r_number
from web.core.surveys.questions.base import Figures, QuestionType, register
from web.core.surveys.questions.yesno import YesNo


@register
class Number(YesNo):
    """A quantity in a range (``min``, ``max``, ``step``), reported with one spin (:mod:`rr.mean`):
    the page turns the value into a value wheel whose yes share is (x − min)/(max − min), spins
    it, and sends its outcome through the spinner like a yes/no answer. The researcher learns the
    mean, never a value; the question costs ε."""

    name = "number"
    listed = 20
    xlsform_list = None
    xlsform_select = "range"
    label = _l("Number (one spin)")
    answer_shape = "number"
    permanent_layer = False  # a value on a range is drawn afresh each wave
    respond_template = "respond/_number.html"
    # The spinners (a design reports one bit of yes/no), or asked directly (plain_number.py).
    procedures = (*QuestionType.procedures, ASKED_PLAINLY.name)
    has_range = True
    interval_words = _l(
        "exact (Clopper–Pearson) on the share of reports of 1, carried through the design's line "
        "onto the range and clipped to it"
    )

    def mean_of(self, question) -> rr.BoundedMean:
        return question.design.scale.mean(question.epsilon, question.procedure)

    def options_problem(self, count: int) -> str | None:
        return None if count == 0 else _("a 'number' question has no options")

    def figures(
        self,
        counts: Sequence[tuple[int, int]],
        epsilon: float,
        procedure: str,
        parameters: DesignParameters = NO_PARAMETERS,
    ):
        """The mean in the question's units with its interval, and the estimated total (mean·n)."""
        assert parameters.scale is not None, "a number question has its range"
        mean = parameters.scale.mean(epsilon, procedure)
        found = [None if n == 0 else mean.estimate(yes, n) for yes, n in counts]
        return [
            None
            if estimate is None
            else Figures(
                estimate.estimate,
                estimate.std_error,
                estimate.ci_low,
                estimate.ci_high,
                estimate.estimate * estimate.n,
            )  # fmt: skip
            for estimate in found
        ]

    def dark_words(self, spinner) -> str:
        if spinner.dark == "coin":
            return _("a value wheel sized to your number; light: its answer; dark: a coin decides")
        return _("a value wheel sized to your number; light: its answer; dark: the opposite")

    def codebook(self, spinner, question) -> dict:
        light = spinner.light_fraction(question)
        dark = "a fair coin" if spinner.dark == "coin" else "the opposite of the value wheel"
        scale = question.design.scale
        low, width = r_number(scale.low), r_number(scale.high - scale.low)
        share = spinner.r_models(light).share_of_yes(question.key)
        return {
            "design": "one-bit mean (Ding, Kulkarni & Yekhanin 2017)",
            "value_wheel": "yes with share (x - min)/(max - min) of the respondent's value x",
            "p": light,
            "dark": dark,
            "column": "the reported bit",
            "recompute": "mean = min + (max - min) * (noisy_share - a) / b, with the question's "
            "noise_offset a and noise_slope b; rr.bounded_mean(min, max, epsilon, "
            "procedure).estimate(noisy_yes, n)",
            "R": [f"{low} + {width} * {share}"],
        }
