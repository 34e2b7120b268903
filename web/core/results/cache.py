"""Published results documents, kept per version so that reading one costs a lookup.

A survey's published results change only when its snapshot moves (``Survey.publication``) or when
it is edited (``Survey.edits``): both are counters in the database, so every process agrees on
the version without talking to the others. A document is built once per version and minimum n,
then served from memory; a few hundred versions are kept, the least recently read dropped first.

A document is built from reads in one snapshot (:mod:`web.core.infrastructure.snapshot`), and kept
under the version that snapshot holds, which a publication committed since the request read its
stamp may have moved on: so a document never mixes two publications, and never sits under a
version other than its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, Generic, NamedTuple, TypeVar

from flask import current_app

from web.core.infrastructure.driver_sql import first_row, placeholder
from web.core.infrastructure.extensions import db
from web.core.models import readable_by
from web.core.surveys.schedule import due_to_close

T = TypeVar("T")


class SurveyStamp(NamedTuple):
    """What names a version of a survey's published results, and who may read them."""

    id: int
    owner_id: int | None
    publication: int
    edits: int
    # When an open survey starts taking answers (None: at once); not part of the version.
    opens_at: datetime | None = None
    # Whether it is open past its closing time or at its target: the next write closes it (a
    # read only reports it); not part of the version.
    due: bool = False
    # Whether it takes answers no more; not part of the version.
    closed: bool = False

    @property
    def version(self) -> tuple[int, int, int]:
        return (self.id, self.publication, self.edits)

    def role_of(self, user_id: int) -> str | None:
        """This account's role on the survey (:func:`web.core.models.readable_by`), or None."""
        return readable_by(self.id, self.owner_id, user_id)


def results_version(survey) -> tuple[int, int, int]:
    """The version of a loaded survey's published results: id, publication and edits (what
    :attr:`SurveyStamp.version` reads in one statement)."""
    return (survey.id, survey.publication, survey.edits)


def survey_stamp(slug: str) -> tuple[SurveyStamp, int] | None:
    """The survey's id, owner and version, and its running total of responses (which is not
    part of the version: it moves with every response), in one query that loads no objects. It
    only reads: an open survey past its closing time or target is reported ``due``
    (:mod:`web.core.surveys.schedule`)."""
    # The first request of every respondent: one statement in the driver's own SQL on a pooled
    # connection, past the ORM session (through the ORM it took half of the request).
    row = _stamp_row(slug)
    if row is None:
        return None
    due = due_to_close(row[5], _instant(row[6]), row[7], row[4])
    closed = row[5] == "closed"
    return SurveyStamp(row[0], row[1], row[2], row[3], _instant(row[8]), due, closed), row[4]


def _stamp_row(slug: str):
    engine = db.engine
    return first_row(engine, _stamp_sql(engine.dialect.paramstyle), (slug,))


@lru_cache(maxsize=4)
def _stamp_sql(paramstyle: str) -> str:
    mark = placeholder(paramstyle)
    return (
        "SELECT id, owner_id, publication, edits, response_count, status, closes_at, target_n, "
        f"opens_at FROM survey WHERE slug = {mark}"
    )


def _instant(seconds: int | None) -> datetime | None:
    """A schedule time as kept (:class:`web.core.models.UTCSeconds`), as an aware datetime."""
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


class Built(NamedTuple):
    """A document and what it was built from: the version and the running total read in the
    same snapshot."""

    version: tuple[int, int, int]
    received: int
    document: Any


class ResultsCache(Generic[T]):
    """Documents by key, built on first use; safe to share between request threads."""

    def __init__(self, size: int = 512):
        self._size = size
        self._documents: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def document(self, key: Hashable, build: Callable[[], T]) -> T:
        """The document for ``key``, from ``build()`` the first time (shared: do not change it)."""
        found = self._found(key)
        if found is not None:
            return found
        # Built outside the lock: two threads may both build a new version, and both get it.
        built = build()
        self._keep(key, built)
        return built

    def published(
        self, version: tuple[int, int, int], rest: tuple, build: Callable[[], Built]
    ) -> Built:
        """A :class:`Built` document of a survey's published results at ``version`` (``rest``
        says which document), from ``build()`` the first time. ``build`` reads the survey in one
        snapshot and says which version that was: the document is kept under that one."""
        found = self._found((version, *rest))
        if isinstance(found, Built):
            return found
        built = build()
        self._keep((built.version, *rest), built)  # type: ignore[arg-type]
        return built

    def _found(self, key: Hashable) -> T | None:
        with self._lock:
            found = self._documents.get(key)
            if found is not None:
                self._documents.move_to_end(key)
            return found

    def _keep(self, key: Hashable, document: T) -> None:
        with self._lock:
            self._documents[key] = document
            while len(self._documents) > self._size:
                self._documents.popitem(last=False)


def results_cache() -> ResultsCache:
    """The app's cache of published results documents, which the API and the researcher's pages
    share."""
    return current_app.extensions.setdefault("results_cache", ResultsCache())
