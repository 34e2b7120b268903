"""Survey specifications: a survey, its questions and options as values, and their file form.

Every way a survey is made (a file, the builder, XLSForm, the API) gives a :class:`SurveySpec`;
its checks are :mod:`web.core.surveys.survey_checks`."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from web.core.surveys.designs import (
    NO_PARAMETERS,
    DesignParameters,
    SurveyDesign,
    design_of,
)
from web.core.surveys.fielding import Fielding
from web.core.surveys.flow.conditions import (
    Condition,
    grouped_for_file,
)
from web.core.surveys.flow.display import Rule
from web.core.surveys.flow.pages import PageSpec
from web.core.surveys.flow.quotas import Quota
from web.core.surveys.limits import (
    DEFAULT_RESULTS_BATCH,
)
from web.core.surveys.panel import Panel
from web.core.surveys.questions import QuestionType, question_type
from web.core.surveys.texts import Texts


@dataclass(frozen=True)
class OptionSpec:
    key: str
    text: Texts
    # Keeps its place when the question's options are shuffled ("None of these", "Other").
    fixed: bool = False


@dataclass(frozen=True)
class QuestionSpec:
    key: str
    kind: str
    text: Texts
    epsilon: float | None  # None: a design's, derived from its parameters
    procedure: str
    options: tuple[OptionSpec, ...] = ()
    # A design's parameters (web/core/surveys/designs/), else none.
    design: DesignParameters = NO_PARAMETERS
    # ε∞, the bound over every wave of its series (a permanent report on the device), or None.
    epsilon_permanent: float | None = None
    # The condition of an experiment this row asks in (web/core/surveys/flow/conditions.py), or None
    # for a question asked the same way in every condition.
    condition: str | None = None
    # The item's true share where it is known (a zero-prevalence item catches false positives).
    known_prevalence: float | None = None
    # A comprehension check's right answer: one of a direct question's option ids.
    correct: str | None = None
    # Whether a respondent must answer it; every question may be skipped unless the file says so.
    required: bool = False
    # Shown only to respondents whose plain answers meet it (web/core/surveys/flow/display.py).
    show_if: Rule | None = None
    # Whether its options' order is drawn per respondent (a question with options).
    shuffle_options: bool = False
    # Help shown under the question's text (XLSForm's hint), in each language; none: empty.
    hint: Texts = Texts()

    @property
    def type(self) -> QuestionType:
        return question_type(self.kind, self.procedure)

    @property
    def asked_with(self) -> SurveyDesign:
        return design_of(self)

    @property
    def derived_epsilon(self) -> float:
        """ε as collected: the stated one for a spinner, the design's own for the others (a
        stated one was checked against it); assumes a checked question."""
        return self.asked_with.epsilon_of(self.epsilon, self.design)


@dataclass(frozen=True)
class SurveySpec:
    slug: str
    title: Texts
    description: Texts
    questions: tuple[QuestionSpec, ...] = field(default_factory=tuple)
    # How many new responses move the published results at once (optional in a file).
    results_batch: int = DEFAULT_RESULTS_BATCH
    # The languages of its texts, the default first.
    languages: tuple[str, ...] = ("en",)
    fielding: Fielding = field(default_factory=Fielding)
    # The series it is a wave of, and which wave (both or neither).
    series: str | None = None
    wave: int | None = None
    # An experiment's conditions, drawn per respondent; none for a survey asked one way.
    conditions: tuple[Condition, ...] = ()
    # Its pages in order (web/core/surveys/flow/pages.py); none for a survey of one page.
    pages: tuple[PageSpec, ...] = ()
    # The online panel it is fielded on (web/core/surveys/panel.py), if any.
    panel: Panel | None = None
    # Its quotas (web/core/surveys/flow/quotas.py); none for a survey that takes anyone.
    quotas: tuple[Quota, ...] = ()

    def to_dict(self) -> dict:
        """The survey in the file format: texts as strings in a one-language survey, else as
        objects with one entry per language."""
        languages = list(self.languages)
        return {
            "slug": self.slug,
            "languages": languages,
            "title": self.title.for_file(languages),
            "description": self.description.for_file(languages),
            **({"series": self.series, "wave": self.wave} if self.series is not None else {}),
            **self.fielding.to_dict(languages),
            "results_batch": self.results_batch,
            **(
                {"conditions": [condition.to_dict() for condition in self.conditions]}
                if self.conditions
                else {}
            ),
            **({"pages": [page.to_dict(languages) for page in self.pages]} if self.pages else {}),
            **({"panel": self.panel.to_dict()} if self.panel is not None else {}),
            **({"quotas": [quota.to_dict() for quota in self.quotas]} if self.quotas else {}),
            "questions": grouped_for_file(
                [
                    (question.condition, _question_dict(question, languages))
                    for question in self.questions
                ]
            ),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2) + "\n"


def _question_dict(question: QuestionSpec, languages: list[str]) -> dict:
    data: dict[str, Any] = {
        "id": question.key,
        "type": question.kind,
        "text": question.text.for_file(languages),
    }
    asked: dict[str, Any] = {}
    # A design with no ε bound states none (a file has no infinity: JSON cannot write one).
    if question.asked_with.protects and math.isfinite(question.derived_epsilon):
        asked["epsilon"] = question.derived_epsilon
    asked["procedure"] = question.procedure
    if question.epsilon_permanent is not None:
        asked["epsilon_permanent"] = question.epsilon_permanent
    asked |= question.asked_with.fields.for_file(question.design, languages)
    if question.design.scale is not None:
        asked |= question.design.scale.for_file(languages)
    if question.design.max_length is not None:
        asked["max_length"] = question.design.max_length
    fixed = question.type.fixed_fields()  # what its type fixes, the file leaves out
    data |= {name: value for name, value in asked.items() if name not in fixed}
    if any(question.hint.values()):
        data["hint"] = question.hint.for_file(languages)
    if question.known_prevalence is not None:
        data["known_prevalence"] = question.known_prevalence
    if question.correct is not None:
        data["correct"] = question.correct
    if question.required is True:
        data["required"] = True
    if question.show_if is not None:
        data["show_if"] = question.show_if.to_dict()
    if question.shuffle_options is True:
        data["shuffle_options"] = True
    if question.design.rows is not None:
        data["rows"] = [
            {"id": row.key, "text": row.text.for_file(languages)} for row in question.design.rows
        ]
    if question.type.has_options:
        data["options"] = [
            {"id": option.key, "text": option.text.for_file(languages)}
            | ({"fixed": True} if option.fixed is True else {})
            for option in question.options
        ]
    return data
