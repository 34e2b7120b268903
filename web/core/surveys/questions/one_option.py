"""What the single-choice and direct questions share: their answer is one option id."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
from flask_babel import gettext as _

from web.core.surveys.designs import NO_PARAMETERS, DesignParameters
from web.core.surveys.limits import MAX_OPTIONS
from web.core.surveys.questions.base import QuestionType, T


class OneOption(QuestionType):
    """What the two types whose answer is one option id share: k ≥ 2 options, a tally per option
    fed by every response (yes for the option answered), and a bulk answer written as that id."""

    has_options = True

    def options_problem(self, count: int) -> str | None:
        if count < 2:
            return _(
                "a %(kind)r question needs at least 2 options, got %(count)d",
                kind=self.name,
                count=count,
            )
        if count > MAX_OPTIONS:
            return _("at most %(limit)d options, got %(count)d", limit=MAX_OPTIONS, count=count)
        return None

    def spun(self, options: Sequence[T]) -> list[T | None]:
        return list(options)

    def bit(self, answer, option_key: str | None) -> int:
        return int(answer == option_key)

    def template_values(
        self,
        reported: np.ndarray,
        option_keys: Sequence[str],
        parameters: DesignParameters = NO_PARAMETERS,
    ) -> list:
        quoted = np.array([json.dumps(option) for option in option_keys], dtype=object)
        return [quoted[reported.argmax(axis=1)]]

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f"{json.dumps(key)}:%s"
