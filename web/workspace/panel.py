"""What the results panel shows: estimates once enough responses are in, charts and notes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import gettext as _
from markupsafe import Markup

from web.core.infrastructure.i18n import number, percent, shown
from web.core.models import Survey
from web.core.results.bayes import BayesSettings, question_posteriors
from web.core.results.cache import Built, results_cache, results_version
from web.core.results.chart import Bar, describe, estimate_chart
from web.core.results.experiment import experiment_document
from web.core.results.figures import ItemResult, QuestionResult, SurveyResults, survey_results
from web.core.results.grids import grid_results
from web.core.results.list_experiments import list_results
from web.core.results.open_answers import OpenAnswers, open_answers
from web.core.results.order_effects import ItemByPosition, order_effects
from web.core.results.plain_numbers import PlainNumber, plain_numbers
from web.core.surveys.scales import Scale
from web.workspace.experiment_panel import ExperimentItem, experiment_items
from web.workspace.grid_panel import GridPanel, grid_panel
from web.workspace.list_panel import ListPanel, list_panel


@dataclass(frozen=True)
class PanelEntry:
    """One question on the panel: its result, whether it is shown, and its chart if it is."""

    question: QuestionResult
    visible: bool
    chart: Markup | None
    # Each item's posterior figures when the researcher chose Bayesian estimates (else None).
    posteriors: list[dict | None] | None = None

    @property
    def rows(self) -> tuple[ItemResult, ...]:
        return self.question.items

    @property
    def outside(self) -> list[ItemResult]:
        """Rows whose raw estimate fell outside what it estimates: 0–100%, or a number's range."""
        scale = self.question.design.scale
        if scale is None:
            return [row for row in self.rows if row.outside]
        return [
            row
            for row in self.rows
            if row.estimate is not None and not scale.low <= row.estimate <= scale.high
        ]

    @property
    def n(self) -> int:
        return self.question.n

    @staticmethod
    def label(row: ItemResult) -> str:
        return label(row)


@dataclass(frozen=True)
class Panel:
    results: SurveyResults
    questions: tuple[PanelEntry, ...]
    min_n: int
    bayes: bool = False
    # A split-ballot experiment's figures (web/core/results/experiment.py), else None, and its
    # items side by side (web/workspace/experiment_panel.py).
    experiment: dict | None = None
    experiment_items: tuple[ExperimentItem, ...] = ()
    # The open questions' answers, for the researcher's dashboard only (never the projector).
    open_answers: tuple[OpenAnswers, ...] = ()
    # The numbers asked directly, summarised.
    plain_numbers: tuple[PlainNumber, ...] = ()
    # Each yes/no item of a randomized page by the position it was shown in.
    order_effects: tuple[ItemByPosition, ...] = ()
    # The grids, a stacked bar per row.
    grids: tuple[GridPanel, ...] = ()
    # The list experiments, estimated from their counts, each with its chart.
    lists: tuple[ListPanel, ...] = ()


def label(item: ItemResult) -> str:
    """What a row is called: its option, or "Yes" for a yes/no question's own tally."""
    return shown(item.option_text).text if item.option_text is not None else _("Yes")


def results_panel(survey: Survey, min_n: int, bayes: bool = False) -> Panel:
    """Per question: rows of numbers (hidden below ``min_n`` responses) and a chart; with
    ``bayes``, each item's posterior (uniform prior) beside its estimate."""
    results = survey_results(survey, min_n)
    entries = []
    for index, question in enumerate(results.questions):
        visible = question.visible
        chart = None
        drawn, show = chart_bars(question)
        # No bar to draw (withheld, or every answer of a direct question in a group below the
        # minimum n): no chart, which would be an empty axis, but words saying why.
        if visible and drawn:
            chart = estimate_chart(
                drawn,
                title=chart_title(question),
                description=describe(drawn, show),
                chart_id=f"chart-{index}",
                show=show,
            )
        posteriors = question_posteriors(question, BayesSettings()) if bayes else None
        entries.append(PanelEntry(question, visible, chart, posteriors))
    written, given, ordered, counted, listed = read_from_responses(survey, min_n)
    grids = tuple(grid_panel(grid, f"grid-{index}") for index, grid in enumerate(counted))
    lists = tuple(list_panel(found, f"list-{index}") for index, found in enumerate(listed))
    if not survey.condition_list:
        return Panel(results, tuple(entries), min_n, bayes, open_answers=written,
                     plain_numbers=given, order_effects=ordered, grids=grids, lists=lists)  # fmt: skip
    # Kept per published version with the API's own (a survey with comprehension checks reads
    # its published rows for it): the dashboard and the projector refresh every few seconds.
    experiment = (
        results_cache()
        .published(
            results_version(survey),
            ("experiment", min_n),
            lambda: Built(
                results_version(survey), survey.response_count, experiment_document(survey, min_n)
            ),  # fmt: skip
        )
        .document
    )
    items = tuple(experiment_items(survey, experiment))
    return Panel(results, tuple(entries), min_n, bayes, experiment, items, written, given, ordered,
                 grids, lists)  # fmt: skip


def read_from_responses(survey: Survey, min_n: int) -> tuple:
    """What is read from the published responses rather than from tallies (the open answers,
    the numbers asked directly, the items by position, the grids' rows, the lists' counts), once
    per published version: the dashboard refreshes its panel every few seconds while the survey
    is open."""
    version = results_version(survey)

    def build() -> Built:
        document = (
            open_answers(survey, min_n),
            plain_numbers(survey, min_n),
            order_effects(survey, min_n),
            grid_results(survey, min_n),
            list_results(survey, min_n),
        )
        return Built(version, survey.response_count, document)

    return results_cache().published(version, ("from responses", min_n), build).document


def chart_bars(question: QuestionResult) -> tuple[list[Bar], Callable[[float], str]]:
    """A question's bars and how the chart writes a position on its axis."""
    scale = question.design.scale
    labelled = (((_("Mean") if scale else label(row)), row) for row in question.items)
    return scaled_bars(labelled, scale)


def scaled_bars(labelled, scale: Scale | None) -> tuple[list[Bar], Callable[[float], str]]:
    """Bars from (label, figures) pairs and how the chart writes a position on its axis: shares
    as percentages, or a number question's mean placed on its range (the axis runs from min to
    max)."""
    drawn = bars(labelled)
    if scale is None:
        return drawn, lambda share: percent(share, 1)
    width = scale.high - scale.low

    def place(value: float) -> float:
        return (value - scale.low) / width

    placed = [
        Bar(bar.label, place(bar.estimate), place(bar.ci_low), place(bar.ci_high)) for bar in drawn
    ]
    return placed, lambda share: number(scale.low + share * width, 2)


def chart_title(question: QuestionResult) -> str:
    """What the chart shows: estimated yes, estimated shares of one option each, or plain answers."""
    text = shown(question.text).text
    if question.counts_choices:
        return _("Answers as given (not randomized): %(question)s", question=text)
    if question.sums_to_one:
        return _("Estimated share whose true answer is each option: %(question)s", question=text)
    if question.design.scale is not None:
        return _("Estimated mean on its range: %(question)s", question=text)
    return _("Estimated share answering yes: %(question)s", question=text)


def bars(labelled) -> list[Bar]:
    """A chart's bars from (label, figures) pairs: those with an estimate and its interval."""
    return [
        Bar(text, item.estimate, item.ci_low, item.ci_high)
        for text, item in labelled
        if item.estimate is not None and item.ci_low is not None and item.ci_high is not None
    ]
