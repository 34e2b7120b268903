"""The builder's pages: where each page starts among the questions in the order they are asked,
with its title, whether its questions' order is drawn, who is shown it and who is screened out at
its end. A page the builder keeps (the same first question) keeps its id and the rules it is not
given; the rest is checked as a file's pages are."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _

from web.core.models import Survey
from web.core.surveys.flow.display import Rule
from web.core.surveys.flow.pages import PageSpec, in_page_order, stored_pages
from web.core.surveys.flow.walk import flow_problems
from web.core.surveys.problems import Problem
from web.core.surveys.texts import Texts


@dataclass(frozen=True)
class PageStart:
    """A page as the builder states it: the id of its first question, its title, whether its
    questions' order is drawn per respondent, who is shown it and who is screened out at its end
    (``keep_rule``, ``keep_screen_out``: the rule of the page that starts there so far)."""

    question: str
    title: Texts = Texts()
    randomize: bool = False
    show_if: Rule | None = None
    keep_rule: bool = False
    screen_out_if: Rule | None = None
    keep_screen_out: bool = False


def asked_ids(survey: Survey) -> list[str]:
    """The survey's question ids in the order its pages ask them (a question's rows once)."""
    ids = list(dict.fromkeys(question.question_id for question in survey.questions))
    return in_page_order(ids, stored_pages(survey.pages))


def page_starts(survey: Survey) -> list[PageStart]:
    """The survey's pages as page starts (one page, untitled, where it has none)."""
    pages = stored_pages(survey.pages)
    if pages:
        return [
            PageStart(
                page.questions[0],
                page.title,
                page.randomize,
                page.show_if,
                screen_out_if=page.screen_out_if,
            )
            for page in pages
        ]
    ids = asked_ids(survey)
    return [PageStart(ids[0])] if ids else []


def cut_pages(survey: Survey, starts: list[PageStart]) -> list[Problem]:
    """Put the survey's questions on the pages ``starts`` begin (the first at the first
    question); the problems found, with nothing changed, or none once the pages are set. One
    untitled page with its order kept is no pages at all."""
    ids = asked_ids(survey)
    positions = {name: index for index, name in enumerate(ids)}
    if (
        not starts
        or starts[0].question != ids[0]
        or any(s.question not in positions for s in starts)
    ):
        return [Problem("pages", _("The first page starts at the first question."))]
    old = {page.questions[0]: page for page in stored_pages(survey.pages)}
    starts = sorted({start.question: start for start in starts}.values(),
                    key=lambda start: positions[start.question])  # fmt: skip
    ends = [positions[start.question] for start in starts[1:]] + [len(ids)]
    taken = set(ids) | {page.key for page in old.values()}
    pages = []
    for number, (start, end) in enumerate(zip(starts, ends, strict=True), start=1):
        kept = old.get(start.question)
        key = kept.key if kept is not None else _free_key(number, taken)
        taken.add(key)
        questions = tuple(ids[positions[start.question] : end])
        rule = (kept.show_if if kept is not None else None) if start.keep_rule else start.show_if
        screen = start.screen_out_if
        if start.keep_screen_out:
            screen = kept.screen_out_if if kept is not None else None
        pages.append(PageSpec(key, start.title, questions, start.randomize, rule, screen))
    only = pages[0]
    if len(pages) == 1 and not (only.title or only.randomize or only.show_if or only.screen_out_if):
        pages = []
    spec = survey.to_spec()
    places = [f"questions[{index}]" for index in range(len(spec.questions))]
    problems = flow_problems(spec.questions, places, pages, spec.languages, complete=False)
    if problems:
        return problems
    survey.pages = [page.to_store() for page in pages] or None
    # A page loaded before would show the old pages and send their orders.
    survey.revision += 1
    survey.edits += 1
    return []


def _free_key(number: int, taken: set[str]) -> str:
    key, extra = f"page{number}", 0
    while key in taken:
        extra += 1
        key = f"page{number}_{extra}"
    return key
