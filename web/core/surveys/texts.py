"""A survey's texts in its languages, and which language a viewer reads.

A survey declares its languages (the first is its default). Every text a respondent or an analyst
reads (title, description, question and option wording, consent, thank-you) is a :class:`Texts`:
one string per language. In a file such a text is a plain string when the survey has one language,
else an object with one entry per language (``{"en": "…", "ko": "…"}``).

In the database each text keeps its default-language string in its own column (so that anything
that reads ``question.text`` reads the default) and the other languages in a JSON column of
translations beside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from web.core.infrastructure.i18n import LANGUAGES

# A file without "languages" is in one language: Korean when its texts are written in Hangul.
HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")


class Texts(Mapping[str, str]):
    """One text in several languages, in the survey's order of languages (the default first).

    A language may be missing (a draft whose translation is not written yet): a page then shows
    the default's text (:func:`web.core.infrastructure.i18n.shown`), and the validator names the
    gap (:func:`web.core.surveys.field_checks.texts_problems`). An empty text is no text."""

    __slots__ = ("_texts",)

    def __init__(self, texts: Mapping[str, str] | Iterable[tuple[str, str]] = ()):
        # An empty text is no text: absent and "" read alike, in a file and in the database.
        items = texts.items() if isinstance(texts, Mapping) else texts
        self._texts = {language: text for language, text in items if text != ""}

    @classmethod
    def one(cls, language: str, text: str) -> Texts:
        return cls({language: text})

    def __getitem__(self, language: str) -> str:
        return self._texts[language]

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._texts) == dict(other)

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._texts.items())))

    def __repr__(self) -> str:
        return f"Texts({self._texts!r})"

    @property
    def default(self) -> str:
        """The text in the first language that has one (the survey's default, where written)."""
        return next(iter(self._texts.values()), "")

    def stripped(self) -> Texts:
        return Texts((language, text.strip()) for language, text in self._texts.items())

    def for_file(self, languages: list[str]) -> str | dict[str, str]:
        """The text as a survey file writes it: a string in a one-language survey, else an object."""
        if len(languages) == 1:
            return self._texts.get(languages[0], "")
        return {language: self._texts.get(language, "") for language in languages}

    # Storage: the default language's text in its column, the others in a JSON column beside it.

    @classmethod
    def stored(cls, default: str, others: dict | None, languages: list[str]) -> Texts:
        """The text as kept: ``default`` is the first language's, ``others`` the rest by tag."""
        others = others or {}
        return cls(
            (language, default if index == 0 else others.get(language, ""))
            for index, language in enumerate(languages)
        )

    def filled(self) -> dict[str, str] | None:
        """The texts written, trimmed, by tag (an optional text such as a hint is kept so, in
        one JSON column); None where none is written."""
        return {tag: text for tag, text in self.stripped().items() if text} or None

    def to_store(self, languages: list[str]) -> tuple[str, dict[str, str]]:
        """The default language's text, and the others' by tag (see :meth:`stored`)."""
        others = {language: self._texts.get(language, "") for language in languages[1:]}
        return self._texts.get(languages[0], ""), others


def guess_language(texts: Iterable[str]) -> str:
    """The one language of a survey that does not say: Korean if any text is in Hangul."""
    return "ko" if any(HANGUL.search(text) for text in texts if isinstance(text, str)) else "en"


def split_languages(stored: str | None) -> list[str]:
    """A survey's languages as kept (``"en,ko"``), in order; English when unset."""
    return [code for code in (stored or "").split(",") if code] or ["en"]


def language_name(code: str) -> str:
    return LANGUAGES.get(code, code)
