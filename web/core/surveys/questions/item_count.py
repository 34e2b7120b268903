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
# A double list's arms: which list holds the sensitive item (its index is the page's draw).
DOUBLE_ARMS = ("a", "b")


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

    def items_of(self, question) -> list[str]:
        """Its list and its count; a double list's arm and both lists' counts."""
        if question.design.double_list:
            return [f"{question.key}.arm", f"{question.key}.count_a", f"{question.key}.count_b"]
        return self.items(question.key, [])

    def page_items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        return [key]

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> dict:
        """The list and the count as sent, or a double list's arm and both counts, stored as
        ``{"arm", "count_a", "count_b"}`` (which shape the question takes, and the counts' tops:
        :meth:`check_limits`)."""
        if isinstance(value, dict) and set(value) == {"arm", "counts"}:
            return _double(value, key)
        if not isinstance(value, dict) or set(value) != {"arm", "count"}:
            raise AnswerError(
                f'question {key!r} must be {{"arm": "control" or "treatment", "count": a '
                f'whole number}} (a double list: {{"arm": "a" or "b", "counts": {{"a": …, '
                f'"b": …}}}}), got {value!r}'
            )
        arm, count = value["arm"], value["count"]
        if arm not in ARMS:
            raise AnswerError(f"the arm of question {key!r} must be one of {ARMS}, got {arm!r}")
        _count(count, key)
        return {"arm": arm, "count": count}

    def check_limits(self, answer, key: str, parameters: DesignParameters) -> None:
        if parameters.double_list != ("count_a" in answer):
            shape = "a double list's" if parameters.double_list else "a single list's"
            raise AnswerError(f"question {key!r} takes {shape} answer, got {answer!r}")
        if parameters.double_list:
            lengths = {"a": parameters.control_count, "b": len(parameters.controls_b or ())}
            tops = {name: length + (answer["arm"] == name) for name, length in lengths.items()}
            found = {name: answer[f"count_{name}"] for name in tops}
        else:
            tops = {answer["arm"]: parameters.control_count + ARMS.index(answer["arm"])}
            found = {answer["arm"]: answer["count"]}
        for name, top in tops.items():
            if found[name] > top:
                raise AnswerError(
                    f"question {key!r}'s {name} list has {top} items here: its count is at "
                    f"most {top}, got {found[name]}"
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
        """Columns (arm, count) or, for a double list, (arm, count A, count B): the arm drawn
        half and half, each control item held with ½, the sensitive item with
        ``true_proportion``, counted in the list that holds it."""
        truth = rng.random(size) < np.ravel(np.broadcast_to(true_proportion, (size, 1)))
        arm = rng.integers(0, 2, size=size)
        controls = rng.binomial(parameters.control_count, 0.5, size=size)
        if not parameters.double_list:
            return np.stack([arm, controls + arm * truth], axis=1)
        second = rng.binomial(len(parameters.controls_b or ()), 0.5, size=size)
        return np.stack([arm, controls + (1 - arm) * truth, second + arm * truth], axis=1)

    def template_values(
        self,
        reported: np.ndarray,
        option_keys: Sequence[str],
        parameters: DesignParameters = NO_PARAMETERS,
    ) -> list:
        if parameters.double_list:
            answers = [{"arm": DOUBLE_ARMS[arm], "count_a": int(a), "count_b": int(b)}
                       for arm, a, b in reported]  # fmt: skip
        else:
            answers = [{"arm": ARMS[arm], "count": int(count)} for arm, count in reported]
        return [np.array([json.dumps(answer) for answer in answers], dtype=object)]

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f"{json.dumps(key)}:%s"


def _count(value, key: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise AnswerError(f"the count of question {key!r} must be a whole number ≥ 0")


def _double(value: dict, key: str) -> dict:
    """A double list's answer as stored: its arm and both counts (their tops: check_limits)."""
    arm, counts = value["arm"], value["counts"]
    if arm not in DOUBLE_ARMS:
        raise AnswerError(f"the arm of question {key!r} must be one of {DOUBLE_ARMS}, got {arm!r}")
    if not isinstance(counts, dict) or set(counts) != set(DOUBLE_ARMS):
        raise AnswerError(f'the counts of question {key!r} must be {{"a": …, "b": …}}')
    for count in counts.values():
        _count(count, key)
    return {"arm": arm, "count_a": counts["a"], "count_b": counts["b"]}
