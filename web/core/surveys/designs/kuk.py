"""Kuk's cards (Kuk 1990): two decks with known shares of red cards, θ₁ for the deck a true "yes"
draws from and θ₂ for a true "no". The respondent draws one card from the deck their true answer
points to and reports only its colour (report 1 = red): λ₁ = θ₁, λ₀ = θ₂ (:func:`rr.kuk`;
RRreg "Kuk" with p = c(θ₁, θ₂)).

With the respondent's own cards (``"randomizer": "own"``) the page says how to build both decks
from one standard pack (26 red, 26 black) and asks only for the colour. When the page draws, it
draws the same chances as one wheel: with θ₁ > θ₂, θ₂ of it reports "yes" whatever the truth,
1 − θ₁ "no", and θ₁ − θ₂ the true answer (the opposite answer when θ₁ < θ₂).
"""

from __future__ import annotations

import math
from fractions import Fraction

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from rr.errors import NO_INFORMATION, OUT_OF_RANGE
from web.core.surveys.designs.base import (
    LabRow,
    SurveyDesign,
    line_codebook,
    register,
    share_words,
)
from web.core.surveys.designs.fields import DesignFields
from web.core.surveys.designs.own_draw import OwnDraw, OwnStep
from web.core.surveys.designs.page_draw import PageDraw
from web.core.surveys.designs.parameters import DesignParameters
from web.core.surveys.designs.r_code import RModels

SHARES = ("theta_yes", "theta_no")
# A standard pack: both decks are built from its red and its black cards.
PACK_RED = PACK_BLACK = 26


def decks(theta_yes: float, theta_no: float) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The smallest decks (red, black) with exactly these shares of red that one standard pack
    can make together; None when its 26 red and 26 black cards cannot."""
    found = []
    for share in (theta_yes, theta_no):
        fraction = Fraction(share).limit_denominator(PACK_RED + PACK_BLACK)
        if abs(float(fraction) - share) > 1e-9:
            return None
        found.append((fraction.numerator, fraction.denominator - fraction.numerator))
    (red_yes, black_yes), (red_no, black_no) = found
    if red_yes + red_no > PACK_RED or black_yes + black_no > PACK_BLACK:
        return None
    return (red_yes, black_yes), (red_no, black_no)


def kuk_at_epsilon(epsilon: float) -> rr.Design:
    """Kuk's cards whose ε is ``epsilon``: decks of opposite mixes, red e^ε/(1 + e^ε) in the "yes"
    deck (Warner's numbers)."""
    red = 1 / (1 + math.exp(-epsilon))
    return rr.kuk(red, 1 - red)


class KukPage(PageDraw):
    """The two decks drawn as one wheel, or the respondent's own cards, whose colour is reported."""

    def own_problems(self, parameters: DesignParameters) -> list[tuple[str, str]]:
        """Own cards whose shares one standard pack cannot make."""
        shares = (parameters.share(name) for name in SHARES)
        if self.own_randomizer(parameters) and decks(*shares) is None:
            return [
                (
                    "randomizer",
                    _(
                        "with the respondent's own cards, both decks must come from one pack of "
                        "26 red and 26 black cards: use shares such as 0.7 and 0.3"
                    ),
                )
            ]
        return []

    def sectors(self, parameters: DesignParameters) -> list[dict]:
        if self.own_randomizer(parameters):
            return []
        theta_yes, theta_no = (parameters.share(name) for name in SHARES)
        low, high = sorted((theta_yes, theta_no))
        return [
            {"share": high - low, "reports": "truth" if theta_yes > theta_no else "opposite"},
            {"share": low, "reports": "yes"},
            {"share": 1 - high, "reports": "no"},
        ]

    def own_draw(self, parameters: DesignParameters) -> OwnDraw:
        found = decks(*(parameters.share(name) for name in SHARES))
        assert found is not None, "checked when the question was made"
        (red_yes, black_yes), (red_no, black_no) = found
        return OwnDraw(
            _("Take a standard pack of playing cards and make two face-down decks:"),
            (
                OwnStep(
                    _("The “yes” deck"),
                    _("%(red)d red and %(black)d black cards", red=red_yes, black=black_yes),
                ),
                OwnStep(
                    _("The “no” deck"),
                    _("%(red)d red and %(black)d black cards", red=red_no, black=black_no),
                ),
            ),
            _(
                "Shuffle each deck. Where nobody can see, draw one card from the deck of your "
                "true answer to the question above, and report only its colour."
            ),
        )

    def report_words(self, parameters: DesignParameters) -> tuple[str, str]:
        if self.own_randomizer(parameters):
            return _("Black"), _("Red")
        return _("No"), _("Yes")

    def respondent_words(self, question) -> str:
        if self.own_randomizer(question.design):
            return _("your own cards decide: a card from the deck your answer points to")
        return _(
            "a card from the deck your answer points to, drawn as one wheel with the same "
            "chances; light: your true answer; the other sectors: a forced “yes” or “no”"
        )


@register
class Kuk(SurveyDesign):
    name = "kuk"
    Page = KukPage
    listed = 55
    label = _l("Kuk's cards: a card from the deck the answer points to (yes/no only)")
    literature = _l("Kuk's card design (Kuk 1990)")
    reference = (
        "Kuk, A. Y. C. (1990). Asking sensitive questions indirectly. Biometrika, 77, 436–438."
    )
    lab = LabRow(_l("Kuk's cards, decks of opposite mixes (Warner's numbers)"), kuk_at_epsilon)
    fields = DesignFields(
        SHARES,
        shares={
            "theta_yes": (_l("Share of red cards in the “yes” deck"), 0.7),
            "theta_no": (_l("Share of red cards in the “no” deck"), 0.3),
        },
        own=True,
    )

    refusals = {
        OUT_OF_RANGE: _l(
            "must be strictly between 0 and 1: a deck of one colour gives the answer away"
        ),
        NO_INFORMATION: _l("the two decks must differ: otherwise the colour says nothing"),
    }

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        return rr.kuk(*(parameters.share(name) for name in SHARES))

    def light_fraction(self, question) -> float:
        return abs(question.design.share("theta_yes") - question.design.share("theta_no"))

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        words = _(
            "Kuk's cards: red share %(yes)s in the “yes” deck, %(no)s in the “no” deck",
            yes=share_words(parameters.share("theta_yes")),
            no=share_words(parameters.share("theta_no")),
        )
        if self.page.own_randomizer(parameters):
            words += _(" (the respondent's own cards)")
        return words

    def codebook(self, question) -> dict:
        parameters = question.design
        return line_codebook(
            self,
            question,
            RModels("Kuk", [parameters.share("theta_yes"), parameters.share("theta_no")]),
            column="1 = a red card, 0 = a black card",
        )
