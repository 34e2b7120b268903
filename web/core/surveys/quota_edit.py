"""Changing a survey's quotas after it was made (the builder's Fielding section, and a test's
setup): checked as a file's ``quotas`` are, each limit written beside its count so that a raised
limit holds at once, and a quota's condition kept once it has counted completes."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from web.core.infrastructure.extensions import db
from web.core.models import FieldworkCount, Survey
from web.core.surveys.editing import EditError, new_revision
from web.core.surveys.flow.quotas import read_quotas, stored_quotas
from web.core.surveys.flow.walk import flow_problems
from web.core.surveys.problems import Problem
from web.core.surveys.survey_checks import file_places


def set_quotas(survey: Survey, value: list[dict[str, Any]] | None) -> None:
    """Give the survey these quotas (a file's ``quotas``; None or empty for none). A changed
    condition moves the survey to a new revision (the page decides it); a changed limit does
    not, and holds for the next submission."""
    quotas, problems = read_quotas(value or None)
    if not problems:
        spec = survey.to_spec()
        places = file_places(spec.questions)
        problems = [
            problem
            for problem in flow_problems(
                spec.questions, places, spec.pages, spec.languages, False, True, quotas
            )
            if problem.place.startswith("quotas")
        ]
    counts = FieldworkCount.of_survey(survey.id)
    before = {quota.key: quota for quota in stored_quotas(survey.quotas)}
    for index, quota in enumerate(quotas):
        old = before.get(quota.key)
        if (
            old is not None
            and old.rule != quota.rule
            and counts.get((FieldworkCount.QUOTA, quota.key))
        ):
            problems.append(Problem(f"quotas[{index}]", _(
                "%(id)r has counted completes: its condition stays. Change its limit, or add "
                "another quota", id=quota.key)))  # fmt: skip
    if problems:
        raise EditError(problems)
    if {key: quota.rule for key, quota in before.items()} != {q.key: q.rule for q in quotas}:
        new_revision(survey)
    for quota in quotas:
        db.session.execute(
            db.update(FieldworkCount)
            .where(FieldworkCount.survey_id == survey.id, FieldworkCount.kind == FieldworkCount.QUOTA,
                   FieldworkCount.key == quota.key)
            .values(quota_limit=quota.limit)
        )  # fmt: skip
    survey.quotas = [quota.to_dict() for quota in quotas] or None
    survey.edits += 1
