"""The builder's pages form, both ways: the survey's pages as rows of its questions, and the
rows a researcher posted back as page starts."""

from __future__ import annotations

from dataclasses import dataclass

from web.core.infrastructure.i18n import shown
from web.core.surveys.page_breaks import PageStart, asked_ids, page_starts
from web.core.surveys.texts import Texts


@dataclass(frozen=True)
class PageRow:
    """One question in the pages form: its id and wording, and the page it starts, if any."""

    question: str
    text: str
    starts: PageStart | None


def page_rows(survey) -> list[PageRow]:
    """Every question in the order asked, each with the page it starts."""
    starts = {start.question: start for start in page_starts(survey)}
    wording: dict[str, str] = {}
    for question in survey.questions:
        wording.setdefault(question.question_id, shown(question.texts).text)
    return [PageRow(name, wording[name], starts.get(name)) for name in asked_ids(survey)]


def starts_from_form(form, survey) -> list[PageStart]:
    """The page starts posted (``start-<id>``, ``title-<id>-<language>``, ``randomize-<id>``);
    the first question always starts the first page."""
    languages = survey.language_list
    ids = asked_ids(survey)
    return [
        PageStart(
            name,
            Texts(
                (language, form.get(f"title-{name}-{language}", "").strip())
                for language in languages
                if form.get(f"title-{name}-{language}", "").strip()
            ),
            form.get(f"randomize-{name}") == "1",
        )
        for index, name in enumerate(ids)
        if index == 0 or form.get(f"start-{name}") == "1"
    ]
