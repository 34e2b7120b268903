"""The builder's split-ballot form, both ways: a survey's conditions and how each asks each
question as rows of fields, and the fields a researcher posted back as conditions and asking
(:mod:`web.core.surveys.experiment_edit`). Conditions are numbered 1 to the limit in the form, so
a condition renamed keeps its column."""

from __future__ import annotations

from dataclasses import dataclass

from web.core.infrastructure.i18n import shown
from web.core.surveys.designs import design_named
from web.core.surveys.experiment_edit import Asking
from web.core.surveys.flow.conditions import MAX_CONDITIONS, Condition
from web.core.surveys.questions import QuestionType
from web.workspace.page_form import typed_number

SAME = "same"
EACH = "each"


@dataclass(frozen=True)
class ExperimentRow:
    """One question in the form: its id, wording and type; the procedures a condition may ask it
    with; whether each condition asks it its own way; and each condition's choice, by the
    condition's place (procedure, or "" where it is not asked; ε as typed)."""

    question: str
    text: str
    procedures: tuple[str, ...]
    each: bool
    cells: tuple[tuple[str, str], ...]


def takes_epsilon(procedure: str) -> bool:
    """Whether a condition states ε for ``procedure`` (a spinner's; a design's is its own)."""
    return not design_named(procedure).derived


def procedures_for(kind: QuestionType, asked_now: set[str]) -> tuple[str, ...]:
    """What the builder offers a condition to ask a question of ``kind`` with: its type's own
    procedure where the type fixes one, else each procedure with no parameters of its own (the
    spinners, asking directly); and any it is asked with now (a file's design, kept)."""
    fixed = kind.fixed_fields().get("procedure")
    offered = (
        [fixed] if fixed else [p for p in kind.procedures if not design_named(p).fields.parameters]
    )
    return tuple(dict.fromkeys([*offered, *sorted(asked_now)]))


def experiment_rows(survey) -> list[ExperimentRow]:
    """Every question (by id, in order) with how each declared condition asks it."""
    conditions = [condition.id for condition in survey.condition_list]
    rows: dict[str, list] = {}
    for question in survey.questions:
        rows.setdefault(question.question_id, []).append(question)
    found = []
    for key, asked in rows.items():
        by_condition = {row.condition: row for row in asked if row.condition is not None}
        cells = []
        for condition in [*conditions, *[""] * (MAX_CONDITIONS - len(conditions))]:
            row = by_condition.get(condition) if by_condition else asked[0]
            spun = row is not None and row.asked_with.protects and not row.asked_with.derived
            epsilon = f"{row.epsilon:g}" if row is not None and spun else ""
            cells.append(("" if row is None else row.procedure, epsilon))
        found.append(ExperimentRow(
            key, shown(asked[0].texts).text,
            procedures_for(asked[0].type, {row.procedure for row in asked}),
            bool(by_condition), tuple(cells),
        ))  # fmt: skip
    return found


def experiment_from_form(
    form, survey
) -> tuple[tuple[Condition, ...], dict[str, dict[str, Asking]]]:
    """The conditions posted (``condition-<n>``, ``share-<n>``; a row without an id is none) and,
    for each question asked its own way in each condition (``mode-<id>`` ``each``), each
    condition's procedure (``procedure-<id>-<n>``, empty where it is not asked) and ε
    (``epsilon-<id>-<n>``). A share or ε that is not a number is kept as typed: the checks name
    it."""
    places = []
    conditions = []
    for place in range(1, MAX_CONDITIONS + 1):
        key = form.get(f"condition-{place}", "").strip()
        if key:
            places.append((place, key))
            conditions.append(Condition(key, typed_number(form.get(f"share-{place}", ""))))
    asked: dict[str, dict[str, Asking]] = {}
    for key in dict.fromkeys(question.question_id for question in survey.questions):
        if form.get(f"mode-{key}") != EACH:
            continue
        asked[key] = {
            condition: Asking(procedure, typed_number(form.get(f"epsilon-{key}-{place}", "")))
            for place, condition in places
            if (procedure := form.get(f"procedure-{key}-{place}", ""))
        }
    return tuple(conditions), asked
