"""A survey shared with a team: roles at every door (a survey without a role is 404, an action the
role does not allow 403, in the pages and through a token), the owner's People card, `flask share`,
and the audit log of researchers' actions, to the minute, with no respondent in it."""

from __future__ import annotations

import json

import pytest

from tests.conftest import PASSWORD, SAMPLE_SURVEY, Researcher
from tests.helpers import bearer, submit_answers
from web.core.infrastructure.extensions import db
from web.core.models import AuditEvent

OWNER, COLLEAGUE, STRANGER = "olga@example.org", "carl@example.org", "sam@example.org"


@pytest.fixture
def shared(app, runner, tmp_path, make_researcher):
    """A survey owned by Olga (open, imported from a file), and Carl's and Sam's accounts."""
    owner = make_researcher(OWNER)
    for email in (COLLEAGUE, STRANGER):
        assert runner.invoke(args=["create-user", email, "--password", PASSWORD]).exit_code == 0
    path = tmp_path / "survey.json"
    path.write_text(json.dumps(SAMPLE_SURVEY), encoding="utf-8")
    result = runner.invoke(args=["import-survey", str(path), "--owner", OWNER, "--status", "open"])
    assert result.exit_code == 0, result.output
    return owner, SAMPLE_SURVEY["slug"]


def token_of(runner, email: str, write: bool = False) -> str:
    result = runner.invoke(args=["create-token", email, *(["--write"] if write else [])])
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()[-1]


# The pages and routes each role opens (200 or a redirect), and the first role that may.
DOORS = [
    ("get", "/surveys/{slug}", "viewer"),
    ("get", "/surveys/{slug}/estimates.csv", "viewer"),
    ("get", "/surveys/{slug}/responses.csv", "analyst"),
    ("get", "/surveys/{slug}/responses.sav", "analyst"),
    ("get", "/surveys/{slug}/codebook.json", "analyst"),
    ("get", "/surveys/{slug}/edit", "editor"),
    ("get", "/surveys/{slug}/devices", "editor"),
    ("post", "/surveys/{slug}/delete", "owner"),
    ("post", "/surveys/{slug}/people/remove", "owner"),
]
ROLES = ("viewer", "analyst", "editor", "owner")


@pytest.mark.parametrize("role", ROLES)
def test_each_page_opens_to_the_roles_that_may_use_it_and_403s_the_others(
    app, runner, shared, role
):
    _owner, slug = shared
    assert runner.invoke(args=["share", slug, COLLEAGUE, "--role", role]).exit_code == 0
    colleague = Researcher(app.test_client(), COLLEAGUE)
    for method, path, needed in DOORS:
        allowed = ROLES.index(role) >= ROLES.index(needed)
        if allowed and method == "post":
            continue  # deleting, unsharing: really done; only whether the door is shut is asked
        url = path.format(slug=slug)
        reply = colleague.post(url) if method == "post" else colleague.get(url)
        assert (reply.status_code < 400) == allowed, (role, url, reply.status_code)
        if not allowed:
            assert reply.status_code == 403
            assert "Your role on this survey" in reply.get_data(as_text=True)


def test_a_survey_without_a_role_is_404_everywhere(app, runner, shared, client):
    _owner, slug = shared
    stranger = Researcher(app.test_client(), STRANGER)
    assert stranger.get(f"/surveys/{slug}").status_code == 404
    assert stranger.get(f"/surveys/{slug}/responses.csv").status_code == 404
    token = token_of(runner, STRANGER)
    assert client.get(f"/api/surveys/{slug}/results", headers=bearer(token)).status_code == 404
    assert slug not in stranger.get("/surveys").get_data(as_text=True)


def test_a_token_acts_with_its_accounts_role(app, runner, shared, client):
    _owner, slug = shared
    runner.invoke(args=["share", slug, COLLEAGUE, "--role", "viewer"])
    token = token_of(runner, COLLEAGUE, write=True)
    listed = client.get("/api/surveys", headers=bearer(token)).get_json()["surveys"]
    assert [survey["slug"] for survey in listed] == [slug]
    assert client.get(f"/api/surveys/{slug}", headers=bearer(token)).status_code == 200
    for path in ("results", "responses.csv", "methods", "fieldwork"):
        reply = client.get(f"/api/surveys/{slug}/{path}", headers=bearer(token))
        assert reply.status_code == 403 and "needs analyst" in reply.get_json()["error"], path
    assert client.post(f"/api/surveys/{slug}/close", headers=bearer(token)).status_code == 403
    runner.invoke(args=["share", slug, COLLEAGUE, "--role", "analyst"])
    assert client.get(f"/api/surveys/{slug}/results", headers=bearer(token)).status_code == 200
    assert client.post(f"/api/surveys/{slug}/close", headers=bearer(token)).status_code == 403
    assert client.get(f"/api/surveys/{slug}/audit", headers=bearer(token)).status_code == 403
    runner.invoke(args=["share", slug, COLLEAGUE, "--role", "editor"])
    assert client.post(f"/api/surveys/{slug}/close", headers=bearer(token)).status_code == 200


