"""What the analysis-by-group page shows: one item's prevalence per group with a chart, the
difference between two chosen groups, and the item regressed on the direct questions; a list
experiment's the same way (:mod:`web.core.results.list_groups`, Imai's ML model)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from flask_babel import gettext as _
from markupsafe import Markup

from web.core.infrastructure.i18n import shown
from web.core.models import Survey
from web.core.results import analysis
from web.core.results.by_group import GroupingError, GroupResult, by_group
from web.core.results.by_position import PositionGrouping, position_groupings
from web.core.results.cells import direct_questions
from web.core.results.chart import describe, estimate_chart
from web.core.results.list_groups import groups_difference, list_by_group
from web.core.results.list_regression import list_regression, listed_item
from web.core.surveys.questions import ARM
from web.core.surveys.scales import Scale
from web.workspace.panel import scaled_bars


@dataclass(frozen=True)
class Grouping:
    """What the page can group by: a direct question's answers, or a randomized page's
    positions (``positions``), with each group's key and words."""

    key: str
    label: str
    options: tuple[tuple[str, str], ...]
    positions: PositionGrouping | None = None


def groupings(survey: Survey, directs: list) -> list[Grouping]:
    """The direct questions, then each randomized page's positions."""
    found = [
        Grouping(d.key, shown(d.texts).text, tuple((o.key, shown(o.texts).text) for o in d.options))
        for d in directs
    ]
    for page in position_groupings(survey):
        name = shown(page.title).text if page.title else page.page
        positions = tuple(
            (str(number), _("Position %(number)d", number=number))
            for number in range(1, page.count + 1)
        )
        found.append(Grouping(page.key, _("Position on the page: %(page)s", page=name),
                              positions, page))  # fmt: skip
    return found


@dataclass
class GroupAnalysis:
    """The page's choices and what they give; ``problems`` holds what could not be computed."""

    directs: list
    items: list[tuple[str, str]]  # (item id, label)
    groupings: list[Grouping] = field(default_factory=list)
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
    # The numbers asked directly, which the regression may also adjust for.
    numbers: list = field(default_factory=list)
    # The item is a list experiment: its figures are the list's own, by group.
    listed: bool = False

    @property
    def covariates(self) -> list:
        """What the regression may also adjust for: the other direct questions, then the
        numbers asked directly."""
        return [d for d in self.directs if d.key != self.by] + self.numbers

    def option_text(self, key: str | None, option: str) -> str:
        """The words of one group: a direct question's option, or a position."""
        grouping = next(each for each in self.groupings if each.key == key)
        return dict(grouping.options).get(option, option)

    @property
    def grouping(self) -> Grouping:
        """The grouping chosen."""
        return next(each for each in self.groupings if each.key == self.by)

    def group_label(self, group: dict) -> str:
        """A cell of direct answers in words: "First year", or "First year · Women"."""
        return " · ".join(self.option_text(key, option) for key, option in group.items())


def item_choices(survey: Survey) -> list[tuple[str, str]]:
    """Every randomized item, once: a yes/no question, or each option of one with options; a
    split ballot's question in each condition that randomizes it (named with the condition where
    two do; its direct condition's answers are not a randomized answer)."""
    directs = direct_questions(survey.questions)
    randomized = [
        question for question in survey.questions
        if question not in directs and question.asked_with.protects
    ]  # fmt: skip
    rows = Counter(question.question_id for question in randomized)
    choices = []
    for question in randomized:
        text = shown(question.texts).text
        if rows[question.question_id] > 1:
            text += " · " + _("condition %(id)s", id=question.condition)
        for option in question.type.spun(question.options):
            if option == ARM:  # an arm's tally is part of its question's estimate
                continue
            if option is None:
                choices.append((question.key, text))
            else:
                choices.append(
                    (f"{question.key}.{option.key}", f"{text} · {shown(option.texts).text}")
                )
    for question in survey.questions:
        if question.design.controls is not None:
            text = shown(question.texts).text
            choices.append((question.key, _("%(question)s · list experiment", question=text)))
    return choices


def group_analysis(survey: Survey, args, min_n: int) -> GroupAnalysis:
    """The page for the choices in ``args`` (``by``, ``item``, ``a``, ``b``, ``adjust``)."""
    directs = direct_questions(survey.questions)
    page = GroupAnalysis(directs, item_choices(survey), groupings(survey, directs))
    if not page.groupings or not page.items:
        return page
    keys = [each.key for each in page.groupings]
    page.by = args.get("by") if args.get("by") in keys else keys[0]
    page.item = args.get("item") if args.get("item") in dict(page.items) else page.items[0][0]
    groups = [key for key, _words in page.grouping.options]
    page.first = args.get("a") if args.get("a") in groups else groups[0]
    page.second = args.get("b") if args.get("b") in groups else groups[1]
    page.reference = args.get("ref") if args.get("ref") in groups else groups[0]
    page.numbers = list(analysis.number_covariates(survey).values())
    page.adjust = [key for key in args.getlist("adjust") if key in {c.key for c in page.covariates}]
    listed = listed_item(survey, page.item)
    if listed is not None:
        return _list_experiment(page, survey, listed, min_n)
    question, option = analysis.randomized_item(survey, page.item)
    page.item_index = question.type.spun(question.options).index(option)
    page.scale = question.design.scale
    page.groups = by_group(survey, page.by, min_n).get(question.key, [])
    positions = page.grouping.positions
    if positions is not None and not page.groups:
        page.problems.append(_("This answer is not asked on that page: choose one "
                               "of its items to see it by position."))  # fmt: skip
        return page
    page.chart = _chart(page, dict(page.items)[page.item])
    _compare(page, lambda: analysis.group_difference(
        survey, page.item, page.by, page.first, page.second, min_n), "difference")  # fmt: skip
    if positions is not None:
        page.problems.append(_("The regression adjusts for answers given directly; the position "
                               "is compared between two positions above."))  # fmt: skip
        return page
    _compare(page, lambda: analysis.regression(
        survey, page.item, [page.by, *page.adjust], min_n, {page.by: page.reference}),
        "regression")  # fmt: skip
    return page


def _list_experiment(page: GroupAnalysis, survey: Survey, question, min_n: int) -> GroupAnalysis:
    """The page for a list experiment: its estimate by group, two groups' difference, and
    Imai's ML model on the direct questions."""
    page.listed = True
    by, item, first, second = page.by, page.item, page.first, page.second
    if by is None or item is None or first is None or second is None:
        return page  # group_analysis chooses them all before it comes here
    if page.grouping.positions is not None:
        page.problems.append(_("A list experiment is compared by the answers to a direct "
                               "question, not by position."))  # fmt: skip
        return page
    page.groups = list_by_group(survey, question, by, min_n)
    page.chart = _chart(page, dict(page.items)[item])
    _compare(page, lambda: groups_difference(question.key, by, page.groups, first, second, min_n),
             "difference")  # fmt: skip
    reference = {by: page.reference} if page.reference is not None else {}
    _compare(page, lambda: list_regression(survey, question, [by, *page.adjust], min_n,
                                           reference), "regression")  # fmt: skip
    return page


def _compare(page: GroupAnalysis, compute, target: str) -> None:
    """Set ``target`` from ``compute``, or say why it cannot be given (once, where the
    difference and the regression are refused for one reason)."""
    try:
        setattr(page, target, compute())
    except GroupingError as error:
        if str(error) not in page.problems:
            page.problems.append(str(error))


def _chart(page: GroupAnalysis, title: str) -> Markup | None:
    drawn, show = scaled_bars(
        (
            (page.option_text(page.by, group.option), group.items[page.item_index])
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
