"""A multi-select question: each option a yes/no question spun on its own."""

from __future__ import annotations

import json
from collections.abc import Sequence

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from web.core.surveys.limits import MAX_OPTIONS
from web.core.surveys.questions.base import AnswerError, QuestionType, T, _bit, register


@register
class Multi(QuestionType):
    """Any number of true options; each option is a yes/no question spun on its own."""

    name = "multi"
    listed = 30
    xlsform_select = "select_multiple"
    label = _l("Multi-select")
    has_options = True
    answer_shape = "bits"
    permanent_layer = True
    respond_template = "respond/_multi.html"

    def spin_count(self, option_count: int) -> int:
        return option_count

    def items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        return [f"{key}.{option}" for option in option_keys]

    def options_problem(self, count: int) -> str | None:
        if count == 0:
            return _("a 'multi' question needs a non-empty list of options")
        if count > MAX_OPTIONS:
            return _("at most %(limit)d options, got %(count)d", limit=MAX_OPTIONS, count=count)
        return None

    def spun(self, options: Sequence[T]) -> list[T | None]:
        return list(options)

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> dict[str, int]:
        if not isinstance(value, dict):
            raise AnswerError(f"question {key!r} must be an object of options, each 0 or 1")
        unknown = sorted(set(value) - set(option_keys))
        if unknown:
            raise AnswerError(f"question {key!r} has no option {unknown[0]!r}")
        bits = {}
        for option in option_keys:
            if option not in value:
                raise AnswerError(f"option {option!r} of question {key!r} is missing")
            bits[option] = _bit(value[option], f"option {option!r} of question {key!r}")
        return bits

    def bit(self, answer, option_key: str | None) -> int:
        return answer[option_key]

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        inner = ",".join(f"{json.dumps(option)}:%d" for option in option_keys)
        return f"{json.dumps(key)}:{{{inner}}}"
