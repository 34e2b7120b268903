"""What the two-answers page shows: two yes/no items' true answers together (their 2 × 2 table
with intervals, P(B | A), P(B | not A) and their correlation), from the joint model."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _

from web.core.models import Survey
from web.core.results.by_group import GroupingError
from web.core.results.cells import direct_questions
from web.core.results.joint import joint_document
from web.core.results.synthetic import model_items
from web.workspace.group_analysis import item_choices


@dataclass
class JointPage:
    items: list[tuple[str, str]]  # (item id, label) of every yes/no item
    first: str | None = None
    second: str | None = None
    document: dict | None = None
    problem: str | None = None
    cells: dict = field(default_factory=dict)  # (first's value, second's value) -> cell

    def label(self, item: str) -> str:
        return dict(self.items).get(item, item)


def joint_page(survey: Survey, args, min_n: int) -> JointPage:
    """The page for ``a`` and ``b`` in ``args`` (the first two yes/no items by default)."""
    binary, _notes = model_items(survey)
    labels = dict(item_choices(survey))
    directs = {q.key for q in direct_questions(survey.questions)}
    directs |= {q.key for q in survey.questions if q.type.sums_to_one}
    items = [(name, labels.get(name, name)) for name in binary if name not in directs]
    page = JointPage(items)
    if len(items) < 2:
        page.problem = _("This survey needs two yes/no questions (or options) for this page.")
        return page
    names = [name for name, _ in items]
    page.first = args.get("a") if args.get("a") in names else names[0]
    second = args.get("b") if args.get("b") in names else names[1]
    page.second = second if second != page.first else next(n for n in names if n != page.first)
    try:
        page.document = joint_document(survey, [page.first, page.second], min_n)
    except GroupingError as error:
        page.problem = str(error)
        return page
    page.cells = {(c[page.first], c[page.second]): c for c in page.document["cells"]}
    return page
