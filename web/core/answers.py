"""Check a submitted set of reported bits against a survey's questions.

The body of a submission is ``{"answers": {"q": 0|1, "multi_q": {"option": 0|1, ...}}}``. Every
question and every option must be present, each value exactly 0 or 1, and nothing else may be sent:
an extra field could carry something the respondent did not mean to share.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


class AnswerError(ValueError):
    """A submission that does not fit the survey; the message names the problem."""


@dataclass(frozen=True)
class Shape:
    """What one question expects: its key, and its option keys for a multi-select question."""

    key: str
    option_keys: Sequence[str] = ()

    @property
    def is_multi(self) -> bool:
        return bool(self.option_keys)


def check_answers(body, shapes: Iterable[Shape]) -> dict:
    """Return the reported bits of a valid body, or raise :class:`AnswerError`."""
    if not isinstance(body, dict):
        raise AnswerError("the body must be a JSON object")
    extra = sorted(set(body) - {"answers"})
    if extra:
        raise AnswerError(f"unexpected field {extra[0]!r}: send only 'answers'")
    answers = body.get("answers")
    if not isinstance(answers, dict):
        raise AnswerError("'answers' must be an object")
    shapes = list(shapes)
    unknown = sorted(set(answers) - {shape.key for shape in shapes})
    if unknown:
        raise AnswerError(f"unknown question {unknown[0]!r}")
    return {shape.key: _answer(answers, shape) for shape in shapes}


def _answer(answers: dict, shape: Shape):
    if shape.key not in answers:
        raise AnswerError(f"question {shape.key!r} is missing")
    value = answers[shape.key]
    if not shape.is_multi:
        return _bit(value, f"question {shape.key!r}")
    if not isinstance(value, dict):
        raise AnswerError(f"question {shape.key!r} must be an object of options, each 0 or 1")
    unknown = sorted(set(value) - set(shape.option_keys))
    if unknown:
        raise AnswerError(f"question {shape.key!r} has no option {unknown[0]!r}")
    bits = {}
    for option in shape.option_keys:
        if option not in value:
            raise AnswerError(f"option {option!r} of question {shape.key!r} is missing")
        bits[option] = _bit(value[option], f"option {option!r} of question {shape.key!r}")
    return bits


def _bit(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise AnswerError(f"{where} must be 0 or 1, got {value!r}")
    return value
