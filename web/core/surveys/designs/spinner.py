"""The spinner alone: light (p = e^ε/(1 + e^ε)) reports the true answer, dark the opposite one
(Warner 1965, :func:`rr.spinner`)."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs.base import register, share_words
from web.core.surveys.designs.parameters import DesignParameters
from web.core.surveys.designs.r_code import RModels
from web.core.surveys.designs.spun import TypeSpun


@register
class Spinner(TypeSpun):
    name = "spinner"
    listed = 10
    label = _l("Spinner only: dark reports the opposite answer")
    literature = _l("Warner's mirrored design (Warner 1965)")
    reference = (
        "Warner, S. L. (1965). Randomized response: a survey technique for eliminating evasive "
        "answer bias. Journal of the American Statistical Association, 60(309), 63–69."
    )
    short_label = _l("Spinner only")
    choice_label = _l("Spinner only: dark lets a die pick one of the other options")

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        return rr.spinner(epsilon)

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        return _("Spinner only, p = %(p)s", p=share_words(light))

    def line_entry(self, light: float) -> dict:
        return {"design": "Warner's mirrored", "p": light, "dark": "the opposite answer"}

    def r_models(self, light: float) -> RModels:
        return RModels("Warner", light, "mirrored", {"p": light})
