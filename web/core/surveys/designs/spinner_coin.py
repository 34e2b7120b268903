"""The spinner and coin: light (p = tanh(ε/2)) reports the true answer, dark a fair coin's toss
(heads = yes). Its reports are Warner's at ε (:func:`rr.spinner_coin`)."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs.base import register, share_words
from web.core.surveys.designs.parameters import DesignParameters
from web.core.surveys.designs.spun import TypeSpun


@register
class SpinnerCoin(TypeSpun):
    name = "spinner_coin"
    listed = 20
    label = _l("Spinner and coin: dark lets a coin decide")
    short_label = _l("Spinner and coin")
    choice_label = _l("Spinner and die: dark lets a die pick any option")
    lab_title = _l("Spinner (the same as symmetric forced response)")
    coin_on_dark = True
    default = True  # the app's usual procedure: light tells the truth, a coin decides on dark

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        return rr.spinner_coin(epsilon)

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        return _("Spinner and coin, p = %(p)s", p=share_words(light))
