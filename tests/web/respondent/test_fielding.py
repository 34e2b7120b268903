"""Fielding a study: consent before the questions, a completion code and address after a stored
response, and a schedule and target that open and close the survey by themselves."""

import copy
import json
from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import SAMPLE_SURVEY, VALID_ANSWERS
from tests.helpers import submit_answers
from web.core.infrastructure.extensions import db
from web.core.models import PendingResponse, Response, Survey
from web.core.surveys.lookup import find_survey


def fielded(**fields) -> dict:
    data = copy.deepcopy(SAMPLE_SURVEY)
    data.update(fields)
    return data


def at(**offset) -> str:
    return (datetime.now(UTC) + timedelta(**offset)).strftime("%Y-%m-%dT%H:%M:%SZ")


def submit(client, slug):
    return submit_answers(client, slug, VALID_ANSWERS)


def test_consent_comes_first_and_is_never_sent(client, import_survey):
    slug = import_survey(fielded(consent="Your answers are used for teaching only."))
    html = client.get(f"/s/{slug}").get_data(as_text=True)
    assert '<section class="consent card" id="consent"' in html
    assert "Your answers are used for teaching only." in html
    assert '<form id="survey-form" novalidate autocomplete="off" hidden>' in html
    config = json.loads(html.split('id="survey-config">')[1].split("</script>")[0])
    assert config["consent"] is True
    # Agreeing is what lets a response be sent: the submission carries nothing about it.
    assert submit(client, slug).status_code == 201


def test_without_consent_text_the_questions_show_at_once(client, import_survey):
    slug = import_survey(fielded())
    html = client.get(f"/s/{slug}").get_data(as_text=True)
    assert (
        'id="consent"' not in html
        and '<form id="survey-form" novalidate autocomplete="off">' in html
    )


def test_the_completion_code_and_address_come_with_a_stored_response(app, client, import_survey):
    slug = import_survey(
        fielded(
            completion_code="RR2026",
            completion_url="https://panel.example.com/complete?c={code}",
            thanks="Thanks from the study team.",
        )
    )
    stored = submit(client, slug)
    assert stored.status_code == 201
    assert stored.json == {
        "ok": True,
        "completion_code": "RR2026",
        "completion_url": "https://panel.example.com/complete?c=RR2026",
    }
    thanks = client.get(f"/s/{slug}/thanks").get_data(as_text=True)
    assert "RR2026" in thanks and "Thanks from the study team." in thanks
    assert 'href="https://panel.example.com/complete?c=RR2026"' in thanks
    # A respondent who already answered sees the code again, and nothing more is stored.
    assert submit(client, slug).status_code == 409
    page = client.get(f"/s/{slug}").get_data(as_text=True)
    assert "Show my completion code" in page
    with app.app_context():
        assert find_survey(slug).response_count == 1


def test_a_changed_completion_code_is_given_from_the_next_response(app, import_survey, app_like):
    slug = import_survey(fielded(completion_code="FIRST"))
    assert submit(app.test_client(), slug).json["completion_code"] == "FIRST"
    with app.app_context():
        find_survey(slug).completion_code = "SECOND"
        db.session.commit()
    assert submit(app.test_client(), slug).json["completion_code"] == "SECOND"


def test_a_survey_before_its_opening_answers_like_a_closed_one(app, client, import_survey):
    opens = at(hours=2)
    slug = import_survey(fielded(opens_at=opens))
    refused = submit(client, slug)
    assert refused.status_code == 409
    assert refused.json["error"] == f"This survey is not open yet: it opens at {opens}."
    html = client.get(f"/s/{slug}").get_data(as_text=True)
    assert 'id="not-yet-open"' in html and f'datetime="{opens}"' in html
    assert 'id="survey-form"' not in html
    with app.app_context():
        # The opening time comes: the same page now takes answers (its kept render is not reused).
        find_survey(slug).opens_at = datetime.now(UTC) - timedelta(seconds=1)
        db.session.commit()
    assert 'id="survey-form"' in client.get(f"/s/{slug}").get_data(as_text=True)
    assert submit(client, slug).status_code == 201


