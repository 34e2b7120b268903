"""The checks of one field wherever it is: a text in each of the survey's languages, an id, a
number named in a message."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from web.core.surveys.limits import (
    KEY,
    RESERVED_KEYS,
)
from web.core.surveys.problems import Problem
from web.core.surveys.texts import Texts, language_name


def number_or_value(value: Any) -> Any:
    """A number as a float (so 11 from a file and 11.0 from a form read alike), else as it is."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


def key_problems(key: Any, place: str) -> list[Problem]:
    """Whether an id (a question's, an option's) is one a file, a URL and a script can all hold."""
    if not isinstance(key, str) or not KEY.fullmatch(key):
        return [
            Problem(place, _("%(id)r is not a valid id (1-64 letters, digits, _ or -)", id=key))
        ]
    if key in RESERVED_KEYS:
        return [
            Problem(
                place,
                _("%(id)r is reserved: every JavaScript object has it; choose another id", id=key),
            )
        ]
    return []


def texts_problems(
    texts: Texts,
    place: str,
    limit: int,
    languages: tuple[str, ...],
    required: bool = True,
    complete: bool = True,
) -> list[Problem]:
    """Mistakes in one text in the survey's languages. A required text (title, question, option)
    needs every language; an optional one (description, consent, thank-you) may be empty, but
    then in every language. Without ``complete`` (a draft) only the default language must be
    there. Each mistake names its language where the survey has more than one."""
    if not isinstance(texts, Texts):
        return [Problem(place, _("must be non-empty text"))]
    many = len(languages) > 1
    problems = [
        Problem(
            f"{place}.{code}",
            _(
                "%(code)r is not one of the survey's languages (%(languages)s)",
                code=code,
                languages=", ".join(languages),
            ),
        )
        for code in texts
        if code not in languages
    ]
    written = any(isinstance(texts.get(code), str) and texts[code].strip() for code in languages)
    for index, code in enumerate(languages):
        where = f"{place}.{code}" if many else place
        value = texts.get(code)
        if value is not None and not isinstance(value, str):
            problems.append(Problem(where, _("must be text")))
        elif value and len(value) > limit:
            problems.append(
                Problem(
                    where,
                    _("at most %(limit)d characters, got %(count)d", limit=limit, count=len(value)),
                )
            )
        elif not (value or "").strip() and (required or written) and (complete or index == 0):
            problems.append(
                Problem(
                    where,
                    _("missing its text in %(language)s", language=language_name(code))
                    if many
                    else _("must be non-empty text"),
                )
            )
    return problems


# Reading a file: its JSON shape first, then the shared checks.
