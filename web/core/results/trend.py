"""Trends over the waves of a series: each item's published estimate per wave, and the change
between consecutive waves with its interval, for the whole sample or within each group of a
direct question.

Every figure is a wave's own published figure (:mod:`web.core.results.figures`,
:mod:`web.core.results.by_group`): it moves with that wave's batches and is withheld below the
minimum n, so a trend never shows a wave, or a group in a wave, that its own results would not.
A change is the later wave's estimate less the earlier one's, for two independent samples, with
Newcombe's MOVER interval on each wave's exact limits (:func:`rr.difference`; its coverage is
measured in ``docs/statistics.md`` §19). It is given between consecutive waves that both show the
item, asked the same way in both.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from rr.difference import METHOD
from web.core.models import Option, Question, Survey
from web.core.results.analysis import cell_totals, item_difference
from web.core.results.by_group import GroupingError, by_group
from web.core.results.cells import direct_questions
from web.core.results.figures import ItemResult, question_results, significant
from web.core.surveys.questions import ARM
from web.core.surveys.series import spun_parameters, waves_of
from web.core.surveys.texts import Texts


@dataclass(frozen=True)
class Observation:
    """One item (in one group, or the whole sample) in one wave, with its published counts."""

    wave: int
    question: Question
    option: Option | None
    group: str | None
    result: ItemResult
    visible: bool
    arms: list[int] | None  # a design of two arms' second arm: [respondents, reports of 1]
    group_text: Texts | None = None  # the group's option, in every language of the survey

    @property
    def item(self) -> str:
        return (
            self.question.key if self.option is None else f"{self.question.key}.{self.option.key}"
        )

    @property
    def counts(self) -> tuple[int, int]:
        return self.result.noisy_yes, self.result.n


@dataclass(frozen=True)
class WavePoint:
    """An item's figures in one wave; withheld (no figures at all) below the minimum n."""

    wave: int
    n: int | None = None
    estimate: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None

    @property
    def withheld(self) -> bool:
        return self.estimate is None

    def to_dict(self) -> dict:
        if self.withheld:
            return {"wave": self.wave, "withheld": True}
        return {
            "wave": self.wave,
            "estimate": significant(self.estimate),
            "ci_low": significant(self.ci_low),
            "ci_high": significant(self.ci_high),
            "n": self.n,
        }


@dataclass(frozen=True)
class WaveChange:
    """The later wave's estimate less the earlier one's, with its interval and p-value."""

    from_wave: int
    to_wave: int
    estimate: float
    ci_low: float
    ci_high: float
    p_value: float

    def to_dict(self) -> dict:
        return {
            "from": self.from_wave,
            "to": self.to_wave,
            "estimate": significant(self.estimate),
            "ci_low": significant(self.ci_low),
            "ci_high": significant(self.ci_high),
            "p_value": significant(self.p_value),
        }


@dataclass(frozen=True)
class TrendItem:
    """One item's trend: a yes/no question's share, an option's, or a number's mean."""

    id: str
    text: Texts
    option_text: Texts | None
    measure: str  # "share" or "mean"
    group: str | None
    group_text: Texts | None
    low: float  # the scale its estimates lie on: 0–1 for a share, a number's range for a mean
    high: float
    points: tuple[WavePoint, ...]
    changes: tuple[WaveChange, ...]

    def to_dict(self, languages: list[str]) -> dict:
        return {
            "id": self.id,
            "text": self.text.for_file(languages),
            **({"option": self.option_text.for_file(languages)} if self.option_text else {}),
            "measure": self.measure,
            **({"group": self.group} if self.group is not None else {}),
            "waves": [point.to_dict() for point in self.points],
            "changes": [change.to_dict() for change in self.changes],
        }


@dataclass(frozen=True)
class SeriesTrend:
    series: str
    by: str | None
    min_n: int
    waves: tuple[Survey, ...]
    items: tuple[TrendItem, ...]

    @property
    def languages(self) -> list[str]:
        return self.waves[-1].language_list

    def to_dict(self) -> dict:
        """The API's document: the waves, then each item's points and changes."""
        return {
            "series": self.series,
            **({"by": self.by} if self.by is not None else {}),
            "min_n": self.min_n,
            "method": METHOD,
            "waves": [
                {
                    "wave": wave.wave,
                    "slug": wave.slug,
                    "status": wave.status,
                    "n": wave.published_count,
                }
                for wave in self.waves
            ],  # fmt: skip
            "items": [item.to_dict(self.languages) for item in self.items],
        }

    def rows(self) -> Iterator[dict]:
        """One row per item, group and wave, with the change from the previous wave shown."""
        for item in self.items:
            changes = {change.to_wave: change for change in item.changes}
            for point in item.points:
                change = changes.get(point.wave)
                yield {
                    "series": self.series,
                    "item": item.id,
                    "measure": item.measure,
                    "group": item.group or "",
                    "wave": point.wave,
                    "n": "" if point.withheld else point.n,
                    "estimate": significant(point.estimate),
                    "ci_low": significant(point.ci_low),
                    "ci_high": significant(point.ci_high),
                    "change_from_wave": "" if change is None else change.from_wave,
                    "change": None if change is None else significant(change.estimate),
                    "change_ci_low": None if change is None else significant(change.ci_low),
                    "change_ci_high": None if change is None else significant(change.ci_high),
                }


