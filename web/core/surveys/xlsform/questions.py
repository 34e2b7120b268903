"""One question's row of the survey sheet as a survey file's question: its type and list, its
design's cells, a number's range and an open answer's length (the columns:
:mod:`web.core.surveys.xlsform.columns`)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from web.core.surveys.designs import (
    ASKED_PLAINLY,
    arms_from_text,
    design_named,
    find_design,
    known_designs,
)
from web.core.surveys.questions import QUESTION_TYPES
from web.core.surveys.xlsform.columns import (
    BOUNDS_CONSTRAINT,
    LENGTH_CONSTRAINT,
    RANGE,
    SELECT_TYPE,
    TYPED_NUMBERS,
    YES_NO_LIST,
)


def question_from_row(number: int, cells: dict, choices: dict, languages: list[str]):
    """One survey-sheet row as a question of a survey file, or why it cannot be one."""
    written = " ".join(str(cells.get("type", "")).split())
    procedure = cells.get("rr_procedure")
    if written == RANGE:
        return _range_question(number, cells, languages, procedure)
    listed = find_design(procedure)
    if written in TYPED_NUMBERS and listed is not None and "controls" in listed.fields.parameters:
        return _list_question(number, cells, choices, languages, procedure)
    if written in TYPED_NUMBERS:
        return _typed_number(number, cells, languages, written)
    open_kind = next((kind for kind in QUESTION_TYPES.values() if kind.written), None)
    if open_kind is not None and written == open_kind.xlsform_select:
        return _open_question(number, cells, languages, open_kind)
    if cells.get("constraint") not in (None, ""):
        return None, _(
            "survey row %(row)d: a constraint is read only on a text row, as "
            "string-length(.) <= a number of characters",
            row=number,
        )
    select = SELECT_TYPE.match(written)
    kind = f"select_{select['kind'] or 'multiple'}" if select else written
    list_name = select["list"] if select else ""
    if written.startswith(("begin", "end")) and "repeat" in written:
        return None, _(
            "survey row %(row)d: repeats are not supported; every question is asked once",
            row=number,
        )
    if not select:
        return None, _(
            "survey row %(row)d: type %(type)r is not a question this app asks: select_one and "
            "select_multiple (randomized or direct), range, and text (an open answer)",
            row=number,
            type=cells.get("type", ""),
        )
    if procedure not in known_designs():
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
    question: dict[str, Any] = {"id": cells.get("name"), "text": text_of(cells, "label", languages)}
    fixed = list_name if list_name == YES_NO_LIST else None
    # A direct question (its own list) is asked plainly; a yes/no one asked directly is a yes/no
    # question with that design.
    plain = procedure == ASKED_PLAINLY.name and fixed is None
    matching = [
        type_
        for type_ in QUESTION_TYPES.values()
        if type_.xlsform_select == kind
        and type_.xlsform_list == fixed
        and ("procedure" in type_.fixed_fields()) == plain
        and not type_.has_rows  # a grid is a table-list group (xlsform_grid.py)
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
        epsilon = number_cell(cells.get("rr_epsilon"))
        if not design_named(procedure).derived or epsilon is not None:
            question["epsilon"] = epsilon
        permanent = number_cell(cells.get("rr_epsilon_permanent"))
        if permanent is not None:
            question["epsilon_permanent"] = permanent
        if design_named(procedure).derived:
            question |= _design(cells, procedure, languages, choices)
    return question, None


def _list_question(number: int, cells: dict, choices: dict, languages: list[str], procedure):
    """An ``integer`` row asked as a list experiment: the count of items; its control items are
    the choices list ``rr_controls`` names, its sensitive item ``rr_sensitive``."""
    counted = next(kind for kind in QUESTION_TYPES.values() if kind.states_sensitive)
    if cells.get("rr_controls") not in choices:
        return None, _(
            "survey row %(row)d: a list experiment names its control items' list of the choices "
            "sheet in rr_controls, got %(value)r",
            row=number, value=cells.get("rr_controls"),
        )  # fmt: skip
    question: dict[str, Any] = {
        "id": cells.get("name"), "type": counted.name, "procedure": procedure,
        "text": text_of(cells, "label", languages),
    }  # fmt: skip
    return question | _design(cells, procedure, languages, choices), None


def _open_question(number: int, cells: dict, languages: list[str], kind):
    """A ``text`` row as an open question, asked directly; its ``constraint``
    ``string-length(.) <= N`` is its longest answer."""
    procedure = cells.get("rr_procedure")
    if procedure not in (None, "", ASKED_PLAINLY.name):
        return None, _(
            "survey row %(row)d: a text row is asked directly (rr_procedure %(direct)s or empty), "
            "got %(value)r",
            row=number, direct=ASKED_PLAINLY.name, value=procedure,
        )  # fmt: skip
    question: dict[str, Any] = {
        "id": cells.get("name"), "type": kind.name, "text": text_of(cells, "label", languages),
    }  # fmt: skip
    constraint = cells.get("constraint")
    if constraint not in (None, ""):
        found = LENGTH_CONSTRAINT.match(str(constraint))
        if found is None:
            return None, _(
                "survey row %(row)d: the constraint of a text row must be "
                "string-length(.) <= a number of characters, got %(value)r",
                row=number, value=constraint,
            )  # fmt: skip
        question["max_length"] = int(found[1])
    return question, None


def _typed_number(number: int, cells: dict, languages: list[str], written: str):
    """An ``integer`` or ``decimal`` row as a number asked directly: its bounds from its
    ``constraint`` (``. >= A and . <= B``), a decimal's step from its ``parameters``."""
    ranged = next(kind for kind in QUESTION_TYPES.values() if kind.xlsform_select == RANGE)
    if cells.get("rr_procedure") != ASKED_PLAINLY.name:
        return None, _(
            "survey row %(row)d: an %(type)s row is a number asked directly (rr_procedure "
            "%(direct)s); a randomized number is a range row",
            row=number, type=written, direct=ASKED_PLAINLY.name,
        )  # fmt: skip
    bounds = BOUNDS_CONSTRAINT.match(str(cells.get("constraint") or ""))
    parameters = dict(
        part.partition("=")[::2] for part in str(cells.get("parameters", "")).split() if "=" in part
    )
    step = TYPED_NUMBERS[written] or number_cell(parameters.get("step"))
    if bounds is None or step is None:
        return None, _(
            "survey row %(row)d: a number asked directly needs its bounds as the constraint "
            ". >= smallest and . <= largest (and a decimal its step in parameters, step=0.5)",
            row=number,
        )  # fmt: skip
    question: dict[str, Any] = {
        "id": cells.get("name"), "type": ranged.name, "text": text_of(cells, "label", languages),
        "procedure": ASKED_PLAINLY.name, "min": number_cell(bounds[1]), "max": number_cell(bounds[2]),
        "step": step,
    }  # fmt: skip
    unit = text_of(cells, "rr_unit", languages)
    if unit is not None:
        question["unit"] = unit
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
        "text": text_of(cells, "label", languages),
        "procedure": procedure,
        "epsilon": number_cell(cells.get("rr_epsilon")),
        "min": number_cell(parameters.get("start")),
        "max": number_cell(parameters.get("end")),
        "step": number_cell(parameters.get("step", "1")),
    }
    unit = text_of(cells, "rr_unit", languages)
    if unit is not None:
        question["unit"] = unit
    return question, None


