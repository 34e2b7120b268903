"""Groups of respondents formed by the direct questions: which questions form them, and the cells
the published counts per group are kept in."""

from __future__ import annotations

import json
from collections.abc import Iterable

from web.core.models import Question
from web.core.surveys.questions import ARM, QuestionType, Tallied, question_type


def is_direct(question) -> bool:
    """Whether ``question`` is a direct question: its kind is never randomized, its answers are
    stored as given, and they split the respondents into groups."""
    return question.type.splits_groups


def direct_questions(questions: Iterable[Question]) -> list[Question]:
    """The direct questions (:func:`is_direct`), in order."""
    return [question for question in questions if is_direct(question)]


def layout(rows) -> tuple[list[str], list[Tallied]]:
    """The direct questions' keys and the randomized tallies, from rows of (question id, key, kind,
    procedure, option id, option key) in the survey's order (an option-less question once, with
    nulls)."""
    questions: dict[int, tuple[str, QuestionType, list[tuple[int, str]]]] = {}
    for question_id, key, kind, procedure, option_id, option_key in rows:
        entry: tuple[str, QuestionType, list[tuple[int, str]]] = (
            key, question_type(kind, procedure), [],
        )  # fmt: skip
        options = questions.setdefault(question_id, entry)[2]
        if option_id is not None:
            options.append((option_id, option_key))
    direct: list[str] = []
    tallies: list[Tallied] = []
    for question_id, (key, kind, options) in questions.items():
        if kind.splits_groups:
            direct.append(key)
            continue
        for option in kind.spun(options):
            if option is None:
                tallies.append(Tallied("question", question_id, key, None, kind))
            elif option == ARM:
                tallies.append(Tallied("arm", question_id, key, ARM, kind))
            else:
                tallies.append(Tallied("option", option[0], key, option[1], kind))
    return direct, tallies


def cell_key(answers: dict, direct: list[str]) -> str:
    """The cell of a response: its direct answers as sorted JSON (null where not given)."""
    return json.dumps({key: answers.get(key) for key in direct}, sort_keys=True)


def cell_counts(
    answers_of_responses, direct: list[str], tallies: list[Tallied]
) -> dict[tuple[str, int, str], list[int]]:
    """(tally table, tally id, cell) → [responses, reported yes] over the responses' answers
    (as stored, parsed)."""
    counts: dict[tuple[str, int, str], list[int]] = {}
    for answers in answers_of_responses:
        cell = cell_key(answers, direct)
        for tally in tallies:
            if answers.get(tally.question_key) is None:
                continue  # skipped, or a question added after this response
            entry = counts.setdefault((*tally.key, cell), [0, 0])
            respondents, yes = tally.count(answers)
            entry[0] += respondents
            entry[1] += yes
    return counts
