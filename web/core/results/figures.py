"""Results, computed once from a survey's published snapshot and rendered by every output.

The dashboard, the projector, the API, the estimates CSV and the command line all take a
:class:`SurveyResults`; none of them recomputes a figure or looks one up by name. Every figure
comes from the snapshot (:mod:`web.core.models.publication`), never from the running tallies, so the cost
does not grow with the number of responses and nothing shows a response before its batch is
published. Below the minimum n a question's figures are withheld: its counts too, not only its
estimates.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from flask import current_app

import rr
from web.core.models import Question, Survey, unbounded_questions
from web.core.results.cells import is_direct
from web.core.surveys.designs import NO_PARAMETERS, DesignParameters, design_named, find_design
from web.core.surveys.flow.walk import survey_flow
from web.core.surveys.questions import ARM, question_type
from web.core.surveys.texts import Texts

ESTIMATE_FIELDS = ("estimate", "std_error", "ci_low", "ci_high", "estimated_count")
SIGNIFICANT_DIGITS = 12  # of every figure the API and the CSVs give: no float noise past them


def significant(value: float | None) -> float | None:
    """``value`` to 12 significant digits (0.5000000000000001 → 0.5), None kept."""
    return None if value is None else float(f"{value:.{SIGNIFICANT_DIGITS}g}")


@dataclass(frozen=True)
class ItemResult:
    """The figures of one tally: a yes/no question's own, or one option's.

    The estimate and its interval are None while no one has answered.
    """

    option: str | None  # the option's id, or None for a question's own tally
    option_text: Texts | None  # in every language of the survey
    n: int
    noisy_yes: int
    estimate: float | None
    std_error: float | None
    ci_low: float | None
    ci_high: float | None
    estimated_count: float | None
    # A direct question's option chosen by fewer than the minimum n: a group too small to show.
    withheld: bool = False

    @property
    def reported_share(self) -> float | None:
        return None if self.withheld or not self.n else self.noisy_yes / self.n

    @property
    def outside(self) -> bool:
        """Whether the raw (unclipped) estimate fell outside 0–100%."""
        return self.estimate is not None and not 0 <= self.estimate <= 1

    @property
    def shown_count(self) -> float | None:
        """The estimated count as a page shows it: within 0 and n, as its interval is (a count
        below 0 or above everyone is no count; :attr:`outside` says the raw estimate was)."""
        if self.estimated_count is None:
            return None
        return min(max(self.estimated_count, 0.0), float(self.n))

    def figures(self) -> dict:
        """n, reported yes and the estimate's fields, as the API gives them (12 significant
        digits): ``estimated_count`` within 0 and n as every output shows it, and
        ``estimated_count_raw`` (π̂·n, unclipped) beside it."""
        data = asdict(self)
        del data["option"], data["option_text"]
        if not data.pop("withheld"):
            for name in ESTIMATE_FIELDS:
                data[name] = significant(data[name])
            data["estimated_count"] = significant(self.shown_count)
            data["estimated_count_raw"] = significant(self.estimated_count)
            return data
        return {"n": data["n"], "withheld": True}


@dataclass(frozen=True)
class QuestionResult:
    key: str
    kind: str
    text: Texts  # in every language of the survey
    procedure: str
    epsilon: float
    epsilon_total: float
    light_fraction: float
    has_options: bool
    items: tuple[ItemResult, ...]
    # Whether its figures may be shown: every item has at least the minimum n (and one).
    visible: bool
    # Whether its options' estimates add up to 100% (single choice: one true option each).
    sums_to_one: bool = False
    # Whether its tallies count the respondents choosing each option as given (a direct
    # question): plain shares, not estimates from reports.
    counts_choices: bool = False
    # A design's parameters (web/core/surveys/designs/), else none.
    design: DesignParameters = NO_PARAMETERS
    # What its type adds to the figures (a design of two arms' second figure and its arms).
    extra: dict = field(default_factory=dict)
    # ε∞, its bound over every wave of the series (a permanent report), else None.
    epsilon_permanent: float | None = None
    # The experiment's condition this row asks in (its key is then <id>@<condition>), else None.
    condition: str | None = None
    # Whether an ε protects its answers (not where a yes/no question is asked directly).
    protected: bool = True
    # To whom it is shown, in words ("student = yes"), where display logic decides it.
    shown_if: str | None = None

    @property
    def n(self) -> int:
        return self.items[0].n if self.items else 0

    @property
    def procedure_words(self) -> str:
        """Its design with its shares, for the researcher's pages."""
        return design_named(self.procedure).researcher_words(self.design, self.light_fraction)

    @property
    def method_words(self) -> tuple[object, object]:
        """Its design in the literature's words and how its intervals are made: what a methods
        section says of it."""
        kind, design = question_type(self.kind, self.procedure), design_named(self.procedure)
        return kind.design_words(design), kind.interval_words_of(design)

    def to_dict(self, languages: list[str]) -> dict:
        """The API's form: a yes/no question's figures beside its parameters, a question with
        options one entry per option; texts as the survey file writes them."""

        def option_text(item: ItemResult):
            return item.option_text.for_file(languages) if item.option_text is not None else None

        data: dict[str, Any] = {
            "id": self.key,
            "type": self.kind,
            "text": self.text.for_file(languages),
            "procedure": self.procedure,
            "epsilon": rr.bound(self.epsilon),
            # False where its design has no ε bound (epsilon null, left out of the survey's total).
            "epsilon_bounded": self.protected and math.isfinite(self.epsilon),
            **({"epsilon_permanent": self.epsilon_permanent}
               if self.epsilon_permanent is not None else {}),
            "epsilon_total": significant(rr.bound(self.epsilon_total)),
            "light_fraction": significant(self.light_fraction),
        }  # fmt: skip
        design = find_design(self.procedure)
        if design is not None:
            data |= design.fields.for_file(self.design, languages)
        if self.design.scale is not None:
            data |= self.design.scale.for_file(languages)
        if "arms" in data:  # a design of two arms': "arms" gives each arm's counts below
            data["arm_parameters"] = data.pop("arms")
        if design is not None and not design.page.draws:
            del data["light_fraction"]  # no spinner: the respondent answers one question
        if self.condition is not None:
            data["condition"] = self.condition
        if not self.protected:
            data["epsilon"] = None  # asked directly: no ε protects it
        data["withheld"] = not self.visible
        figures = ItemResult.figures if self.visible else _no_figures
        if self.counts_choices:
            # A direct question: each option's count and plain share, with no ε or procedure.
            for name in ("procedure", "epsilon", "light_fraction"):
                data.pop(name, None)
            data["randomized"] = False
            data["options"] = [
                {"id": item.option, "text": option_text(item), **_as_chosen(figures(item))}
                for item in self.items
            ]
        elif self.sums_to_one:
            # One report per respondent: n is the question's, each option counts its reports.
            if self.visible:
                data["n"] = self.n
            data["options"] = [
                {"id": item.option, "text": option_text(item), **_as_counts(figures(item))}
                for item in self.items
            ]
        elif self.has_options:
            data["options"] = [
                {"id": item.option, "text": option_text(item), **figures(item)}
                for item in self.items
            ]
        elif self.design.scale is not None:
            data.update(as_mean(figures(self.items[0])))
        else:
            data.update(figures(self.items[0]))
            if self.visible:
                data.update(_significant_tree(self.extra))
        return data


