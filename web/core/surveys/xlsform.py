"""XLSForm in and out: the subset of the format that this app's questions map to.

A workbook has a ``survey`` sheet (one row per question), a ``choices`` sheet (the options of each
list) and a ``settings`` sheet, as KoboToolbox and ODK read them. Texts are in ``label::English
(en)`` and ``label::Korean (ko)`` columns (or one ``label`` column in a one-language survey).

=========================  =================================================================
survey sheet column        meaning
=========================  =================================================================
``type``                   ``select_one yes_no`` (a yes/no question: list ``yes_no`` with
                           choices ``1`` and ``0``), ``select_one LIST`` (single choice, or a
                           direct question), ``select_multiple LIST`` (multi-select)
``name``                   the question's id
``label::<Language> (tag)``  its wording per language
``rr_procedure``           a registered design's name (web/core/surveys/designs/; all but the
                           spinners yes/no only), or ``direct`` (asked plainly). Required:
                           nothing is left unprotected by a missing cell.
``rr_epsilon``             ε per spin (not for ``direct``; for a design, derived from its
                           parameters and optional: a stated one must match)
``rr_epsilon_permanent``   ε∞, the bound over every wave of the series (a yes/no, multi-select
                           or single-choice question with a spinner, in a wave of a series)
``rr_<share>``             a design's shares, one column for each share any registered design
                           states (``rr_p_truth``, ``rr_p_forced_yes``, ``rr_p_forced_no``,
                           ``rr_theta_yes``, ``rr_theta_no``); each design reads its own
``rr_innocuous::<L> (t)``  the innocuous question's wording per language (a design that asks
                           an innocuous question)
``rr_prevalence``          its known share of yes
``rr_randomizer``          ``page`` (default) or ``own``: the respondent's own die or coin
``rr_arms``                cheating detection's two arms, ``t,f_yes,f_no;t,f_yes,f_no``
``parameters``             a number question's range: its type is ``range`` (as in ODK) with
                           ``start=0 end=30 step=1``
``rr_unit::<L> (t)``       a number question's unit per language
``rr_condition``           an experiment's condition the row asks in, with ``rr_question``
                           (the question's id), ``rr_known_prevalence`` and ``rr_correct``
                           (:mod:`web.core.surveys.xlsform_conditions`; ``rr_conditions`` in
                           the settings sheet)
=========================  =================================================================

The ``choices`` sheet has ``list_name`` (or ``list name``), ``name`` and a label per language.
The ``settings`` sheet has ``form_id`` (the slug), ``form_title`` (one plain cell, the default
language's, as XLSForm has it; the other languages' in ``rr_title::Korean (ko)``; a
``form_title::…`` column is read too), ``default_language`` and this app's own
``rr_description``, ``rr_consent``, ``rr_thanks`` (per language like the title),
``rr_results_batch``, ``rr_completion_code``, ``rr_completion_url``, ``rr_opens_at``,
``rr_closes_at``, ``rr_target_n``, and ``rr_series`` with ``rr_wave`` (the series this survey
is a wave of). Without a settings sheet (or a ``form_id``), the slug and
title come from the file's name. The ``rr_`` columns are ignored by XLSForm's converters, so the
export converts with pyxform as it is.

Reading builds a survey file's dictionary and hands it to :func:`web.core.surveys.surveyfile.parse_survey`,
the one validator; its mistakes are named by sheet and row. Select types are read in every
spelling the specification gives (``select_one LIST``, ``select one LIST``, ``select one from
LIST``, likewise multiple, ``select all that apply from LIST``). What the app cannot honour is
refused, never dropped: every other question type (text, integer, date, note, calculate,
metadata such as ``start``) and groups and repeats by row, and every filled cell of a column it
does not read (``relevant``, ``constraint``, ``choice_filter``, ``hint``, media, …) by row and
column. Workbooks are read within fixed bounds (:mod:`web.core.surveys.workbook`), and every text
is written inert (:mod:`web.core.infrastructure.formula_guard`).
"""

from __future__ import annotations

import io
import re
from pathlib import PurePath
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext
from openpyxl import Workbook

