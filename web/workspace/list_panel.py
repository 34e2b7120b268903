"""A list experiment on the results panel and the projector: its estimate as one bar with its
interval, in the viewer's language, beside the counts behind it
(web/core/results/list_experiments.py)."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from markupsafe import Markup

from web.core.infrastructure.i18n import percent, shown
from web.core.results.chart import Bar, describe, estimate_chart
from web.core.results.list_experiments import ListResult


@dataclass(frozen=True)
class ListPanel:
    """One list experiment as the panel shows it: its figures, and its chart (None while
    withheld or while a list has fewer than two respondents)."""

    result: ListResult
    chart: Markup | None


def list_panel(result: ListResult, chart_id: str) -> ListPanel:
    """The list's chart: the estimated share holding the sensitive item, with its interval."""
    found = result.estimate
    if found is None:
        return ListPanel(result, None)
    drawn = [Bar(_("Holds the sensitive item"), found.estimate, found.ci_low, found.ci_high)]
    title = _("Estimated share holding the sensitive item, from counts alone: %(item)s",
              item=shown(result.sensitive).text)  # fmt: skip
    show = lambda share: percent(share, 1)  # noqa: E731
    chart = estimate_chart(drawn, title=title, description=describe(drawn, show), chart_id=chart_id,
                           show=show)  # fmt: skip
    return ListPanel(result, chart)
