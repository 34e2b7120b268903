"""Changes to a survey's questions: add, edit, delete and reorder one, each checked by the survey
file's validator (:mod:`web.core.surveys.survey_checks`), and the ids the builder makes for a
question and its options. Refusals are :class:`web.core.surveys.editing.EditError`s whose problems
name their field; a change respondents would notice moves the survey's revision."""

from __future__ import annotations

import dataclasses
import itertools
import re
import unicodedata

from flask_babel import gettext as _

from web.core.infrastructure.extensions import db
from web.core.models import (
    Option,
    Question,
    Survey,
)
from web.core.surveys.editing import EditError, new_revision
from web.core.surveys.flow.conditions import question_id, row_key
from web.core.surveys.flow.display import question_of, stored_rule
from web.core.surveys.flow.pages import pages_in_order, pages_with, pages_without, stored_pages
from web.core.surveys.flow.quotas import stored_quotas
from web.core.surveys.flow.walk import flow_problems, survey_flow
from web.core.surveys.limits import RESERVED_KEYS
from web.core.surveys.problems import Problem
from web.core.surveys.question_checks import question_problems
from web.core.surveys.series import (
    answered_elsewhere,
    fixed_in_series,
    spun_parameters,
)
from web.core.surveys.specs import OptionSpec, QuestionSpec
from web.core.surveys.survey_checks import (
    file_places,
    question_count_problems,
)
from web.core.surveys.texts import Texts


def add_question(survey: Survey, spec: QuestionSpec) -> Question:
    """Append a question, after the same checks a survey file goes through (a translation may
    still be missing)."""
    languages = tuple(survey.language_list)
    problems = question_problems(
        spec, languages=languages, complete=False, in_series=survey.series is not None
    )
    problems += question_count_problems(len(survey.questions) + 1)
    elsewhere = answered_elsewhere(survey, spec.key)
    if elsewhere is not None and spun_parameters(elsewhere) != spun_parameters(spec):
        problems.append(Problem("question.epsilon", fixed_in_series(elsewhere)))
    if any(question.key == spec.key for question in survey.questions):
        problems.append(
            Problem(
                "question.id", _("The survey already has a question with id %(id)r.", id=spec.key)
            )
        )
    if not problems and spec.show_if is not None:
        problems += rule_problems_at(survey, spec, None)
    if problems:
        raise EditError(problems)
    question = Question.from_spec(spec, len(survey.questions), list(languages))
    survey.questions.append(question)
    # On a survey of pages, a new question goes on the last page.
    survey.pages = pages_with(survey.pages, spec.key)
    survey.revision += 1
    survey.edits += 1
    return question


def update_question(survey: Survey, question: Question, spec: QuestionSpec) -> None:
    """Apply an edit, after the same checks a survey file goes through; once the question has
    responses only its wording may change. A row of a question asked by condition keeps its
    condition, and its wording is the question's: every row of it takes the new wording."""
    languages = survey.language_list
    spec = dataclasses.replace(
        spec,
        key=question.question_id if spec.key == question.key else spec.key,
        condition=question.condition,
        known_prevalence=question.known_prevalence,
    )
    if spec.required != question.required:
        # A page loaded before the change would send what the survey no longer takes.
        new_revision(survey)
    problems = question_problems(
        spec, languages=tuple(languages), complete=False,
        in_series=survey.series is not None,
    )  # fmt: skip
    if spec.key != question.question_id:
        problems.append(
            Problem("question.id", _("A question's id cannot change; add a new question instead."))
        )
    rule_changed = spec.show_if != stored_rule(question.display_rule)
    if not problems and rule_changed:
        problems += rule_problems_at(survey, spec, survey.questions.index(question))
    if problems:
        raise EditError(problems)
    if rule_changed:
        # A page loaded before would show the question to others than the server expects.
        new_revision(survey)
        for row in [question, *_other_rows(survey, question)]:
            row.display_rule = None if spec.show_if is None else spec.show_if.to_dict()
    if spun_parameters(question) != spun_parameters(spec):
        new_revision(survey)
        elsewhere = answered_elsewhere(survey, question.key)
        if elsewhere is not None:
            raise EditError([Problem("question.epsilon", fixed_in_series(elsewhere))])
        if has_responses(question):
            raise EditError(
                [
                    Problem(
                        "question.epsilon",
                        _(
                            "This question has responses, so its ε, procedure and options are "
                            "frozen: only its wording can change. Add a new question to ask it "
                            "another way."
                        ),
                    )
                ]
            )
        question.kind, question.epsilon, question.procedure = (
            spec.kind,
            spec.derived_epsilon,
            spec.procedure,
        )
        question.epsilon_permanent = spec.epsilon_permanent
    # The innocuous question's wording may change with the rest of the wording.
    question.design_parameters = spec.design.to_store()
    if spec.shuffle_options != question.shuffle_options or _fixed(spec) != _fixed(question):
        # A page loaded before would send the orders the survey no longer draws, or miss them.
        new_revision(survey)
    _set_options(question, spec.options, languages)
    question.text, question.translations = spec.text.to_store(languages)
    question.required = spec.required
    question.shuffle_options = spec.shuffle_options
    question.correct = spec.correct
    question.hint = spec.hint.filled()
    for sibling in _other_rows(survey, question):
        sibling.text, sibling.translations = question.text, question.translations
        sibling.required = question.required
        sibling.correct = question.correct
        sibling.hint = question.hint
        sibling.shuffle_options = question.shuffle_options
        wording = {option.key: option for option in question.options}
        for option in sibling.options:
            if option.key in wording:
                option.text, option.translations = (
                    wording[option.key].text,
                    wording[option.key].translations,
                )
                option.fixed = wording[option.key].fixed
    survey.edits += 1


