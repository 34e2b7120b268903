"""A split ballot side by side, for the dashboard and the projector: each item's estimate in
every condition as one chart, and the gap between each randomized condition and the one asked
directly with its interval, from the published snapshot (batches and the minimum n hold)."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from markupsafe import Markup

from web.core.infrastructure.i18n import number, percent, shown
from web.core.models import Survey
from web.core.results.chart import Bar, estimate_chart
from web.core.surveys.texts import Texts


@dataclass(frozen=True)
class ExperimentItem:
    """One item of an experiment: its wording, its chart and its gaps in words."""

    key: str
    text: Texts
    chart: Markup | None
    gaps: list[str]


def experiment_items(survey: Survey, document: dict) -> list[ExperimentItem]:
    """Each item of the experiment's ``document`` (web/core/results/experiment.py) as a chart
    of its conditions side by side and its gaps in words; a chart once two conditions show."""
    wording = {question.question_id: question.texts for question in survey.questions}
    found = []
    for index, item in enumerate(document["items"]):
        text = wording[item["id"]]
        bars = [
            Bar(_condition_label(entry), entry["estimate"], entry["ci_low"], entry["ci_high"])
            for entry in item["by_condition"]
            if entry["estimate"] is not None
        ]
        chart = None
        if len(bars) > 1:
            chart = estimate_chart(
                bars,
                title=_("Each way of asking side by side: %(question)s", question=shown(text).text),
                description="; ".join(
                    _(
                        "%(label)s: estimate %(estimate)s, 95%% interval %(low)s to %(high)s",
                        label=bar.label,
                        estimate=percent(bar.estimate, 0),
                        low=percent(bar.ci_low, 0),
                        high=percent(bar.ci_high, 0),
                    )  # fmt: skip
                    for bar in bars
                ),
                chart_id=f"experiment-chart-{index}",
                show=lambda share: percent(share, 1),
            )
        found.append(ExperimentItem(item["id"], text, chart, _gaps(item)))
    return found


def _condition_label(entry: dict) -> str:
    if entry["epsilon"] is None:
        return _("%(condition)s: asked directly", condition=entry["condition"])
    return _("%(condition)s: ε = %(epsilon)s", condition=entry["condition"],
             epsilon=number(entry["epsilon"], 2))  # fmt: skip


def _gaps(item: dict) -> list[str]:
    """Each contrast in words, where both of its conditions show: "more" or "less" by its sign,
    never a negative "more"."""
    return [_gap(contrast) for contrast in item["contrasts"] if contrast["difference"] is not None]


def _gap(contrast: dict) -> str:
    figures = dict(
        condition=contrast["condition"],
        versus=contrast["versus"],
        difference=number(abs(contrast["difference"]) * 100, 1),
        low=number(contrast["ci_low"] * 100, 1),
        high=number(contrast["ci_high"] * 100, 1),
    )
    if contrast["difference"] < 0:
        return _(
            "%(condition)s finds %(difference)s points less than %(versus)s (the difference's "
            "95%% interval %(low)s to %(high)s).",
            **figures,
        )
    return _(
        "%(condition)s finds %(difference)s points more than %(versus)s (the difference's 95%% "
        "interval %(low)s to %(high)s).",
        **figures,
    )