def _design(cells: dict, procedure: str, languages: list[str], choices: dict) -> dict:
    """A design's parameters from their ``rr_`` columns, as a survey file states them (a list's
    control items from the choices list its ``rr_controls`` names)."""
    design: dict[str, Any] = {}
    fields = design_named(procedure).fields
    for name in fields.parameters:
        if name == "controls":
            design["controls"] = choices.get(cells.get("rr_controls"), [])
        elif name == "controls_b":
            if cells.get("rr_controls_b") is not None:
                design["controls_b"] = choices.get(cells["rr_controls_b"], [])
        elif name == "sensitive":
            text = text_of(cells, "rr_sensitive", languages)
            if text is not None:
                design["sensitive"] = {"text": text}
        elif name == "innocuous":
            design["innocuous"] = {
                "text": text_of(cells, "rr_innocuous", languages),
                "prevalence": number_cell(cells.get("rr_prevalence")),
            }
        elif name == "arms" and fields.arm_innocuous:
            design["arms"] = _innocuous_arms(cells, languages)
        elif name == "arms":
            design["arms"] = _arms(cells.get("rr_arms"), fields.arm_fields)
        else:
            design[name] = number_cell(cells.get(f"rr_{name}"))
    if cells.get("rr_randomizer") is not None:
        design["randomizer"] = str(cells["rr_randomizer"])
    return design


def number_cell(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _innocuous_arms(cells: dict, languages: list[str]) -> Any:
    """Two arms each asking its innocuous question: their prevalences from ``rr_arms`` (``q;q``),
    their wordings from ``rr_innocuous`` and ``rr_innocuous_2``; a cell of another form is handed
    on as it is, for the validator to name."""
    value = cells.get("rr_arms")
    shares = _arms(value, ("prevalence",))
    if not isinstance(shares, list):
        return shares
    texts = [text_of(cells, column, languages) for column in ("rr_innocuous", "rr_innocuous_2")]
    return [
        {"innocuous": {"text": text, "prevalence": arm["prevalence"]}}
        for arm, text in zip(shares, texts + [None] * (len(shares) - 2), strict=False)
    ]


def _arms(value: Any, names: tuple[str, ...]) -> Any:
    """A design's two arms from their shares ``names``, written ``a,b,c;a,b,c`` (cheating
    detection's) or ``a;a`` (the lie detector's); a cell that is not of that form is handed on
    as it is, for the validator to name."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    arms = arms_from_text(value, len(names)) if isinstance(value, str) else None
    if arms is None:
        return value
    return [dict(zip(names, arm, strict=True)) for arm in arms]


def whole_cell(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return value


def text_of(cells: dict, name: str, languages: list[str]) -> Any:
    """A text as a survey file writes it: per language, or the bare column's string."""
    if not languages:
        return cells.get(name)
    found = {
        code: str(cells[f"{name}::{code}"]) for code in languages if f"{name}::{code}" in cells
    }
    return found or None
