"""A questionnaire's flow: which pages and questions a respondent is shown, given the answers
they gave plainly, and the orders the page draws (a randomized page's questions, a question's
shuffled options); with the checks of both, in a survey and in a submission.

A survey's questions and pages (:mod:`web.core.surveys.flow.pages`) say what may be shown; display
rules (:mod:`web.core.surveys.flow.display`) say to whom. The page decides both on the device, from
answers asked plainly; the server decides them again from the plain answers a submission sends,
and refuses an answer to a question the respondent was not shown. A randomized page's order is a
permutation of its questions (those of the respondent's condition); a shuffled question's is a
permutation of its options with each ``fixed`` option in its own place. Both are drawn by chance
alone and stored with the response (``order:<page>``, ``options:<question>``), so order effects
can be checked; neither says anything about an answer.

Nothing here touches the database or a request.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from web.core.surveys.flow.conditions import question_id
from web.core.surveys.flow.display import (
    Joined,
    Readable,
    Rule,
    question_of,
    rule_problems,
    stored_rule,
)
from web.core.surveys.flow.pages import PageSpec, in_page_order, page_problems, stored_pages
from web.core.surveys.flow.quotas import Quota, quota_problems
from web.core.surveys.problems import Problem
from web.core.surveys.questions import AnswerError

# How a stored response names each drawn order: no question id has a colon.
PAGE_ORDER, OPTION_ORDER = "order:", "options:"


@dataclass(frozen=True)
class FlowPage:
    """A page as the flow reads it: its id (None for a survey of one page), its questions' ids,
    whether their order is drawn, the rule that shows it and the one that screens out at its end."""

    key: str | None
    questions: tuple[str, ...]
    randomize: bool = False
    show_if: Rule | None = None
    screen_out_if: Rule | None = None


@dataclass(frozen=True)
class Shuffled:
    """A question whose options' order is drawn: its options' ids, and which keep their place."""

    question: str
    options: tuple[str, ...]
    fixed: tuple[bool, ...]


@dataclass(frozen=True)
class Shown:
    """What one respondent is shown: the ids of the pages and of the questions."""

    pages: frozenset[str | None]
    questions: frozenset[str]


@dataclass(frozen=True)
class Drawn:
    """An order a response carries: how it is stored (``prefix`` + id), what it orders, and which
    of those keep their place."""

    prefix: str
    items: tuple[str, ...]
    fixed: tuple[bool, ...]

    def draw(self, rng) -> list[str]:
        """An order drawn by ``rng`` (a numpy Generator): the fixed items in place, the rest
        shuffled (as static/js/flow.js draws it on the page)."""
        moving = [item for item, kept in zip(self.items, self.fixed, strict=True) if not kept]
        drawn = iter(rng.permutation(moving).tolist())
        return [
            item if kept else next(drawn) for item, kept in zip(self.items, self.fixed, strict=True)
        ]


@dataclass(frozen=True)
class Flow:
    """The pages in order, each question's display rule and the shuffled questions."""

    pages: tuple[FlowPage, ...]
    rules: tuple[tuple[str, Rule], ...] = ()
    shuffled: tuple[Shuffled, ...] = ()

    @classmethod
    def of(cls, questions: Sequence, pages: Sequence[PageSpec]) -> Flow:
        """The flow of checked questions (rows or specs: ``key``, ``show_if``,
        ``shuffle_options``, ``options`` with ``key`` and ``fixed``) on their pages."""
        first: dict[str, Any] = {}
        for question in questions:
            first.setdefault(question_id(question.key), question)
        flow_pages = tuple(
            FlowPage(page.key, page.questions, page.randomize, page.show_if, page.screen_out_if)
            for page in pages
        ) or (FlowPage(None, tuple(first)),)
        return cls(
            flow_pages,
            tuple((name, row.show_if) for name, row in first.items() if row.show_if is not None),
            tuple(
                Shuffled(
                    name,
                    tuple(option.key for option in row.options),
                    tuple(bool(option.fixed) for option in row.options),
                )
                for name, row in first.items()
                if row.shuffle_options
            ),
        )

    @property
    def simple(self) -> bool:
        """Whether every respondent sees one page, every question and the file's order."""
        only = self.pages[0]
        return len(self.pages) == 1 and not (
            only.randomize or only.screen_out_if or self.rules or self.shuffled
        )

    @property
    def draws_orders(self) -> bool:
        """Whether the page draws an order: a randomized page, or a question's options."""
        return bool(self.shuffled) or any(page.randomize for page in self.pages)

    def readers_of(self, question: str) -> list[str]:
        """The questions and pages whose display or screen-out rule reads ``question``."""
        rules = [
            *self.rules,
            *((page.key, rule) for page in self.pages
              for rule in (page.show_if, page.screen_out_if) if rule),
        ]  # fmt: skip
        return [
            str(name)
            for name, rule in rules
            if question in (question_of(read) for read in rule.reads())
        ]

    def shown_if_words(self, question: str) -> str | None:
        """To whom a question is shown, in words (its page's rule, then its own), or None where
        every respondent is."""
        page = next(page for page in self.pages if question in page.questions)
        own = next((rule for name, rule in self.rules if name == question), None)
        rules = [rule for rule in (page.show_if, own) if rule]
        if not rules:
            return None
        return rules[0].words() if len(rules) == 1 else Joined("all", tuple(rules)).words()

    def shown(self, plain: Mapping[str, Any]) -> Shown:
        """The pages and questions shown to a respondent whose plain answers are ``plain`` (by
        the names rules read, as :meth:`QuestionType.plain_values` gives them). Decided in the order they are
        asked: a rule reads only questions before it, and a hidden question's answer is no
        answer."""
        rules = dict(self.rules)
        seen: dict[str, Any] = {}
        pages, questions = set(), set()
        for page in self.pages:
            if page.show_if is not None and not page.show_if.holds(seen):
                continue
            pages.add(page.key)
            for name in page.questions:
                rule = rules.get(name)
                if rule is None or rule.holds(seen):
                    questions.add(name)
                    seen |= {
                        read: value
                        for read, value in plain.items()
                        if question_of(read) == name and value is not None
                    }
        return Shown(frozenset(pages), frozenset(questions))

    def expected_orders(self, shown: Shown, asked: Iterable[str]) -> dict[str, Drawn]:
        """The orders a response carries, by page or question id: one for each randomized page
        and each shuffled question shown. ``asked`` are the ids of the questions of the
        respondent's condition (a page orders only those; a question of another is not shown)."""
        asked = set(asked)
        expected: dict[str, Drawn] = {}
        for page in self.pages:
            items = tuple(name for name in page.questions if name in asked)
            # A page is shown where one of its questions is.
            if page.randomize and any(name in shown.questions for name in items):
                expected[str(page.key)] = Drawn(PAGE_ORDER, items, (False,) * len(items))
        for question in self.shuffled:
            if question.question in shown.questions and question.question in asked:
                expected[question.question] = Drawn(OPTION_ORDER, question.options, question.fixed)
        return expected

    def checked_order(self, order: Any, shown: Shown, asked: Iterable[str]) -> dict[str, list]:
        """The drawn orders a submission sends (``{"<page or question id>": [ids, …]}``), as
        stored; raises :class:`AnswerError` unless there is one for each of
        :meth:`expected_orders`, each a permutation of what it orders, and nothing else."""
        if order is None:
            order = {}
        if not isinstance(order, dict):
            raise AnswerError("'order' must be an object of orders by page or question id")
        expected = self.expected_orders(shown, asked)
        unknown = sorted(set(order) - set(expected))
        if unknown:
            raise AnswerError(
                f"'order' has {unknown[0]!r}: send an order only for a randomized page or a "
                "question with shuffled options that was shown"
            )
        stored = {}
        for key, drawn in expected.items():
            sent = order.get(key)
            if (
                not isinstance(sent, list)
                or not all(isinstance(item, str) for item in sent)
                or sorted(sent) != sorted(drawn.items)
            ):
                raise AnswerError(
                    f"'order' must give {key!r} as a permutation of {list(drawn.items)!r}"
                )
            moved = [
                item for item, kept in zip(drawn.items, drawn.fixed, strict=True) if kept
                if sent.index(item) != drawn.items.index(item)
            ]  # fmt: skip
            if moved:
                raise AnswerError(f"'order' of {key!r} moves {moved[0]!r}, which keeps its place")
            stored[drawn.prefix + key] = list(sent)
        return stored


