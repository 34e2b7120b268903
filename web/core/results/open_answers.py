"""Open answers as the researcher reads them: each question's words from the published snapshot,
in alphabetical order (which says nothing about who wrote them when), withheld below the minimum
n. Never on the projector or in the results document: words can identify their writer."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from web.core.models import Survey
from web.core.results.published import published_answers
from web.core.surveys.texts import Texts

# Distinct answers listed per question; the responses CSV holds them all.
LISTED = 500


@dataclass(frozen=True)
class OpenAnswers:
    """One open question's answers: each distinct text with how many wrote it, alphabetically."""

    key: str
    text: Texts
    answers: tuple[tuple[str, int], ...]
    n: int  # published responses that wrote something
    withheld: bool
    # Distinct answers past the first LISTED, left to the responses CSV.
    more: int = 0

    def __repr__(self) -> str:
        shown = "withheld" if self.withheld else f"n={self.n}, distinct={len(self.answers)}"
        return f"OpenAnswers({self.key!r}, {shown})"


def open_answers(survey: Survey, min_n: int) -> tuple[OpenAnswers, ...]:
    """Every open question's answers in the published snapshot (one pass over its responses),
    withheld while fewer than ``min_n`` responses are published."""
    written = [question for question in survey.questions if question.type.written]
    if not written:
        return ()
    if survey.published_count < max(min_n, 1):
        return tuple(OpenAnswers(q.key, q.texts, (), 0, True) for q in written)
    counted: dict[str, Counter] = {question.key: Counter() for question in written}
    for answers in published_answers(survey):
        for key, counter in counted.items():
            value = answers.get(key)
            if isinstance(value, str):
                counter[value] += 1
    return tuple(_listed(question, counted[question.key]) for question in written)


def _listed(question, counter: Counter) -> OpenAnswers:
    ordered = sorted(counter.items(), key=lambda item: (item[0].casefold(), item[0]))
    return OpenAnswers(
        question.key,
        question.texts,
        tuple(ordered[:LISTED]),
        sum(counter.values()),
        False,
        max(0, len(ordered) - LISTED),
    )