from web.core.infrastructure.formula_guard import append_row
from web.core.infrastructure.i18n import LANGUAGES
from web.core.surveys.designs import (
    ARM_FIELDS,
    ASKED_PLAINLY,
    SHARE_NAMES,
    arms_from_text,
    design_named,
    find_design,
    known_designs,
)
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.questions import QUESTION_TYPES
from web.core.surveys.specs import SurveySpec
from web.core.surveys.surveyfile import load_survey, parse_survey
from web.core.surveys.workbook import XLSX_MAGIC, is_legacy_excel, open_workbook, sheet_rows
from web.core.surveys.xlsform_conditions import (
    CONDITION_COLUMNS,
    condition_cells,
    conditions_cell,
    conditions_from_cell,
    experiment_fields,
    grouped_questions,
    row_name,
)

YES_NO_LIST = "yes_no"
RANGE = "range"  # ODK's type for a number in a range: a number question
YES_NO_LABELS = {"en": ("Yes", "No"), "ko": ("예", "아니요")}
LANGUAGE_HEADER = re.compile(
    r"\A(?P<name>[^:]+)::\s*(?:(?P<label>[^(]*?)\s*\((?P<tag>[^)]+)\)|(?P<bare>\S+))\s*\Z"
)
SURVEY_SETTINGS = (
    "results_batch",
    "completion_code",
    "completion_url",
    "opens_at",
    "closes_at",
    "target_n",
    "series",
    "wave",
)
WHOLE_SETTINGS = ("results_batch", "target_n", "wave")
SETTINGS_TEXTS = ("description", "consent", "thanks")
# A design's columns in the survey sheet (the innocuous wording's, per language, after the third).
SHARE_COLUMNS = tuple(f"rr_{name}" for name in SHARE_NAMES if name != "prevalence")
DESIGN_COLUMNS = (*SHARE_COLUMNS, "rr_prevalence", "rr_randomizer", "rr_arms")
QUESTION_PLACE = re.compile(r"\Aquestions\[(\d+)\](?:\.options\[(\d+)\])?")
# The spellings of a select type the XLSForm documentation and pyxform accept.
SELECT_TYPE = re.compile(
    r"\A(?:select[ _](?P<kind>one|multiple)(?:[ _]from)?|select all that apply(?: from)?)"
    r"\s+(?P<list>\S+)\Z"
)
HEADER_ALIASES = {"list name": "list_name"}
# The columns read (a column's base name, before ``::language``); any other with a value in a
# row is refused by row and column, never dropped.
SURVEY_COLUMNS = frozenset(
    ("type", "name", "label", "parameters", "rr_procedure", "rr_epsilon", "rr_epsilon_permanent",
     "rr_innocuous", "rr_unit", *DESIGN_COLUMNS, *CONDITION_COLUMNS)
)  # fmt: skip
CHOICE_COLUMNS = frozenset(("list_name", "name", "label"))
SETTINGS_COLUMNS = frozenset(
    ("form_id", "form_title", "default_language", "version", "rr_title", "rr_conditions",
     *(f"rr_{name}" for name in (*SETTINGS_TEXTS, *SURVEY_SETTINGS)))
)  # fmt: skip
# What the columns that XLSForm has and this app cannot honour would ask for.
UNSUPPORTED = {
    "choice_filter": lazy_gettext("cascading selects (choice_filter) are not supported"),
    "relevant": lazy_gettext("skip logic (relevant) is not supported: every question is asked"),
    "constraint": lazy_gettext("constraints are not supported"),
    "constraint_message": lazy_gettext("constraints are not supported"),
    "calculation": lazy_gettext("calculations are not supported"),
    "default": lazy_gettext("default answers are not supported"),
    "read_only": lazy_gettext("read-only questions are not supported"),
    "repeat_count": lazy_gettext("repeats are not supported"),
    "hint": lazy_gettext("hints are not shown by this app"),
    "guidance_hint": lazy_gettext("hints are not shown by this app"),
    "appearance": lazy_gettext("appearances are not supported"),
    "required": lazy_gettext("every question is required in this app"),
    "required_message": lazy_gettext("every question is required in this app"),
    "image": lazy_gettext("media are not supported"),
    "audio": lazy_gettext("media are not supported"),
    "video": lazy_gettext("media are not supported"),
    "big-image": lazy_gettext("media are not supported"),
    "media": lazy_gettext("media are not supported"),
    "trigger": lazy_gettext("triggers are not supported"),
}


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
        *_unsupported(survey_rows, "survey", SURVEY_COLUMNS),
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
        raise SurveyFileError([_by_row(problem, rows) for problem in error.problems]) from None


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
        for column, value in cells.items():
            base = column.split("::", 1)[0]
            if base in known or (base == "required" and sheet == "survey" and _true(value)):
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
     "rr_title", "rr_innocuous", "rr_unit", *(f"rr_{name}" for name in SETTINGS_TEXTS))
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


