"""Check a submitted set of reported bits against a survey's questions.

The body of a submission is ``{"answers": {"q": 0|1, "multi_q": {"option": 0|1, ...}}}``. Every
option of an answered question must be present, each value exactly 0 or 1, and nothing else may be
sent: an extra field could carry something the respondent did not mean to share. A question the
respondent skipped is left out (or sent as null) and stored as null; a ``required`` one cannot be. A survey with
conditions (an experiment) takes ``{"condition": "<id>", "answers": {...}}``: the condition the
page drew, whose questions the answers must be (keyed by question id, stored by the row's key).

A body is checked once: :class:`Checked` carries down everything storing it needs (the rows as
stored, the plain answers a rule or a quota reads, the quotas the response counts in), so nothing
after the check reads the body or the answers again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from web.core.surveys.designs import NO_PARAMETERS, DesignParameters
from web.core.surveys.flow.conditions import question_id
from web.core.surveys.flow.quotas import Quota, quotas_met
from web.core.surveys.flow.walk import Flow
from web.core.surveys.questions import AnswerError, QuestionType, question_type

__all__ = ["AnswerError", "Checked", "Shape", "check_answers"]


@dataclass(frozen=True)
class Shape:
    """What one question expects: its key, its type's name, its option keys and its procedure
    (cheating detection's answers carry an arm)."""

    key: str
    kind: str
    option_keys: Sequence[str] = ()
    procedure: str | None = None
    # The condition its row asks in (None: asked the same way in every condition).
    condition: str | None = None
    # Whether it must be answered; else it may be left out (or sent as null) and is stored as null.
    required: bool = False
    # Whether it is asked plainly (its answer is what a display rule reads).
    plain: bool = False
    # Its design's parameters: what its own limits read (an open answer's length, a range).
    design: DesignParameters = NO_PARAMETERS
    # Found once: a plan's shapes are read by every submission to its revision.
    type: QuestionType = field(init=False, repr=False, compare=False)
    # The key a submission's answers give it: the question's id.
    sent_as: str = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "type", question_type(self.kind, self.procedure))
        object.__setattr__(self, "sent_as", question_id(self.key))


@dataclass(frozen=True, slots=True)
class Checked:
    """A submission's body once checked: each row as stored (``bits``: reports, plain answers and
    the orders drawn, keyed by the row's key), the plain answers as a display rule or a quota
    reads them (``plain``), and the quotas the response counts in (``quotas``: id and limit)."""

    bits: dict[str, Any]
    plain: dict[str, Any]
    quotas: tuple[tuple[str, int], ...] = ()


def check_answers(
    body,
    shapes: Iterable[Shape],
    conditions: Sequence[str] = (),
    flow: Flow | None = None,
    quotas: Sequence[Quota] = (),
) -> Checked:
    """Check a body, or raise :class:`AnswerError`. With ``conditions`` (an experiment's ids) the
    body names one, and only its questions are expected. With a ``flow`` (pages, display rules,
    drawn orders) a question the respondent was not shown must not be answered, and the orders
    drawn come as ``order``; they are kept with the bits (``order:<page>``,
    ``options:<question>``). With ``quotas``, the response is counted in those its plain answers
    meet."""
    if not isinstance(body, dict):
        raise AnswerError("the body must be a JSON object")
    expected = {"answers"} | ({"condition"} if conditions else set())
    if flow is not None and flow.draws_orders:
        expected.add("order")
    extra = sorted(set(body) - expected)
    if extra:
        raise AnswerError(
            f"unexpected field {extra[0]!r}: send only {' and '.join(sorted(expected))!r}"
        )
    shapes = list(shapes)
    if conditions:
        condition = body.get("condition")
        if not isinstance(condition, str) or condition not in conditions:
            raise AnswerError(
                f"'condition' must be one of {', '.join(map(repr, conditions))}, got {condition!r}"
            )
        shapes = [shape for shape in shapes if shape.condition in (None, condition)]
    answers = body.get("answers")
    if not isinstance(answers, dict):
        raise AnswerError("'answers' must be an object")
    unknown = sorted(set(answers) - {shape.sent_as for shape in shapes})
    if unknown:
        raise AnswerError(f"unknown question {unknown[0]!r}")
    # The plain answers first: a display rule reads them to say what was shown.
    checked_plain = _checked_plain(answers, shapes)
    plain: dict[str, Any] = {}
    for shape in shapes:
        if shape.key in checked_plain:
            plain |= shape.type.plain_values(shape.sent_as, checked_plain[shape.key])
    shown = None if flow is None or flow.simple else flow.shown(plain)
    checked: dict[str, object] = {}
    for shape in shapes:
        sent_as = shape.sent_as
        if shown is not None and sent_as not in shown.questions:
            if answers.get(sent_as) is not None:
                raise AnswerError(
                    f"question {sent_as!r} was not shown, given the answers sent (its page's or "
                    "its own show_if): send no answer for it"
                )
            checked[shape.key] = None
            continue
        if answers.get(sent_as) is None:
            if shape.required:
                raise AnswerError(f"question {sent_as!r} is required: it cannot be skipped")
            # Kept as null, so the response still names every row its condition asked.
            checked[shape.key] = None
            continue
        if shape.key in checked_plain:
            checked[shape.key] = checked_plain[shape.key]
        else:
            checked[shape.key] = _checked(shape, answers[sent_as])
        if shape.required:
            shape.type.check_complete(checked[shape.key], sent_as, shape.design)
    if shown is not None and flow is not None and flow.draws_orders:
        asked = [shape.sent_as for shape in shapes]
        checked |= flow.checked_order(body.get("order"), shown, asked)
    counted_in = tuple((quota.key, quota.limit) for quota in quotas_met(quotas, plain))
    return Checked(checked, plain, counted_in)


def _checked(shape: Shape, value):
    """One answer as stored: its type's check, then its question's own limits."""
    checked = shape.type.check_answer(value, shape.sent_as, shape.option_keys)
    shape.type.check_limits(checked, shape.sent_as, shape.design)
    return checked


def _checked_plain(answers: dict, shapes: list[Shape]) -> dict[str, Any]:
    """The answers asked plainly, checked, by row key (an answer that does not fit its question
    is left out here: it is refused when its own question is checked)."""
    checked: dict[str, Any] = {}
    for shape in shapes:
        value = answers.get(shape.sent_as)
        if not shape.plain or value is None:
            continue
        try:
            checked[shape.key] = _checked(shape, value)
        except AnswerError:
            continue
    return checked
