"""Comprehension checks of a split ballot (Meisters, Hoffmann & Musch 2020): direct questions with
a right answer (``correct``), asked in some conditions or all. From the published responses: each
check's pass rate in each condition it is asked in, and each item's reports among the respondents
of a condition who passed every check they were asked.

Who passed is a property of a response, not of a tally, so this reads the published rows once
(no running count could give it); only a survey with checks pays for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from web.core.models import Question, Survey
from web.core.results.published import published_answers
from web.core.surveys.flow.conditions import condition_markers, response_condition


@dataclass
class Counts:
    """Respondents, and those among them who chose the right answer (or reported 1)."""

    n: int = 0
    hits: int = 0


@dataclass
class Comprehension:
    """What the published rows say of the checks: per (check row, condition) its counts; per
    condition the respondents who passed; per item row its reports among them."""

    checks: dict[tuple[str, str], Counts] = field(default_factory=dict)
    passed: dict[str, int] = field(default_factory=dict)
    among_passed: dict[str, Counts] = field(default_factory=dict)


def comprehension(survey: Survey, items: list[Question]) -> Comprehension | None:
    """The checks' counts and ``items``' reports among those who passed (each item a row asked
    by condition with one bit per response); None for a survey without checks."""
    checks = [question for question in survey.questions if question.correct is not None]
    if not checks:
        return None
    markers = condition_markers(survey.questions)
    found = Comprehension()
    for answers in published_answers(survey):
        condition = response_condition(answers, markers)
        if condition is None:
            continue
        passed = True
        for check in checks:
            if check.key not in answers:
                continue
            if answers[check.key] is None:
                # A skipped check shows no understanding: not counted in its rate, not passed.
                passed = False
                continue
            counts = found.checks.setdefault((check.key, condition), Counts())
            right = answers[check.key] == check.correct
            counts.n += 1
            counts.hits += right
            passed &= right
        if not passed:
            continue
        found.passed[condition] = found.passed.get(condition, 0) + 1
        for item in items:
            if answers.get(item.key) is not None:
                counts = found.among_passed.setdefault(item.key, Counts())
                counts.n += 1
                counts.hits += int(answers[item.key])
    return found
