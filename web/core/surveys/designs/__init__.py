"""The designs a question can be asked with: one module each, registered by name.

Every design turns a true answer into a report with two probabilities (:mod:`rr.design`). Its
module says everything about it: the parameters a file, an XLSForm and the builder state, their
check, the :class:`rr.Design` they make, what the respondent's page draws and says, the
researcher's words, the codebook's entry with R's models and the lab's entry. The rest of the app
asks :func:`design_named` and never compares a design's name.

The two spinners state their ε and serve every randomized question type; every other design
derives its ε from its parameters and serves yes/no questions. A new design is a new module
here: every module of the package is imported below, and each design registers itself.
"""

from __future__ import annotations

import importlib
import pkgutil

from web.core.surveys.designs.arms import ArmsDesign, arms_design
from web.core.surveys.designs.base import (
    SurveyDesign,
    UnknownDesign,
    design_named,
    design_of_plan,
    find_design,
    known_designs,
    registered,
)
from web.core.surveys.designs.parameters import (
    ARM_FIELDS,
    NO_PARAMETERS,
    DesignParameters,
    GridRow,
    arms_from_text,
)

# Every module of this package, so that each design registers itself: a new design is a new
# module here and nothing else.
for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

# Every parameter any design states in a survey file, and the randomizer.
DESIGN_FIELDS = (
    *dict.fromkeys(name for design in registered() for name in design.fields.parameters),
    "randomizer",
)
# Every share any design states, by name (``innocuous`` states ``prevalence``).
SHARE_NAMES = tuple(
    dict.fromkeys(
        name
        for design in registered()
        if design.derived
        for name in design.fields.share_names()
        if name != "arms"
    )
)


# The one design that protects nothing: a question asked plainly, of either kind (a direct
# question of options, or a yes/no question asked directly).
(ASKED_PLAINLY,) = (design for design in registered() if not design.protects)


def design_of(question) -> SurveyDesign:
    """The design ``question`` (a stored question or a file's) is asked with: its procedure's."""
    return design_named(question.procedure)


def builder_share_fields() -> dict[str, tuple[object, float]]:
    """Every design's builder field for a share, by name (the first design to declare a name
    gives its label and default)."""
    fields: dict[str, tuple[object, float]] = {}
    for design in registered():
        for name, field in design.fields.shares.items():
            fields.setdefault(name, field)
    return fields


def builder_descriptors() -> dict[str, dict]:
    """What the builder's script needs of each design: whether its ε is derived, the fields it
    shows, and its arms' shares in the order a plan's ``arms`` writes them."""
    return {
        design.name: design.page.descriptor
        | {"derived": design.derived, "fields": design.fields.builder()}
        | (
            {"armShares": list(design.fields.arm_share_names())}
            if "arms" in design.fields.parameters
            else {}
        )
        for design in registered()
    }


def builder_arm_fields() -> list[str]:
    """Every design's builder fields of its arms' shares, once each."""
    return list(
        dict.fromkeys(name for design in registered() for name in design.fields.arm_form_fields())
    )


def default_design() -> SurveyDesign:
    """The design a new question starts with (the builder's first choice)."""
    return next(design for design in registered() if design.default)


__all__ = [
    "ArmsDesign",
    "arms_design",
    "ARM_FIELDS",
    "ASKED_PLAINLY",
    "arms_from_text",
    "DESIGN_FIELDS",
    "NO_PARAMETERS",
    "SHARE_NAMES",
    "DesignParameters",
    "GridRow",
    "SurveyDesign",
    "UnknownDesign",
    "builder_arm_fields",
    "builder_descriptors",
    "builder_share_fields",
    "default_design",
    "design_of",
    "design_named",
    "design_of_plan",
    "find_design",
    "known_designs",
    "registered",
]
