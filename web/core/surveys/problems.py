"""A survey's mistakes: each named with where it is (``questions[1].epsilon``), so a file, a form
or a command fixes them in one pass."""

from __future__ import annotations

from typing import NamedTuple

from web.core.infrastructure.i18n import LANGUAGES


class Problem(NamedTuple):
    """One mistake: where it is (``questions[0].epsilon``) and what is wrong."""

    place: str
    message: str

    @property
    def field(self) -> str:
        """The name of the field the mistake is in: ``epsilon``, ``options``, ``text``, …"""
        parts = self.place.split(".")
        if self.language is not None:
            parts = parts[:-1]
        return parts[-1].split("[", 1)[0]

    @property
    def language(self) -> str | None:
        """The language of the text the mistake is in (``questions[0].text.ko``), if any."""
        last = self.place.rsplit(".", 1)[-1]
        return last if "." in self.place and last in LANGUAGES else None

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"


class SurveyFileError(ValueError):
    """A survey file with mistakes; ``problems`` lists each as "where: what"."""

    def __init__(self, problems: list[Problem] | list[str]):
        self.problems = [str(problem) for problem in problems]
        super().__init__("; ".join(self.problems))
