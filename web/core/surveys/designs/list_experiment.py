"""The list experiment (item count technique; Miller 1984, Imai 2011, Blair & Imai 2012): the page
draws each respondent into the short list (the J control items: arm ``control``) or the long list
(the same items and the sensitive one: ``treatment``), half and half, and shows the items in an
order drawn for them; the respondent gives only how many apply, never which. The share holding the
sensitive item is the long list's mean count less the short list's (:class:`rr.ListExperiment`).

Nothing is randomized about the count itself: a long list's count of J + 1 says "yes" and 0 says
"no" outright, so the design has no ε bound, and says so wherever ε is shown."""

from __future__ import annotations

import math

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs.base import SurveyDesign, register
from web.core.surveys.designs.fields import DesignFields
from web.core.surveys.designs.own_draw import OwnDraw
from web.core.surveys.designs.page_draw import PageDraw
from web.core.surveys.designs.parameters import DesignParameters
from web.core.surveys.limits import MAX_LIST_ITEMS, MIN_LIST_ITEMS


class ListPage(PageDraw):
    """The items of the list drawn for the respondent, in an order drawn for them, and a count."""

    states_chance = False
    draws_first = True

    def own_randomizer(self, parameters: DesignParameters) -> bool:
        return True  # the respondent gives the count; the page draws the list and the order

    def own_draw(self, parameters: DesignParameters) -> OwnDraw:
        return OwnDraw(_("How many of these apply to you? Do not say which ones: just how many."))

    def template(self, question) -> str:
        return "respond/_list.html"

    def respondent_words(self, question) -> str:
        return _("Only your count is sent, never which items")

    def unbounded_note(self) -> tuple[str, str, str]:
        return (
            _("A list question sends only a count."),
            _(
                "It shows a list of items, drawn at random for you, and asks how many apply to "
                "you, never which. Nobody can tell which items your count is made of, unless it "
                "is all of them or none: then your count gives your answer to each item away."
            ),
            _("A list's count says which items apply only when it is all of them or none."),
        )

    def unbounded_words(self) -> str:
        return _(
            "no ε bound: if every item of the longer list applies to you, or none does, your "
            "count gives your answer away"
        )


