"""A list experiment (item count technique): the respondent says how many items of a list apply,
never which; the page draws the list and the items' order."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from web.core.surveys.designs import NO_PARAMETERS, DesignParameters, registered
from web.core.surveys.questions.base import AnswerError, QuestionType, T, register

# The lists as a submission names them, the short one first (its index is the page's draw).
ARMS = ("control", "treatment")


@register
class ItemCount(QuestionType):
    """A list of control items (``controls``) and a sensitive item (``sensitive``): the page draws
    each respondent into the short list (``control``: the control items) or the long list
    (``treatment``: with the sensitive item), half and half, shows its items in an order drawn
    for them, and sends ``{"arm": "control" | "treatment", "count": k}``. The question's text asks
    how many apply. It feeds no tally: its results are read from the published counts
    (web/core/results/list_experiments.py). No ε bounds it (a long list's count of J + 1 or 0
    gives the answer away), and it says so."""

    name = "list"
    listed = 35
    label = _l("List experiment (a count of items, never which; no ε bound)")
    has_options = False
    answer_shape = "count"
    respond_template = "respond/_list.html"
    procedures = tuple(design.name for design in registered() if design.variant == "count")
    estimated = False
    states_sensitive = True
    # The count is XLSForm's integer; its list is read by its rr_procedure (xlsform/questions.py).
    xlsform_select = "integer"
    interval_words = _l("Wald, on the difference in means' HC3 standard error (list::ictreg lm)")

    def dark_words(self, spinner) -> str:
        return _("a list drawn at random; only how many of its items apply is sent")

    def options_problem(self, count: int) -> str | None:
        if count:
            return _("a list experiment has control items (controls), not options")
        return None

    def spun(self, options: Sequence[T]) -> list[T | None]:
        return []  # read from the published counts, not tallied

    def items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        return [f"{key}.arm", f"{key}.count"]

    def page_items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        return [key]

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> dict:
        """The arm and the count as sent (the count's top: :meth:`check_limits`)."""
        if not isinstance(value, dict) or set(value) != {"arm", "count"}:
            raise AnswerError(
                f'question {key!r} must be {{"arm": "control" or "treatment", "count": a '
                f"whole number}}, got {value!r}"
            )
        arm, count = value["arm"], value["count"]
        if arm not in ARMS:
            raise AnswerError(f"the arm of question {key!r} must be one of {ARMS}, got {arm!r}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise AnswerError(f"the count of question {key!r} must be a whole number ≥ 0")
        return {"arm": arm, "count": count}

    def check_limits(self, answer, key: str, parameters: DesignParameters) -> None:
        top = parameters.control_count + ARMS.index(answer["arm"])
        if answer["count"] > top:
            raise AnswerError(
                f"question {key!r}'s {answer['arm']} list has {top} items: its count is at most "
                f"{top}, got {answer['count']}"
            )

    def figures(self, counts, epsilon: float, procedure: str, parameters=NO_PARAMETERS):
        return []  # web/core/results/list_experiments.py reads the counts

    def tally_columns(self, reported) -> list:
        return []

    def simulate(
        self,
        size: int,
        true_proportion: float | np.ndarray,
        epsilon: float,
        procedure: str,
        option_count: int,
        rng: np.random.Generator,
        parameters: DesignParameters = NO_PARAMETERS,
        cheating: float = 0.0,
    ) -> np.ndarray:
        """Columns (arm, count): the arm drawn half and half, each control item held with ½,
        the sensitive item with ``true_proportion`` (counted in the long list only)."""
        truth = rng.random(size) < np.ravel(np.broadcast_to(true_proportion, (size, 1)))
        arm = rng.integers(0, 2, size=size)
        controls = rng.binomial(parameters.control_count, 0.5, size=size)
        return np.stack([arm, controls + arm * truth], axis=1)

    def template_values(
        self,
        reported: np.ndarray,
        option_keys: Sequence[str],
        parameters: DesignParameters = NO_PARAMETERS,
    ) -> list:
        return [np.array(ARMS, dtype=object)[reported[:, 0]], reported[:, 1]]

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f'{json.dumps(key)}:{{"arm":"%s","count":%d}}'