def _text(cells: dict, name: str, languages: list[str]) -> Any:
    """A text as a survey file writes it: per language, or the bare column's string."""
    if not languages:
        return cells.get(name)
    found = {
        code: str(cells[f"{name}::{code}"]) for code in languages if f"{name}::{code}" in cells
    }
    return found or None


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
            {"id": str(cells["name"]), "text": _text(cells, "label", languages)}
        )
    questions, rows, cells_of = [], [], []
    for number, cells in survey_rows[1:]:
        question, problem = _question(number, cells, choices, languages)
        if problem:
            problems.append(problem)
        else:
            questions.append(question | experiment_fields(cells))
            rows.append(number)
            cells_of.append(cells)
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
    for name in SETTINGS_TEXTS:
        text = _text(settings, f"rr_{name}", languages)
        if text is not None:
            data[name] = text
    for name in SURVEY_SETTINGS:
        value = settings.get(f"rr_{name}")
        if value is not None:
            data[name] = _whole(value) if name in WHOLE_SETTINGS else str(value)
    if settings.get("rr_conditions") is not None:
        conditions = conditions_from_cell(settings["rr_conditions"])
        if isinstance(conditions, str):
            problems.append(_("settings: %(problem)s", problem=conditions))
        else:
            data["conditions"] = conditions
    return data, rows, problems


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


def _question(number: int, cells: dict, choices: dict, languages: list[str]):
    """One survey-sheet row as a question of a survey file, or why it cannot be one."""
    written = " ".join(str(cells.get("type", "")).split())
    procedure = cells.get("rr_procedure")
    if written == RANGE:
        return _range_question(number, cells, languages, procedure)
    select = SELECT_TYPE.match(written)
    kind = f"select_{select['kind'] or 'multiple'}" if select else written
    list_name = select["list"] if select else ""
    if written.startswith(("begin", "end")) and ("group" in written or "repeat" in written):
        return None, _(
            "survey row %(row)d: groups and repeats are not supported; every question is asked "
            "on its own, in order",
            row=number,
        )
    if not select:
        return None, _(
            "survey row %(row)d: type %(type)r cannot be randomized; this app asks select_one "
            "and select_multiple questions only",
            row=number,
            type=cells.get("type", ""),
        )
    if procedure not in (*known_designs(), ASKED_PLAINLY.name):
        return None, _(
            "survey row %(row)d: rr_procedure must say how it is asked (%(names)s, or direct for "
            "a question asked plainly), got %(value)r",
            row=number,
            names=", ".join(known_designs()),
            value=procedure,
        )
    if list_name not in choices and list_name != YES_NO_LIST:
        return None, _(
            "survey row %(row)d: no list %(list)r in the choices sheet", row=number, list=list_name
        )
    question: dict[str, Any] = {"id": cells.get("name"), "text": _text(cells, "label", languages)}
    fixed = list_name if list_name == YES_NO_LIST else None
    # A direct question (its own list) is asked plainly; a yes/no one asked directly is a yes/no
    # question with that design.
    plain = procedure == ASKED_PLAINLY.name and fixed is None
    matching = [
        type_
        for type_ in QUESTION_TYPES.values()
        if type_.xlsform_select == kind
        and type_.xlsform_list == fixed
        and type_.randomized == (not plain)
    ]
    if not matching:
        return None, _(
            "survey row %(row)d: a %(type)s question cannot be asked this way (%(procedure)s)",
            row=number,
            type=cells.get("type", ""),
            procedure=procedure,
        )
    question["type"] = matching[0].name
    if matching[0].has_options:
        question["options"] = choices[list_name]
    if not plain:
        question["procedure"] = procedure
        epsilon = _number(cells.get("rr_epsilon"))
        if not design_named(procedure).derived or epsilon is not None:
            question["epsilon"] = epsilon
        permanent = _number(cells.get("rr_epsilon_permanent"))
        if permanent is not None:
            question["epsilon_permanent"] = permanent
        if design_named(procedure).derived:
            question |= _design(cells, procedure, languages)
    return question, None