def rule_problems_at(survey: Survey, spec: QuestionSpec, position: int | None) -> list[Problem]:
    """What is wrong with ``spec``'s display rule once it stands at ``position`` of the survey
    (None: added at the end, on the last page): the rules' checks of a survey file
    (:func:`flow_problems`), named on the question's own rule."""
    specs = list(survey.to_spec().questions)
    pages = survey.pages
    if position is None:
        position, pages = len(specs), pages_with(survey.pages, spec.key)
        specs.append(spec)
    else:
        specs[position] = spec
    places = [f"questions[{index}]" for index in range(len(specs))]
    found = flow_problems(specs, places, stored_pages(pages), tuple(survey.language_list), False)
    mine = f"questions[{position}].show_if"
    return [
        Problem("question.show_if_question", problem.message)
        for problem in found
        if problem.place.startswith(mine)
    ]


def _fixed(question) -> set[str]:
    """The ids of a question's options (a row's or a spec's) that keep their place."""
    return {option.key for option in question.options if option.fixed}


def _other_rows(survey: Survey, question: Question) -> list[Question]:
    """The question's rows in the experiment's other conditions (none for a question asked the
    same way in every condition)."""
    if question.condition is None:
        return []
    return [
        row
        for row in survey.questions
        if row is not question
        and row.condition is not None
        and row.question_id == question.question_id
    ]


def _set_options(question: Question, options: tuple[OptionSpec, ...], languages: list[str]) -> None:
    """Update option rows in place by position, then add or drop the rest; replacing them all at
    once would insert new rows before the old ones with the same ids are gone."""
    for index, spec in enumerate(options):
        text, translations = spec.text.to_store(languages)
        kept = spec.fixed
        if index < len(question.options):
            option = question.options[index]
            option.key, option.text, option.translations = spec.key, text, translations
            option.fixed = kept
        else:
            question.options.append(
                Option(key=spec.key, position=index, text=text, translations=translations,
                       fixed=kept)
            )  # fmt: skip
    for extra in question.options[len(options) :]:
        question.options.remove(extra)
        db.session.delete(extra)


def delete_question(survey: Survey, question: Question) -> None:
    """Remove a question that has no responses and that no display rule reads; it leaves its
    page (and a page it leaves empty goes)."""
    new_revision(survey)
    if has_responses(question):
        raise EditError([Problem("question", _("A question with responses cannot be deleted."))])
    readers = rules_reading(survey, question.question_id)
    if readers:
        raise EditError([Problem("question", _(
            "%(id)r cannot be deleted while a rule reads it: %(readers)s. Change or remove "
            "those rules first (on the question, the Pages card or the Quotas card).",
            id=question.question_id, readers=", ".join(readers)))])  # fmt: skip
    survey.questions.remove(question)
    if not _other_rows(survey, question):
        survey.pages = pages_without(survey.pages, question.question_id)
    for position, remaining in enumerate(survey.questions):
        remaining.position = position
    survey.edits += 1
    db.session.delete(question)


def rules_reading(survey: Survey, question: str) -> list[str]:
    """The rules that read ``question``, in words: each question's display rule, each page's
    display and screen-out rules (by the page's title where it has one) and each quota."""
    pages = {page.key: page for page in stored_pages(survey.pages)}
    readers = []
    for name in survey_flow(survey).readers_of(question):
        page = pages.get(name)
        if page is None:
            readers.append(_("the display rule of question %(id)r", id=name))
        else:
            title = page.title.get(survey.language_list[0]) or name
            readers.append(_("a rule of the page %(title)r", title=title))
    readers += [
        _("the quota %(id)r", id=quota.key)
        for quota in stored_quotas(survey.quotas)
        if question in (question_of(read) for read in quota.rule.reads())
    ]
    return readers


