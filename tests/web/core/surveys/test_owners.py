"""Every survey has an owner or says it has none: the demo belongs to the first account made, a
survey imported without --owner while accounts exist is imported with a warning, and its dashboard
says that every account may act on it."""

from __future__ import annotations

import json

from tests.conftest import PASSWORD, SAMPLE_SURVEY, csrf_token
from web.core.infrastructure.extensions import db
from web.core.models import Survey, User
from web.core.surveys.demo import DEMO_SLUG, seed_demo_survey


def owner_of_demo(app) -> str | None:
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=DEMO_SLUG))
        owner = survey.owner_id and db.session.get(User, survey.owner_id)
        return owner.email if owner else None


def test_the_demo_belongs_to_the_first_account_made_at_setup(app, client):
    with app.app_context():
        seed_demo_survey()
    form = client.get("/setup").get_data(as_text=True)
    made = client.post(
        "/setup",
        data={"csrf_token": csrf_token(form), "email": "first@example.org", "password": PASSWORD,
              "confirm": PASSWORD},
    )  # fmt: skip
    assert made.status_code == 302
    assert owner_of_demo(app) == "first@example.org"


def test_the_demo_belongs_to_the_first_account_made_on_the_command_line_only(app, runner):
    with app.app_context():
        seed_demo_survey()
    assert (
        runner.invoke(args=["create-user", "ann@example.org", "--password", PASSWORD]).exit_code
        == 0
    )
    assert (
        runner.invoke(args=["create-user", "bob@example.org", "--password", PASSWORD]).exit_code
        == 0
    )
    assert owner_of_demo(app) == "ann@example.org"


def test_a_survey_without_an_owner_is_imported_with_a_warning_and_says_so(
    app, runner, survey_file, researcher, tmp_path
):
    imported = runner.invoke(args=["import-survey", str(survey_file)])
    assert imported.exit_code == 0
    assert "No --owner: every account on this site may" in imported.stderr
    slug = imported.stdout.strip().splitlines()[-1]
    page = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    assert 'id="unowned"' in page and "every account on this site may" in page
    other = tmp_path / "owned.json"
    other.write_text(json.dumps({**SAMPLE_SURVEY, "slug": "owned"}), encoding="utf-8")
    owned = runner.invoke(args=["import-survey", str(other), "--owner", researcher.email])
    assert "No --owner" not in owned.output
    slug = owned.stdout.strip().splitlines()[-1]
    assert 'id="unowned"' not in researcher.get(f"/surveys/{slug}").get_data(as_text=True)
