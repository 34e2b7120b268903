"""The builder's pages form, both ways: the survey's pages as rows of its questions, and the
rows a researcher posted back as page starts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from web.core.infrastructure.i18n import shown
from web.core.surveys.editing import EditError
from web.core.surveys.flow.display import one_condition, read_rule
from web.core.surveys.page_breaks import PageStart, asked_ids, page_starts
from web.core.surveys.problems import Problem
from web.core.surveys.texts import Texts
from web.workspace.question_form import KEPT_RULE, condition_fields, readable_before
from web.workspace.rule_text import WRITTEN_RULE, rule_from_text, rule_reader


@dataclass(frozen=True)
class PageRow:
    """One question in the pages form: its id and wording, the page it starts, if any, and the
    answers given directly before it that the page's rule may read."""

    question: str
    text: str
    starts: PageStart | None
    readable: dict
    # The answers given directly on the page and before it, that its screen-out may read.
    screen_readable: dict

    @property
    def rule(self) -> dict:
        """The page's rule as the form shows it (:func:`condition_fields`)."""
        return condition_fields(self.starts.show_if if self.starts else None)

    @property
    def screen_rule(self) -> dict:
        """The page's screen-out rule as the form shows it."""
        return condition_fields(self.starts.screen_out_if if self.starts else None)


def page_rows(survey) -> list[PageRow]:
    """Every question in the order asked, each with the page it starts."""
    starts = {start.question: start for start in page_starts(survey)}
    first_rows: dict[str, Any] = {}
    for question in survey.questions:
        first_rows.setdefault(question.question_id, question)
    ids = asked_ids(survey)
    # Where the page each question starts ends: before the next page's first question.
    next_start: dict[str, str | None] = {}
    upcoming = None
    for name in reversed(ids):
        next_start[name] = upcoming
        if name in starts:
            upcoming = name
    return [
        PageRow(name, shown(first_rows[name].texts).text, starts.get(name),
                readable_before(survey, first_rows[name]),
                readable_before(survey, first_rows.get(next_start[name] or "")))
        for name in ids
    ]  # fmt: skip


def starts_from_form(form, survey) -> tuple[list[PageStart], list[Problem]]:
    """The page starts posted (``start-<id>``, ``title-<id>-<language>``, ``randomize-<id>``,
    and the rule: ``show-<id>``, ``answers-<id>``, ``at-least-<id>``, ``at-most-<id>``); the
    first question always starts the first page. A rule that cannot be read is a problem."""
    languages = survey.language_list
    read = rule_reader(survey)
    # A rule on a number reads its bounds, on any other answer its answers: the fields that do
    # not apply are hidden, and whatever they still hold is not read.
    numeric = {name for name, entry in readable_before(survey, None).items() if entry["numeric"]}
    starts: list[PageStart] = []
    problems: list[Problem] = []
    for index, name in enumerate(asked_ids(survey)):
        if index and form.get(f"start-{name}") != "1":
            continue
        title = Texts(
            (language, form.get(f"title-{name}-{language}", "").strip())
            for language in languages
            if form.get(f"title-{name}-{language}", "").strip()
        )
        chosen = form.get(f"show-{name}", KEPT_RULE)
        rule = _posted_rule(form, name, chosen, "", f"pages[{len(starts)}].show_if", problems,
                            read, numeric)  # fmt: skip
        screen = form.get(f"screen-{name}", KEPT_RULE)
        screen_rule = _posted_rule(form, name, screen, "screen-",
                                   f"pages[{len(starts)}].screen_out_if", problems, read,
                                   numeric)  # fmt: skip
        if rule is not None:
            chosen = ""  # written out: not kept
        if screen_rule is not None:
            screen = ""
        starts.append(PageStart(name, title, form.get(f"randomize-{name}") == "1", rule,
                                keep_rule=chosen == KEPT_RULE, screen_out_if=screen_rule,
                                keep_screen_out=screen == KEPT_RULE))  # fmt: skip
    return starts, problems


def _posted_rule(form, name: str, chosen: str, prefix: str, place: str, problems: list,
                 read: Callable[[str], dict], numeric: set[str]):  # fmt: skip
    """One page rule posted: written out (``<prefix>written-<id>``), or its question ``chosen``
    and ``<prefix>answers-<id>`` or the bounds; None for none or one kept. A rule that cannot be
    read adds to ``problems``."""
    written = (form.get(f"{prefix}written-{name}") or "").strip()
    if written:
        try:
            return rule_from_text(written, read, place)
        except EditError as error:
            problems += error.problems
            return None
    if chosen in ("", KEPT_RULE, WRITTEN_RULE):
        return None
    if chosen in numeric:
        bounds = [
            typed_number(form.get(f"{prefix}{side}-{name}", "")) for side in ("at-least", "at-most")
        ]
        written = one_condition(chosen, [], *bounds)
    else:
        written = one_condition(chosen, form.get(f"{prefix}answers-{name}", "").split())
    rule, found = read_rule(written, place)
    problems += found
    return rule


def typed_number(text: str):
    """A bound as typed: a number, none when empty, the text itself when it is not one (the
    rule's check names it)."""
    text = text.strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        return text
