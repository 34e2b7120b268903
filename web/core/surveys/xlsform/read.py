"""Reading an XLSForm workbook (or a survey file) into a survey: rows to a survey file's
dictionary, then the one validator, its mistakes named by sheet and row (the columns:
:mod:`web.core.surveys.xlsform`)."""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any

from flask_babel import gettext as _

from web.core.infrastructure.i18n import LANGUAGES
from web.core.surveys.panel import ADDRESSES
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.specs import SurveySpec
from web.core.surveys.surveyfile import load_survey, parse_survey
from web.core.surveys.workbook import XLSX_MAGIC, is_legacy_excel, open_workbook, sheet_rows
from web.core.surveys.xlsform.columns import (
    CHOICE_COLUMNS,
    HEADER_ALIASES,
    LANGUAGE_HEADER,
    PANEL_SETTINGS,
    SELECT_TYPE,
    SETTINGS_COLUMNS,
    SETTINGS_TEXTS,
    SURVEY_COLUMNS,
    SURVEY_SETTINGS,
    UNSUPPORTED,
    WHOLE_SETTINGS,
    YES_NO_LIST,
    row_type,
)
from web.core.surveys.xlsform.conditions import (
    conditions_from_cell,
    experiment_fields,
    grouped_questions,
)
from web.core.surveys.xlsform.flow import (
    GROUP_APPEARANCES,
    RelevantError,
    quotas_from_cell,
    randomized,
    rule_from_relevant,
)
from web.core.surveys.xlsform.grid import GridRows, begins_grid, grid_row_names
from web.core.surveys.xlsform.places import XLSFORM_REFERENCE, by_row
from web.core.surveys.xlsform.questions import question_from_row, text_of, whole_cell


def load_any_survey(filename: str, raw: bytes) -> SurveySpec:
    """A survey from a JSON file or an XLSForm workbook (told apart by their first bytes)."""
    if (
        raw.startswith(XLSX_MAGIC)
        or is_legacy_excel(raw)
        or filename.lower().endswith((".xlsx", ".xls"))
    ):
        return load_xlsform(raw, filename)
    return load_survey(raw)


# Reading.


def load_xlsform(raw: bytes, filename: str = "") -> SurveySpec:
    """Parse an XLSForm workbook; raises SurveyFileError naming every mistake by sheet and row,
    and every column or row it cannot honour. ``filename`` gives the slug and title of a form
    without them (as XLSForm takes ``form_id`` from the file's name)."""
    book = open_workbook(raw)
    sheets = {name.strip().lower(): book[name] for name in book.sheetnames}
    if "survey" not in sheets:
        raise SurveyFileError([_("file: an XLSForm needs a sheet named survey")])
    survey_rows = _rows(sheets["survey"], "survey")
    choice_rows = _rows(sheets["choices"], "choices") if "choices" in sheets else []
    settings_rows = _rows(sheets["settings"], "settings") if "settings" in sheets else []
    settings = settings_rows[1][1] if len(settings_rows) > 1 else {}
    problems = [
        *_unsupported(_without_page_cells(survey_rows), "survey", SURVEY_COLUMNS),
        *_unsupported(choice_rows, "choices", CHOICE_COLUMNS),
        *_unsupported(settings_rows[:2], "settings", SETTINGS_COLUMNS),
    ]
    languages = _languages(
        [header for _, row in survey_rows[:1] for header in row], settings.get("default_language")
    )
    data, rows, mistakes = _survey_data(survey_rows, choice_rows, settings, languages, filename)
    if problems or mistakes:
        raise SurveyFileError(problems + mistakes)
    try:
        return parse_survey(data)
    except SurveyFileError as error:
        raise SurveyFileError([by_row(problem, rows) for problem in error.problems]) from None


def _without_page_cells(rows):
    """The survey sheet's rows with a group's own cells (its appearance, read as a page) left
    out of the check of columns."""
    return [
        (number, {name: value for name, value in cells.items() if name != "appearance"})
        if is_group_row(cells) else (number, cells)
        for number, cells in rows
    ]  # fmt: skip


def _rows(sheet, name: str) -> list[tuple[int, dict[str, Any]]]:
    """The sheet's non-empty rows as (row number, {header: value}), headers lower-cased and
    spelled as :func:`_header_key` makes them; the first entry is the header row with every
    header, even of columns left empty, so that languages are known from it."""
    found = sheet_rows(sheet, name)
    if not found:
        return []
    header_number, header_values = found[0]
    headers = [str(cell).strip() if cell is not None else "" for cell in header_values]
    rows = []
    for number, values in found[1:]:
        cells = {
            _header_key(header): (cell.strip() if isinstance(cell, str) else cell)
            for header, cell in zip(headers, values, strict=False)
            if header and cell not in (None, "")
        }
        if cells:
            rows.append((number, cells))
    return [
        (header_number, dict.fromkeys(_header_key(header) for header in headers if header))
    ] + rows


