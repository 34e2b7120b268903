"""A yes/no question asked as a list experiment: its text is the sensitive item of the long list
(a split ballot's condition that compares the list with direct questioning and randomized
response on one item)."""

from __future__ import annotations

from web.core.surveys.designs import registered
from web.core.surveys.questions.base import QUESTION_TYPES, register
from web.core.surveys.questions.item_count import ItemCount
from web.core.surveys.questions.yesno import YesNo


@register
class YesNoList(ItemCount):
    """A yes/no question whose design is a list experiment: answered as a ``list`` question is,
    ``{"arm": "control" | "treatment", "count": k}``, with the question's own text as the
    sensitive item (so it states no ``sensitive``). In a survey file it is a ``yesno`` question
    with ``"procedure": "list"`` and its ``controls``."""

    name = YesNo.name
    label = YesNo.label
    variant = "count"
    xlsform_select = YesNo.xlsform_select
    xlsform_list = YesNo.xlsform_list
    states_sensitive = False
    heads_its_text = False
    procedures = tuple(design.name for design in registered() if design.variant == "count")

    def options_problem(self, count: int) -> str | None:
        return QUESTION_TYPES[YesNo.name].options_problem(count)
