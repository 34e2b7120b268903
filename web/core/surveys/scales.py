"""The range of a number question: what a respondent may answer and what its mean is read on.

A number question ("how many drinks last week?") states ``min``, ``max`` and ``step`` (every
answer is min + a whole number of steps, at most :data:`MAX_STEPS` of them) and an optional
``unit`` per language. Its one report per respondent is the one-bit mean of :mod:`rr.mean`: the
range is a privacy parameter like ε, frozen once the question has responses, because every
estimate is read through it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

import rr
from web.core.surveys.texts import Texts

MAX_STEPS = 1_000_000
# How far from a step a value may lie and still be on it (a decimal typed on a page of floats;
# static/js/procedure.js's checkedValue allows the same).
ON_STEP = 1e-6
MAX_UNIT = 40
# The fields a number question writes in a survey file, beside ε and the procedure.
SCALE_FIELDS = ("min", "max", "step", "unit")


@dataclass(frozen=True)
class Scale:
    """A number question's range as stated (anything, until :func:`scale_problems` passes it)."""

    low: Any = None
    high: Any = None
    step: Any = None
    unit: Texts = Texts()

    def numbers(self) -> tuple:
        """What the estimates depend on (frozen with the question's other privacy parameters)."""
        return (self.low, self.high, self.step)

    @property
    def steps(self) -> int:
        """How many steps the range holds; assumes a checked scale."""
        return round((self.high - self.low) / self.step)

    def takes(self, value: float) -> bool:
        """Whether ``value`` lies in the range on one of its steps (as the page's
        ``checkedValue`` says: within ``ON_STEP`` of a step); assumes a checked scale."""
        steps = (value - self.low) / self.step
        return self.low <= value <= self.high and abs(steps - round(steps)) <= ON_STEP

    def mean(self, epsilon: float, procedure: str) -> rr.BoundedMean:
        """The one-bit mean its reports estimate; assumes a checked scale."""
        return rr.bounded_mean(self.low, self.high, epsilon, procedure)

    def to_store(self) -> dict:
        stored = {"min": self.low, "max": self.high, "step": self.step}
        if self.unit:
            stored["unit"] = dict(self.unit)
        return stored

    @classmethod
    def stored(cls, data: dict) -> Scale:
        return cls(data["min"], data["max"], data["step"], Texts(data.get("unit") or {}))

    def for_file(self, languages: list[str]) -> dict:
        data: dict[str, Any] = {"min": self.low, "max": self.high, "step": self.step}
        if self.unit:
            data["unit"] = self.unit.for_file(languages)
        return data


def _number(value) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)


def scale_problems(scale: Scale) -> list[tuple[str, str]]:
    """Mistakes in a range, each as (field, message): bounds that are not numbers or not in
    order, a step that is not positive or does not divide the range, too many steps, a unit too
    long."""
    problems = [
        (name, _("must be a number, got %(value)r", value=value))
        for name, value in (("min", scale.low), ("max", scale.high), ("step", scale.step))
        if not _number(value)
    ]
    if any(len(text) > MAX_UNIT for text in scale.unit.values()):
        problems.append(("unit", _("at most %(limit)d characters", limit=MAX_UNIT)))
    if problems:
        return problems
    if scale.low >= scale.high:
        return [
            (
                "max",
                _(
                    "must be above min, got min %(low)s and max %(high)s",
                    low=f"{scale.low:g}",
                    high=f"{scale.high:g}",
                ),
            )
        ]
    if scale.step <= 0:
        return [("step", _("must be above 0, got %(value)s", value=f"{scale.step:g}"))]
    steps = (scale.high - scale.low) / scale.step
    if steps > MAX_STEPS:
        return [
            (
                "step",
                _(
                    "at most %(limit)s steps from min to max, got %(count)s",
                    limit=f"{MAX_STEPS:,}",
                    count=f"{steps:,.0f}",
                ),
            )
        ]
    if abs(steps - round(steps)) > 1e-9 * max(1.0, steps):
        return [
            (
                "step",
                _(
                    "must divide the range from %(low)s to %(high)s into whole steps, got %(step)s",
                    low=f"{scale.low:g}",
                    high=f"{scale.high:g}",
                    step=f"{scale.step:g}",
                ),
            )
        ]
    return []
