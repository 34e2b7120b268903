"""Writing a survey as an XLSForm workbook that pyxform converts as it is (the columns:
:mod:`web.core.surveys.xlsform`)."""

from __future__ import annotations

import io
from typing import Any

import rr
from web.core.infrastructure.formula_guard import append_row
from web.core.infrastructure.i18n import LANGUAGES
from web.core.surveys.panel import ADDRESSES
from web.core.surveys.specs import SurveySpec
from web.core.surveys.texts import Texts
from web.core.surveys.xlsform.columns import (
    DESIGN_COLUMNS,
    PANEL_SETTINGS,
    RANGE,
    SETTINGS_TEXTS,
    SHARE_COLUMNS,
    SURVEY_SETTINGS,
    TYPED_NUMBERS,
    YES_NO_LABELS,
    YES_NO_LIST,
    derived,
    length_constraint,
)
from web.core.surveys.xlsform.conditions import (
    CONDITION_COLUMNS,
    condition_cells,
    conditions_cell,
    row_name,
)
from web.core.surveys.xlsform.flow import quotas_cell, relevant_from_rule
from web.core.surveys.xlsform.grid import grid_rows


def _row(columns: list[str], cells: dict) -> list:
    """A row of the survey sheet with only ``cells`` filled."""
    return [cells.get(column) for column in columns]


def _group_cells(page, headers: list[str], languages: list[str], yes_no: set[str]) -> dict:
    """A page's ``begin group`` row: its id, title, appearance, rule and drawn order."""
    cells: dict[str, Any] = {"type": "begin group", "name": page.key, "appearance": "field-list"}
    for header, code in zip(headers, languages, strict=True):
        cells[header] = page.title.get(code) or None
    if page.show_if is not None:
        cells["relevant"] = relevant_from_rule(page.show_if, yes_no)
    if page.screen_out_if is not None:
        cells["rr_screen_out_if"] = relevant_from_rule(page.screen_out_if, yes_no)
    if page.randomize:
        cells["parameters"] = "randomize=true"
    return cells


def _write_grid(survey, columns, question, headers, languages, yes_no) -> None:
    """A grid's table-list group (web/core/surveys/xlsform/grid.py)."""

    def column_texts(name: str, texts) -> dict:
        return {f"{name}::{header.split('::', 1)[1]}": texts.get(code) or None
                for header, code in zip(headers, languages, strict=True)}  # fmt: skip

    rule = relevant_from_rule(question.show_if, yes_no) if question.show_if else None
    for cells in grid_rows(question, column_texts, rule):
        append_row(survey, _row(columns, cells))