def _range_question(number: int, cells: dict, languages: list[str], procedure: Any):
    """A ``range`` row as a number question: its ``parameters`` (start, end, step) are the range."""
    ranged = next(kind for kind in QUESTION_TYPES.values() if kind.xlsform_select == "range")
    spinners = ranged.procedures
    if procedure not in spinners:
        return None, _(
            "survey row %(row)d: a range question is asked with %(names)s, got %(value)r",
            row=number,
            names=", ".join(spinners),
            value=procedure,
        )
    parameters = dict(
        part.partition("=")[::2] for part in str(cells.get("parameters", "")).split() if "=" in part
    )
    question: dict[str, Any] = {
        "id": cells.get("name"),
        "type": ranged.name,
        "text": _text(cells, "label", languages),
        "procedure": procedure,
        "epsilon": _number(cells.get("rr_epsilon")),
        "min": _number(parameters.get("start")),
        "max": _number(parameters.get("end")),
        "step": _number(parameters.get("step", "1")),
    }
    unit = _text(cells, "rr_unit", languages)
    if unit is not None:
        question["unit"] = unit
    return question, None


def _design(cells: dict, procedure: str, languages: list[str]) -> dict:
    """A design's parameters from their ``rr_`` columns, as a survey file states them."""
    design: dict[str, Any] = {}
    for name in design_named(procedure).parameters:
        if name == "innocuous":
            design["innocuous"] = {
                "text": _text(cells, "rr_innocuous", languages),
                "prevalence": _number(cells.get("rr_prevalence")),
            }
        elif name == "arms":
            design["arms"] = _arms(cells.get("rr_arms"))
        else:
            design[name] = _number(cells.get(f"rr_{name}"))
    if cells.get("rr_randomizer") is not None:
        design["randomizer"] = str(cells["rr_randomizer"])
    return design


def _derived(procedure: str) -> bool:
    design = find_design(procedure)
    return design is not None and design.derived


def _number(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _arms(value: Any) -> Any:
    """Cheating detection's arms from ``t,f_yes,f_no;t,f_yes,f_no`` (a cell that is not of that
    form is handed on as it is, for the validator to name)."""
    arms = arms_from_text(value) if isinstance(value, str) else None
    if arms is None:
        return value
    return [dict(zip(ARM_FIELDS, arm, strict=True)) for arm in arms]


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


def _whole(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return value


def _by_row(problem: str, rows: list[int]) -> str:
    """A validator's mistake with ``questions[2]`` named as the survey sheet's row."""
    match = QUESTION_PLACE.match(problem)
    if not match:
        return f"settings: {problem}"
    row = rows[int(match[1])] if int(match[1]) < len(rows) else None
    rest = problem[match.end() :]
    where = _("survey row %(row)d", row=row) if row else "survey"
    if match[2] is not None:
        where += " " + _("option %(number)d", number=int(match[2]) + 1)
    return where + rest


# Writing.


def survey_xlsform(spec: SurveySpec) -> bytes:
    """The survey as an XLSForm workbook that :func:`load_xlsform` reads back as the same survey."""
    languages = list(spec.languages)
    headers = [f"label::{LANGUAGES[code]} ({code})" for code in languages]
    book = Workbook()
    book.remove(book.worksheets[0])
    survey = book.create_sheet("survey")
    # A design's columns only where a question has a design: a plain survey's sheet stays plain.
    designed = any(
        question.type.randomized and _derived(question.procedure) for question in spec.questions
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
    append_row(
        survey,
        ["type", "name", *headers, "rr_procedure", "rr_epsilon", *permanent_header,
         *design_headers, *range_headers, *experiment_headers],
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
        procedure = question.procedure if kind.randomized else ASKED_PLAINLY.name
        epsilon = (
            question.derived_epsilon if kind.randomized and question.asked_with.protects else None
        )
        name = row_name(question.key, question.condition)
        list_name = kind.xlsform_list or name
        design = question.design
        randomizer = design.randomizer if design.randomizer != "page" else None
        scale = design.scale
        kind_cell = RANGE if scale is not None else f"{kind.xlsform_select} {list_name}"
        cells = [kind_cell, name, *wording, procedure, epsilon]
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