@dataclass(frozen=True)
class _StoredRow:
    """What the flow reads of a question's row (its rule read from the row's JSON)."""

    key: str
    show_if: Rule | None
    shuffle_options: bool
    options: tuple


def survey_flow(survey) -> Flow:
    """The flow of a stored survey (a :class:`web.core.models.Survey`: its questions' rows and its
    pages). Reads only their columns, so a survey a streamed export holds outside its session
    still answers."""
    rows = [
        _StoredRow(row.key, stored_rule(row.display_rule), row.shuffle_options, tuple(row.options))
        for row in survey.questions
    ]
    return Flow.of(rows, stored_pages(survey.pages))


def flow_problems(
    questions: Sequence,
    places: Sequence[str],
    pages: Sequence[PageSpec],
    languages: tuple[str, ...],
    complete: bool = True,
    questions_valid: bool = True,
    quotas: Sequence[Quota] = (),
) -> list[Problem]:
    """Mistakes in a survey's pages, display rules and shuffled options (``questions`` the rows
    as specs, ``places`` where each is in the file). The rules and shuffles are read only once
    the questions themselves are right (``questions_valid``): they ask each one's type. A
    quota's condition (``quotas``) may read any question asked plainly."""
    # An id that is not text is named by the question's own checks.
    ids = list(dict.fromkeys(q.key for q in questions if isinstance(q.key, str)))
    problems = page_problems(pages, ids, languages, complete)
    if not questions_valid:
        return problems
    problems += _shuffle_problems(questions, places)
    if problems:
        return problems  # the rules are read against the pages: those must be right first
    rows: dict[str, list] = {}
    place_of: dict[str, str] = {}
    for question, place in zip(questions, places, strict=True):
        rows.setdefault(question.key, []).append(question)
        place_of.setdefault(question.key, place)
    # A question asked by condition is read only where every condition asks it plainly.
    plain: dict[str, Readable] = {}
    for found in rows.values():
        if all(not row.asked_with.protects for row in found):
            plain |= plain_readings(found[0])
    randomized = set(rows) - {question_of(name) for name in plain}
    flow = Flow.of(questions, pages)
    page_index = {name: index for index, page in enumerate(flow.pages) for name in page.questions}
    order = {name: position for position, name in enumerate(in_page_order(ids, pages))}
    for name in order:
        rule = rows[name][0].show_if
        if rule is None:
            continue
        page = flow.pages[page_index[name]]
        readable = {
            other: plain[other]
            for other, asked in ((other, question_of(other)) for other in plain)
            if page_index[asked] < page_index[name]
            or (not page.randomize and page_index[asked] == page_index[name]
                and order[asked] < order[name])
        }  # fmt: skip
        problems += rule_problems(rule, f"{place_of[name]}.show_if", readable, randomized)
    for index, page in enumerate(flow.pages):
        if page.show_if is None:
            continue
        readable = {
            other: plain[other] for other in plain if page_index[question_of(other)] < index
        }
        problems += rule_problems(page.show_if, f"pages[{index}].show_if", readable, randomized)
    for index, page in enumerate(flow.pages):
        if page.screen_out_if is None:
            continue
        # Read at the page's end: its own questions are answered by then.
        readable = {
            other: plain[other] for other in plain if page_index[question_of(other)] <= index
        }
        problems += rule_problems(
            page.screen_out_if, f"pages[{index}].screen_out_if", readable, randomized
        )
    return problems + quota_problems(quotas, plain, randomized)


