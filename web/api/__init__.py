"""The JSON API: submissions, results with a bearer token, planning figures."""

from web.api import (
    change_plan,
    experiment_plan,
    fieldwork,
    openapi,
    series,
    surveys,
    team,
    views,
)

BLUEPRINTS = (
    views.bp,
    change_plan.bp,
    experiment_plan.bp,
    fieldwork.bp,
    series.bp,
    surveys.bp,
    team.bp,
    openapi.bp,
)