def _unsupported(rows, sheet: str, known) -> list[str]:
    """Every filled cell of a column this app cannot honour, named by sheet, row and column (a
    column that is only a header, with no value, asks for nothing)."""
    problems = []
    for number, cells in rows[1:]:
        for column in cells:
            base = column.split("::", 1)[0]
            if base in known:
                continue
            reason = UNSUPPORTED.get(base.split(":", 1)[0]) or _("this app has no such column")
            problems.append(
                _(
                    "%(sheet)s row %(row)d, column %(column)s: %(reason)s",
                    sheet=sheet,
                    row=number,
                    column=column,
                    reason=reason,
                )
            )
    return problems


def _true(value: Any) -> bool:
    return value is True or str(value).strip().lower() in ("yes", "true", "true()", "1")


def _header_key(header: str) -> str:
    """``label::Korean (ko)`` → ``label::ko``; ``label:English`` → ``label::en``; ``Type`` →
    ``type``; ``list name`` → ``list_name``."""
    match = LANGUAGE_HEADER.match(_with_double_colon(header))
    if match:
        return f"{match['name'].strip().lower()}::{_language_tag(match)}"
    key = header.strip().lower()
    return HEADER_ALIASES.get(key, key)


# Columns whose text is given per language; forms written elsewhere (and pyxform) also separate
# the language with a single colon (``label:english``), which other columns use for other things
# (``jr:count``, ``media:image``).
TEXT_COLUMNS = frozenset(
    ("label", "hint", "guidance_hint", "constraint_message", "required_message", "form_title",
     "rr_title", "rr_innocuous", "rr_innocuous_2", "rr_unit",
     *(f"rr_{name}" for name in SETTINGS_TEXTS))
)  # fmt: skip
# A language named without its tag (``label::English``), as pyxform allows: the app's languages
# by the names it gives them, and by their English names.
LANGUAGE_BY_NAME = {name.lower(): code for code, name in LANGUAGES.items()} | {
    "english": "en", "korean": "ko", "한국말": "ko",
}  # fmt: skip


def _language_tag(match: re.Match) -> str:
    """The language a matched header or setting names: its tag, or the code of its name."""
    tag = (match["tag"] or match["bare"]).strip()
    return LANGUAGE_BY_NAME.get(tag.lower(), tag)


def _with_double_colon(header: str) -> str:
    """``label:english`` → ``label::english`` for a text column; any other header as it is."""
    name, colon, rest = header.partition(":")
    if colon and not rest.startswith(":") and name.strip().lower() in TEXT_COLUMNS:
        return f"{name}::{rest}"
    return header


def _languages(headers: list[str], default: Any) -> list[str]:
    """The survey's languages from its label columns, the default language first."""
    found = [header.split("::", 1)[1] for header in headers if header.startswith("label::")]
    if isinstance(default, str):
        match = LANGUAGE_HEADER.match(f"x::{default}") or None
        tag = _language_tag(match) if match else default.strip()
        if tag in found:
            found.remove(tag)
            found.insert(0, tag)
    return found


def _has_hint(cells: dict) -> bool:
    """Whether a row fills a hint column (in any language)."""
    return any(name.split("::", 1)[0] == "hint" for name in cells)