def test_past_its_closing_time_a_survey_closes_itself_and_publishes(app, import_survey):
    slug = import_survey(fielded(closes_at=at(hours=1), results_batch=5))
    for _ in range(3):
        assert submit(app.test_client(), slug).status_code == 201
    with app.app_context():
        survey = find_survey(slug)
        assert survey.published_count == 0  # short of a batch
        survey.closes_at = datetime.now(UTC) - timedelta(seconds=1)
        db.session.commit()
    refused = submit(app.test_client(), slug)
    assert refused.status_code == 409 and refused.json["error"].startswith(
        "This survey is closed: it closed at "
    )
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=slug))
        assert (survey.status, survey.response_count, survey.published_count) == ("closed", 3, 3)
        counted = [
            db.session.scalar(db.select(db.func.count()).select_from(table))
            for table in (Response, PendingResponse)
        ]
        assert counted == [3, 0]


def test_any_page_that_finds_it_due_closes_it(app, client, import_survey):
    slug = import_survey(fielded(closes_at=at(hours=1)))
    with app.app_context():
        find_survey(slug).closes_at = datetime.now(UTC) - timedelta(seconds=1)
        db.session.commit()
    html = client.get(f"/s/{slug}").get_data(as_text=True)
    assert "This survey is closed and no longer takes answers." in html
    with app.app_context():
        assert db.session.scalar(db.select(Survey.status).filter_by(slug=slug)) == "closed"


def test_the_target_is_met_exactly_and_then_the_survey_closes(app, import_survey):
    slug = import_survey(fielded(target_n=3, results_batch=2))
    replies = [submit(app.test_client(), slug) for _ in range(5)]
    assert [reply.status_code for reply in replies] == [201, 201, 201, 409, 409]
    assert "reached its target of 3 responses" in replies[3].json["error"]
    assert replies[4].json["error"] == "This survey is closed."
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=slug))
        assert (survey.status, survey.response_count, survey.published_count) == ("closed", 3, 3)


def test_the_writer_claims_a_group_one_at_a_time_at_the_target(app, import_survey):
    from tests.web.respondent.test_writer import plan_of, service_of, stored_flags, submit_all

    slug = import_survey(fielded(target_n=4))
    writer = service_of(app).writer
    results = submit_all(writer, [(plan_of(app, slug), VALID_ANSWERS["answers"])] * 6)
    assert sorted(stored_flags(results)) == [False, False, True, True, True, True]
    with app.app_context():
        assert find_survey(slug).response_count == 4


@pytest.mark.parametrize("field", ["opens_at", "closes_at"])
def test_schedule_times_are_shown_in_the_viewers_zone_by_the_page(client, import_survey, field):
    moment = at(days=3) if field == "closes_at" else at(days=-1)
    slug = import_survey(fielded(**{field: moment}))
    html = client.get(f"/s/{slug}").get_data(as_text=True)
    if field == "closes_at":
        assert f'<time datetime="{moment}" data-local-time>' in html and 'id="closes-at"' in html
    assert "js/local-time.js" in html


def test_reading_results_reports_a_due_survey_and_only_a_write_closes_it(
    app, client, import_survey, token, make_researcher
):
    """The results document says the survey is due; it stays open, with its published numbers,
    until the survey's own page (a write) closes it and publishes every response."""
    slug = import_survey(fielded(closes_at=at(hours=1), results_batch=5))
    for _ in range(3):
        assert submit(app.test_client(), slug).status_code == 201
    with app.app_context():
        find_survey(slug).closes_at = datetime.now(UTC) - timedelta(seconds=1)
        db.session.commit()
    headers = {"Authorization": f"Bearer {token}"}
    read = client.get(f"/api/surveys/{slug}/results", headers=headers).json
    assert (read["status"], read["due"], read["n"], read["received"]) == ("open", True, 0, 3)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["results", slug]).exit_code == 0
    dashboard = make_researcher("rita@example.org").get(f"/surveys/{slug}")
    assert 'id="survey-due"' in dashboard.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(Survey.status).filter_by(slug=slug)) == "open"
    assert "This survey is closed" in client.get(f"/s/{slug}").get_data(as_text=True)
    read = client.get(f"/api/surveys/{slug}/results", headers=headers).json
    assert (read["status"], read["due"], read["n"]) == ("closed", False, 3)
