"""What the synthetic-data page shows: the utility of m synthetic datasets against the published
estimates (a table and a chart), what the file leaves out or merges, and the download."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _
from markupsafe import Markup

from web.core.infrastructure.i18n import percent
from web.core.models import Survey
from web.core.results.by_group import GroupingError
from web.core.results.chart import Bar, describe, estimate_chart
from web.core.results.figures import published_results
from web.core.results.synthetic import MAX_M, SyntheticUnavailable, synthetic_data, utility


@dataclass
class SyntheticPage:
    m: int = 5
    seed: int = 1
    notes: list[str] = field(default_factory=list)  # in the viewer's language
    rows: list[dict] = field(default_factory=list)
    n: int = 0
    chart: Markup | None = None
    problem: str | None = None


def synthetic_page(survey: Survey, args, min_n: int) -> SyntheticPage:
    """The page for ``m`` and ``seed`` in ``args`` (defaults 5 and 1, kept within their ranges)."""
    page = SyntheticPage(
        m=min(max(args.get("m", 5, type=int) or 5, 2), MAX_M),
        seed=min(max(args.get("seed", 1, type=int) or 0, 0), 2**32 - 1),
    )
    try:
        data = synthetic_data(survey, page.m, page.seed, min_n)
    except (SyntheticUnavailable, GroupingError) as error:
        page.problem = str(error)
        return page
    found = utility(data, published_results(survey))
    page.notes = [_(note.message, **note.values) for note in data.notes]
    page.rows, page.n = found["rows"], found["n"]
    bars = []
    for row in page.rows:
        name = " & ".join(row["items"])
        for side, word in (("original", _("randomized response")), ("synthetic", _("synthetic"))):
            figures = row[side]
            bars.append(
                Bar(f"{name}: {word}", figures["estimate"], figures["ci_low"], figures["ci_high"])
            )
    if bars:
        show = lambda share: percent(share, 1)  # noqa: E731
        page.chart = estimate_chart(
            bars, _("Randomized-response and pooled synthetic estimates, each with its 95% interval"),
            describe(bars, show), "synthetic-chart", show=show,
        )  # fmt: skip
    return page