def series_trend(series: str, owner_id: int | None, min_n: int, by: str | None = None):
    """The trend of every randomized item over the waves of ``series`` (this owner's), in the
    whole sample or, with ``by``, in each group of that direct question; None for no such series.
    Raises :class:`web.core.results.by_group.GroupingError` when no wave can group by ``by``."""
    waves = [wave for wave in waves_of(series, owner_id) if wave.wave is not None]
    if not waves:
        return None
    if by is not None and not any(_asks_directly(survey, by) for survey in waves):
        raise GroupingError(f"no wave of series {series!r} has a direct question {by!r}")
    per_wave = [list(_observations(survey, min_n, by)) for survey in waves]
    seen: dict[tuple[str, str | None], list[Observation]] = {}
    for observations in per_wave:
        for observation in observations:
            seen.setdefault((observation.item, observation.group), []).append(observation)
    # Items in the latest wave's order, then any that only earlier waves asked.
    order: dict[tuple[str, str | None], None] = {}
    for observations in reversed(per_wave):
        order |= {(o.item, o.group): None for o in observations if (o.item, o.group) not in order}
    items = tuple(_trend_item(seen[key], waves) for key in order)
    return SeriesTrend(series, by, min_n, tuple(waves), items)


def _observations(survey: Survey, min_n: int, by: str | None) -> Iterator[Observation]:
    """Every randomized item of one wave, whole or per group, with what its results show."""
    enough = survey.published_count >= max(min_n, 1)
    groups = None
    if by is not None:
        if not _asks_directly(survey, by):
            return  # this wave does not ask the grouping question: no groups to show
        groups = by_group(survey, by, min_n)
    directs = direct_questions(survey.questions)
    for question in survey.questions:
        if question in directs:
            continue
        spun = [option for option in question.type.spun(question.options) if option != ARM]
        has_arm = ARM in question.type.spun(question.options)
        sets: list[tuple[str | None, Texts | None, tuple[ItemResult, ...], bool, list | None]]
        if groups is None or by is None:
            whole = question_results(question, min_n if enough else None)
            arms = [question.published_arm_n, question.published_arm_yes] if has_arm else None
            sets = [(None, None, whole.items, whole.visible, arms)]
        else:
            arm_cells = cell_totals(survey, question, ARM, [by]) if has_arm else None
            sets = [
                (group.option, group.text, group.items, enough and not group.withheld,
                 None if arm_cells is None else arm_cells.get((group.option,), [0, 0]))
                for group in groups[question.key]
            ]  # fmt: skip
        for group, group_text, results, visible, group_arms in sets:
            for option, result in zip(spun, results, strict=True):
                shown = visible and result.estimate is not None
                yield Observation(
                    survey.wave or 0, question, option, group, result, shown, group_arms,
                    group_text,
                )  # fmt: skip


def _asks_directly(survey: Survey, key: str) -> bool:
    return any(q.key == key for q in direct_questions(survey.questions))


def _trend_item(observations: list[Observation], waves: list[Survey]) -> TrendItem:
    """Points for every wave of the series (withheld where the item is not shown) and the
    changes between consecutive waves that show it."""
    by_wave = {observation.wave: observation for observation in observations}
    latest = observations[-1]
    points = []
    for survey in waves:
        found = by_wave.get(survey.wave or 0)
        if found is None or not found.visible:
            points.append(WavePoint(survey.wave or 0))
            continue
        result = found.result
        points.append(
            WavePoint(found.wave, result.n, result.estimate, result.ci_low, result.ci_high)
        )
    shown = [observation for observation in observations if observation.visible]
    changes = []
    for earlier, later in itertools.pairwise(shown):
        if spun_parameters(earlier.question) != spun_parameters(later.question):
            continue  # asked another way: the two estimates are not on one scale
        arms = None if later.arms is None else [later.arms, earlier.arms]
        try:
            change = item_difference(later.question, later.counts, earlier.counts, arms)
        except ValueError:
            continue  # e.g. an arm with no respondents in a wave
        changes.append(
            WaveChange(earlier.wave, later.wave, change.estimate, change.ci_low, change.ci_high,
                       change.p_value)
        )  # fmt: skip
    scale = latest.question.design.scale
    return TrendItem(
        latest.item,
        latest.question.texts,
        latest.option.texts if latest.option is not None else None,
        "mean" if scale is not None else "share",
        latest.group,
        latest.group_text,
        0.0 if scale is None else scale.low,
        1.0 if scale is None else scale.high,
        tuple(points),
        tuple(changes),
    )


def readable_trend(series: str, user_id: int, min_n: int, by: str | None = None):
    """:func:`series_trend` of the account's own series of that name, else of the unowned one
    (surveys imported from the command line, which every account may read); None for neither."""
    return series_trend(series, user_id, min_n, by) or series_trend(series, None, min_n, by)
