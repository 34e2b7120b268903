"""List experiments, estimated for the researcher from the published counts: each list question's
difference in means with its interval, the maximum-likelihood fit, Blair & Imai's test for design
effects, each list's count frequencies, and the long list's answers that gave the sensitive item
away (:class:`rr.ListExperiment`); withheld below the minimum n."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

import rr
from web.core.models import Survey
from web.core.results.published import published_answers
from web.core.surveys.questions.item_count import ARMS
from web.core.surveys.texts import Texts


@dataclass(frozen=True)
class ListResult:
    """One list question's counts per list (``frequencies[arm][k]``: respondents of that list who
    said k) and their estimates, or withheld."""

    key: str
    text: Texts
    sensitive: Texts
    controls: int  # J
    kind: str  # the question's type, as the file names it
    procedure: str
    condition: str | None
    frequencies: tuple[tuple[int, ...], tuple[int, ...]] | None  # None while withheld
    estimate: rr.ListEstimate | None = None
    design_effect: rr.DesignEffectTest | None = None

    @property
    def withheld(self) -> bool:
        return self.frequencies is None

    @property
    def n(self) -> int:
        return 0 if self.frequencies is None else sum(map(sum, self.frequencies))

    def __repr__(self) -> str:
        shown = "withheld" if self.withheld else repr(self.estimate)
        return f"ListResult({self.key!r}, J={self.controls}, {shown})"

    def to_dict(self, languages: list[str]) -> dict:
        """The results API's entry: the issue's fields, each list's frequencies, or withheld."""
        data: dict[str, Any] = {
            "id": self.key,
            "type": self.kind,
            "text": self.text.for_file(languages),
            "sensitive": self.sensitive.for_file(languages),
            "controls": self.controls,
            **({"condition": self.condition} if self.condition is not None else {}),
            "epsilon": None,
            "withheld": self.withheld,
        }
        if self.frequencies is None:
            return data
        data["n"] = self.n
        data["frequencies"] = {
            arm: list(counts) for arm, counts in zip(ARMS, self.frequencies, strict=True)
        }
        found = self.estimate
        if found is None:  # a list with fewer than two respondents
            return data
        return data | {
            "estimate": found.estimate,
            "std_error": found.std_error,
            "ci_low": found.ci_low,
            "ci_high": found.ci_high,
            "by_arm": [arm._asdict() for arm in found.by_arm],
            "ml": {
                "estimate": found.ml.estimate,
                "std_error": found.ml.std_error,
                "log_likelihood": found.ml.log_likelihood,
            },
            "design_effect": (
                None if self.design_effect is None else {"p_value": self.design_effect.p_value}
            ),
            "ceiling": found.ceiling,
            "floor": found.floor,
        }


def list_results(survey: Survey, min_n: int) -> tuple[ListResult, ...]:
    """Every list question's results from the published counts (one pass over the responses);
    withheld while fewer than ``min_n`` responses are published or fewer than ``min_n`` gave a
    count."""
    asked = [q for q in survey.questions if q.design.controls is not None]
    if not asked:
        return ()
    counts: dict[str, list[np.ndarray]] = {
        q.key: [np.zeros(q.design.control_count + 1 + arm, dtype=int) for arm in range(2)]
        for q in asked
    }
    if survey.published_count >= max(min_n, 1):
        _count(published_answers(survey), counts)
    return tuple(_result(question, counts[question.key], min_n) for question in asked)


def _count(responses: Iterable[dict], counts: dict[str, list[np.ndarray]]) -> None:
    """Add each response's count to its list's frequencies (an answer of another condition, or
    none, adds nothing; stored answers were checked against the list's length)."""
    for answers in responses:
        for key, frequencies in counts.items():
            answer = answers.get(key)
            if isinstance(answer, dict) and answer.get("arm") in ARMS:
                frequencies[ARMS.index(answer["arm"])][answer["count"]] += 1


def _result(question, frequencies: list[np.ndarray], min_n: int) -> ListResult:
    """One question's result: withheld below ``min_n`` counts, estimated once each list has two."""
    short, long = frequencies
    common = (question.key, question.texts, question.design.sensitive_text or question.texts,
              question.design.control_count, question.kind, question.procedure, question.condition)  # fmt: skip
    if short.sum() + long.sum() < max(min_n, 1):
        return ListResult(*common, None)
    shown = (tuple(int(v) for v in short), tuple(int(v) for v in long))
    if short.sum() < 2 or long.sum() < 2:
        return ListResult(*common, shown)
    model = rr.list_experiment(question.design.control_count)
    return ListResult(*common, shown, model.estimate(short, long), model.design_effect(short, long))
