"""Writing a survey as an XLSForm workbook that pyxform converts as it is (the columns:
:mod:`web.core.surveys.xlsform`)."""

from __future__ import annotations

import io
from typing import Any

from openpyxl import Workbook

from web.core.infrastructure.formula_guard import append_row
from web.core.infrastructure.i18n import LANGUAGES
from web.core.surveys.specs import SurveySpec
from web.core.surveys.xlsform import (
    DESIGN_COLUMNS,
    RANGE,
    SETTINGS_TEXTS,
    SHARE_COLUMNS,
    SURVEY_SETTINGS,
    YES_NO_LABELS,
    YES_NO_LIST,
    derived,
)
from web.core.surveys.xlsform_conditions import (
    CONDITION_COLUMNS,
    condition_cells,
    conditions_cell,
    row_name,
)


def _range_cells(scale, languages: list[str]) -> list:
    """A number question's ``parameters`` and unit cells (empty for other questions)."""
    if scale is None:
        return [None] * (1 + len(languages))
    parameters = " ".join(
        f"{name}={_plain(value)}"
        for name, value in (("start", scale.low), ("end", scale.high), ("step", scale.step))
    )
    return [parameters, *(scale.unit.get(code) for code in languages)]


def _plain(value: float) -> str:
    """A bound as text that reads back as the same number."""
    number = float(value)
    return str(int(number)) if number.is_integer() else repr(number)


def _exact(value: float | None) -> float | str | None:
    """A share as a cell: a number where a spreadsheet keeps it exactly (15 digits), else its
    shortest exact decimal as text (1/6 would otherwise come back 4e-17 away), read back as a
    number."""
    if value is None or float(f"{value:.15g}") == value:
        return value
    return repr(float(value))


def survey_xlsform(spec: SurveySpec) -> bytes:
    """The survey as an XLSForm workbook that :func:`load_xlsform` reads back as the same survey."""
    languages = list(spec.languages)
    headers = [f"label::{LANGUAGES[code]} ({code})" for code in languages]
    book = Workbook()
    book.remove(book.worksheets[0])
    survey = book.create_sheet("survey")
    # A design's columns only where a question has a design: a plain survey's sheet stays plain.
    designed = any(
        derived(question.procedure) and "procedure" not in question.type.fixed_fields()
        for question in spec.questions
    )
    innocuous = [f"rr_innocuous::{header.split('::', 1)[1]}" for header in headers]
    design_headers = [*SHARE_COLUMNS, *innocuous, *DESIGN_COLUMNS[len(SHARE_COLUMNS) :]]
    design_headers = design_headers if designed else []
    # The range columns only where a question is a number.
    numbered = any(question.design.scale is not None for question in spec.questions)
    units = [f"rr_unit::{header.split('::', 1)[1]}" for header in headers]
    range_headers = ["parameters", *units] if numbered else []
    # The bound over a series' waves only where a question keeps one.
    kept = any(question.epsilon_permanent is not None for question in spec.questions)
    permanent_header = ["rr_epsilon_permanent"] if kept else []
    # An experiment's columns only in an experiment.
    experiment_headers = list(CONDITION_COLUMNS) if spec.conditions else []
    # XLSForm's own column, only where a question must be answered.
    required_header = ["required"] if any(question.required for question in spec.questions) else []
    append_row(
        survey,
        ["type", "name", *headers, *required_header, "rr_procedure", "rr_epsilon",
         *permanent_header, *design_headers, *range_headers, *experiment_headers],
    )  # fmt: skip
    choices = book.create_sheet("choices")
    append_row(choices, ["list_name", "name", *headers])
    if any(question.type.xlsform_list == YES_NO_LIST for question in spec.questions):
        for name, index in (("1", 0), ("0", 1)):
            append_row(
                choices,
                [
                    YES_NO_LIST,
                    name,
                    *(YES_NO_LABELS.get(code, YES_NO_LABELS["en"])[index] for code in languages),
                ],
            )
    for question in spec.questions:
        kind = question.type
        wording = [question.text.get(code, "") for code in languages]
        procedure = question.procedure
        epsilon = question.derived_epsilon if question.asked_with.protects else None
        name = row_name(question.key, question.condition)
        list_name = kind.xlsform_list or name
        design = question.design
        randomizer = design.randomizer if design.randomizer != "page" else None
        scale = design.scale
        kind_cell = RANGE if scale is not None else f"{kind.xlsform_select} {list_name}"
        cells: list[Any] = [kind_cell, name, *wording]
        if required_header:
            cells.append("yes" if question.required else None)
        cells += [procedure, epsilon]
        if kept:
            cells.append(question.epsilon_permanent)
        if designed:
            cells += [_exact(design.share(column[3:])) for column in SHARE_COLUMNS]
            cells += [design.innocuous_text.get(code) for code in languages]
            cells += [_exact(design.share("prevalence")), randomizer]
            cells += [
                ";".join(",".join(repr(float(share)) for share in arm) for arm in design.arms)
                if design.arms
                else None
            ]
        if numbered:
            cells += _range_cells(scale, languages)
        if experiment_headers:
            cells += condition_cells(question)
        append_row(survey, cells)
        for option in question.options:
            texts = (option.text.get(code, "") for code in languages)
            append_row(choices, [list_name, option.key, *texts])
    settings = book.create_sheet("settings")
    file = spec.to_dict()
    # XLSForm keeps the title in one plain cell (the default language's); the others go in
    # rr_title columns, which the converters ignore.
    row: dict[str, Any] = {
        "form_id": spec.slug,
        "form_title": spec.title.get(languages[0], ""),
        "default_language": headers[0].split("::", 1)[1],
        **{
            f"rr_title::{header.split('::', 1)[1]}": spec.title.get(code, "")
            for header, code in zip(headers[1:], languages[1:], strict=True)
        },
    }
    for name in SETTINGS_TEXTS:
        text = spec.description if name == "description" else getattr(spec.fielding, name)
        if any(value.strip() for value in text.values()):
            for header, code in zip(headers, languages, strict=True):
                row[f"rr_{name}::{header.split('::', 1)[1]}"] = text.get(code, "")
    for name in SURVEY_SETTINGS:
        if name in file:
            row[f"rr_{name}"] = file[name]
    if spec.conditions:
        row["rr_conditions"] = conditions_cell(spec.conditions)
    append_row(settings, list(row))
    append_row(settings, list(row.values()))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
