"""One table says what each role may (web/core/surveys/permissions.py): each role is walked through
every dashboard card and every researcher route, in the pages and through the API, and what it
finds is compared with the table; the guide prints the same table (docs/field/team.md)."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import PASSWORD, SAMPLE_SURVEY, Researcher
from tests.guide import page
from tests.helpers import bearer
from web.core.models.team import ROLES
from web.core.surveys.permissions import CAPABILITIES, may, roles_table

OWNER, COLLEAGUE = "olga@example.org", "carl@example.org"
SURVEY = {
    **SAMPLE_SURVEY,
    "questions": [
        *SAMPLE_SURVEY["questions"],
        {"id": "comment", "type": "text", "text": "Anything else?", "max_length": 80},
    ],
}
SLUG = SURVEY["slug"]
# What marks each card or control of the dashboard, and what the table calls it.
CARDS = {
    'id="results-panel"': "estimates",
    'class="result open-answers"': "open_answers",
    'id="methods"': "methods",
    f'href="/surveys/{SLUG}/responses.csv"': "responses",
    f'href="/surveys/{SLUG}/codebook.json"': "responses",
    f'href="/surveys/{SLUG}/joint"': "responses",
    f'href="/surveys/{SLUG}/estimates.csv"': "estimates",
    f'href="/surveys/{SLUG}/present"': "estimates",
    f'href="/surveys/{SLUG}/edit"': "edit",
    f'href="/surveys/{SLUG}/devices"': "edit",
    'id="people"': "team",
    'id="audit"': "team",
    f'action="/surveys/{SLUG}/delete"': "delete",
}
# Every researcher route of one survey: the pages with a session, the API with a token (what
# changes or deletes the survey last).
PAGES = [
    ("get", "/surveys/{slug}", "estimates"),
    ("get", "/surveys/{slug}/panel", "estimates"),
    ("get", "/surveys/{slug}/present", "estimates"),
    ("get", "/surveys/{slug}/present/panel", "estimates"),
    ("get", "/surveys/{slug}/groups", "estimates"),
    ("get", "/surveys/{slug}/estimates.csv", "estimates"),
    ("get", "/surveys/{slug}/responses.csv", "responses"),
    ("get", "/surveys/{slug}/responses.sav", "responses"),
    ("get", "/surveys/{slug}/responses.dta", "responses"),
    ("get", "/surveys/{slug}/codebook.json", "responses"),
    ("get", "/surveys/{slug}/survey.json", "responses"),
    ("get", "/surveys/{slug}/survey.xlsx", "responses"),
    ("get", "/surveys/{slug}/joint", "responses"),
    ("get", "/surveys/{slug}/synthetic", "responses"),
    ("get", "/surveys/{slug}/edit", "edit"),
    ("get", "/surveys/{slug}/preview", "edit"),
    ("get", "/surveys/{slug}/questions/cheated", "edit"),
    ("get", "/surveys/{slug}/questions/new", "edit"),
    ("get", "/surveys/{slug}/experiment", "edit"),
    ("get", "/surveys/{slug}/devices", "edit"),
    ("post", "/surveys/{slug}/people/remove", "team"),
    ("post", "/surveys/{slug}/duplicate", "edit"),
    ("post", "/surveys/{slug}/status", "edit"),
    ("post", "/surveys/{slug}/delete", "delete"),
]
API = [
    ("get", "/api/surveys/{slug}", "estimates"),
    ("get", "/api/surveys/{slug}/results", "api"),
    ("get", "/api/surveys/{slug}/methods", "api"),
    ("get", "/api/surveys/{slug}/fieldwork", "api"),
    ("get", "/api/surveys/{slug}/codebook.json", "api"),
    ("get", "/api/surveys/{slug}/responses.csv", "api"),
    ("get", "/api/surveys/{slug}/synthetic", "api"),
    ("get", "/api/surveys/{slug}/audit", "team"),
    ("post", "/api/surveys/{slug}/close", "edit"),
]


@pytest.fixture
def colleague_as(app, runner, tmp_path, make_researcher):
    """The survey owned by Olga, with responses; Carl's logged-in page in ``role`` and his token."""

    def make(role: str):
        make_researcher(OWNER)
        assert runner.invoke(args=["create-user", COLLEAGUE, "--password", PASSWORD]).exit_code == 0
        path = tmp_path / "survey.json"
        path.write_text(json.dumps(SURVEY), encoding="utf-8")
        imported = runner.invoke(
            args=["import-survey", str(path), "--owner", OWNER, "--status", "open"]
        )
        assert imported.exit_code == 0, imported.output
        assert runner.invoke(args=["share", SLUG, COLLEAGUE, "--role", role]).exit_code == 0
        made = runner.invoke(args=["create-token", COLLEAGUE, "--write"])
        return Researcher(app.test_client(), COLLEAGUE), made.output.strip().splitlines()[-1]

    return make


@pytest.mark.parametrize("role", ROLES)
def test_each_role_finds_on_the_dashboard_exactly_the_cards_the_table_gives_it(colleague_as, role):
    colleague, _token = colleague_as(role)
    page = colleague.get(f"/surveys/{SLUG}").get_data(as_text=True)
    found = {marker: marker in page for marker in CARDS}
    assert found == {marker: may(role, capability) for marker, capability in CARDS.items()}


@pytest.mark.parametrize("role", ROLES)
def test_each_role_opens_exactly_the_routes_the_table_gives_it(app, colleague_as, role):
    colleague, token = colleague_as(role)
    opened = {}
    client = app.test_client()
    for method, path, capability in API:
        answered = getattr(client, method)(path.format(slug=SLUG), headers=bearer(token))
        opened[path] = (answered.status_code != 403, may(role, capability), answered.status_code)
    for method, path, capability in PAGES:  # the survey's deletion last
        answered = getattr(colleague, method)(path.format(slug=SLUG))
        opened[path] = (answered.status_code != 403, may(role, capability), answered.status_code)
    wrong = {path: status for path, (open_, allowed, status) in opened.items() if open_ != allowed}
    assert wrong == {}
    assert all(status != 404 and status < 500 for _open, _allowed, status in opened.values())


def test_every_capability_is_checked_somewhere():
    named = {capability for _m, _p, capability in PAGES + API} | set(CARDS.values())
    assert named == {capability.name for capability in CAPABILITIES}


def test_the_guide_prints_the_table_the_app_applies(app, runner):
    printed = re.search(
        r"<!-- roles:[^\n]*-->\n(.*?)<!-- /roles -->", page("field/team.md"), re.DOTALL
    )
    with app.app_context():
        assert printed.group(1).strip() == roles_table()
    assert runner.invoke(args=["roles"]).output.strip() == printed.group(1).strip()
