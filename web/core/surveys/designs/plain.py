"""A direct question's "design": asked plainly, nothing drawn and no ε. Not registered (no
randomized question may name it); a question whose type is not randomized is asked this way,
and its type answers everything (:class:`web.core.surveys.questions.Direct`)."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs.parameters import DesignParameters
from web.core.surveys.designs.spun import TypeSpun


class AskedPlainly(TypeSpun):
    name = "direct"
    label = _l("Asked directly")
    every_type = False
    draws = False
    protects = False

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        raise ValueError("a direct question's answers are not randomized: they have no design")

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        return _("Asked directly")


ASKED_PLAINLY = AskedPlainly()
