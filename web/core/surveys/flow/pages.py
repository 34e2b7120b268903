"""A questionnaire's pages: which questions the respondent sees together, in what order, and
which pages draw their questions' order per respondent.

In a survey file::

    "pages": [{"id": "about", "title": "About you", "questions": ["student", "year"]},
              {"id": "sensitive", "title": "...", "questions": ["s1", "s2", "s3"],
               "randomize": true, "show_if": {"question": "student", "in": ["yes"]}},
              {"id": "age", "questions": ["age"], "screen_out_if": {"question": "age", "at_most": 17}}]

Every question is on exactly one page, and the pages come in the order they are listed; the
questions are then asked page by page. A survey without ``"pages"`` is one page, as it always
was. A page's title is a text like every other (one per language, and optional). A page's
``screen_out_if`` (a display rule's form, read at the page's end from the answers asked plainly
on it and before it) ends the survey there for a respondent it holds for: nothing of theirs is
stored, and a panel's ``screen_out_url`` is where they go. Nothing here touches the database or a
request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from flask_babel import gettext as _

from web.core.surveys.field_checks import key_problems, texts_problems
from web.core.surveys.flow.display import Rule, read_rule, stored_rule
from web.core.surveys.limits import MAX_QUESTIONS, MAX_TITLE
from web.core.surveys.problems import Problem
from web.core.surveys.texts import Texts


class Keyed(Protocol):
    """A question row as far as pages read it: its ``key`` is its id."""

    @property
    def key(self) -> str: ...


Q = TypeVar("Q", bound=Keyed)
PAGE_FIELDS = frozenset({"id", "title", "questions", "randomize", "show_if", "screen_out_if"})


@dataclass(frozen=True)
class PageSpec:
    """One page: its id, title, the ids of its questions in order, whether that order is drawn
    per respondent, the rule that shows it (None: shown to everyone) and the rule that screens a
    respondent out at its end (None: nobody)."""

    key: str
    title: Texts
    questions: tuple[str, ...]
    randomize: bool = False
    show_if: Rule | None = None
    screen_out_if: Rule | None = None

    def to_dict(self, languages: list[str]) -> dict:
        """The page as a file writes it."""
        data: dict[str, Any] = {"id": self.key}
        if self.title:
            data["title"] = self.title.for_file(languages)
        data["questions"] = list(self.questions)
        if self.randomize:
            data["randomize"] = True
        for name in ("show_if", "screen_out_if"):
            rule = getattr(self, name)
            if rule is not None:
                data[name] = rule.to_dict()
        return data

    def to_store(self) -> dict:
        """The page as the survey's row keeps it: its title by language, whatever the survey's."""
        return {
            **self.to_dict(list(self.title)),
            "title": {code: self.title[code] for code in self.title},
        }

    @classmethod
    def stored(cls, data: dict) -> PageSpec:
        """A page as :meth:`to_store` kept it (checked when it was stored)."""
        return cls(
            data["id"],
            Texts(data.get("title", {})),
            tuple(data["questions"]),
            bool(data.get("randomize", False)),
            stored_rule(data.get("show_if")),
            stored_rule(data.get("screen_out_if")),
        )


def stored_pages(value: list[dict] | None) -> tuple[PageSpec, ...]:
    """A survey's pages as its row keeps them (none for a survey of one page)."""
    return tuple(PageSpec.stored(page) for page in value or ())


def read_pages(value: Any, texts_of, problems: list[Problem]) -> tuple[PageSpec, ...]:
    """``"pages"`` as written in a file: each page's shape named where it is wrong
    (``pages[1].questions``); ``texts_of(item, name, where)`` reads a text in the survey's
    languages. The checks against the questions are :func:`page_problems`."""
    if value is None:
        return ()
    if not isinstance(value, list) or not value:
        problems.append(Problem("pages", _("must be a non-empty list of pages")))
        return ()
    pages = []
    for index, item in enumerate(value[: MAX_QUESTIONS + 1]):
        where = f"pages[{index}]"
        if not isinstance(item, dict):
            problems.append(Problem(where, _("must be an object")))
            continue
        unknown = sorted(set(item) - PAGE_FIELDS)
        problems += [
            Problem(f"{where}.{name}", _("unknown field %(name)r", name=name)) for name in unknown
        ]
        listed = item.get("questions")
        if (
            not isinstance(listed, list)
            or not listed
            or not all(isinstance(name, str) for name in listed)
        ):
            problems.append(
                Problem(f"{where}.questions", _("must be a non-empty list of question ids"))
            )
            listed = []
        randomize = item.get("randomize", False)
        if not isinstance(randomize, bool):
            problems.append(Problem(f"{where}.randomize", _("must be true or false")))
        rules = {}
        for name in ("show_if", "screen_out_if"):
            if item.get(name) is not None:
                rules[name], found = read_rule(item[name], f"{where}.{name}")
                problems += found
        pages.append(
            PageSpec(
                item.get("id"),  # type: ignore[arg-type]  # checked by page_problems
                texts_of(item, "title", where),
                tuple(listed),
                randomize is True,
                rules.get("show_if"),
                rules.get("screen_out_if"),
            )
        )
    return tuple(pages)


