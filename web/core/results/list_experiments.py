"""List experiments, estimated for the researcher from the published counts: each list question's
difference in means with its interval, the maximum-likelihood fit, Blair & Imai's test for design
effects, each list's count frequencies, and the long list's answers that gave the sensitive item
away (:class:`rr.ListExperiment`); a double list's mean of its two lists' differences
(:class:`rr.DoubleList`) with each list's own; withheld below the minimum n."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeGuard

import numpy as np

import rr
from web.core.models import Survey
from web.core.results.published import published_answers
from web.core.surveys.questions.item_count import ARMS, DOUBLE_ARMS
from web.core.surveys.texts import Texts

# One list's count frequencies: (its short list's, 0…J; its long list's, 0…J + 1).
Frequencies = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class ListResult:
    """One list question's counts per list and their estimates, or withheld. ``lists`` holds
    each list's frequencies (one list, or a double list's A and B: ``lists[i][0][k]`` respondents
    of list i's short list said k), ``by_list`` each list's estimate and ``design_effects`` each
    list's test; ``estimate`` is the question's (a double list's mean of the two)."""

    key: str
    text: Texts
    sensitive: Texts
    controls: tuple[int, ...]  # J of each list
    kind: str  # the question's type, as the file names it
    procedure: str
    condition: str | None
    n: int = 0  # respondents who gave a count
    lists: tuple[Frequencies, ...] | None = None  # None while withheld
    estimate: rr.ListEstimate | rr.DoubleListEstimate | None = None
    by_list: tuple[rr.ListEstimate, ...] = ()
    design_effects: tuple[rr.DesignEffectTest | None, ...] = ()

    @property
    def withheld(self) -> bool:
        return self.lists is None

    @property
    def double(self) -> bool:
        return len(self.controls) == 2

    def __repr__(self) -> str:
        shown = "withheld" if self.withheld else repr(self.estimate)
        return f"ListResult({self.key!r}, J={self.controls}, {shown})"

    def to_dict(self, languages: list[str]) -> dict:
        """The results API's entry: the estimate, each list's figures and frequencies, or that
        it is withheld. A single list's figures sit on the entry itself; a double list's under
        ``lists``, one entry per list."""
        data: dict[str, Any] = {
            "id": self.key,
            "type": self.kind,
            "text": self.text.for_file(languages),
            "sensitive": self.sensitive.for_file(languages),
            "controls": self.controls[0],
            **({"controls_b": self.controls[1]} if self.double else {}),
            **({"condition": self.condition} if self.condition is not None else {}),
            "epsilon": None,
            "withheld": self.withheld,
        }
        if self.lists is None:
            return data
        data["n"] = self.n
        each = [_list_entry(frequencies) for frequencies in self.lists]
        for entry, found, test in zip(each, self.by_list, self.design_effects, strict=False):
            entry |= _figures(found) | {
                "by_arm": [arm._asdict() for arm in found.by_arm],
                "ml": {name: getattr(found.ml, name)
                       for name in ("estimate", "std_error", "log_likelihood")},
                "design_effect": None if test is None else {"p_value": test.p_value},
                "ceiling": found.ceiling,
                "floor": found.floor,
            }  # fmt: skip
        if self.estimate is not None:
            data |= _figures(self.estimate)
        if not self.double:
            return data | each[0]
        return data | {"lists": [{"list": name} | entry for name, entry in zip(DOUBLE_ARMS, each,
                                                                                 strict=True)]}  # fmt: skip


def _figures(found) -> dict:
    return {name: getattr(found, name) for name in ("estimate", "std_error", "ci_low", "ci_high")}


def _list_entry(frequencies: Frequencies) -> dict:
    return {"frequencies": dict(zip(ARMS, map(list, frequencies), strict=True))}


def list_results(survey: Survey, min_n: int) -> tuple[ListResult, ...]:
    """Every list question's results from the published counts (one pass over the responses);
    withheld while fewer than ``min_n`` responses are published or fewer than ``min_n`` gave a
    count."""
    asked = [q for q in survey.questions if q.design.controls is not None]
    if not asked:
        return ()
    answered: dict[str, list[dict]] = {question.key: [] for question in asked}
    if survey.published_count >= max(min_n, 1):
        _collect(published_answers(survey), answered)
    return tuple(list_result(question, answered[question.key], min_n) for question in asked)


def gave_counts(answer: object) -> TypeGuard[dict]:
    """Whether a stored answer is a list's counts (an answer of another condition, or none, is
    not: stored answers were checked against their list)."""
    return isinstance(answer, dict) and ("count" in answer or "count_a" in answer)


def _collect(responses: Iterable[dict], answered: dict[str, list[dict]]) -> None:
    """Each response's counts for each list."""
    for answers in responses:
        for key, found in answered.items():
            answer = answers.get(key)
            if gave_counts(answer):
                found.append(answer)


def list_result(question, answers: list[dict], min_n: int, tests: bool = True) -> ListResult:
    """One question's result: withheld below ``min_n`` counts, estimated once each list has two;
    with each list's test for design effects unless ``tests`` is False (a group's figures, which
    show none: the test can simulate its weights, the costliest part)."""
    design = question.design
    controls = (design.control_count, *((len(design.controls_b),) if design.controls_b else ()))
    common = (question.key, question.texts, design.sensitive_text or question.texts, controls,
              question.kind, question.procedure, question.condition)  # fmt: skip
    if len(answers) < max(min_n, 1):
        return ListResult(*common)
    if not design.double_list:
        short, long = (np.bincount([a["count"] for a in answers if a["arm"] == arm],
                                   minlength=controls[0] + 1 + index)
                       for index, arm in enumerate(ARMS))  # fmt: skip
        shown = (tuple(map(int, short)), tuple(map(int, long)))
        if short.sum() < 2 or long.sum() < 2:
            return ListResult(*common, len(answers), (shown,))
        model = rr.list_experiment(controls[0])
        found = model.estimate(short, long)
        effects = (model.design_effect(short, long),) if tests else ()
        return ListResult(*common, len(answers), (shown,), found, (found,), effects)
    arms = [answer["arm"] for answer in answers]
    counts = [[answer[f"count_{name}"] for answer in answers] for name in DOUBLE_ARMS]
    lists = tuple(
        tuple(tuple(map(int, np.bincount([c for c, arm in zip(counts[index], arms, strict=True)
                                          if (arm == name) == held],
                                         minlength=controls[index] + 1 + held)))
              for held in (False, True))
        for index, name in enumerate(DOUBLE_ARMS)
    )  # fmt: skip
    if min(arms.count(name) for name in DOUBLE_ARMS) < 2:
        return ListResult(*common, len(answers), lists)
    double = rr.double_list(*controls).estimate(arms, counts[0], counts[1])
    effects = tuple(rr.list_experiment(j).design_effect(short, long)
                    for j, (short, long) in zip(controls, lists, strict=True)) if tests else ()  # fmt: skip
    return ListResult(*common, len(answers), lists, double, double.by_list, effects)
