"""An open question: text the respondent writes, asked plainly and stored as written."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import numpy as np
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from web.core.surveys.designs import NO_PARAMETERS, DesignParameters
from web.core.surveys.limits import MAX_ANSWER_LENGTH
from web.core.surveys.questions.base import AnswerError, register
from web.core.surveys.questions.plain import ReadAsGiven

# Control characters other than tab and line breaks: nothing a person types, and what would
# break a spreadsheet's cell or a terminal that shows the export.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@register
class OpenText(ReadAsGiven):
    """An answer in the respondent's own words (a comment, "anything else?"), at most
    ``max_length`` characters, or null when left empty. Asked plainly: no ε protects it, and words
    can identify their writer, so the researcher alone reads them, in the published snapshot
    (never on the projector). It feeds no tally and splits no groups; a display rule cannot read
    it."""

    name = "text"
    listed = 55
    label = _l("Open answer (asked directly, written by the respondent)")
    has_options = False
    written = True
    answer_shape = "text"
    respond_template = "respond/_text.html"
    xlsform_select = "text"
    interval_words = _l("none: open answers are listed, not estimated")

    def options_problem(self, count: int) -> str | None:
        return None if count == 0 else _("an open question has no options")

    def plain_answers(self, option_keys: Sequence[str]) -> tuple[str, ...]:
        return ()  # a display rule reads a choice or a number, never words

    def plain_value(self, answer):
        return None

    def items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        return [key]  # one column of the responses export: the text

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> str | None:
        """The text as written, without surrounding blanks (its length: :meth:`check_limits`)."""
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise AnswerError(f"question {key!r} must be text that is not blank, or null")
        if _CONTROL.search(value):
            raise AnswerError(f"question {key!r} holds a control character")
        if len(value) > MAX_ANSWER_LENGTH:
            raise AnswerError(f"question {key!r} is longer than {MAX_ANSWER_LENGTH} characters")
        return value.strip()

    def check_limits(self, answer, key: str, parameters: DesignParameters) -> None:
        if answer is not None and len(answer) > parameters.max_length:
            raise AnswerError(
                f"question {key!r} takes at most {parameters.max_length} characters, "
                f"got {len(answer)}"
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
        """No words are made up: a simulated respondent leaves it empty."""
        return np.zeros((size, 0), dtype=np.uint8)

    def template_values(
        self,
        reported: np.ndarray,
        option_keys: Sequence[str],
        parameters: DesignParameters = NO_PARAMETERS,
    ) -> list:
        return []

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f"{json.dumps(key)}:null"

    def codebook(self, spinner, question) -> dict:
        return {
            "randomized": False,
            "column": "the answer as written (at most max_length characters), empty when left "
            "empty; a cell starting with =, +, - or @ is written with a leading apostrophe so "
            "that no spreadsheet runs it",
            "max_length": question.design.max_length,
            "note": "asked directly: not protected by epsilon; guarded by the minimum n and the "
            "batches only. Words can identify their writer: read them, do not publish them",
        }