def plain_readings(row) -> dict[str, Readable]:
    """What a display rule may read of a question (a spec or a stored row), by the name a rule
    gives it (its id, or a grid's ``<grid>.<row>``): the answers its ``in`` may name, or that it
    is a number; nothing where a design protects it (a report is noise, and the true answer
    behind it must not steer the page)."""
    if row.asked_with.protects:
        return {}
    kind = row.type
    reading = Readable(kind.plain_answers([option.key for option in row.options]),
                       kind.numeric_answer)  # fmt: skip
    return dict.fromkeys(kind.rule_names(row.key, row.design), reading)


def _shuffle_problems(questions: Sequence, places: Sequence[str]) -> list[Problem]:
    """Options are shuffled only where a question has them; ``fixed`` only where they are."""
    problems = []
    for question, place in zip(questions, places, strict=True):
        if not isinstance(question.shuffle_options, bool):
            problems.append(Problem(f"{place}.shuffle_options", _("must be true or false")))
            continue
        if question.shuffle_options and not question.type.has_options:
            problems.append(Problem(f"{place}.shuffle_options", _(
                "only a question with options can shuffle them")))  # fmt: skip
        elif question.shuffle_options and question.type.has_rows:
            problems.append(Problem(f"{place}.shuffle_options", _(
                "a grid's options are one scale for every row: their order is kept")))  # fmt: skip
        for index, option in enumerate(question.options):
            if not isinstance(option.fixed, bool):
                problems.append(Problem(f"{place}.options[{index}].fixed",
                                        _("must be true or false")))  # fmt: skip
            elif option.fixed and not question.shuffle_options:
                problems.append(Problem(f"{place}.options[{index}].fixed", _(
                    "keeps an option in place only where the options are shuffled "
                    "(“shuffle_options”: true)")))  # fmt: skip
    return list(dict.fromkeys(problems))
