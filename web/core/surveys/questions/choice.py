"""A single-choice question: one true option among k, generalized randomized response."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs import NO_PARAMETERS, DesignParameters
from web.core.surveys.designs.r_code import r_column, r_number, r_vector_of_texts
from web.core.surveys.questions.base import AnswerError, Figures, register
from web.core.surveys.questions.one_option import OneOption


@register
class Choice(OneOption):
    """One true option among k, reported through one spin and, on dark, a die (generalized
    randomized response): the question costs ε, not k·ε."""

    name = "choice"
    listed = 40
    label = _l("Single choice")
    answer_shape = "option"
    permanent_layer = True
    interval_words = _l(
        "exact (Clopper–Pearson) on each option's reported share, carried through the line of "
        "generalized randomized response and clipped to 0–100%"
    )

    def design_words(self, design) -> object:
        return _l(
            "generalized randomized response over k options (k-ary randomized response; Kairouz, "
            "Oh & Viswanath 2014): one spin, and on dark a die"
        )

    def permanent_values(self, option_count: int) -> int:
        return option_count

    def permanent_labels(self, option_keys: Sequence[str]) -> list[str] | None:
        return list(option_keys)

    respond_template = "respond/_choice.html"
    sums_to_one = True

    def light_fraction(self, epsilon: float, procedure: str, option_count: int) -> float:
        return rr.choice_light_fraction(epsilon, option_count, procedure)

    def truth_probability(self, epsilon: float, option_count: int) -> float:
        return rr.choice_probabilities(epsilon, option_count).truth

    def item_design(
        self,
        epsilon: float,
        procedure: str,
        option_count: int,
        design: DesignParameters = NO_PARAMETERS,
    ) -> rr.Design:
        """One option's tally: reported with a + b if it is the true option, a if not, with
        a = 1/(e^ε + k − 1) and b = (e^ε − 1)/(e^ε + k − 1) (both procedures). Its privacy loss
        is the question's ε (the whole report, one option among k)."""
        offset, slope = rr.mechanism.noise_line(epsilon, option_count)
        return rr.Design(
            "choice", offset, slope, epsilon, (("epsilon", epsilon), ("k", option_count))
        )

    def noise_line(self, epsilon: float, option_count: int) -> tuple[float, float]:
        return rr.mechanism.noise_line(epsilon, option_count)

    def dark_words(self, spinner) -> str:
        if spinner.dark == "coin":
            return _("light: your true answer; dark: a die picks any option")
        return _("light: your true answer; dark: a die picks one of the other options")

    def codebook(self, spinner, question) -> dict:
        """With RRreg's misclassification model: ``p`` is the matrix of P(report j | true i),
        the truth on its diagonal, the rest shared evenly (both spinners)."""
        k = len(question.options)
        die = (
            f"a fair {k}-sided die over all options"
            if spinner.dark == "coin"
            else f"a fair {k - 1}-sided die over the other options"
        )
        truth = spinner.truth_probability(question)
        other = (1 - truth) / (k - 1)
        ids = r_vector_of_texts([option.key for option in question.options])
        reported = f"match({r_column(question.key)}, {ids}) - 1"
        matrix = f"{r_number(other)} + {r_number(truth - other)} * diag({k})"
        return {
            "k": k,
            "light_share_q": spinner.light_fraction(question),
            "dark": die,
            "column": "the reported option id",
            "RRreg_model": "custom",
            "R": [f'RRreg::RRuni({reported}, model = "custom", p = {matrix})'],
            "recompute": "rr.estimate_choice([reports of each option], epsilon, procedure)",
        }

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> str:
        if not isinstance(value, str) or value not in option_keys:
            raise AnswerError(
                f"question {key!r} must be the id of one of its options, got {value!r}"
            )
        return value

    def figures(
        self,
        counts: Sequence[tuple[int, int]],
        epsilon: float,
        procedure: str,
        parameters: DesignParameters = NO_PARAMETERS,
    ):
        n = counts[0][1] if counts else 0
        if n == 0:
            return [None] * len(counts)
        result = rr.estimate_choice([yes for yes, _ in counts], epsilon, procedure)
        return [
            Figures(*(float(column[index]) for column in result[:5]))
            for index in range(len(counts))
        ]

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
        """One-hot reports; the first option is true with ``true_proportion``, the others share
        the rest evenly."""
        first = rng.random(size) < np.ravel(np.broadcast_to(true_proportion, (size, 1)))
        truth = np.where(first, 0, rng.integers(1, option_count, size=size))
        reported = rr.perturb_choice(truth, epsilon, option_count, procedure, rng=rng)
        return np.eye(option_count, dtype=np.uint8)[reported]
