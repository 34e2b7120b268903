"""The responses as an SPSS (.sav) or Stata (.dta) file, under the responses CSV's rules (the
published snapshot, in random order, nothing below the minimum n): a variable per column of the
CSV, named as the CSV names it where the format allows; the question's wording as its label, a
randomized column's labelled as a report with its design and ε; an option's text as the value
label of its code; and each design's probabilities in the file's notes (SPSS; Stata's file keeps
its variable labels only, and the codebook has the rest). pyreadstat writes them.

A numeric cell without a value says why: the question was not shown to the respondent (display
logic, or another condition of a split ballot), they skipped it, or they chose "prefer not to
say". SPSS has them as user-missing codes (−1, −2, −3), Stata as tagged missing values (``.a``,
``.b``, ``.c``); R's haven reads both. A variable's label starts with its report marker, so a
label cut at 80 characters keeps it; yes/no items carry value labels; codes are whole numbers
(F8.0)."""

from __future__ import annotations

import math
import re
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from web.core.models import Survey, unbounded_questions
from web.core.results.exports import (
    answer_cell,
    order_columns,
    response_columns,
    shuffled_answers,
)
from web.core.surveys.flow.conditions import condition_markers, response_condition
from web.core.surveys.flow.walk import survey_flow

if TYPE_CHECKING:
    from pyreadstat.pyclasses import MissingRange

LABEL_LIMIT = 80  # Stata's longest variable label; SPSS takes it too
# Why a numeric cell is empty, as Stata tags it and as SPSS codes it.
NOT_SHOWN, SKIPPED, NOT_SAID = "a", "b", "c"
MISSING_CODES = {NOT_SHOWN: -1, SKIPPED: -2, NOT_SAID: -3}
MISSING_LABELS = {NOT_SHOWN: "not shown", SKIPPED: "skipped", NOT_SAID: "prefer not to say"}
# The answer shapes whose columns hold a 0 or 1 (a report, or a yes/no asked directly).
YES_NO_SHAPES = ("bit", "bits", "arm")
NAME_LIMIT = 32  # Stata's longest variable name
FORMATS = {"sav": "application/x-spss-sav", "dta": "application/x-stata-dta"}


@dataclass
class Variable:
    """One column: its name and label, its values per response, and its codes' labels (a column
    of options, coded 1, 2, … in the options' order)."""

    name: str
    label: str
    numeric: bool
    values: list = field(default_factory=list)
    codes: dict[str, int] | None = None
    value_labels: dict[int | float, str] | None = None
    # Whether its values are whole numbers (a report's 0 or 1), written F8.0.
    whole: bool = False

    def add(self, value, why: str = SKIPPED) -> None:
        """Add a response's cell; ``why`` says why a numeric cell has no value."""
        if self.codes is not None:
            code = self.codes.get(value) if isinstance(value, str) else None
            self.values.append(why if code is None else code)
        elif self.numeric:
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            self.values.append(value if number else why)
        else:
            self.values.append(None if value is None else _text(value))

    def tagged(self) -> bool:
        """Whether a cell of it is missing for a reason (numeric, with one such cell)."""
        return self.numeric and any(isinstance(value, str) for value in self.values)

    def as_codes(self) -> list:
        """Its values with SPSS's missing codes in place of the reasons."""
        return [MISSING_CODES.get(value, value) if isinstance(value, str) else value
                for value in self.values]  # fmt: skip


