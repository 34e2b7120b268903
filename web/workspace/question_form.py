"""The builder's question form, both ways: what a researcher typed turned into a question's
specification (its design and range), and a specification's problems put back on the fields
they are about."""

from __future__ import annotations

import re

from flask_babel import gettext as _

from web.core.surveys.designs import (
    ARM_FIELDS,
    NO_PARAMETERS,
    DesignParameters,
    builder_share_fields,
    find_design,
)
from web.core.surveys.editing import (
    option_specs,
)
from web.core.surveys.questions import QUESTION_TYPES
from web.core.surveys.scales import Scale
from web.core.surveys.specs import QuestionSpec
from web.workspace.forms import (
    form_texts,
)


def spec_from_form(form, key: str, languages: list[str], keep=None) -> QuestionSpec:
    """A question spec from the form; a multi-select question's options come one per line, in
    each language."""
    kind = QUESTION_TYPES[form.kind.data]
    lines = form_texts(form, "options", languages)
    options = (
        option_specs(dict(lines), languages, keep, form.option_ids.data or "")
        if kind.has_options
        else ()
    )
    # What the type fixes (a direct question's ε and procedure) it keeps, whatever the hidden
    # fields still hold; a design's ε is derived from its parameters.
    fixed = kind.fixed_fields()
    procedure = fixed.get("procedure", form.procedure.data)
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
        parameters_from_form(form, kind, procedure, languages),
        fixed.get("epsilon_permanent", form.epsilon_permanent.data),
        required=bool(form.required.data),
    )


def parameters_from_form(form, kind, procedure: str, languages: list[str]) -> DesignParameters:
    """What the question states besides ε: a number's range, an open answer's length, or the
    chosen design's parameters."""
    if kind.has_range:
        return scale_from_form(form, languages)
    if kind.written:
        return DesignParameters(max_length=form.max_length.data)
    return design_from_form(form, procedure, languages)


def scale_from_form(form, languages: list[str]) -> DesignParameters:
    """A number question's range and unit from their fields."""
    unit = form_texts(form, "unit", languages).stripped()
    return DesignParameters(
        scale=Scale(form.value_min.data, form.value_max.data, form.value_step.data, unit)
    )


def design_data(design: DesignParameters) -> dict:
    """A design's stated numbers as form data (the defaults stay where it states none)."""
    data = dict(design.shares)
    for number, arm in enumerate(design.arms or (), start=1):
        data |= {f"arm_{number}_{name}": value for name, value in zip(ARM_FIELDS, arm, strict=True)}
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
        tuple(form[f"arm_{number}_{name}"].data for name in ARM_FIELDS) for number in (1, 2)
    )
    return DesignParameters.of(
        **{name: form[name].data for name in design.fields.share_names() if name != "arms"},
        arms=arms if "arms" in design.fields.parameters else None,
        innocuous_text=form_texts(form, "innocuous", languages).stripped()
        if design.fields.innocuous
        else None,
        randomizer=form.randomizer.data if design.fields.own else None,
    )


FORM_FIELDS = {"id": "key", "type": "kind", "text": "text", "epsilon": "epsilon"}
FORM_FIELDS |= {"procedure": "procedure", "options": "options", "question": "text"}
FORM_FIELDS |= {name: name for name in (*builder_share_fields(), "randomizer")}
FORM_FIELDS |= {"min": "value_min", "max": "value_max", "step": "value_step", "unit": "unit"}
FORM_FIELDS |= {"max_length": "max_length"}
OPTION_PLACE = re.compile(r"\.options\[(\d+)\]")
ARM_PLACE = re.compile(r"\.arms\[(\d)\](?:\.(\w+))?")


def show_problems(form, problems, languages: list[str]) -> None:
    """Attach each problem to the field it is about (in its language); an option's to the
    options, by number."""
    for problem in problems:
        option = OPTION_PLACE.search(problem.place)
        if option:
            number = int(option.group(1)) + 1
            name = "option_ids" if problem.field == "id" else "options"
            message = _("Option %(number)d: %(message)s", number=number, message=problem.message)
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
    if arm:
        return f"arm_{int(arm[1]) + 1}_{arm[2] or 'p_truth'}"
    if ".arms" in place:
        return "arm_1_p_truth"
    if ".innocuous." in place:
        return "innocuous" if ".innocuous.text" in place else "prevalence"
    return None
