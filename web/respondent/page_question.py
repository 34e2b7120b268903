"""A question as the respondent's page draws it: what its script needs to draw, remember and
send each item, passed as JSON (``page_config`` in :mod:`web.respondent.views`)."""

from __future__ import annotations

import json
import math

from web.core.infrastructure.i18n import shown
from web.core.models import Question
from web.core.surveys.flow.display import question_of
from web.core.surveys.flow.pages import PageSpec, stored_pages
from web.core.surveys.flow.quotas import Quota
from web.core.surveys.flow.walk import Flow
from web.core.surveys.scales import Scale
from web.core.surveys.series import page_light, permanent_report
from web.core.surveys.texts import Texts


def page_question(question: Question) -> dict:
    """The page's entry for one question: its answer's shape, its items, and how each is drawn."""
    return {
        "id": question.key,
        # An experiment's row: the id its answer is sent under, and its condition.
        **(
            {"sentAs": question.question_id, "condition": question.condition}
            if question.condition is not None
            else {}
        ),
        # Asked directly: nothing drawn, nothing kept, the answer sent as given.
        **({"plain": True} if not question.asked_with.protects else {}),
        "type": question.kind,
        # Whether it must be answered: every other question may be skipped before its spin.
        **({"required": True} if question.required else {}),
        # Answered as one bit, a bit per option, or one option; the spins, in order.
        "answer": question.type.answer_shape,
        "items": _page_items(question),
        "procedure": question.procedure,
        # What a remembered draw must have been drawn under: the procedure, and a
        # design's parameters (a draw under others is never replayed).
        "drawnUnder": _drawn_under(question),
        # No bound (the lie detector) goes as 0: the memo keys a draw by a finite ε, and the
        # series' ledger adds nothing for it, as the survey's total leaves it out.
        "epsilon": 0.0 if math.isinf(question.epsilon) else question.epsilon,
        "lightFraction": page_light(question),
        # A permanent report per value, kept for the series: ε∞, k and its keep share.
        "permanent": _permanent_numbers(question),
        # The page draws (spin) or the respondent reports what their own die, coin or
        # crosswise question gave (report).
        "mode": "report" if question.asked_with.page.own_randomizer(question.design) else "spin",
        # Drawn and kept before it is answered (static/js/arm-draw.js): an arm, a list.
        **({"drawsFirst": True} if question.asked_with.page.draws_first else {}),
        # A spinner's: what its dark share does ("coin" or "opposite").
        "dark": question.asked_with.page.descriptor.get("dark"),
        "sectors": question.asked_with.page.sectors(question.design),
        # What a report of 0 and of 1 say (yes and no, or the design's own words).
        "reportWords": question.asked_with.page.report_words(question.design),
        # A design of two arms with wheels: one per arm, the arm drawn when the respondent spins.
        "armSectors": question.asked_with.page.arm_sectors(question.design),
        # A number question's range: what the field takes and the value wheel's scale.
        "scale": _scale_numbers(question.design.scale),
        "options": [
            {"id": option.key, "text": shown(option.texts).text} for option in question.options
        ],
        # A list experiment's control items, by id (the long list adds the sensitive item).
        **(
            {"listItems": [row.key for row in question.design.controls]}
            if question.design.controls is not None
            else {}
        ),
        # A double list's second list (the sensitive item goes in one of the two).
        **(
            {"listItemsB": [row.key for row in question.design.controls_b]}
            if question.design.controls_b is not None
            else {}
        ),
        # A grid's rows, each answered on the options.
        **(
            {
                "rows": [
                    {"id": row.key, "text": shown(row.text).text} for row in question.design.rows
                ]
            }
            if question.design.rows is not None
            else {}
        ),
    }


def _page_items(question: Question) -> list[str]:
    """What the page draws and remembers for the question, item by item."""
    return question.type.page_items(question.key, [option.key for option in question.options])


def _drawn_under(question: Question) -> str:
    """What a draw depends on besides ε, as the page's memo keeps it: the procedure, and a
    design's parameters (a draw made under others is never replayed)."""
    if question.epsilon_permanent is not None:
        return f"{question.procedure}:permanent:{json.dumps(question.epsilon_permanent)}"
    if not question.asked_with.derived and question.design.scale is None:
        return question.procedure
    return f"{question.procedure}:{json.dumps(question.design.numbers())}"


def _permanent_numbers(question: Question) -> dict | None:
    """What the page draws the permanent reports with (none without ε∞)."""
    layers = permanent_report(question)
    if layers is None:
        return None
    labels = question.type.permanent_labels([option.key for option in question.options])
    return {"epsilonPermanent": layers.epsilon_permanent, "values": layers.k,
            "labels": labels, "keep": layers.keep}  # fmt: skip


def _scale_numbers(scale: Scale | None) -> dict | None:
    """A number question's min, max, step and unit in the page's language (None for other
    types)."""
    if scale is None:
        return None
    unit = shown(scale.unit).text if scale.unit else ""
    return {"min": scale.low, "max": scale.high, "step": scale.step, "unit": unit}


def page_pages(survey, flow: Flow) -> tuple[PageSpec, ...] | None:
    """The pages the survey's page draws one at a time, or None for one page with every question
    in the file's order (no pages, display rules or drawn orders); ``flow`` is the survey's."""
    if flow.simple:
        return None
    ids = tuple(dict.fromkeys(question.question_id for question in survey.questions))
    return stored_pages(survey.pages) or (PageSpec("", Texts(), ids),)


def page_flow(flow: Flow) -> dict | None:
    """What the page's script needs to show the pages, decide what is shown and draw the orders
    (static/js/pages.js), or None where there is nothing to decide."""
    if flow.simple:
        return None
    return {
        "pages": [
            {"id": page.key or "", "questions": list(page.questions), "randomize": page.randomize,
             "showIf": None if page.show_if is None else page.show_if.to_dict(),
             "screenOutIf": None if page.screen_out_if is None else page.screen_out_if.to_dict()}
            for page in flow.pages
        ],
        "rules": {name: rule.to_dict() for name, rule in flow.rules},
        "shuffled": [
            {"question": each.question, "options": list(each.options), "fixed": list(each.fixed)}
            for each in flow.shuffled
        ],
    }  # fmt: skip


def page_quotas(quotas: tuple[Quota, ...], flow: Flow) -> list[dict]:
    """Each quota with its condition and the page at whose end it is decided (the last that
    asks a question it reads): the page asks there whether it is full (static/js/ending.js)."""
    page_of = {name: str(page.key or "") for page in flow.pages for name in page.questions}
    order = [str(page.key or "") for page in flow.pages]
    return [
        {
            "id": quota.key,
            "rule": quota.rule.to_dict(),
            "decidedAt": max((page_of[question_of(name)] for name in quota.rule.reads()),
                             key=order.index),
        }
        for quota in quotas
    ]  # fmt: skip
