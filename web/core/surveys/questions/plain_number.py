"""A number asked directly: an age, a year of birth; sent and stored as given."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import numpy as np
from flask_babel import lazy_gettext as _l

from web.core.surveys.designs import NO_PARAMETERS, DesignParameters
from web.core.surveys.questions.base import QUESTION_TYPES, AnswerError, FixedFields, register
from web.core.surveys.questions.number import Number
from web.core.surveys.questions.plain import ReadAsGiven


@register
class PlainNumber(ReadAsGiven):
    """A number question asked directly (``"procedure": "direct"``): the respondent types a
    value in the range (``min``, ``max``, ``step``), sent and stored as given. No ε protects it;
    the minimum n and the batches guard it, and a display rule may read it (``at_least``,
    ``at_most``). Its results are read from the published responses: n, mean with its t
    interval, and quartiles. It feeds no tally and splits no groups."""

    name = Number.name
    label = _l("Number, asked directly")
    variant = "plain"
    has_options = False
    has_range = True
    xlsform_select = Number.xlsform_select
    procedures = Number.procedures
    answer_shape = "value"
    respond_template = "respond/_value.html"
    numeric_answer = True
    interval_words = _l("Student's t on the values as given, with the quartiles")

    def fixed_fields(self) -> FixedFields:
        return {}  # a number is asked directly because its file says "procedure": "direct"

    def options_problem(self, count: int) -> str | None:
        return QUESTION_TYPES[Number.name].options_problem(count)

    def plain_answers(self, option_keys: Sequence[str]) -> tuple[str, ...]:
        return ()  # read as a number, with at_least and at_most

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> float | int | None:
        """The value as given (its range and steps: :meth:`check_limits`)."""
        if value is None:
            return None
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            raise AnswerError(f"question {key!r} must be a number or null, got {value!r}")
        return value

    def check_limits(self, answer, key: str, parameters: DesignParameters) -> None:
        scale = parameters.scale
        if answer is None or scale is None:
            return
        if not scale.takes(answer):
            raise AnswerError(
                f"question {key!r} takes a number from {scale.low:g} to {scale.high:g} in steps "
                f"of {scale.step:g}, got {answer!r}"
            )

    def simulate(
        self,
        size: int,
        true_proportion: float | np.ndarray,
        epsilon: float,
        procedure: str,
        option_count: int,
        rng,
        parameters: DesignParameters = NO_PARAMETERS,
        cheating: float = 0.0,
    ) -> np.ndarray:
        """Values spread evenly over the range's steps, one column."""
        scale = parameters.scale
        assert scale is not None, "a number question has its range"
        return (scale.low + scale.step * rng.integers(0, scale.steps + 1, size=size))[:, None]

    def template_values(
        self,
        reported: np.ndarray,
        option_keys: Sequence[str],
        parameters: DesignParameters = NO_PARAMETERS,
    ) -> list:
        return [np.array([json.dumps(_plain(value)) for value in reported[:, 0]], dtype=object)]

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f"{json.dumps(key)}:%s"

    def codebook(self, spinner, question) -> dict:
        scale = question.design.scale
        return {
            "randomized": False,
            "column": "the number as given, empty when skipped",
            "min": scale.low,
            "max": scale.high,
            "step": scale.step,
            "note": "asked directly: not protected by epsilon; guarded by the minimum n and the "
            "batches only",
            "R": [f"mean(d${question.key}, na.rm = TRUE)",
                  f"quantile(d${question.key}, c(0.25, 0.5, 0.75), na.rm = TRUE)"],
        }  # fmt: skip


def _plain(value: float) -> int | float:
    """A value as a survey file writes it: a whole number without its decimal point."""
    return int(value) if float(value).is_integer() else float(value)
