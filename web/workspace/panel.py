"""What the results panel shows: estimates once enough responses are in, charts and notes."""

from __future__ import annotations

from flask_babel import gettext as _

from web.core.chart import Bar, estimate_chart
from web.core.i18n import percent
from web.core.models import Survey
from web.core.results import survey_results


def results_panel(survey: Survey, min_n: int) -> dict:
    """Per question: rows of numbers (hidden below ``min_n`` responses) and a chart."""
    results = survey_results(survey)
    questions = []
    for index, question in enumerate(results["questions"]):
        rows = (
            question["options"] if question["type"] == "multi" else [dict(question, text=_("Yes"))]
        )
        visible = all(row["n"] >= min_n for row in rows)
        entry = {"question": question, "rows": rows, "visible": visible, "n": rows[0]["n"]}
        if visible:
            entry["outside"] = [row for row in rows if not 0 <= row["estimate"] <= 1]
            entry["chart"] = estimate_chart(
                [Bar(row["text"], row["estimate"], row["ci_low"], row["ci_high"]) for row in rows],
                title=_("Estimated share answering yes: %(question)s", question=question["text"]),
                description=describe(rows),
                chart_id=f"chart-{index}",
                show=lambda share: percent(share, 0),
            )
        questions.append(entry)
    return {"results": results, "questions": questions, "min_n": min_n}


def describe(rows: list[dict]) -> str:
    """The chart in words, for screen readers."""
    return "; ".join(
        _(
            "%(label)s: estimate %(estimate)s, 95%% interval %(low)s to %(high)s",
            label=row["text"],
            estimate=percent(row["estimate"], 0),
            low=percent(row["ci_low"], 0),
            high=percent(row["ci_high"], 0),
        )
        for row in rows
    )
