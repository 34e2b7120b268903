"""A design's fields: what it states in a survey file, an XLSForm and the builder beside
``procedure``, written out, read from a plan's query, and checked for shares in range."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from web.core.surveys.designs.parameters import (
    ARM_FIELDS,
    RANDOMIZERS,
    DesignParameters,
    arms_from_text,
    is_probability,
)
from web.core.surveys.limits import MAX_TEXT
from web.core.surveys.texts import Texts

# Parameters that are items with their wording, not shares: a list experiment's.
WORDED = ("controls", "sensitive", "controls_b")


@dataclass(frozen=True, eq=False)
class DesignFields:
    """The parameters a design states: shares by name, ``innocuous`` (an object of the innocuous
    question's text and prevalence), ``arms`` (a list of two objects of the shares
    ``arm_fields``); the builder's field for each share but an innocuous question's prevalence
    (name → lazily translated label, default); and whether the respondent may draw with their own
    die or coin (``"randomizer": "own"``)."""

    parameters: tuple[str, ...] = ()
    shares: Mapping[str, tuple[object, float]] = field(default_factory=dict)
    own: bool = False
    arm_fields: tuple[str, ...] = ARM_FIELDS

    @property
    def arm_innocuous(self) -> bool:
        """Whether each arm asks an innocuous question of its own (its text and prevalence: the
        arm's one share is its ``prevalence``)."""
        return self.arm_fields == ("innocuous",)

    def arm_share_names(self) -> tuple[str, ...]:
        """Each arm's shares by name (an arm's innocuous question states ``prevalence``)."""
        return ("prevalence",) if self.arm_innocuous else self.arm_fields

    def arm_form_fields(self) -> list[str]:
        """The builder's fields of its arms (none for a design without arms): each arm's shares,
        and an arm's innocuous question (its wording, by language, is a translated field)."""
        if "arms" not in self.parameters:
            return []
        texts = ("innocuous",) if self.arm_innocuous else ()
        names = (*texts, *self.arm_share_names())
        return [f"arm_{number}_{name}" for number in (1, 2) for name in names]

    @property
    def innocuous(self) -> bool:
        """Whether it asks an innocuous question (its text and prevalence)."""
        return "innocuous" in self.parameters

    def share_names(self) -> tuple[str, ...]:
        """Its numbers as shares are named (``innocuous`` states ``prevalence``); also the query
        arguments a plan of the design reads besides ε, n and the procedure."""
        return tuple(
            "prevalence" if name == "innocuous" else name
            for name in self.parameters
            if name not in WORDED
        )

    def for_file(self, parameters: DesignParameters, languages: list[str]) -> dict:
        """The fields a survey file writes beside ``procedure``."""
        data: dict[str, Any] = {}
        for name in self.parameters:
            if name == "innocuous":
                data["innocuous"] = {
                    "text": parameters.innocuous_text.for_file(languages),
                    "prevalence": parameters.share("prevalence"),
                }
            elif name == "arms" and self.arm_innocuous:
                texts = parameters.arm_texts or ()
                data["arms"] = [
                    {"innocuous": {"text": text.for_file(languages), "prevalence": arm[0]}}
                    for arm, text in zip(parameters.arms or (), texts, strict=True)
                ]
            elif name == "arms":
                data["arms"] = [
                    dict(zip(self.arm_fields, arm, strict=True)) for arm in parameters.arms or ()
                ]
            elif name in ("controls", "controls_b"):
                items = getattr(parameters, name)
                if items is not None:
                    data[name] = [
                        {"id": row.key, "text": row.text.for_file(languages)} for row in items
                    ]
            elif name == "sensitive":
                if parameters.sensitive_text:
                    data["sensitive"] = {"text": parameters.sensitive_text.for_file(languages)}
            else:
                data[name] = parameters.share(name)
        if self.own and parameters.randomizer != "page":
            data["randomizer"] = parameters.randomizer
        return data

    def builder(self) -> list[str]:
        """The builder's fields it shows: its shares, then an innocuous question's text and
        prevalence, the randomizer, the arms' shares."""
        fields = list(self.shares)
        fields += ["innocuous", "prevalence"] if self.innocuous else []
        fields += ["randomizer"] if self.own else []
        return fields + self.arm_form_fields()

    def from_query(self, query) -> dict:
        """The numbers a plan's query states (``query`` a mapping of strings): each share as a
        number, or None where it is missing or not one; arms as written ``t,f_yes,f_no;…``."""
        if "arms" in self.parameters:
            return {"arms": arms_from_text(query.get("arms", ""), len(self.arm_share_names()))}
        if "controls" in self.parameters:  # a list's J
            text = query.get("controls", "")
            return {"controls": int(text) if text.isdigit() else None}
        return {name: _float_or_none(query.get(name)) for name in self.share_names()}

    def planned(self, numbers: dict) -> DesignParameters:
        """The parameters a plan's ``numbers`` state (an innocuous question stands in)."""
        return DesignParameters.of(
            **{name: numbers.get(name) for name in self.share_names()},
            innocuous_text=Texts.one("en", "innocuous") if self.innocuous else None,
            arm_texts=(Texts.one("en", "innocuous"),) * 2 if self.arm_innocuous else None,
        )

    def problems(self, parameters: DesignParameters) -> list[tuple[str, str]]:
        """Each stated share out of [0, 1], an innocuous question without text, a bad randomizer;
        as (field, message) in the viewer's language."""
        problems = []
        for name in self.parameters:
            if name in WORDED:
                continue  # items and their wording: question_checks.py checks them
            field_name = "innocuous.prevalence" if name == "innocuous" else name
            value = parameters.share("prevalence" if name == "innocuous" else name)
            if not is_probability(value):
                problems.append(
                    (field_name, _("must be a number from 0 to 1, got %(value)r", value=value))
                )
        if self.innocuous:
            if not parameters.innocuous_text:
                problems.append(("innocuous.text", _("the innocuous question needs its text")))
            elif any(len(text) > MAX_TEXT for text in parameters.innocuous_text.values()):
                problems.append(
                    ("innocuous.text", _("at most %(limit)d characters", limit=MAX_TEXT))
                )
        if parameters.randomizer not in RANDOMIZERS:
            problems.append(
                (
                    "randomizer",
                    _("must be 'page' or 'own', got %(value)r", value=parameters.randomizer),
                )
            )
        return problems


def _float_or_none(text):
    try:
        return float(text)
    except (TypeError, ValueError, OverflowError):
        return None
