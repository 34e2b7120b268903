"""The spinner and coin: light (p = tanh(ε/2)) reports the true answer, dark a fair coin's toss
(heads = yes). Its reports are Warner's at ε (:func:`rr.spinner_coin`)."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs.base import LabRow, register, share_words
from web.core.surveys.designs.parameters import DesignParameters
from web.core.surveys.designs.r_code import RModels
from web.core.surveys.designs.spun import TypeSpun


@register
class SpinnerCoin(TypeSpun):
    name = "spinner_coin"
    listed = 20
    label = _l("Spinner and coin: dark lets a coin decide")
    literature = _l("the forced-response design with a fair coin on dark (Boruch 1971)")
    reference = (
        "Boruch, R. F. (1971). Assuring confidentiality of responses in social research: a note "
        "on strategies. The American Sociologist, 6, 308–311."
    )
    short_label = _l("Spinner and coin")
    choice_label = _l("Spinner and die: dark lets a die pick any option")
    lab = LabRow(_l("Spinner (the same as symmetric forced response)"))
    default = True  # the app's usual procedure: light tells the truth, a coin decides on dark

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        return rr.spinner_coin(epsilon)

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        return _("Spinner and coin, p = %(p)s", p=share_words(light))

    def line_entry(self, light: float) -> dict:
        """Light (p) tells the truth; dark (1 − p) is a fair coin: forced yes or no, half each."""
        forced = (1 - light) / 2
        return {
            "design": "forced response",
            "p_truth": light,
            "p_forced_yes": forced,
            "p_forced_no": forced,
            "dark": "a fair coin decides (heads = yes)",
        }

    def r_models(self, light: float) -> RModels:
        forced = (1 - light) / 2
        return RModels(
            "FR",
            [forced, forced],
            "forced-known",
            {"p": light, "p1": forced, "p0": forced},
            yes_at="[2]",
        )