def labelled_file(survey: Survey, min_n: int, kind: str) -> bytes:
    """The survey's responses as a ``sav`` or ``dta`` file's bytes."""
    # Here: polars and pyreadstat are a sixth of the app's import time, and only these files
    # need them (every command and server process would pay it).
    import polars as pl
    import pyreadstat

    variables, notes = _variables(survey, min_n)
    labels: dict[str, str | None] = {variable.name: variable.label for variable in variables}
    formats = {v.name: "F8.0" for v in variables if v.codes is not None or v.whole}
    title = _fitted(survey.texts("title").default)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"responses.{kind}"
        if kind == "sav":
            frame = pl.DataFrame(
                {v.name: v.as_codes() if v.numeric else v.values for v in variables},
                schema={v.name: pl.Float64 if v.numeric else pl.Utf8 for v in variables},
            )
            codes: list[int | float | str | MissingRange] = [*MISSING_CODES.values()]
            missing = {v.name: codes for v in variables if v.numeric}
            values = {v.name: (v.value_labels or {}) | _missing_labels(v, coded=True)
                      for v in variables if v.value_labels or v.tagged()}  # fmt: skip
            # SPSS keeps its notes as lines of at most 80 characters.
            lines = [line for note in notes for line in textwrap.wrap(note, LABEL_LIMIT)]
            pyreadstat.write_sav(frame, path, file_label=title, column_labels=labels,
                                 variable_value_labels=values, note=lines, missing_ranges=missing,
                                 variable_format=formats)  # fmt: skip
        else:
            # Stata's tagged missing values: a column of numbers and the letters a, b and c.
            frame = pl.DataFrame({
                v.name: pl.Series(v.values, dtype=pl.Object) if v.tagged()
                else pl.Series(v.values, dtype=pl.Float64 if v.numeric else pl.Utf8)
                for v in variables
            })  # fmt: skip
            tagged = {v.name: list(MISSING_LABELS) for v in variables if v.tagged()}
            values = {v.name: (v.value_labels or {}) | (_missing_labels(v, coded=False)
                                                         if v.tagged() else {})
                      for v in variables if v.value_labels or v.tagged()}  # fmt: skip
            pyreadstat.write_dta(frame, path, file_label=title, column_labels=labels,
                                 variable_value_labels=values, missing_user_values=tagged,
                                 variable_format=formats)  # fmt: skip
        return path.read_bytes()


def _missing_labels(variable: Variable, coded: bool) -> dict:
    """The labels of a numeric variable's missing reasons: SPSS's codes, or Stata's letters."""
    if not variable.numeric:
        return {}
    return {(MISSING_CODES[why] if coded else why): label for why, label in MISSING_LABELS.items()}


def _variables(survey: Survey, min_n: int) -> tuple[list[Variable], list[str]]:
    """Every column with its values, and the file's notes."""
    questions = {question.key: question for question in survey.questions}
    markers = condition_markers(survey.questions)
    orders = order_columns(survey_flow(survey))
    taken: set[str] = set()
    condition = Variable(_name("condition", taken), "condition (split ballot)", False)
    columns = [(_variable(questions[key], part, name, taken), key, part)
               for name, key, part in response_columns(survey)]  # fmt: skip
    drawn = [(Variable(_name(name, taken), f"{name}: ids as shown", False), stored)
             for name, stored in orders]  # fmt: skip
    flow = survey_flow(survey)
    plain_rows = [question for question in survey.questions if not question.asked_with.protects]
    for answers in shuffled_answers(survey, min_n):
        asked_in = response_condition(answers, markers) if markers else None
        if markers:
            condition.add(asked_in)
        shown = _shown(flow, plain_rows, answers)
        for variable, key, part in columns:
            question = questions[key]
            if question.condition is not None and question.condition != asked_in:
                variable.add(None, NOT_SHOWN)  # another condition's way of asking it
                continue
            why = _why_empty(answers, key, part, shown, question.asked_with.protects)
            variable.add(answer_cell(answers, key, part), why)
        for variable, stored in drawn:
            variable.add(" ".join(answers.get(stored) or ()) or None)
    variables = [*([condition] if markers else []), *(v for v, _key, _part in columns),
                 *(v for v, _stored in drawn)]  # fmt: skip
    return variables, _notes(survey, min_n)


def _shown(flow, plain_rows, answers: dict) -> frozenset[str] | None:
    """The questions shown to the respondent of ``answers`` (None: every one, no display logic)."""
    if flow.simple:
        return None
    plain: dict = {}
    for question in plain_rows:
        value = answers.get(question.key)
        if value is not None:
            plain |= question.type.plain_values(question.key, value)
    return flow.shown(plain).questions


def _why_empty(
    answers: dict, key: str, part: str | None, shown: frozenset[str] | None, randomized: bool
) -> str:
    """Why a response's cell of question ``key`` (its ``part``) has no value, if it has none: a
    randomized question is stored empty when skipped; one asked plainly, when not said."""
    if shown is not None and key not in shown:
        return NOT_SHOWN
    if not randomized and key in answers and (answers[key] is None or part is not None):
        return NOT_SAID  # "prefer not to say", or a grid's row left so
    return SKIPPED