def page_problems(
    pages: Sequence[PageSpec],
    question_ids: Sequence[str],
    languages: tuple[str, ...],
    complete: bool = True,
) -> list[Problem]:
    """Whether ``pages`` put every question (``question_ids``, in the file's order, each once)
    on exactly one page: an unknown question, one on two pages or on none is named."""
    if not pages:
        return []
    problems: list[Problem] = []
    if len(pages) > MAX_QUESTIONS:
        problems.append(
            Problem(
                "pages",
                _("at most %(limit)d pages, got %(count)d", limit=MAX_QUESTIONS, count=len(pages)),
            )  # fmt: skip
        )
    known = set(question_ids)
    placed: dict[str, str] = {}
    seen_pages: set[str] = set()
    for index, page in enumerate(pages):
        where = f"pages[{index}]"
        found = key_problems(page.key, f"{where}.id")
        problems += found
        if not found:
            if page.key in seen_pages:
                problems.append(Problem(f"{where}.id", _("duplicate page id %(id)r", id=page.key)))
            elif page.key in known:
                problems.append(Problem(f"{where}.id", _(
                    "%(id)r is a question's id: a page needs an id of its own (the order sent "
                    "names both)", id=page.key)))  # fmt: skip
            seen_pages.add(page.key)
        problems += texts_problems(
            page.title, f"{where}.title", MAX_TITLE, languages, required=False, complete=complete
        )
        for position, name in enumerate(page.questions):
            place = f"{where}.questions[{position}]"
            if name not in known:
                problems.append(Problem(place, _("unknown question %(id)r", id=name)))
            elif name in placed:
                problems.append(Problem(place, _(
                    "%(id)r is already on page %(page)r: a question is on one page",
                    id=name, page=placed[name])))  # fmt: skip
            else:
                placed[name] = str(page.key)
    for name in dict.fromkeys(question_ids):
        if name not in placed:
            problems.append(Problem("pages", _("question %(id)r is on no page", id=name)))
    return problems


def in_page_order(question_ids: Sequence[str], pages: Sequence[PageSpec]) -> list[str]:
    """The questions' ids in the order the pages ask them (as listed, without pages); assumes
    checked pages."""
    if not pages:
        return list(question_ids)
    return [name for page in pages for name in page.questions]


def in_asked_order(questions: Sequence[Q], pages: Sequence[PageSpec]) -> tuple[Q, ...]:
    """Question rows (anything with a ``key`` that is its id) in the order their pages ask
    them, a question's rows together; assumes checked pages."""
    position = {name: index for index, name in enumerate(in_page_order([], pages))}
    return tuple(sorted(questions, key=lambda row: position.get(row.key, -1)))


# A survey's stored pages ([{"id", "questions", …}]) kept in step with the builder's edits.


def pages_with(stored: list[dict] | None, question: str) -> list[dict] | None:
    """The pages with a new question at the end of the last (none stay none)."""
    if not stored:
        return stored
    *before, last = stored
    return [*before, {**last, "questions": [*last["questions"], question]}]


def pages_without(stored: list[dict] | None, question: str) -> list[dict] | None:
    """The pages without a deleted question; a page it leaves empty goes too (none if none is
    left)."""
    if not stored:
        return stored
    kept = [
        {**page, "questions": [name for name in page["questions"] if name != question]}
        for page in stored
    ]
    return [page for page in kept if page["questions"]] or None


def pages_in_order(stored: list[dict] | None, order: Sequence[str]) -> list[dict] | None:
    """The pages with each one's questions in ``order`` (every question id once); a question
    stays on its page."""
    if not stored:
        return stored
    position = {name: index for index, name in enumerate(order)}
    return [
        {**page, "questions": sorted(page["questions"], key=lambda name: position.get(name, -1))}
        for page in stored
    ]
