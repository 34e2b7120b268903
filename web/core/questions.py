"""Question types: everything that depends on what kind of question a question is.

Every respondent answers a question with one or more spins. Each spin reports one bit and feeds
one *tally*: a yes/no question spins once and keeps its own tally, a multi-select question spins
once per option and keeps a tally per option. The rest of the app asks a question's type (the
``QUESTION_TYPES`` entry named by ``Question.kind``) rather than comparing names: how the survey
file's options are checked, which tallies a response feeds, what a submitted answer must look like
and what it stores, and what the page's script is told. A new type is a new class here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from web.core.limits import MAX_OPTIONS

T = TypeVar("T")


class AnswerError(ValueError):
    """A submission that does not fit the survey; the message names the problem."""


class QuestionType:
    """What a type of question does; subclasses fill in each step."""

    name: ClassVar[str]
    label: ClassVar[object]  # a lazily translated name for the builder
    has_options: ClassVar[bool]

    def options_problem(self, count: int) -> str | None:
        """Why a question of this type cannot have ``count`` options, or None."""
        raise NotImplementedError

    def spun(self, options: Sequence[T]) -> list[T | None]:
        """The tallies a response feeds, in order: an option, or None for the question's own."""
        raise NotImplementedError

    def check_answer(self, value, key: str, option_keys: Sequence[str]):
        """The reported bits of one question as stored, or raise :class:`AnswerError`."""
        raise NotImplementedError

    def bit(self, answer, option_key: str | None) -> int:
        """The bit a stored answer reports for one of the tallies :meth:`spun` names."""
        raise NotImplementedError

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        """A %-format JSON fragment that writes a stored answer from its bits in :meth:`spun`
        order (the bulk simulation writes millions of rows with it)."""
        raise NotImplementedError


class YesNo(QuestionType):
    """One true answer, yes or no, reported through one spin."""

    name = "yesno"
    label = _l("Yes / no")
    has_options = False

    def options_problem(self, count: int) -> str | None:
        return None if count == 0 else _("only a 'multi' question has options")

    def spun(self, options: Sequence[T]) -> list[T | None]:
        return [None]

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> int:
        return _bit(value, f"question {key!r}")

    def bit(self, answer, option_key: str | None) -> int:
        return answer

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f"{json.dumps(key)}:%d"


class Multi(QuestionType):
    """Any number of true options; each option is a yes/no question spun on its own."""

    name = "multi"
    label = _l("Multi-select")
    has_options = True

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


QUESTION_TYPES: dict[str, QuestionType] = {kind.name: kind for kind in (YesNo(), Multi())}


def _bit(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise AnswerError(f"{where} must be 0 or 1, got {value!r}")
    return value
