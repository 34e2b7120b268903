"""Published results documents, kept per version so that reading one costs a lookup.

A survey's published results change only when its snapshot moves (``Survey.publication``) or when
it is edited (``Survey.edits``): both are counters in the database, so every process agrees on
the version without talking to the others. A document is built once per version and minimum n,
then served from memory; a few hundred versions are kept, the least recently read dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, NamedTuple, TypeVar

from web.core.extensions import db
from web.core.models import Survey, readable_by

T = TypeVar("T")


class SurveyStamp(NamedTuple):
    """What names a version of a survey's published results, and who may read them."""

    id: int
    owner_id: int | None
    publication: int
    edits: int

    @property
    def version(self) -> tuple[int, int, int]:
        return (self.id, self.publication, self.edits)

    def visible_to(self, user_id: int) -> bool:
        """Whether this account may read the survey (:func:`web.core.models.readable_by`)."""
        return readable_by(self.owner_id, user_id)


def survey_stamp(slug: str) -> tuple[SurveyStamp, int] | None:
    """The survey's id, owner and version, and its running total of responses (which is not
    part of the version: it moves with every response), in one query that loads no objects."""
    row = db.session.execute(
        db.select(
            Survey.id, Survey.owner_id, Survey.publication, Survey.edits, Survey.response_count
        ).filter_by(slug=slug)
    ).first()
    return None if row is None else (SurveyStamp(*row[:4]), row[4])


class ResultsCache(Generic[T]):
    """Documents by key, built on first use; safe to share between request threads."""

    def __init__(self, size: int = 512):
        self._size = size
        self._documents: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def document(self, key: Hashable, build: Callable[[], T]) -> T:
        """The document for ``key``, from ``build()`` the first time (shared: do not change it)."""
        with self._lock:
            found = self._documents.get(key)
            if found is not None:
                self._documents.move_to_end(key)
                return found
        # Built outside the lock: two threads may both build a new version, and both get it.
        built = build()
        with self._lock:
            self._documents[key] = built
            while len(self._documents) > self._size:
                self._documents.popitem(last=False)
        return built
