"""Store reported bits and keep the tallies that results are computed from."""
from __future__ import annotations

import json

import numpy as np
from sqlalchemy import insert, update

import rr

from .extensions import db
from .models import Option, Question, Response, Survey

BULK_CHUNK = 20_000


def record_response(survey: Survey, bits: dict) -> None:
    """Store one checked response and add it to the tallies, in one transaction."""
    db.session.add(Response(survey_id=survey.id, bits=json.dumps(bits, separators=(",", ":"))))
    yes = {}
    for question in survey.questions:
        answer = bits[question.key]
        if question.kind == "multi":
            yes.update({(Option, option.id): answer[option.key] for option in question.options})
        else:
            yes[(Question, question.id)] = answer
    _add_to_tallies(survey, 1, yes)
    db.session.commit()


def simulate_responses(survey: Survey, n: int, true_proportion: float, seed=None) -> None:
    """Insert ``n`` responses whose bits come from :func:`rr.perturb` on true answers drawn with
    share ``true_proportion``, in chunks, with one tally update at the end."""
    rng = np.random.default_rng(seed)
    items = _spin_items(survey)
    template = _bits_template(survey)
    totals = {key: 0 for key, _ in items}
    for start in range(0, n, BULK_CHUNK):
        size = min(BULK_CHUNK, n - start)
        columns = []
        for key, question in items:
            truth = rng.random(size) < true_proportion
            reported = rr.perturb(truth, question.epsilon, question.procedure, rng=rng)
            totals[key] += int(reported.sum())
            columns.append(reported)
        rows = np.column_stack(columns).tolist()
        db.session.execute(
            insert(Response), [{"survey_id": survey.id, "bits": template % tuple(row)} for row in rows]
        )
    _add_to_tallies(survey, n, totals)
    db.session.commit()


def _spin_items(survey: Survey) -> list[tuple[tuple[type, int], Question]]:
    """Every spin of a response in order: (tally key, the question it belongs to)."""
    items = []
    for question in survey.questions:
        if question.kind == "multi":
            items.extend(((Option, option.id), question) for option in question.options)
        else:
            items.append(((Question, question.id), question))
    return items


def _bits_template(survey: Survey) -> str:
    """A %-format string that writes one response's bits as the JSON record_response stores."""
    parts = []
    for question in survey.questions:
        if question.kind == "multi":
            inner = ",".join(f"{json.dumps(option.key)}:%d" for option in question.options)
            parts.append(f"{json.dumps(question.key)}:{{{inner}}}")
        else:
            parts.append(f"{json.dumps(question.key)}:%d")
    return "{" + ",".join(parts) + "}"


def _add_to_tallies(survey: Survey, n: int, yes: dict[tuple[type, int], int]) -> None:
    """Add n reports and their yes counts to the tallies, in the database, not in Python, so that
    concurrent submissions never lose a count."""
    db.session.execute(
        update(Survey).where(Survey.id == survey.id).values(response_count=Survey.response_count + n)
    )
    for (model, item_id), count in yes.items():
        db.session.execute(
            update(model)
            .where(model.id == item_id)
            .values(n=model.n + n, noisy_yes=model.noisy_yes + count)
        )
