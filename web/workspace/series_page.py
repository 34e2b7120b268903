"""A series' trend for its researcher (on the dashboard and on the projector), its CSV, and the
builder's "Next wave"."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from markupsafe import Markup

from web.core.infrastructure.database import add_unique
from web.core.infrastructure.i18n import number, percent, shown
from web.core.results.by_group import GroupingError
from web.core.results.chart import TrendPoint, trend_chart
from web.core.results.exports import trend_csv
from web.core.results.trend import SeriesTrend, TrendItem, WavePoint, readable_trend
from web.core.surveys.series import next_wave, next_wave_number
from web.site.attachment import attachment
from web.workspace.access import require_login, researcher_survey
from web.workspace.builder import committed_event, free_slug

bp = Blueprint("series", __name__)
bp.before_request(require_login)


@dataclass(frozen=True)
class ChartedItem:
    item: TrendItem
    title: str
    chart: Markup


@bp.get("/series/<series>")
def trend(series: str):
    """Each item's estimate per wave with its interval, and the changes between waves."""
    found, by = _trend_or_404(series)
    return render_template("series/trend.html", trend=found, by=by, items=_charted(found))


@bp.get("/series/<series>/present")
def present(series: str):
    """The trend for a projector: the charts alone, large."""
    found, by = _trend_or_404(series)
    return render_template("series/present.html", trend=found, by=by, items=_charted(found))


@bp.get("/series/<series>/trend.csv")
def trend_file(series: str):
    """The trend as CSV: one row per item, group and wave, with the change from the last wave."""
    found, _by = _trend_or_404(series)
    return attachment(trend_csv(found), "text/csv", f"{series}-trend.csv")


@bp.post("/surveys/<slug>/next-wave")
def add_wave(slug: str):
    """A draft of the series' next wave, with the same questions asked the same way."""
    survey = researcher_survey(slug, needs="edit")
    address = free_slug(f"{survey.series or survey.slug} w{next_wave_number(survey)}")
    try:
        wave = next_wave(survey, address)
    except ValueError as error:
        abort(409, str(error))
    if not add_unique(wave):
        abort(409, _("This address is taken; choose another."))
    committed_event(wave, "created", f"as wave {wave.wave} of the series {wave.series}")
    flash(_("Wave %(wave)d of the series was made as a draft.", wave=wave.wave))
    return redirect(url_for("builder.edit", slug=wave.slug))


def _trend_or_404(series: str) -> tuple[SeriesTrend, str | None]:
    by = request.args.get("by") or None
    try:
        found = readable_trend(series, current_user.id, current_app.config["RESULTS_MIN_N"], by)
    except GroupingError as error:
        abort(400, str(error))
    if found is None:
        abort(404)
    return found, by


def _charted(found: SeriesTrend) -> list[ChartedItem]:
    """Each item with its title (question, option, group) and its chart."""
    charted = []
    for index, item in enumerate(found.items):
        title = str(shown(item.text))
        if item.option_text is not None:
            title += f" — {shown(item.option_text)}"
        if item.group_text is not None:
            title += f" ({shown(item.group_text)})"

        def show(value: float, mean: bool = item.measure == "mean") -> str:
            return number(value, 2) if mean else percent(value, 0)

        points = [
            TrendPoint(_("Wave %(wave)d", wave=point.wave), point.estimate, point.ci_low,
                       point.ci_high)
            for point in item.points
        ]  # fmt: skip
        description = "; ".join(_described(point, show) for point in item.points)
        chart = trend_chart(points, item.low, item.high, title, description, f"trend-{index}",
                            show, _("withheld"))  # fmt: skip
        charted.append(ChartedItem(item, title, chart))
    return charted


def _described(point: WavePoint, show) -> str:
    """One wave of a chart in words, for its <desc>."""
    if point.estimate is None or point.ci_low is None or point.ci_high is None:
        return _("wave %(wave)d: withheld", wave=point.wave)
    return _("wave %(wave)d: %(estimate)s (95%% interval %(low)s to %(high)s)", wave=point.wave,
             estimate=show(point.estimate), low=show(point.ci_low), high=show(point.ci_high))  # fmt: skip