def as_mean(figures: dict) -> dict:
    """A number question's figures: its estimate is the ``mean`` in the question's units, its
    estimated count the ``estimated_total`` (mean × n, as estimated: no count to clip)."""
    renamed = {"estimate": "mean", "estimated_count_raw": "estimated_total"}
    return {
        renamed.get(name, name): value
        for name, value in figures.items()
        if name != "estimated_count"
    }


def _no_figures(item: ItemResult) -> dict:
    return {}


def _significant_tree(value):
    """Every float in nested dicts and lists to 12 significant digits."""
    if isinstance(value, dict):
        return {key: _significant_tree(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_significant_tree(inner) for inner in value]
    return significant(value) if isinstance(value, float) else value


def _as_chosen(figures: dict) -> dict:
    """A direct question's option: n respondents, ``count`` who chose it, its share and interval
    (or that it is withheld, for a group below the minimum n)."""
    if "noisy_yes" not in figures:
        return figures
    if figures.get("withheld"):
        return {"n": figures["n"], "withheld": True}
    return {
        "n": figures["n"],
        "count": figures["noisy_yes"],
        "share": figures["estimate"],
        "ci_low": figures["ci_low"],
        "ci_high": figures["ci_high"],
    }


def _as_counts(figures: dict) -> dict:
    """A single-choice option's figures: its reports as ``noisy_count`` (n is the question's)."""
    figures = dict(figures)
    if "noisy_yes" in figures:
        figures["noisy_count"] = figures.pop("noisy_yes")
        figures.pop("n")
    return figures


@dataclass(frozen=True)
class SurveyResults:
    slug: str
    title: Texts
    status: str
    n: int  # responses in the published snapshot
    received: int  # responses stored, published or not (a total may be shown; no figure of it)
    results_batch: int
    min_n: int
    publication: int  # moves with every publication: a version for caches and refreshes
    epsilon_total: float
    questions: tuple[QuestionResult, ...]
    languages: tuple[str, ...] = ("en",)
    # The series it is a wave of, and which wave (None for a survey on its own).
    series: str | None = None
    wave: int | None = None
    # The questions whose design has no ε bound, left out of ``epsilon_total``.
    unbounded: tuple[str, ...] = ()

    @property
    def withheld(self) -> bool:
        """Whether the snapshot is too small for any figure to be shown."""
        return self.n < max(self.min_n, 1)

    def to_dict(self) -> dict:
        """The results document of the API."""
        return {
            "slug": self.slug,
            "languages": list(self.languages),
            "title": self.title.for_file(list(self.languages)),
            **({"series": self.series, "wave": self.wave} if self.series is not None else {}),
            "status": self.status,
            "n": self.n,
            "received": self.received,
            "results_batch": self.results_batch,
            "min_n": self.min_n,
            "withheld": self.withheld,
            "epsilon_total": significant(self.epsilon_total),
            "epsilon_unbounded": list(self.unbounded),
            "questions": [question.to_dict(list(self.languages)) for question in self.questions],
        }


def survey_results(survey: Survey, min_n: int) -> SurveyResults:
    """Every question's estimates from the published snapshot, each withheld below ``min_n``."""
    enough = survey.published_count >= max(min_n, 1)
    flow = survey_flow(survey)
    return SurveyResults(
        survey.slug,
        survey.texts("title"),
        survey.status,
        survey.published_count,
        survey.response_count,
        survey.results_batch,
        min_n,
        survey.publication,
        survey.epsilon_total,
        tuple(
            replace(
                question_results(question, min_n if enough else None),
                shown_if=flow.shown_if_words(question.question_id),
            )
            for question in survey.questions
            # Open answers and numbers asked directly are read as given, not estimated
            # (open_answers.py, plain_numbers.py).
            if question.type.estimated
        ),
        tuple(survey.language_list),
        survey.series,
        survey.wave,
        tuple(question.key for question in unbounded_questions(survey)),
    )


def item_results(question: Question, counts: list[tuple[int, int]]) -> tuple[ItemResult, ...]:
    """Each of the question's tallies with its figures from (reported yes, n), as the question's
    type computes them (None while n is 0)."""
    figures = question.type.figures(counts, question.epsilon, question.procedure, question.design)
    return tuple(
        ItemResult(
            option.key if option else None, option.texts if option else None, n, yes,
            *(figure if figure is not None else [None] * len(ESTIMATE_FIELDS)),
        )
        for option, (yes, n), figure in zip(question.type.spun(question.options), counts, figures, strict=True)
        if option != ARM  # an arm's counts are its question's extra results
    )  # fmt: skip


def _small_group_withheld(item: ItemResult, min_n: int | None) -> ItemResult:
    """A direct answer chosen by 1 to min_n − 1 respondents: its group is too small to show, so
    its count and share are withheld, as every group's figures are (a count of 0 shows nobody)."""
    if min_n is None or not 0 < item.noisy_yes < max(min_n, 1):
        return item
    return replace(
        item, noisy_yes=0, estimate=None, std_error=None, ci_low=None, ci_high=None,
        estimated_count=None, withheld=True,
    )  # fmt: skip


def published_results(survey: Survey) -> SurveyResults:
    """:func:`survey_results` at the app's minimum n (``RESULTS_MIN_N``): what every output shows."""
    return survey_results(survey, current_app.config["RESULTS_MIN_N"])


def question_results(question: Question, min_n: int | None) -> QuestionResult:
    """One question's parameters and the estimate of each tally it feeds, as its type computes
    them; withheld unless every tally has ``min_n`` published responses (always withheld when
    ``min_n`` is None)."""
    counts = [(tally.published_yes, tally.published_n) for tally in question.tallies]
    items = item_results(question, counts)
    visible = min_n is not None and all(item.n >= max(min_n, 1) for item in items)
    direct = is_direct(question)
    if visible and direct:
        items = tuple(_small_group_withheld(item, min_n) for item in items)
    return QuestionResult(
        question.key,
        question.kind,
        question.texts,
        question.procedure,
        question.epsilon,
        question.type.cost(question),
        question.asked_with.light_fraction(question),
        question.type.has_options,
        items,
        visible,
        question.type.sums_to_one,
        direct,
        question.design,
        question.type.extra_results(counts, question.procedure, question.design),
        question.epsilon_permanent,
        question.condition,
        question.asked_with.protects,
    )


def difference_entry(item: str, by: str, groups: list[str], counts: list, result) -> dict:
    """Two groups' difference of an item as the API and the analysis page give it: the groups,
    each one's n (``counts``: (reports of 1, n) of each), the difference with its interval,
    p-value and method (``result``, an :class:`rr.Difference`)."""
    return {
        "item": item,
        "by": by,
        "groups": groups,
        "n": [counts[0][1], counts[1][1]],
        "difference": significant(result.estimate),
        "ci_low": significant(result.ci_low),
        "ci_high": significant(result.ci_high),
        "p_value": significant(result.p_value),
        "method": result.method,
    }