def reorder_questions(survey: Survey, keys: list[str]) -> None:
    """Put the questions in the order of ``keys``, which must name each of them once. Responses
    are keyed by question id, so any order is safe; the revision moves so that a page loaded
    before shows the new order on reload (its draws are kept: see static/js/memo.js)."""
    current = {question.key: question for question in survey.questions}
    if sorted(keys) != sorted(current):
        raise EditError(
            [Problem("question", _("The new order must list every question of the survey once."))]
        )
    if keys == [question.key for question in survey.questions]:
        return
    _check_rules_in_order(survey, keys)
    for position, key in enumerate(keys):
        current[key].position = position
    survey.questions.sort(key=lambda question: question.position)
    # Each question stays on its page, in the new order among the page's others.
    survey.pages = pages_in_order(survey.pages, [current[key].question_id for key in keys])
    survey.revision += 1
    survey.edits += 1


def _check_rules_in_order(survey: Survey, keys: list[str]) -> None:
    """Refuse an order in which a display rule would read a question after it."""
    spec = survey.to_spec()
    rows = {row_key(question.key, question.condition): question for question in spec.questions}
    questions = tuple(rows[key] for key in keys)
    pages = stored_pages(pages_in_order(survey.pages, [question_id(key) for key in keys]))
    problems = flow_problems(
        questions, file_places(questions), pages, spec.languages, complete=False
    )
    if problems:
        raise EditError([Problem("question", _(
            "Not in this order: %(problem)s", problem=problems[0].message))])  # fmt: skip


def moved(keys: list[str], key: str, offset: int) -> list[str]:
    """``keys`` with ``key`` moved ``offset`` places (stopping at either end)."""
    index = keys.index(key)
    target = min(max(index + offset, 0), len(keys) - 1)
    rest = keys[:index] + keys[index + 1 :]
    return rest[:target] + [key] + rest[target:]


def has_responses(question: Question) -> bool:
    """Whether any response answered the question, read from the database now (the counts
    loaded with the page may be older)."""
    own = db.select(Question.n).where(Question.id == question.id)
    options = db.select(db.func.coalesce(db.func.max(Option.n), 0)).where(
        Option.question_id == question.id
    )
    return bool(db.session.scalar(own) or db.session.scalar(options))


def option_specs(
    lines: dict[str, str], languages: list[str], keep: list[Option] | None = None, ids: str = ""
) -> tuple[OptionSpec, ...]:
    """Options from text, one per line in each language (``lines`` by language tag, matched by
    position; the default language's lines say how many), with the ids typed in ``ids`` (one per
    line, by position). Where no id is typed, an existing option keeps its id by position
    (``keep``: a frozen question's options are only reworded) and a new one gets an id made from
    its text in the first language that gives one (see :func:`option_key`), so that export
    columns read ``drugs.sleeping_pills``. Typed ids are checked later, with the rest of the
    question."""
    columns = {
        language: [
            line.strip() for line in (lines.get(language) or "").splitlines() if line.strip()
        ]
        for language in languages
    }
    count = len(columns[languages[0]])
    typed = [line.strip() for line in ids.splitlines()]
    kept = [option.key for option in keep or []]
    chosen = [
        (typed[index] if index < len(typed) else "") or (kept[index] if index < len(kept) else "")
        for index in range(count)
    ]
    taken = set(filter(None, chosen))
    specs = []
    for index, key in enumerate(chosen):
        texts = Texts(
            (language, column[index] if index < len(column) else "")
            for language, column in columns.items()
        )
        key = key or option_key([texts[language] for language in languages], taken)
        taken.add(key)
        specs.append(OptionSpec(key, texts))
    return tuple(specs)


def option_key(texts: list[str], taken: set[str]) -> str:
    """A valid id from an option's text: the Latin letters and digits of the first of its
    ``texts`` (one per language) that has any, lower-cased and joined by underscores (accents
    dropped), at most 40 characters; ``opt`` when none has (Korean only, say); with ``_2``,
    ``_3``… when taken or one of the ids every JavaScript object has."""
    base = next(filter(None, (_id_letters(text) for text in texts)), "")
    candidates = (
        (f"{base}_{number}" if number > 1 else base) if base else f"opt{number}"
        for number in itertools.count(1)
    )
    return next(key for key in candidates if key not in taken and key not in RESERVED_KEYS)


def _id_letters(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return "_".join(re.findall(r"[a-z0-9]+", folded))[:40].strip("_")


def next_question_key(survey: Survey) -> str:
    """The first free ``qN`` id."""
    taken = {question.key for question in survey.questions}
    number = len(survey.questions) + 1
    while f"q{number}" in taken:
        number += 1
    return f"q{number}"
