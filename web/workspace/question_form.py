"""The builder's question form, both ways: what a researcher typed turned into a question's
specification (its design and range), and a specification's problems put back on the fields
they are about."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from flask_babel import gettext as _

from web.core.infrastructure.i18n import shown
from web.core.surveys.designs import (
    NO_PARAMETERS,
    DesignParameters,
    GridRow,
    builder_share_fields,
    find_design,
)
from web.core.surveys.editing import EditError
from web.core.surveys.flow.display import Rule, one_condition, read_rule
from web.core.surveys.flow.walk import plain_readings
from web.core.surveys.problems import Problem
from web.core.surveys.question_edit import option_specs
from web.core.surveys.questions import QUESTION_TYPES
from web.core.surveys.scales import Scale
from web.core.surveys.specs import QuestionSpec
from web.core.surveys.texts import Texts
from web.workspace.rule_text import WRITTEN_RULE, rule_from_text, rule_text
from web.workspace.translated_fields import form_texts

# The choice of "Shown to" (a question's or a page's) that keeps a rule the builder cannot show
# as one condition.
KEPT_RULE = "@kept"


def spec_from_form(
    form,
    key: str,
    languages: list[str],
    keep=None,
    rule: Rule | None = None,
    kept_rows=(),
    *,
    read: Callable[[str], dict],
) -> QuestionSpec:
    """A question spec from the form; a multi-select question's options (and a grid's rows)
    come one per line, in each language; ``keep`` and ``kept_rows`` are the question's options
    and rows so far, whose ids stay by position. ``rule`` is the question's display rule so far,
    kept where the form keeps it."""
    kind = QUESTION_TYPES[form.kind.data]
    lines = form_texts(form, "options", languages)
    options = (
        option_specs(dict(lines), languages, keep, form.option_ids.data or "")
        if kind.has_options
        else ()
    )
    shuffled = kind.has_options and bool(form.shuffle_options.data)
    kept = set((form.fixed_options.data or "").split()) if shuffled else set()
    unknown = sorted(kept - {option.key for option in options})
    if unknown:
        raise EditError([Problem("question.fixed", _(
            "%(id)r is not one of the options' ids (%(ids)s)",
            id=unknown[0], ids=", ".join(option.key for option in options)))])  # fmt: skip
    options = tuple(replace(option, fixed=option.key in kept) for option in options)
    # What the type fixes (a direct question's ε and procedure) it keeps, whatever the hidden
    # fields still hold; a design's ε is derived from its parameters.
    fixed = kind.fixed_fields()
    # A type asked one way only (a list) is asked that way, whatever the hidden field holds.
    procedure = fixed.get("procedure", kind.procedure_for(form.procedure.data))
    design = find_design(procedure)
    if "epsilon" in fixed:
        epsilon = fixed["epsilon"]
    else:
        epsilon = None if design is not None and design.derived else float(form.epsilon.data)
    text = form_texts(form, "text", languages).stripped()
    return QuestionSpec(
        key,
        form.kind.data,
        text,
        epsilon,
        procedure,
        options,
        parameters_from_form(form, kind, procedure, languages, kept_rows),
        fixed.get("epsilon_permanent", form.epsilon_permanent.data),
        required=bool(form.required.data),
        show_if=rule_from_form(form, rule, read),
        shuffle_options=shuffled,
        hint=form_texts(form, "hint", languages).stripped(),
        correct=(form.correct.data or "").strip() or None if kind.splits_groups else None,
    )


def rule_from_form(form, kept: Rule | None, read: Callable[[str], dict]) -> Rule | None:
    """Who is shown the question: a rule written out (several conditions, ``read`` by
    :func:`web.workspace.rule_text.rule_reader`), else everyone, the rule kept as it was, or one
    condition on an answer asked plainly (the answers it must be one of, or a number's bounds);
    a condition that cannot be read is refused on the field."""
    written = (form.show_if_written.data or "").strip()
    if written:
        return rule_from_text(written, read, "question.show_if_written")
    name = form.show_if_question.data or ""
    if name in ("", WRITTEN_RULE):  # the written rule emptied: everyone
        return None
    if name == KEPT_RULE:
        return kept
    written = one_condition(name, (form.show_if_answers.data or "").split(),
                            form.show_if_at_least.data, form.show_if_at_most.data)  # fmt: skip
    rule, problems = read_rule(written, "question.show_if_question")
    if problems:
        raise EditError([Problem("question.show_if_question", problems[0].message)])
    return rule


def readable_before(survey, question) -> dict[str, dict]:
    """The questions asked plainly before ``question`` (all of them for a new one), by id, that a
    display rule may read: each one's wording, and its answers or that it is a number."""
    rows = survey.questions
    if question is not None:
        rows = rows[: rows.index(question)]
    readable: dict[str, dict] = {}
    for row in rows:
        for name, found in plain_readings(row).items():
            if not (found.values or found.numeric):
                continue  # words
            readable.setdefault(
                name.replace(row.key, row.question_id, 1),
                {"text": _reading_text(row, name), "answers": list(found.values),
                 "numeric": found.numeric},
            )  # fmt: skip
    return readable


def _reading_text(row, name: str) -> str:
    """What the builder calls a name a rule reads: the question's wording, and a grid row's."""
    text = shown(row.texts).text
    part = name.partition(".")[2]
    grid_row = next((each for each in row.design.rows or () if each.key == part), None)
    return text if grid_row is None else f"{text} — {shown(grid_row.text).text}"


def condition_fields(rule: Rule | None) -> dict:
    """A display rule as the builder shows it (a question's or a page's): one condition as a file
    writes it (``question``, and ``in`` or ``at_least``/``at_most``); any other rule written out
    (``question`` "", and ``text``, :func:`rule_text`); none, ``question`` ""."""
    if rule is None:
        return {"question": ""}
    written = rule.to_dict()
    if "question" not in written:
        return {"question": "", "text": rule_text(rule)}
    return written


def rule_data(rule: Rule | None) -> dict:
    """A display rule as form data: one condition in its fields, any other kept as it is."""
    fields = condition_fields(rule)
    return {
        "show_if_question": fields["question"],
        "show_if_answers": " ".join(fields.get("in", [])),
        "show_if_at_least": fields.get("at_least"),
        "show_if_at_most": fields.get("at_most"),
        "show_if_written": fields.get("text", ""),
    }


def parameters_from_form(
    form, kind, procedure: str, languages: list[str], kept_rows=()
) -> DesignParameters:
    """What the question states besides ε: a number's range, an open answer's length, a grid's
    rows, or the chosen design's parameters."""
    if kind.has_rows:
        lines = dict(form_texts(form, "rows", languages))
        rows = option_specs(lines, languages, list(kept_rows), form.row_ids.data or "")
        return DesignParameters(rows=tuple(GridRow(row.key, row.text) for row in rows))
    if kind.has_range:
        return scale_from_form(form, languages)
    if kind.written:
        return DesignParameters(max_length=form.max_length.data)
    design = find_design(procedure)
    if design is not None and "controls" in design.fields.parameters:
        return list_from_form(form, kind, languages, kept_rows)
    return design_from_form(form, procedure, languages)


def list_from_form(form, kind, languages: list[str], kept_items=()) -> DesignParameters:
    """A list experiment's control items (one per line, by language; ``kept_items`` the items of
    each list so far, whose ids stay by position), a double list's second list, and, for a
    ``list`` question, its sensitive item."""
    kept_a, kept_b = kept_items if kept_items else ((), ())
    lines = dict(form_texts(form, "controls", languages))
    items = option_specs(lines, languages, list(kept_a), form.control_ids.data or "")
    second = dict(form_texts(form, "controls_b", languages))
    items_b = option_specs(second, languages, list(kept_b), form.control_ids_b.data or "")
    sensitive = form_texts(form, "sensitive", languages).stripped()
    return DesignParameters(
        controls=tuple(GridRow(item.key, item.text) for item in items),
        sensitive_text=sensitive if kind.states_sensitive else Texts(),
        controls_b=tuple(GridRow(item.key, item.text) for item in items_b) or None,
    )


def scale_from_form(form, languages: list[str]) -> DesignParameters:
    """A number question's range and unit from their fields."""
    unit = form_texts(form, "unit", languages).stripped()
    return DesignParameters(
        scale=Scale(form.value_min.data, form.value_max.data, form.value_step.data, unit)
    )


def design_data(design: DesignParameters, procedure: str) -> dict:
    """A design's stated numbers as form data (the defaults stay where it states none)."""
    data = dict(design.shares)
    found = find_design(procedure)
    names = found.fields.arm_share_names() if found is not None else ()
    for number, arm in enumerate(design.arms or (), start=1):
        data |= {f"arm_{number}_{name}": value for name, value in zip(names, arm, strict=True)}
    return data | {"randomizer": design.randomizer}


def scale_data(design: DesignParameters) -> dict:
    """A number question's range, or an open question's length, as form data (the defaults
    stay for other questions)."""
    scale = design.scale
    data = {} if design.max_length is None else {"max_length": design.max_length}
    if scale is None:
        return data
    return data | {"value_min": scale.low, "value_max": scale.high, "value_step": scale.step}


def design_from_form(form, procedure: str, languages: list[str]) -> DesignParameters:
    """The parameters the chosen design states, from their fields (the others are ignored)."""
    design = find_design(procedure)
    if design is None or not design.derived:  # a spinner's, or a question asked directly
        return NO_PARAMETERS
    arms = tuple(
        tuple(form[f"arm_{number}_{name}"].data for name in design.fields.arm_share_names())
        for number in (1, 2)
    )
    arm_texts = tuple(
        form_texts(form, f"arm_{number}_innocuous", languages).stripped() for number in (1, 2)
    )
    return DesignParameters.of(
        **{name: form[name].data for name in design.fields.share_names() if name != "arms"},
        arms=arms if "arms" in design.fields.parameters else None,
        innocuous_text=form_texts(form, "innocuous", languages).stripped()
        if design.fields.innocuous
        else None,
        randomizer=form.randomizer.data if design.fields.own else None,
        arm_texts=arm_texts if design.fields.arm_innocuous else None,
    )


FORM_FIELDS = {"id": "key", "type": "kind", "text": "text", "epsilon": "epsilon"}
FORM_FIELDS |= {"procedure": "procedure", "options": "options", "question": "text"}
FORM_FIELDS |= {name: name for name in (*builder_share_fields(), "randomizer")}
FORM_FIELDS |= {"min": "value_min", "max": "value_max", "step": "value_step", "unit": "unit"}
FORM_FIELDS |= {"max_length": "max_length", "shuffle_options": "shuffle_options"}
FORM_FIELDS |= {"fixed": "fixed_options", "show_if_question": "show_if_question"}
FORM_FIELDS |= {"rows": "rows", "correct": "correct", "hint": "hint"}
FORM_FIELDS |= {"controls": "controls", "sensitive": "sensitive", "controls_b": "controls_b"}
OPTION_PLACE = re.compile(r"\.options\[(\d+)\]")
ROW_PLACE = re.compile(r"\.rows\[(\d+)\]")
ITEM_PLACE = re.compile(r"\.controls(_b)?\[(\d+)\]")
ARM_PLACE = re.compile(r"\.arms\[(\d)\](?:\.(\w+))?")


def show_problems(form, problems, languages: list[str]) -> None:
    """Attach each problem to the field it is about (in its language); an option's to the
    options, by number."""
    for problem in problems:
        option = OPTION_PLACE.search(problem.place)
        row = ROW_PLACE.search(problem.place)
        item = ITEM_PLACE.search(problem.place)
        if item:
            number = int(item.group(2)) + 1
            second = item.group(1) or ""
            name = f"control_ids{second}" if problem.field == "id" else f"controls{second}"
            message = _("Item %(number)d: %(message)s", number=number, message=problem.message)
        elif ".sensitive" in problem.place:
            name, message = "sensitive", problem.message
        elif option:
            number = int(option.group(1)) + 1
            name = "option_ids" if problem.field == "id" else "options"
            message = _("Option %(number)d: %(message)s", number=number, message=problem.message)
        elif row:
            number = int(row.group(1)) + 1
            name = "row_ids" if problem.field == "id" else "rows"
            message = _("Row %(number)d: %(message)s", number=number, message=problem.message)
        else:
            name, message = (
                _design_field(problem.place) or FORM_FIELDS.get(problem.field, problem.field),
                problem.message,
            )
        if problem.language and problem.language != languages[0]:
            name = f"{name}_{problem.language}"
        field = form._fields.get(name) or form._fields.get("text") or form._fields["title"]
        field.errors = [*field.errors, message]


def _design_field(place: str) -> str | None:
    """The form field of a mistake in a design's parameters: an arm's share, or the innocuous
    question's wording or prevalence; None for any other place."""
    arm = ARM_PLACE.search(place)
    if arm and ".innocuous." in place:
        part = "innocuous" if ".innocuous.text" in place else "prevalence"
        return f"arm_{int(arm[1]) + 1}_{part}"
    if arm:
        return f"arm_{int(arm[1]) + 1}_{arm[2] or 'p_truth'}"
    if ".arms" in place:
        return "arm_1_p_truth"
    if ".innocuous." in place:
        return "innocuous" if ".innocuous.text" in place else "prevalence"
    return None
