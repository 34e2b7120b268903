"""What the fieldwork counts apart from the responses: each quota's completes against its limit
and the respondents it turned away once full, and the respondents screened out at each page (a
count, nothing else of theirs).

Both are published as every other number is: in whole batches of the survey's
``results_batch`` and never below the minimum n, so that watching a count move never tells when
one respondent of a kind arrived. Whether a quota is full is the one thing said exactly: the page
needs it to turn respondents away.
"""

from __future__ import annotations

from dataclasses import dataclass

from web.core.models import FieldworkCount, Survey
from web.core.surveys.flow.pages import stored_pages
from web.core.surveys.flow.quotas import Quota, stored_quotas
from web.core.surveys.texts import Texts

QUOTA, SCREEN_OUT = FieldworkCount.QUOTA, FieldworkCount.SCREEN_OUT
TURNED_AWAY = FieldworkCount.TURNED_AWAY


def in_batches(count: int, batch: int, min_n: int) -> int | None:
    """A count as published: rounded down to a whole number of batches, or None below ``min_n``."""
    if count < min_n:
        return None
    return count - count % batch


@dataclass(frozen=True)
class QuotaCount:
    """A quota with its completes and its turn-aways as published, and whether it is full."""

    quota: Quota
    count: int | None
    full: bool
    turned_away: int | None = None

    def to_dict(self) -> dict:
        return {
            "id": self.quota.key,
            "condition": self.quota.rule.to_dict(),
            "words": self.quota.rule.words(),
            "limit": self.quota.limit,
            "count": self.count,
            "full": self.full,
            "turned_away": self.turned_away,
        }


@dataclass(frozen=True)
class ScreenOutCount:
    """A page that screens respondents out: its rule in words, and how many it did, published."""

    page: str
    words: str
    count: int | None
    # The page's title as the survey gives it (None: it has none, and its id stands for it).
    title: Texts | None = None

    def to_dict(self) -> dict:
        return {"page": self.page, "words": self.words, "count": self.count}


@dataclass(frozen=True)
class FieldworkCounts:
    """A survey's quotas and screen-outs, counted, with the rule their counts are published by."""

    quotas: tuple[QuotaCount, ...]
    screen_outs: tuple[ScreenOutCount, ...]
    batch: int
    min_n: int

    def __bool__(self) -> bool:
        return bool(self.quotas or self.screen_outs)

    def to_dict(self) -> dict:
        return {
            "quotas": [quota.to_dict() for quota in self.quotas],
            "screen_outs": [screen_out.to_dict() for screen_out in self.screen_outs],
            "batch": self.batch,
            "min_n": self.min_n,
        }


def fieldwork_counts(survey: Survey, min_n: int) -> FieldworkCounts:
    """The survey's quotas and screen-outs with their counts, published in batches."""
    counts = FieldworkCount.of_survey(survey.id)
    batch = survey.results_batch
    quotas = tuple(
        QuotaCount(
            quota,
            in_batches(counts.get((QUOTA, quota.key), 0), batch, min_n),
            counts.get((QUOTA, quota.key), 0) >= quota.limit,
            in_batches(counts.get((TURNED_AWAY, quota.key), 0), batch, min_n),
        )
        for quota in stored_quotas(survey.quotas)
    )
    screen_outs = tuple(
        ScreenOutCount(
            page.key,
            page.screen_out_if.words(),
            in_batches(counts.get((SCREEN_OUT, page.key), 0), batch, min_n),
            page.title if page.title and any(page.title.values()) else None,
        )
        for page in stored_pages(survey.pages)
        if page.screen_out_if is not None
    )
    return FieldworkCounts(quotas, screen_outs, batch, min_n)


def full_quotas(survey: Survey) -> list[str]:
    """The ids of the survey's quotas that have taken all their completes."""
    counts = FieldworkCount.of_survey(survey.id)
    return [
        quota.key
        for quota in stored_quotas(survey.quotas)
        if counts.get((QUOTA, quota.key), 0) >= quota.limit
    ]
