"""Asked directly: nothing drawn, the answer sent as given, no ε. The one design that protects
nothing, and the one way two kinds of question are asked:

- a yes/no question asked directly, the baseline a split-ballot experiment compares its
  randomized conditions with (:mod:`rr.experiment`): its line is the identity, λ₁ = 1 and
  λ₀ = 0 (:func:`rr.asked_directly`), so its estimate is the plain share of yes with its exact
  interval;
- a direct question of options (year, group), whose kind is never randomized: its kind answers
  for what depends on its options (:class:`web.core.surveys.questions.direct.Direct`), its page
  part, its codebook entry and its light share (every answer is sent as given)."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs.base import SurveyDesign, register
from web.core.surveys.designs.own_draw import OwnDraw
from web.core.surveys.designs.page_draw import PageDraw
from web.core.surveys.designs.parameters import DesignParameters
from web.core.surveys.planned import sample_sizes

# What a question asked directly stores for the ε it does not have.
NO_EPSILON = 0.0


class AskedDirectlyPage(PageDraw):
    """Nothing drawn: the answer is asked for and sent as given."""

    draws = False
    states_chance = False

    def own_randomizer(self, parameters: DesignParameters) -> bool:
        return True  # nothing is drawn: the page asks for the answer itself

    def own_draw(self, parameters: DesignParameters) -> OwnDraw:
        return OwnDraw(_("Nothing is drawn for this question: your answer is sent as you give it."))

    def template(self, question) -> str:
        return (
            question.type.respond_template
            if _kind_asks_plainly(question)
            else "respond/_plain.html"
        )

    def respondent_words(self, question) -> str:
        return _("Asked directly: your answer is sent exactly as you give it, with no spinner")


@register
class AskedDirectly(SurveyDesign):
    name = "direct"
    Page = AskedDirectlyPage
    listed = 90
    label = _l(
        "Asked directly: no randomizing and no ε (a yes/no question, a split ballot's baseline; "
        "or a number)"
    )
    literature = _l("asked directly, with no randomizing")
    protects = False
    variant = "plain"  # a number asked directly sends its value (questions/plain_number.py)

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        return rr.asked_directly()

    def epsilon_of(self, epsilon: float | None, parameters: DesignParameters) -> float:
        return NO_EPSILON

    def problems(self, epsilon, parameters: DesignParameters) -> list[tuple[str, str]]:
        if epsilon is None or epsilon == NO_EPSILON:
            return []
        return [("epsilon", _("a question asked directly has no epsilon: nothing protects it"))]

    def light_fraction(self, question) -> float:
        if _kind_asks_plainly(question):
            return question.type.light_fraction(question.epsilon, self.name, len(question.options))
        return 0.0

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        return _("Asked directly (no randomizing, no ε)")

    def codebook(self, question) -> dict:
        if _kind_asks_plainly(question):
            return question.type.codebook(self, question)
        return {
            "design": self.name,
            "p_report_1_given_yes": 1.0,
            "p_report_1_given_no": 0.0,
            "column": "the answer as given: 1 = yes, 0 = no",
            "note": "asked directly: not protected by epsilon; guarded by the minimum n and the "
            "batches only",
            "randomizer": "none",
            "recompute": "the share of 1 in the column, with its Clopper-Pearson interval",
        }

    def plan(self, numbers: dict, n: int) -> dict:
        design = rr.asked_directly()
        return {
            "procedure": self.name,
            "epsilon": None,
            "n": n,
            "yes_given_yes": design.yes_given_yes,
            "yes_given_no": design.yes_given_no,
            "margin_of_error": design.margin_of_error(n),
            "sample_size": sample_sizes(design.sample_size),
            "sectors": [],
        }


def _kind_asks_plainly(question) -> bool:
    """Whether ``question``'s own type asks it plainly, with its own page part and codebook entry
    (a direct question of options, an open answer, a number asked directly), rather than a yes/no
    question asked directly."""
    return not question.type.randomized
