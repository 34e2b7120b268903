"""A yes/no question: one true answer, reported through one spin."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import ClassVar

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from web.core.surveys.designs import known_designs
from web.core.surveys.questions.base import QuestionType, T, _bit, register


@register
class YesNo(QuestionType):
    """One true answer, yes or no, reported through one spin."""

    name = "yesno"
    listed = 10
    procedures: ClassVar[tuple[str, ...]] = known_designs()
    xlsform_list: ClassVar[str | None] = "yes_no"
    label = _l("Yes / no")
    has_options = False
    answer_shape = "bit"
    permanent_layer = True
    respond_template = "respond/_yesno.html"

    def options_problem(self, count: int) -> str | None:
        return None if count == 0 else _("a 'yesno' question has no options")

    def plain_answers(self, option_keys: Sequence[str]) -> tuple[str, ...]:
        return ("yes", "no")

    def plain_value(self, answer):
        """A yes/no asked directly stores 1 or 0; a display rule reads "yes" or "no"."""
        return {1: "yes", 0: "no"}.get(answer)

    def spun(self, options: Sequence[T]) -> list[T | None]:
        return [None]

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> int:
        return _bit(value, f"question {key!r}")

    def bit(self, answer, option_key: str | None) -> int:
        return answer

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f"{json.dumps(key)}:%d"
