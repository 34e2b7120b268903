"""A grid (a Likert matrix): several rows, each answered on the same options, asked plainly."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
from flask_babel import lazy_gettext as _l

from web.core.surveys.designs import NO_PARAMETERS, DesignParameters
from web.core.surveys.questions.base import AnswerError, register
from web.core.surveys.questions.one_option import OneOption
from web.core.surveys.questions.plain import ReadAsGiven


@register
class Grid(ReadAsGiven):
    """Rows (``rows``: statements, items of a scale) each answered with one of the question's
    shared options ("Disagree" … "Agree"), asked plainly and stored as given: ``{"row":
    "option"}``, a row left unanswered left out, and null when no row is answered. A required
    grid needs every row. No ε protects it; the minimum n and the batches guard it. Its results
    are read from the published responses: each row's shares, drawn as a stacked bar. It feeds
    no tally; a display rule reads a row as ``<grid>.<row>``."""

    name = "grid"
    listed = 52
    label = _l("Grid (asked directly: rows answered on the same options)")
    has_options = True
    has_rows = True
    answer_shape = "grid"
    respond_template = "respond/_grid.html"
    interval_words = _l("none: each row's answers are counted as given")
    options_problem = OneOption.options_problem

    def plain_values(self, key: str, answer) -> dict:
        """Each answered row's option, as a rule reads it: ``<grid>.<row>``."""
        return {f"{key}.{row}": option for row, option in (answer or {}).items()}

    def rule_names(self, key: str, parameters: DesignParameters) -> tuple[str, ...]:
        return tuple(f"{key}.{row.key}" for row in parameters.rows or ())

    def items_of(self, question) -> list[str]:
        """One column per row: ``<grid>.<row>``, each the option chosen (the responses CSV
        writes it ``<grid>_<row>``: :meth:`column`)."""
        return [f"{question.key}.{row.key}" for row in question.design.rows or ()]

    def column(self, item: str) -> str:
        return item.replace(".", "_", 1)

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> dict | None:
        """The rows answered, each with one of the options (its rows: :meth:`check_limits`)."""
        if value is None:
            return None
        if not isinstance(value, dict):
            raise AnswerError(f"question {key!r} must be an object of row ids and option ids")
        for row, option in value.items():
            if option is not None and (not isinstance(option, str) or option not in option_keys):
                raise AnswerError(
                    f"question {key!r}: row {row!r} must be one of its option ids or null, "
                    f"got {option!r}"
                )
        answered = {row: option for row, option in value.items() if option is not None}
        return answered or None

    def check_limits(self, answer, key: str, parameters: DesignParameters) -> None:
        rows = {row.key for row in parameters.rows or ()}
        unknown = sorted(set(answer or ()) - rows)
        if unknown:
            raise AnswerError(f"question {key!r} has no row {unknown[0]!r}")

    def check_complete(self, answer, key: str, parameters: DesignParameters) -> None:
        missing = [row.key for row in parameters.rows or () if row.key not in answer]
        if missing:
            raise AnswerError(f"question {key!r} is required: row {missing[0]!r} is unanswered")

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
        """Each row's option drawn evenly, one column per row (the option's index)."""
        rows = len(parameters.rows or ())
        return rng.integers(0, option_count, size=(size, rows))

    def template_values(
        self,
        reported: np.ndarray,
        option_keys: Sequence[str],
        parameters: DesignParameters = NO_PARAMETERS,
    ) -> list:
        rows = [row.key for row in parameters.rows or ()]
        return [
            np.array(
                [json.dumps(dict(zip(rows, (option_keys[i] for i in chosen), strict=True)))
                 for chosen in reported],
                dtype=object,
            )
        ]  # fmt: skip

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f"{json.dumps(key)}:%s"

    def codebook(self, spinner, question) -> dict:
        return {
            "randomized": False,
            "column": "per row, the chosen option id; empty where the row was left unanswered",
            "rows": {row.key: dict(row.text) for row in question.design.rows or ()},
            "note": "asked directly: not protected by epsilon; guarded by the minimum n and the "
            "batches only",
            "R": [f"table(d${self.column(item)}, useNA = \"ifany\")"
                  for item in self.items_of(question)],
        }  # fmt: skip