def _write_choices(choices, list_name: str, options, fixed: bool, languages) -> None:
    """A question's options in the choices sheet, under its list."""
    for option in options:
        texts = (option.text.get(code, "") for code in languages)
        append_row(
            choices,
            [
                list_name,
                option.key,
                *texts,
                *["yes" if getattr(option, "fixed", False) else None] * fixed,
            ],  # fmt: skip
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
    from openpyxl import Workbook  # here: openpyxl is a twelfth of the app's import time

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
    # A second arm's innocuous question (the extended crosswise model's) only where one asks it.
    armed = any(question.design.arm_texts for question in spec.questions)
    innocuous += [f"rr_innocuous_2::{header.split('::', 1)[1]}" for header in headers] * armed
    design_headers = [*SHARE_COLUMNS, *innocuous, *DESIGN_COLUMNS[len(SHARE_COLUMNS) :]]
    design_headers = design_headers if designed else []
    # The range columns only where a question is a number; parameters also where an order is drawn.
    numbered = any(question.design.scale is not None for question in spec.questions)
    ordered = any(page.randomize for page in spec.pages) or any(
        question.shuffle_options for question in spec.questions
    )
    units = [f"rr_unit::{header.split('::', 1)[1]}" for header in headers]
    range_headers = ["parameters", *units] if numbered else ["parameters"] if ordered else []
    # Display logic and pages only where the survey has them.
    yes_no = {q.key for q in spec.questions if q.type.xlsform_list == YES_NO_LIST}
    ruled = any(question.show_if for question in spec.questions) or any(
        page.show_if for page in spec.pages
    )
    gridded = any(question.type.has_rows for question in spec.questions)
    flow_headers = ["relevant"] * ruled + ["appearance"] * bool(spec.pages or gridded)
    flow_headers += ["rr_screen_out_if"] * any(page.screen_out_if for page in spec.pages)
    # The bound over a series' waves only where a question keeps one.
    kept = any(question.epsilon_permanent is not None for question in spec.questions)
    permanent_header = ["rr_epsilon_permanent"] if kept else []
    # An experiment's columns only in an experiment.
    experiment_headers = list(CONDITION_COLUMNS) if spec.conditions else []
    # XLSForm's hint, in each language, only where a question has one.
    hinted = any(any(question.hint.values()) for question in spec.questions)
    hint_headers = [f"hint::{header.split('::', 1)[1]}" for header in headers] if hinted else []
    # XLSForm's own column, only where a question must be answered.
    required_header = ["required"] if any(question.required for question in spec.questions) else []
    # An open answer's length as XLSForm's own constraint, only where a question is open.
    constraint_header = ["constraint"] if any(q.type.written for q in spec.questions) else []
    # A list experiment's items (a list of the choices sheet) and sensitive item, only where one is.
    items_header = ["rr_controls"] if any(q.design.controls for q in spec.questions) else []
    items_header += ["rr_controls_b"] * any(q.design.controls_b for q in spec.questions)
    sensitive = any(q.design.sensitive_text for q in spec.questions)
    items_header += [f"rr_sensitive::{header.split('::', 1)[1]}" for header in headers] * sensitive
    append_row(
        survey,
        ["type", "name", *headers, *hint_headers, *required_header, "rr_procedure", "rr_epsilon",
         *permanent_header, *design_headers, *range_headers, *experiment_headers, *flow_headers,
         *constraint_header, *items_header],
    )  # fmt: skip
    columns = ["type", "name", *headers, *hint_headers, *required_header, "rr_procedure", "rr_epsilon",
               *permanent_header, *design_headers, *range_headers, *experiment_headers,
               *flow_headers, *constraint_header, *items_header]  # fmt: skip
    choices = book.create_sheet("choices")
    fixed = any(option.fixed for question in spec.questions for option in question.options)
    append_row(choices, ["list_name", "name", *headers, *["rr_fixed"] * fixed])
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
    page_of = {name: page for page in spec.pages for name in page.questions}
    opened = None
    for question in spec.questions:
        page = page_of.get(question.key)
        if page is not opened:
            if opened is not None:
                append_row(survey, _row(columns, {"type": "end group"}))
            append_row(survey, _row(columns, _group_cells(page, headers, languages, yes_no)))
            opened = page
        kind = question.type
        if kind.has_rows:
            _write_grid(survey, columns, question, headers, languages, yes_no)
            _write_choices(choices, question.key, question.options, fixed, languages)
            continue
        wording = [question.text.get(code, "") for code in languages]
        procedure = question.procedure
        # No ε where nothing protects the answer, or no bound does (the lie detector).
        epsilon = rr.bound(question.derived_epsilon) if question.asked_with.protects else None
        name = row_name(question.key, question.condition)
        list_name = kind.xlsform_list or name
        design = question.design
        randomizer = design.randomizer if design.randomizer != "page" else None
        scale = design.scale
        kind_cell = (
            RANGE if scale is not None
            else kind.xlsform_select if kind.written or kind.xlsform_select in TYPED_NUMBERS
            else f"{kind.xlsform_select} {list_name}"
        )  # fmt: skip
        cells: list[Any] = [kind_cell, name, *wording]
        if hinted:
            cells += [question.hint.get(code) or None for code in languages]
        if required_header:
            cells.append("yes" if question.required else None)
        cells += [procedure, epsilon]
        if kept:
            cells.append(question.epsilon_permanent)
        if designed:
            cells += [_exact(design.share(column[3:])) for column in SHARE_COLUMNS]
            first, second = design.arm_texts or (design.innocuous_text, Texts())
            cells += [first.get(code) for code in languages]
            cells += [second.get(code) for code in languages] * armed
            cells += [_exact(design.share("prevalence")), randomizer]
            cells += [
                ";".join(",".join(repr(float(share)) for share in arm) for arm in design.arms)
                if design.arms
                else None
            ]
        if range_headers:
            ranged = _range_cells(scale, languages)[: len(range_headers)]
            if question.shuffle_options:
                ranged[0] = "randomize=true"
            cells += ranged
        if experiment_headers:
            cells += condition_cells(question)
        if ruled:
            cells.append(relevant_from_rule(question.show_if, yes_no) if question.show_if else None)
        # A question's row has no appearance nor screen-out of its own (a group's has).
        cells += [None] * (len(flow_headers) - ruled)
        if constraint_header:
            length = design.max_length
            cells.append(None if length is None else length_constraint(length))
        items = f"{name}_controls" if design.controls else None
        items_b = f"{name}_controls_b" if design.controls_b else None
        if items_header:
            cells.append(items)
            cells += [items_b] * ("rr_controls_b" in items_header)
            cells += [design.sensitive_text.get(code) for code in languages] * sensitive
        append_row(survey, cells)
        _write_choices(choices, list_name, question.options, fixed, languages)
        for listed, rows in ((items, design.controls), (items_b, design.controls_b)):
            if listed is not None:
                _write_choices(choices, listed, rows, fixed, languages)
    if opened is not None:
        append_row(survey, _row(columns, {"type": "end group"}))
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
    if spec.panel is not None:
        names, *addresses = PANEL_SETTINGS
        row[names] = " ".join(map(str, spec.panel.parameters))
        for column, field in zip(addresses, ADDRESSES, strict=True):
            if getattr(spec.panel, field) is not None:
                row[column] = getattr(spec.panel, field)
    if spec.quotas:
        yes_no = {q.key for q in spec.questions if q.type.xlsform_list == YES_NO_LIST}
        row["rr_quotas"] = quotas_cell(spec.quotas, yes_no)
    append_row(settings, list(row))
    append_row(settings, list(row.values()))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
