"""Results, computed once from a survey's tallies and rendered by every output.

The dashboard, the projector, the API, the estimates CSV and the command line all take a
:class:`SurveyResults`; none of them recomputes a figure or looks one up by name. The cost does not
grow with the number of responses: every figure comes from the running tallies.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import rr
from web.core.models import Question, Survey, Tally

ESTIMATE_FIELDS = ("estimate", "std_error", "ci_low", "ci_high", "estimated_count")


@dataclass(frozen=True)
class ItemResult:
    """The figures of one tally: a yes/no question's own, or one option's.

    The estimate and its interval are None while no one has answered.
    """

    option: str | None  # the option's id, or None for a question's own tally
    option_text: str | None
    n: int
    noisy_yes: int
    estimate: float | None
    std_error: float | None
    ci_low: float | None
    ci_high: float | None
    estimated_count: float | None

    @property
    def reported_share(self) -> float | None:
        return self.noisy_yes / self.n if self.n else None

    @property
    def outside(self) -> bool:
        """Whether the raw (unclipped) estimate fell outside 0–100%."""
        return self.estimate is not None and not 0 <= self.estimate <= 1

    def figures(self) -> dict:
        """n, reported yes and the estimate's fields, as the API gives them."""
        data = asdict(self)
        del data["option"], data["option_text"]
        return data


@dataclass(frozen=True)
class QuestionResult:
    key: str
    kind: str
    text: str
    procedure: str
    epsilon: float
    epsilon_total: float
    light_fraction: float
    has_options: bool
    items: tuple[ItemResult, ...]

    @property
    def n(self) -> int:
        return self.items[0].n if self.items else 0

    def shown(self, min_n: int) -> bool:
        """Whether every item has enough responses (and at least one) for its estimate to be
        published."""
        return all(item.n >= max(min_n, 1) for item in self.items)

    def to_dict(self) -> dict:
        """The API's form: a yes/no question's figures beside its parameters, a question with
        options one entry per option."""
        data = {
            "id": self.key,
            "type": self.kind,
            "text": self.text,
            "procedure": self.procedure,
            "epsilon": self.epsilon,
            "epsilon_total": self.epsilon_total,
            "light_fraction": self.light_fraction,
        }
        if self.has_options:
            data["options"] = [
                {"id": item.option, "text": item.option_text, **item.figures()}
                for item in self.items
            ]
        else:
            data.update(self.items[0].figures())
        return data


@dataclass(frozen=True)
class SurveyResults:
    slug: str
    title: str
    status: str
    n: int
    epsilon_total: float
    questions: tuple[QuestionResult, ...]

    def to_dict(self) -> dict:
        """The results document of the API."""
        return {
            "slug": self.slug,
            "title": self.title,
            "status": self.status,
            "n": self.n,
            "epsilon_total": self.epsilon_total,
            "questions": [question.to_dict() for question in self.questions],
        }


def survey_results(survey: Survey) -> SurveyResults:
    """Every question's estimates, from the tallies."""
    return SurveyResults(
        survey.slug,
        survey.title,
        survey.status,
        survey.response_count,
        survey.epsilon_total,
        tuple(question_results(question) for question in survey.questions),
    )


def question_results(question: Question) -> QuestionResult:
    """One question's parameters and the estimate of each tally it feeds."""
    return QuestionResult(
        question.key,
        question.kind,
        question.text,
        question.procedure,
        question.epsilon,
        question.epsilon_total,
        question.light_fraction,
        question.type.has_options,
        tuple(
            item_result(option or question, question, option.key if option else None,
                        option.text if option else None)
            for option in question.spun_options
        ),
    )  # fmt: skip


def item_result(
    tally: Tally, question: Question, option: str | None, text: str | None
) -> ItemResult:
    """n, reported yes and the estimate with its interval (None while n is 0)."""
    if tally.n == 0:
        return ItemResult(option, text, 0, 0, *[None] * len(ESTIMATE_FIELDS))
    estimate = rr.estimate_proportion(
        tally.noisy_yes, tally.n, question.epsilon, question.procedure
    )
    return ItemResult(
        option, text, int(estimate.n), int(estimate.noisy_yes),
        *(getattr(estimate, name) for name in ESTIMATE_FIELDS),
    )  # fmt: skip
