"""A design's parameters as a survey states them: named shares, an innocuous question, who draws,
cheating detection's arms and a number question's range. Which names a design states is the
design's own business (its module in this package); this holds any of them."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from web.core.surveys.scales import Scale
from web.core.surveys.texts import Texts

# Cheating detection's arms: each (p_truth, p_forced_yes, p_forced_no) as stated (a design of
# arms names its own: DesignFields.arm_fields).
ARM_FIELDS = ("p_truth", "p_forced_yes", "p_forced_no")
RANDOMIZERS = ("page", "own")
# The shares in the order a respondent's memo keys a draw by (``DesignParameters.numbers``):
# memos already kept in browsers must keep matching, so later shares only ever go after these.
FIRST_SHARES = ("p_truth", "p_forced_yes", "p_forced_no", "prevalence")
_NOT_SHARES = (
    "innocuous_text", "randomizer", "arms", "scale", "max_length", "rows", "arm_texts",
    "controls", "sensitive_text", "controls_b",
)  # fmt: skip


@dataclass(frozen=True)
class GridRow:
    """One row of a grid: its id and its wording in each language."""

    key: str
    text: Texts


@dataclass(frozen=True)
class DesignParameters:
    """A design's parameters as stated (anything, until the design's check passes them).

    ``shares`` are the design's named numbers (``p_truth``, ``prevalence`` …) as (name, value)
    pairs; :meth:`share` reads one (None where it is not stated)."""

    shares: tuple[tuple[str, Any], ...] = ()
    innocuous_text: Texts = Texts()
    randomizer: str = "page"
    arms: Any = None
    # A number question's range (web/core/surveys/scales.py): its estimates are read through it.
    scale: Scale | None = None
    # An open answer's longest length in characters (a question whose answer is text).
    max_length: Any = None
    # A grid's rows, each answered with one of the question's shared options (None: no grid).
    rows: tuple[GridRow, ...] | None = None
    # Each arm's innocuous question, by language, where a design's arms ask one each (the
    # extended crosswise model); its prevalence is the arm's share in ``arms``.
    arm_texts: tuple[Texts, ...] | None = None
    # A list experiment's control items (its short list), each with its wording by language.
    controls: tuple[GridRow, ...] | None = None
    # A list experiment's sensitive item, added in the long list (empty: the question's own text,
    # where a yes/no question is asked as a list in a split ballot).
    sensitive_text: Texts = Texts()
    # A double list's second list of control items (None: a single list).
    controls_b: tuple[GridRow, ...] | None = None

    def __post_init__(self):
        # One order whatever order they were stated in, so that equal parameters are equal.
        object.__setattr__(self, "shares", tuple(sorted(self.shares)))

    @classmethod
    def of(cls, **stated) -> DesignParameters:
        """Parameters from keywords: the fields above, and every other keyword a share (None
        values are left out)."""
        shares = tuple(
            (name, value)
            for name, value in stated.items()
            if name not in _NOT_SHARES and value is not None
        )
        rest = {name: stated[name] for name in _NOT_SHARES if stated.get(name) is not None}
        return cls(shares, **rest)

    @property
    def control_count(self) -> int:
        """A list experiment's J: its short list's items (0 for any other design); list A's
        in a double list."""
        return len(self.controls or ())

    @property
    def double_list(self) -> bool:
        """Whether a list experiment is a double list (a second list, ``controls_b``)."""
        return self.controls_b is not None

    def share(self, name: str):
        """The share called ``name`` as stated, or None."""
        return dict(self.shares).get(name)

    def numbers(self) -> tuple:
        """What the reports depend on (frozen once a question has responses): not the wording."""
        stated = dict(self.shares)
        first = tuple(stated.pop(name, None) for name in FIRST_SHARES)
        scale = self.scale.numbers() if self.scale is not None else None
        later = tuple(sorted(stated.items()))
        # After every earlier number, and only where stated, so that kept memos keep matching.
        length = () if self.max_length is None else (("max_length", self.max_length),)
        # A grid's row ids (their wording may change; a row's answers keep their meaning).
        rows = () if self.rows is None else (("rows", tuple(row.key for row in self.rows)),)
        # A list's control items by id: which count a respondent could give, and what it counts.
        controls = tuple(
            (name, tuple(row.key for row in items))
            for name, items in (("controls", self.controls), ("controls_b", self.controls_b))
            if items is not None
        )
        return (
            *first, self.randomizer, self.arms, scale, *((later,) if later else ()), *length,
            *rows, *controls,
        )  # fmt: skip

    def with_languages(self, languages) -> DesignParameters:
        """The same parameters with their texts (an innocuous question, a grid's rows) kept only
        in ``languages``."""

        def kept(texts: Texts) -> Texts:
            return Texts((code, text) for code, text in texts.items() if code in languages)

        rows = None if self.rows is None else tuple(
            GridRow(row.key, kept(row.text)) for row in self.rows
        )  # fmt: skip
        arm_texts = None if self.arm_texts is None else tuple(
            kept(text) for text in self.arm_texts
        )  # fmt: skip

        def kept_rows(found):
            return None if found is None else tuple(GridRow(r.key, kept(r.text)) for r in found)

        return replace(
            self, innocuous_text=kept(self.innocuous_text), rows=rows, arm_texts=arm_texts,
            controls=kept_rows(self.controls), sensitive_text=kept(self.sensitive_text),
            controls_b=kept_rows(self.controls_b),
        )  # fmt: skip

    # In the database: one JSON object, the innocuous question's text by language.

    def to_store(self) -> dict:
        stored: dict[str, Any] = dict(self.shares)
        if self.innocuous_text:
            stored["innocuous_text"] = dict(self.innocuous_text)
        if self.randomizer != "page":
            stored["randomizer"] = self.randomizer
        if self.arms is not None:
            stored["arms"] = [list(arm) for arm in self.arms]
        if self.scale is not None:
            stored["scale"] = self.scale.to_store()
        if self.max_length is not None:
            stored["max_length"] = self.max_length
        if self.rows is not None:
            stored["rows"] = [{"id": row.key, "text": dict(row.text)} for row in self.rows]
        if self.arm_texts is not None:
            stored["arm_texts"] = [dict(text) for text in self.arm_texts]
        if self.controls is not None:
            stored["controls"] = [{"id": row.key, "text": dict(row.text)} for row in self.controls]
        if self.sensitive_text:
            stored["sensitive_text"] = dict(self.sensitive_text)
        if self.controls_b is not None:
            stored["controls_b"] = [
                {"id": row.key, "text": dict(row.text)} for row in self.controls_b
            ]
        return stored

    @classmethod
    def stored(cls, data: dict | None) -> DesignParameters:
        data = data or {}
        return cls(
            tuple((name, value) for name, value in data.items() if name not in _NOT_SHARES),
            Texts(data.get("innocuous_text") or {}),
            data.get("randomizer", "page"),
            tuple(tuple(arm) for arm in data["arms"]) if data.get("arms") else None,
            Scale.stored(data["scale"]) if data.get("scale") else None,
            data.get("max_length"),
            _stored_rows(data.get("rows")),
            tuple(Texts(text) for text in data["arm_texts"])
            if data.get("arm_texts") is not None
            else None,
            _stored_rows(data.get("controls")),
            Texts(data.get("sensitive_text") or {}),
            _stored_rows(data.get("controls_b")),
        )


NO_PARAMETERS = DesignParameters()


def _stored_rows(rows: list | None) -> tuple[GridRow, ...] | None:
    """A grid's rows or a list's items as stored: each ``{"id", "text"}``."""
    if rows is None:
        return None
    return tuple(GridRow(row["id"], Texts(row["text"])) for row in rows)


def is_probability(value) -> bool:
    """Whether ``value`` is a real number (not a bool) in [0, 1]."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and 0 <= value <= 1
    )


def arms_from_text(text: str, width: int = len(ARM_FIELDS)) -> list[tuple] | None:
    """Arms written ``t,f_yes,f_no;t,f_yes,f_no`` (a spreadsheet cell, a query; ``width`` shares
    each), each share a number or, where it is not one, the text as written; None when the text is
    not of that form."""
    arms = []
    for arm in text.split(";"):
        shares: list[float | str] = []
        for share in arm.split(","):
            try:
                shares.append(float(share))
            except ValueError:
                shares.append(share.strip())
        if len(shares) != width:
            return None
        arms.append(tuple(shares))
    return arms
