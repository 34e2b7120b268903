"""A yes/no question asked with a design of two arms (cheating detection, the stochastic lie
detector): each report sent with its arm; the asked share and the design's second figure."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
from flask_babel import gettext as _

import rr
from web.core.surveys.designs import (
    NO_PARAMETERS,
    DesignParameters,
    arms_design,
    design_named,
    registered,
)
from web.core.surveys.questions.base import (
    ARM,
    QUESTION_TYPES,
    AnswerError,
    Figures,
    QuestionType,
    T,
    _bit,
    register,
)
from web.core.surveys.questions.yesno import YesNo


@register
class Arms(QuestionType):
    """A yes/no question asked with a design of two arms (designs/arms.py): the page puts each
    respondent into one of two arms at random and sends the arm with the report,
    ``{"arm": 0|1, "reported": 0|1}``. It keeps two tallies: every respondent's reports (the
    question's own) and the second arm's (``ARM``); the first arm's are their difference. In a
    survey file it is a ``yesno`` question whose design puts respondents into arms."""

    name = YesNo.name
    xlsform_list = YesNo.xlsform_list
    label = YesNo.label
    has_options = False
    variant = "arms"
    procedures = tuple(design.name for design in registered() if design.variant == "arms")
    answer_shape = "arm"
    respond_template = "respond/_cheating.html"

    def interval_words_of(self, design) -> object:
        return arms_design(design).interval_words

    def options_problem(self, count: int) -> str | None:
        return QUESTION_TYPES[YesNo.name].options_problem(count)

    def spun(self, options: Sequence[T]) -> list:
        return [None, ARM]

    def items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        return [f"{key}.reported", f"{key}.arm"]

    def page_items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        return [key]

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> dict[str, int]:
        if not isinstance(value, dict) or set(value) != {"arm", "reported"}:
            raise AnswerError(
                f'question {key!r} must be {{"arm": 0 or 1, "reported": 0 or 1}}, got {value!r}'
            )
        return {
            "arm": _bit(value["arm"], f"the arm of question {key!r}"),
            "reported": _bit(value["reported"], f"the report of question {key!r}"),
        }

    def bit(self, answer, option_key: str | None) -> int:
        return answer["reported"] * (answer["arm"] if option_key == ARM else 1)

    def count(self, answer, option_key: str | None) -> tuple[int, int]:
        if option_key == ARM:
            return answer["arm"], answer["arm"] * answer["reported"]
        return 1, answer["reported"]

    def item_design(
        self,
        epsilon: float,
        procedure: str,
        option_count: int,
        design: DesignParameters = NO_PARAMETERS,
    ) -> rr.Design:
        return design_named(procedure).rr_design(epsilon, design)  # refused: no single line

    def dark_words(self, spinner) -> str:
        return _("a random arm, then light: your true answer; the other sectors: a forced answer")

    def figures(
        self,
        counts: Sequence[tuple[int, int]],
        epsilon: float,
        procedure: str,
        parameters: DesignParameters = NO_PARAMETERS,
    ):
        """The asked share π with its interval for the question's tally; none for the arm's (and
        none at all while an arm has fewer than two respondents)."""
        found = _arms_estimate(counts, procedure, parameters)
        if found is None:
            return [None, None]
        pi = found.prevalence
        return [
            Figures(
                pi.estimate, pi.std_error, pi.ci_low, pi.ci_high, pi.estimate * sum(found.arm_n)
            ),
            None,
        ]

    def extra_results(
        self, counts: Sequence[tuple[int, int]], procedure: str, parameters: DesignParameters
    ) -> dict:
        """The design's second figure (cheaters' γ, honest carriers' t) with its interval under
        its own name, and each arm's respondents and reports."""
        (yes, n), (arm_yes, arm_n) = counts
        arms = [{"n": n - arm_n, "noisy_yes": yes - arm_yes}, {"n": arm_n, "noisy_yes": arm_yes}]
        found = _arms_estimate(counts, procedure, parameters)
        if found is None:
            return {"arms": arms}
        design = arms_design(design_named(procedure))
        return {design.second_figure: getattr(found, design.second_figure)._asdict(), "arms": arms}

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
        """Columns (reported, arm): each respondent's truth drawn with ``true_proportion`` and
        cheating (saying "no" whatever they are told) with ``cheating``, independently."""
        truth = rng.random(size) < np.ravel(np.broadcast_to(true_proportion, (size, 1)))
        cheaters = rng.random(size) < cheating
        model = arms_design(design_named(procedure)).arm_model(parameters)
        reported, arm = model.perturb(truth, cheaters, rng)
        return np.stack([reported, arm], axis=1)

    def tally_columns(self, reported: np.ndarray) -> list[tuple[np.ndarray | None, np.ndarray]]:
        report, arm = reported[:, 0], reported[:, 1]
        return [(None, report), (arm, report * arm)]

    def template_values(
        self,
        reported: np.ndarray,
        option_keys: Sequence[str],
        parameters: DesignParameters = NO_PARAMETERS,
    ) -> list:
        return [reported[:, 1], reported[:, 0]]

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f'{json.dumps(key)}:{{"arm":%d,"reported":%d}}'


def _arms_estimate(counts: Sequence[tuple[int, int]], procedure: str, parameters):
    """The design's estimate (its asked share first) from (all reports of 1, respondents) and the
    second arm's; None while an arm has fewer than two respondents."""
    (yes, n), (arm_yes, arm_n) = counts
    if arm_n < 2 or n - arm_n < 2:
        return None
    model = arms_design(design_named(procedure)).arm_model(parameters)
    return model.estimate([yes - arm_yes, arm_yes], [n - arm_n, arm_n])
