"""JSON read strictly: an object that gives a key twice is refused, not read as its last value.

Python's parser, like most, keeps the last of two values for one key, while another reader of the
same bytes may keep the first: a body that means two things is refused, naming the key.
"""

from __future__ import annotations

import json


class DuplicateKey(ValueError):
    """An object in the JSON gives ``key`` more than once."""

    def __init__(self, key: str):
        super().__init__(f"the key {key!r} is given twice")
        self.key = key


def _unique_object(pairs: list[tuple[str, object]]) -> dict:
    """The object of ``pairs``; raises :class:`DuplicateKey` on a key given twice."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return found


def loads(text: str | bytes):
    """``json.loads`` that raises :class:`DuplicateKey` (a ValueError) on a key given twice."""
    return json.loads(text, object_pairs_hook=_unique_object)