def _variable(question, part: str | None, name: str, taken: set[str]) -> Variable:
    """A column's variable: an option coded where the column holds one, else its values as
    numbers or text. A report's label starts with its marker, which a cut label keeps."""
    wording = question.texts.default
    if part is not None:
        named = next((o.texts for o in question.options if o.key == part), None)
        row = next((r.text for r in question.design.rows or () if r.key == part), None)
        texts = named or row
        wording += f" [{texts.default if texts else part}]"
    if question.asked_with.protects:
        wording = f"[report: {question.procedure}, eps {_eps(question.epsilon)}] {wording}"
    # Every report's bit, an arm, a number asked directly is a number; words are text.
    variable = Variable(_name(name, taken), _fitted(wording), not question.type.written)
    shape = question.type.answer_shape
    # A report's 0 or 1: a yes/no's, an option's, an arm's, a number's one spin.
    bit = shape in YES_NO_SHAPES or (question.type.has_range and question.asked_with.protects)
    if bit and part not in ("arm",):
        variable.whole = True
        said = "reported " if question.asked_with.protects else ""
        variable.value_labels = {0: f"{said}no", 1: f"{said}yes"}
    elif shape == "arm" and part == "arm":
        variable.whole = True
    elif question.design.controls is not None:  # a list experiment: its list, and a count
        variable.whole = True
        if part == "arm":
            variable.codes = {"control": 0, "treatment": 1}
            variable.value_labels = {0: "control (short list)", 1: "treatment (long list)"}
    if question.type.has_options and (part is None or question.type.has_rows):
        variable.numeric = True
        variable.codes = {option.key: place for place, option in
                          enumerate(question.options, start=1)}  # fmt: skip
        variable.value_labels = {place: _fitted(f"{option.key}: {option.texts.default}")
                                 for place, option in enumerate(question.options, start=1)}  # fmt: skip
    return variable


def _notes(survey: Survey, min_n: int) -> list[str]:
    """The file's notes: how it was made, and each randomized question's design."""
    notes = [
        f"Randomized response survey {survey.slug}: {survey.published_count} published "
        f"responses in random order (none below {min_n}); each report was randomized on the "
        "respondent's device. Estimate each prevalence through its design's line: "
        "pi = (share reporting 1 - P0) / (P1 - P0). The codebook gives every parameter.",
        f"Total epsilon of the survey: {survey.epsilon_total:.4g}"
        + "".join(
            f"; it leaves out {question.key} (no epsilon bound)"
            for question in unbounded_questions(survey)
        )
        + ".",
    ]
    for question in survey.questions:
        if not question.asked_with.protects:
            continue
        design = question.asked_with
        if question.design.controls is not None:
            notes.append(f"{question.key}: list experiment of {question.design.control_count} "
                         "control items, no epsilon bound; arm 0 the short list, 1 the long one "
                         "(with the sensitive item); count the items said to apply. The codebook "
                         "gives list::ictreg's calls.")  # fmt: skip
            continue
        try:
            line = question.type.line_of(question)
        except ValueError:  # arms of their own: the codebook has each
            notes.append(f"{question.key}: {design.name}, epsilon {_eps(question.epsilon)}; "
                         "each arm's probabilities are in the codebook.")  # fmt: skip
            continue
        notes.append(
            f"{question.key}: {design.name}; P1 = P(report 1 | true yes) = "
            f"{line.yes_given_yes:.6g}, P0 = P(report 1 | true no) = {line.yes_given_no:.6g}; "
            f"epsilon {question.epsilon:.4g} per spin."
        )
    return notes


def _name(name: str, taken: set[str]) -> str:
    """A variable name both formats take: letters, digits and _, starting with a letter, at most
    32 characters, unique."""
    base = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not base[:1].isalpha():
        base = f"v_{base}"
    base = base[:NAME_LIMIT]
    found, number = base, 2
    while found.lower() in taken:
        suffix = f"_{number}"
        found, number = base[: NAME_LIMIT - len(suffix)] + suffix, number + 1
    taken.add(found.lower())
    return found


def _fitted(text: str) -> str:
    """A label within the formats' limit."""
    text = " ".join(str(text).split())
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "…"


def _text(value) -> str:
    return value if isinstance(value, str) else str(value)


def _eps(epsilon: float) -> str:
    """ε as a label writes it: a number, or "none" where a design has no bound."""
    return "none (no bound)" if math.isinf(epsilon) else f"{epsilon:.4g}"
