"""Check a submitted set of reported bits against a survey's questions.

The body of a submission is ``{"answers": {"q": 0|1, "multi_q": {"option": 0|1, ...}}}``. Every
question and every option must be present, each value exactly 0 or 1, and nothing else may be sent:
an extra field could carry something the respondent did not mean to share.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from web.core.surveys.questions import AnswerError, QuestionType, question_type

__all__ = ["AnswerError", "Shape", "check_answers"]


@dataclass(frozen=True)
class Shape:
    """What one question expects: its key, its type's name, its option keys and its procedure
    (cheating detection's answers carry an arm)."""

    key: str
    kind: str
    option_keys: Sequence[str] = ()
    procedure: str | None = None

    @property
    def type(self) -> QuestionType:
        return question_type(self.kind, self.procedure)


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
    checked = {}
    for shape in shapes:
        if shape.key not in answers:
            raise AnswerError(f"question {shape.key!r} is missing")
        checked[shape.key] = shape.type.check_answer(
            answers[shape.key], shape.key, shape.option_keys
        )
    return checked
