"""What the analysis-by-group page shows: one item's prevalence per group with a chart, the
difference between two chosen groups, and the item regressed on the direct questions."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _
from markupsafe import Markup

from web.core.infrastructure.i18n import shown
from web.core.models import Survey
from web.core.results import analysis
from web.core.results.by_group import GroupingError, GroupResult, by_group
from web.core.results.cells import direct_questions
from web.core.results.chart import estimate_chart
from web.core.surveys.scales import Scale
from web.workspace.panel import describe, scaled_bars


@dataclass
class GroupAnalysis:
    """The page's choices and what they give; ``problems`` holds what could not be computed."""

    directs: list
    items: list[tuple[str, str]]  # (item id, label)
    by: str | None = None
    item: str | None = None
    first: str | None = None
    second: str | None = None
    adjust: list[str] = field(default_factory=list)
    reference: str | None = None
    groups: list[GroupResult] = field(default_factory=list)
    item_index: int = 0
    chart: Markup | None = None
    difference: dict | None = None
    regression: dict | None = None
    problems: list[str] = field(default_factory=list)
    # The item's range when it is a number question: its figures are means in its units.
    scale: Scale | None = None

    def option_text(self, key: str, option: str) -> str:
        """The words of one option of a direct question."""
        question = next(d for d in self.directs if d.key == key)
        return next((shown(o.texts).text for o in question.options if o.key == option), option)

    def group_label(self, group: dict) -> str:
        """A cell of direct answers in words: "First year", or "First year · Women"."""
        return " · ".join(self.option_text(key, option) for key, option in group.items())


def item_choices(survey: Survey) -> list[tuple[str, str]]:
    """Every randomized item: a yes/no question, or each option of one with options."""
    choices = []
    directs = direct_questions(survey.questions)
    for question in survey.questions:
        if question in directs:
            continue
        for option in question.type.spun(question.options):
            if option is None:
                choices.append((question.key, shown(question.texts).text))
            else:
                text = f"{shown(question.texts).text} · {shown(option.texts).text}"
                choices.append((f"{question.key}.{option.key}", text))
    return choices


def group_analysis(survey: Survey, args, min_n: int) -> GroupAnalysis:
    """The page for the choices in ``args`` (``by``, ``item``, ``a``, ``b``, ``adjust``)."""
    directs = direct_questions(survey.questions)
    page = GroupAnalysis(directs, item_choices(survey))
    if not directs or not page.items:
        return page
    page.by = args.get("by") if args.get("by") in {d.key for d in directs} else directs[0].key
    page.item = args.get("item") if args.get("item") in dict(page.items) else page.items[0][0]
    grouping = next(d for d in directs if d.key == page.by)
    keys = [option.key for option in grouping.options]
    page.first = args.get("a") if args.get("a") in keys else keys[0]
    page.second = args.get("b") if args.get("b") in keys else keys[1]
    page.reference = args.get("ref") if args.get("ref") in keys else keys[0]
    page.adjust = [
        key for key in args.getlist("adjust") if key in {d.key for d in directs} and key != page.by
    ]
    question, option = analysis.randomized_item(survey, page.item)
    page.item_index = question.type.spun(question.options).index(option)
    page.scale = question.design.scale
    page.groups = by_group(survey, page.by, min_n)[question.key]
    page.chart = _chart(page, dict(page.items)[page.item])
    for compute, target in (
        (
            lambda: analysis.group_difference(
                survey, page.item, page.by, page.first, page.second, min_n
            ),
            "difference",
        ),
        (
            lambda: analysis.regression(
                survey, page.item, [page.by, *page.adjust], min_n, {page.by: page.reference}
            ),
            "regression",
        ),
    ):
        try:
            setattr(page, target, compute())
        except GroupingError as error:
            page.problems.append(str(error))
    return page


def _chart(page: GroupAnalysis, title: str) -> Markup | None:
    drawn, show = scaled_bars(
        (
            (shown(group.text).text, group.items[page.item_index])
            for group in page.groups
            if not group.withheld
        ),
        page.scale,
    )
    if not drawn:
        return None
    words = (
        _("Estimated mean by group: %(item)s", item=title)
        if page.scale
        else _("Estimated share by group: %(item)s", item=title)
    )
    return estimate_chart(drawn, words, describe(drawn, show), "group-chart", show=show)