def _survey_data(survey_rows, choice_rows, settings: dict, languages: list[str], filename: str):
    """The survey file's dictionary, the sheet row of each question, and structural mistakes."""
    problems: list[str] = []
    choices: dict[str, list[dict]] = {}
    for number, cells in choice_rows[1:]:
        list_name = str(cells.get("list_name", ""))
        if not list_name or "name" not in cells:
            problems.append(_("choices row %(row)d: needs list_name and name", row=number))
            continue
        choices.setdefault(list_name, []).append(
            {"id": str(cells["name"]), "text": text_of(cells, "label", languages)}
            | ({"fixed": True} if _true(cells.get("rr_fixed")) else {})
        )
    yes_no = {
        str(cells.get("name"))
        for _, cells in survey_rows[1:]
        if (found := SELECT_TYPE.match(" ".join(str(cells.get("type", "")).split())))
        and found["list"] == YES_NO_LIST
    }
    # A form has pages where it has a group that is no grid (a grid's end is a group row too).
    paged = any(
        is_group_row(cells) and not _ends_group(cells) and not begins_grid(cells)
        for _, cells in survey_rows[1:]
    )
    pages = PageRows(paged, languages)
    questions, rows, cells_of = [], [], []
    names = grid_row_names(survey_rows[1:])
    answers = _answers_by_name(survey_rows[1:], choices, names)

    def relevant(text: str, yes_no: set[str]) -> dict:
        return rule_from_relevant(text, yes_no, names, answers)

    grid = GridRows(lambda cells, name: text_of(cells, name, languages), relevant)
    for number, cells in survey_rows[1:]:
        in_group = is_group_row(cells) and not (grid.open is None and begins_grid(cells))
        if _has_hint(cells) and (in_group or grid.open is not None):
            problems.append(_(
                "survey row %(row)d, column hint: a hint is shown under a question, not a group "
                "or a grid's row", row=number))  # fmt: skip
        if grid.open is None and begins_grid(cells):
            problems += grid.begin(number, cells, yes_no)
            continue
        if grid.open is not None and _ends_group(cells):
            question = grid.end()
            questions.append(question | experiment_fields(grid.cells))
            rows.append(grid.number)
            cells_of.append(grid.cells)
            pages.question(asked_as(question, grid.cells))
            continue
        if grid.open is not None:
            problems += grid.row(number, cells, choices)
            continue
        if is_group_row(cells):
            problems += pages.group_row(number, cells, yes_no, relevant)
            continue
        question, problem = question_from_row(number, cells, choices, languages)
        if problem is None:
            question, problem = _flow_fields(number, cells, question, yes_no, relevant)
        if problem:
            problems.append(problem)
        else:
            # XLSForm's own column: yes (or true()) makes a question required; else it may be skipped.
            required = {"required": True} if _true(cells.get("required")) else {}
            hint = text_of(cells, "hint", languages)
            helped = {"hint": hint} if hint else {}
            questions.append(question | required | helped | experiment_fields(cells))
            rows.append(number)
            cells_of.append(cells)
            pages.question(asked_as(question, cells))
    problems += pages.finish()
    if grid.open is not None:
        problems.append(_("survey: a grid (table-list group) is not closed (end group)"))
    questions, rows, disagreeing = grouped_questions(questions, rows, cells_of)
    problems += disagreeing
    stem = PurePath(filename).stem.strip()
    data: dict[str, Any] = {
        "slug": settings.get("form_id") or _slug_from(stem),
        "title": _title(settings, languages, stem or settings.get("form_id")),
        "questions": questions,
    }
    if languages:
        data["languages"] = languages
    if pages.pages:
        data["pages"] = pages.pages
    for name in SETTINGS_TEXTS:
        text = text_of(settings, f"rr_{name}", languages)
        if text is not None:
            data[name] = text
    for name in SURVEY_SETTINGS:
        value = settings.get(f"rr_{name}")
        if value is not None:
            data[name] = whole_cell(value) if name in WHOLE_SETTINGS else str(value)
    if any(settings.get(name) is not None for name in PANEL_SETTINGS):
        listed, *addresses = (settings.get(name) for name in PANEL_SETTINGS)
        data["panel"] = {"parameters": str(listed or "").split()} | {
            # XLSForm's own reference, ${PROLIFIC_PID}, read as the panel's placeholder.
            name: XLSFORM_REFERENCE.sub(r"{\1}", str(address)) if address is not None else None
            for name, address in zip(ADDRESSES, addresses, strict=True)
            if address is not None or name == "complete_url"
        }
    if settings.get("rr_quotas") is not None:
        try:
            data["quotas"] = quotas_from_cell(
                settings["rr_quotas"], lambda text: relevant(text, yes_no)
            )
        except RelevantError as error:
            problems.append(_("settings, column rr_quotas: %(reason)s", reason=str(error)))
    if settings.get("rr_conditions") is not None:
        conditions = conditions_from_cell(settings["rr_conditions"])
        if isinstance(conditions, str):
            problems.append(_("settings: %(problem)s", problem=conditions))
        else:
            data["conditions"] = conditions
    return data, (rows, pages.rows), problems


def _flow_fields(number: int, cells: dict, question: dict, yes_no: set[str], relevant):
    """A question row's ``relevant`` as its ``show_if``, and ``randomize=true`` in a select's
    parameters as its shuffled options; or why the relevant cannot be read."""
    if cells.get("relevant") is not None:
        try:
            question = question | {"show_if": relevant(cells["relevant"], yes_no)}
        except RelevantError as error:
            return None, _(
                "survey row %(row)d, column relevant: %(reason)s", row=number, reason=str(error)
            )
    if "options" in question and randomized(cells.get("parameters")):
        question = question | {"shuffle_options": True}
    return question, None