@register
class ListExperiment(SurveyDesign):
    name = "list"
    Page = ListPage
    listed = 70
    label = _l("List experiment: a count of items, never which (no ε bound)")
    literature = _l("the list experiment (item count technique; Miller 1984; Imai 2011)")
    reference = (
        "Blair, G., & Imai, K. (2012). Statistical analysis of list experiments. Political "
        "Analysis, 20, 47–77."
    )
    fields = DesignFields(("controls", "sensitive", "controls_b"))
    variant = "count"  # its answer is a list's arm and a count (questions/item_count.py)

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        raise ValueError("a list experiment reports a count, not a bit: it has no line")

    def epsilon_of(self, epsilon: float | None, parameters: DesignParameters) -> float:
        return math.inf

    def problems(self, epsilon, parameters: DesignParameters) -> list[tuple[str, str]]:
        """Too few or too many control items, an ε, an own randomizer (the items' wording is the
        question's check: question_checks.py)."""
        for name, items in (
            ("controls", parameters.controls),
            ("controls_b", parameters.controls_b),
        ):
            count = len(items or ())
            if (
                name == "controls" or items is not None
            ) and not MIN_LIST_ITEMS <= count <= MAX_LIST_ITEMS:
                return [(name, _("a list needs %(low)d to %(high)d control items, got %(count)d",
                                 low=MIN_LIST_ITEMS, high=MAX_LIST_ITEMS, count=count))]  # fmt: skip
        if parameters.randomizer != "page":
            return [("randomizer", _("the page draws a list experiment's lists"))]
        if epsilon is not None and not (isinstance(epsilon, float) and math.isinf(epsilon)):
            return [("epsilon", _("a list experiment has no epsilon bound: leave epsilon out"))]
        return []

    def light_fraction(self, question) -> float:
        return 0.0  # nothing is spun

    def truth_probability(self, question) -> float:
        return 1.0  # the count is given as it is

    def noise_line(self, question) -> tuple[float, float]:
        return 0.0, 1.0  # the mean count moves one for one with the sensitive item's share

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        return _(
            "List experiment: %(count)d control items, the sensitive item added in the long "
            "list; half the respondents drawn into each",
            count=parameters.control_count,
        )

    def codebook(self, question) -> dict:
        """In the literature's words, with the list package's calls on the export's columns (a
        double list: each list's, and the mean of the two by hand)."""
        parameters = question.design
        arm, *counts = question.type.items_of(question)
        fit = 'list::ictreg(y ~ 1, data = l, treat = "treat", J = {J}, method = "{method}")'
        controls = [parameters.control_count, len(parameters.controls_b or ())][: len(counts)]
        lists = ["a", "b"] if parameters.double_list else ["treatment"]
        calls = []
        for count, held, length in zip(counts, lists, controls, strict=True):
            calls += [
                f'l <- na.omit(data.frame(y = d[["{count}"]], '
                f'treat = as.integer(d[["{arm}"]] == "{held}")))',
                fit.format(J=length, method="lm"),
                fit.format(J=length, method="ml"),
                f"list::ict.test(l$y, l$treat, J = {length})",
            ]
        entry = {
            "design": self.name,
            "controls": {row.key: dict(row.text) for row in parameters.controls or ()},
            "epsilon": None,
            "note": "no epsilon bound: a long list's count of J + 1 says yes and 0 says no; the "
            "survey's total epsilon leaves this question out",
            "J": parameters.control_count,
            "R_note": "ictreg's lm fit gives the difference in means with its HC3 standard "
            "error; its ml fit the constrained binomial maximum-likelihood estimate; ict.test "
            "Blair & Imai's test for design effects",
        }
        if not parameters.double_list:
            return entry | {
                "column_meaning": "<id>.arm: control (the short list) or treatment (the long "
                "list, with the sensitive item), drawn half and half by the page; <id>.count: "
                "how many items the respondent said apply (0 to J, or J + 1 in the long list)",
                "R": calls,
                "recompute": "rr.list_experiment(J).estimate(control_frequencies, "
                "treatment_frequencies)",
            }
        combined = (
            f'r <- na.omit(data.frame(arm = d[["{arm}"]], a = d[["{counts[0]}"]], '
            f'b = d[["{counts[1]}"]])); z <- r$a - r$b; g <- r$arm == "a"; '
            "c(estimate = (mean(z[g]) - mean(z[!g])) / 2, std_error = sqrt(var(z[g]) / "
            "(sum(g) - 1) + var(z[!g]) / (sum(!g) - 1)) / 2)"
        )
        return entry | {
            "controls_b": {row.key: dict(row.text) for row in parameters.controls_b or ()},
            "J_b": controls[1],
            "column_meaning": "<id>.arm: a (the sensitive item added to list A) or b (added to "
            "list B), drawn half and half by the page; <id>.count_a and <id>.count_b: how many "
            "items of each list the respondent said apply",
            "R": [*calls, combined],
            "recompute": "rr.double_list(J, J_b).estimate(arms, counts_a, counts_b)",
        }

    def plan(self, numbers: dict, n: int) -> dict:
        """The half-width of the difference in means for ``n`` respondents at π = ψ = ½ (the
        worst case); ``numbers`` states J as ``controls``.

        Raises
        ------
        ValueError
            If J is not a whole number of control items in the allowed range.
        """
        controls = numbers.get("controls")
        if (
            not isinstance(controls, int)
            or isinstance(controls, bool)
            or not MIN_LIST_ITEMS <= controls <= MAX_LIST_ITEMS
        ):
            raise ValueError(
                f"controls: a list needs {MIN_LIST_ITEMS} to {MAX_LIST_ITEMS} control items, "
                f"got {controls!r}"
            )
        model = rr.list_experiment(controls)
        return {
            "procedure": self.name,
            "controls": controls,
            "epsilon": None,
            "bounded": False,
            "n": n,
            "margin_of_error": model.margin_of_error(max(n, 4)),
            "sectors": [],  # nothing is spun
        }