def test_the_owner_shares_and_unshares_on_the_people_card(app, shared):
    owner, slug = shared
    page = owner.get(f"/surveys/{slug}").get_data(as_text=True)
    assert 'id="people"' in page and "Only you have a role" in page and 'id="audit"' in page
    reply = owner.post(
        f"/surveys/{slug}/people", data={"email": COLLEAGUE.upper(), "role": "editor"}
    )
    assert reply.status_code == 302
    page = owner.get(f"/surveys/{slug}").get_data(as_text=True)
    assert f'data-member="{COLLEAGUE}"' in page and "Shared with carl@example.org as editor" in page
    # An email with no account is invited (tests/web/core/surveys/test_invitations.py); not an email, refused.
    wrong = owner.post(f"/surveys/{slug}/people", data={"email": "nobody", "role": "viewer"})
    assert "Give a colleague" in owner.get(wrong.location).get_data(as_text=True)
    colleague = Researcher(app.test_client(), COLLEAGUE)
    assert colleague.get(f"/surveys/{slug}/edit").status_code == 200
    dashboard = colleague.get(f"/surveys/{slug}").get_data(as_text=True)
    assert 'id="people"' not in dashboard and "You are editor on this survey" in dashboard
    assert (
        colleague.post(
            f"/surveys/{slug}/people", data={"email": STRANGER, "role": "owner"}
        ).status_code
        == 403
    )
    assert (
        owner.post(f"/surveys/{slug}/people/remove", data={"email": COLLEAGUE}).status_code == 302
    )
    assert colleague.get(f"/surveys/{slug}").status_code == 404


def test_the_command_line_shares_changes_and_removes_a_role(runner, shared):
    _owner, slug = shared
    assert (
        runner.invoke(args=["share", slug, COLLEAGUE, "--role", "viewer"]).output
        == f"{COLLEAGUE}\tviewer\n"
    )
    assert (
        runner.invoke(args=["share", slug, COLLEAGUE, "--role", "editor"]).output
        == f"{COLLEAGUE}\teditor\n"
    )
    refused = runner.invoke(args=["share", slug, OWNER, "--role", "viewer"])
    assert refused.exit_code != 0 and "owns this survey" in refused.output
    assert runner.invoke(args=["share", slug, COLLEAGUE, "--remove"]).output == ""
    assert runner.invoke(args=["share", slug, COLLEAGUE, "--remove"]).exit_code != 0


def test_the_audit_log_holds_researchers_actions_to_the_minute_and_no_respondent(
    app, runner, shared, client
):
    owner, slug = shared
    runner.invoke(args=["share", slug, COLLEAGUE, "--role", "analyst"])
    owner.post(f"/surveys/{slug}/status", data={"status": "closed"})
    owner.post(f"/surveys/{slug}/status", data={"status": "open"})
    owner.post(f"/surveys/{slug}/devices", data={"label": "Tablet 1"})
    owner.get(f"/surveys/{slug}/responses.csv").get_data()
    for _ in range(3):
        with app.test_client() as respondent:
            assert submit_answers(respondent, slug, {"answers": {"cheated": 1}}).status_code in (
                201,
                400,
            )
    owner_token = token_of(runner, OWNER)
    events = client.get(f"/api/surveys/{slug}/audit", headers=bearer(owner_token)).get_json()[
        "events"
    ]
    actions = [(event["action"], event["by"], event["detail"]) for event in reversed(events)]
    assert actions == [
        ("imported", OWNER, "survey.json"),
        ("shared", None, f"{COLLEAGUE} as analyst"),
        ("closed", OWNER, ""),
        ("opened", OWNER, ""),
        ("device_link", OWNER, "Tablet 1"),
        ("exported", OWNER, "responses.csv"),
    ]
    assert all(
        event["at"].endswith("Z") and len(event["at"]) == len("2026-11-28T18:05Z")
        for event in events
    )
    with app.app_context():
        assert {at.second for at in db.session.scalars(db.select(AuditEvent.at))} == {0}
    page = owner.get(f"/surveys/{slug}").get_data(as_text=True)
    assert 'data-action="device_link"' in page and "made a field-device link" in page
    printed = runner.invoke(args=["audit", slug]).output.splitlines()
    # The dashboard's verb, not the stored action's name.
    assert printed[0].split("\t")[1:] == [OWNER, "downloaded responses.csv"]