class PageRows:
    """The pages of a form with groups, gathered row by row: each group one page, the questions
    between groups a page of their own."""

    def __init__(self, grouped: bool, languages: list[str]):
        self.grouped, self.languages = grouped, languages
        self.pages: list[dict] = []
        self.rows: list[int] = []
        self.open: dict | None = None
        self.loose: dict | None = None

    def group_row(self, number: int, cells: dict, yes_no: set[str], relevant) -> list[str]:
        """A ``begin group`` or ``end group`` row; the mistakes in it."""
        if row_type(cells) == "end group":
            if self.open is None:
                return [_("survey row %(row)d: end group without begin group", row=number)]
            self.open = None
            return []
        if self.open is not None:
            return [_("survey row %(row)d: a group inside a group is not supported: each group "
                      "is a page", row=number)]  # fmt: skip
        appearance = str(cells.get("appearance", "")).strip()
        if appearance not in GROUP_APPEARANCES:
            return [_("survey row %(row)d, column appearance: a group is a page (field-list); "
                      "%(appearance)r is not supported", row=number, appearance=appearance)]  # fmt: skip
        page: dict[str, Any] = {"id": cells.get("name"), "questions": []}
        title = text_of(cells, "label", self.languages)
        if title is not None:
            page["title"] = title
        if randomized(cells.get("parameters")):
            page["randomize"] = True
        for column, field in (("relevant", "show_if"), ("rr_screen_out_if", "screen_out_if")):
            if cells.get(column) is None:
                continue
            try:
                page[field] = relevant(cells[column], yes_no)
            except RelevantError as error:
                return [_("survey row %(row)d, column %(column)s: %(reason)s", row=number,
                          column=column, reason=str(error))]  # fmt: skip
        self.open, self.loose = page, None
        self.pages.append(page)
        self.rows.append(number)
        return []

    def question(self, name: str) -> None:
        if not self.grouped:
            return
        if self.open is None and self.loose is None:
            self.loose = {"id": f"page_{len(self.pages) + 1}", "questions": []}
            self.pages.append(self.loose)
            self.rows.append(0)
        page = self.open or self.loose
        if page is not None and name not in page["questions"]:
            page["questions"].append(name)

    def finish(self) -> list[str]:
        return [_("survey: a group is not closed (end group)")] if self.open is not None else []


def _ends_group(cells: dict) -> bool:
    return row_type(cells) == "end group"


def _answers_by_name(survey_rows, choices: dict[str, list[dict]], names: dict[str, str]):
    """Each select row's possible answers, by the name a rule gives it (a grid's row by
    ``<grid>.<row>``)."""
    found: dict[str, list[str]] = {}
    for _number, cells in survey_rows:
        selected = SELECT_TYPE.match(" ".join(str(cells.get("type", "")).split()))
        name = str(cells.get("name", ""))
        if selected and selected["list"] in choices and name:
            found[names.get(name, name)] = [choice["id"] for choice in choices[selected["list"]]]
    return found


def asked_as(question: dict, cells: dict) -> str:
    """The question a row asks, as a page lists it: a split ballot's row (one per condition, named
    ``<question>_<condition>``) asks its ``rr_question``."""
    if cells.get("rr_condition") is not None and cells.get("rr_question"):
        return str(cells["rr_question"])
    return str(question.get("id"))


def is_group_row(cells: dict) -> bool:
    """Whether a survey row begins or ends a group."""
    return row_type(cells) in ("begin group", "end group")


def _title(settings: dict, languages: list[str], fallback: Any) -> Any:
    """The title per language: ``rr_title::tag`` (or ``form_title::tag``) where the form gives
    one, else the plain ``form_title``, which XLSForm keeps in one cell, else ``fallback`` (the
    file's name, as XLSForm takes it)."""
    plain = settings.get("form_title") or fallback
    if not languages:
        return plain
    found = {
        code: str(settings.get(f"rr_title::{code}") or settings.get(f"form_title::{code}") or "")
        or (str(plain) if plain is not None else "")
        for code in languages
    }
    return {code: text for code, text in found.items() if text} or None


def _slug_from(stem: str) -> str | None:
    """A survey address made from a file's name, as XLSForm takes ``form_id`` from it."""
    slug = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")[:64].strip("-")
    return slug or None


# Writing.
