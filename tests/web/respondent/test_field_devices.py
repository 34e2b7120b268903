"""Shared field devices: links made, listed and revoked by the researcher; the device's page; its
submissions (no answered cookie, refused once revoked); and the survey's offline files."""

import re

from tests.conftest import VALID_ANSWERS, stored_count
from web.core.infrastructure.extensions import db
from web.core.models import FieldDevice, SubmissionKey
from web.core.surveys.lookup import find_survey


def new_link(researcher, slug, label="tablet 2") -> str:
    page = researcher.post(f"/surveys/{slug}/devices", data={"label": label})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "<svg" in html  # the link's QR code, for the device's camera
    return re.search(r'id="device-link">([^<]+)<', html).group(1)


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def send(client, slug, token, key="field-submission-key-0001", answers=VALID_ANSWERS):
    headers = {"X-Field-Device": token, "Idempotency-Key": key}
    return client.post(f"/api/surveys/{slug}/responses", json=answers, headers=headers)


def test_a_link_is_shown_once_listed_with_its_label_and_kept_as_a_fingerprint(
    app, researcher, survey
):
    link = new_link(researcher, survey)
    assert re.fullmatch(rf"http://localhost/s/{survey}/field/fd_[A-Za-z0-9_-]{{32}}", link)
    listing = researcher.get(f"/surveys/{survey}/devices").get_data(as_text=True)
    assert "tablet 2" in listing and token_of(link) not in listing
    with app.app_context():
        (record,) = db.session.scalars(db.select(FieldDevice))
        assert record.token_hash == FieldDevice.digest(token_of(link))
        assert not record.revoked
    assert "Field devices" in researcher.get(f"/surveys/{survey}").get_data(as_text=True)


def test_a_label_is_needed(app, researcher, survey):
    page = researcher.post(f"/surveys/{survey}/devices", data={"label": "  "})
    assert "device-link" not in page.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(FieldDevice)) == 0


def test_the_device_page_sets_up_the_device_and_is_never_kept(client, researcher, survey):
    token = token_of(new_link(researcher, survey))
    page = client.get(f"/s/{survey}/field/{token}")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    html = page.get_data(as_text=True)
    assert "tablet 2" in html and 'id="field-form"' in html and "<script>" not in html
    assert client.get(f"/s/{survey}/field/fd_unknown").status_code == 404


def test_a_device_answers_for_one_respondent_after_another_without_a_cookie(
    app, client, researcher, survey
):
    token = token_of(new_link(researcher, survey))
    for number in range(3):
        reply = send(client, survey, token, key=f"field-submission-key-{number:04}")
        assert reply.status_code == 201
        assert "Set-Cookie" not in reply.headers
    # A resend from the device is still one response.
    assert send(client, survey, token, key="field-submission-key-0000").status_code == 201
    with app.app_context():
        assert stored_count() == 3
        assert db.session.scalar(db.select(db.func.count()).select_from(SubmissionKey)) == 3


def test_a_revoked_link_stops_the_device_with_a_clear_reason(app, client, researcher, survey):
    token = token_of(new_link(researcher, survey))
    with app.app_context():
        record = db.session.scalar(db.select(FieldDevice))
    assert researcher.post(f"/surveys/{survey}/devices/{record.id}/revoke").status_code == 302
    refused = send(client, survey, token)
    assert refused.status_code == 403 and "revoked" in refused.json["error"]
    assert client.get(f"/s/{survey}/field/{token}").status_code == 410
    assert send(client, survey, "fd_made_up").status_code == 403
    with app.app_context():
        assert stored_count() == 0


def test_another_researchers_survey_has_no_devices_for_them(app, make_researcher):
    rita, omar = make_researcher("rita@example.org"), make_researcher("omar@example.org")
    rita.post("/surveys/new", data={"title": "Field", "slug": "field-one", "description": ""})
    assert omar.get("/surveys/field-one/devices").status_code == 404
    assert omar.post("/surveys/field-one/devices", data={"label": "x"}).status_code == 404
    new_link(rita, "field-one")
    with app.app_context():
        record = db.session.scalar(db.select(FieldDevice))
    assert omar.post(f"/surveys/field-one/devices/{record.id}/revoke").status_code == 404


def test_a_link_of_one_survey_does_not_submit_to_another(
    app, client, researcher, survey, import_survey
):
    from tests.conftest import SAMPLE_SURVEY

    other = import_survey(SAMPLE_SURVEY | {"slug": "second-survey"})
    token = token_of(new_link(researcher, survey))
    assert send(client, other, token).status_code == 403
    assert client.get(f"/s/{other}/field/{token}").status_code == 404


def test_deleting_a_survey_deletes_its_device_links_and_keys(app, client, researcher, survey):
    token = token_of(new_link(researcher, survey))
    assert send(client, survey, token).status_code == 201
    with app.app_context():
        find_survey(survey).status = "closed"
        db.session.commit()
    assert researcher.post(f"/surveys/{survey}/delete", data={"confirm": survey}).status_code == 302
    with app.app_context():
        for table in (FieldDevice, SubmissionKey):
            assert db.session.scalar(db.select(db.func.count()).select_from(table)) == 0


def test_the_service_worker_may_control_the_survey_and_lists_what_it_keeps(client, survey):
    worker = client.get(f"/s/{survey}/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Service-Worker-Allowed"] == f"/s/{survey}"
    listed = client.get(f"/s/{survey}/offline.json").json
    assert listed["pages"] == [f"/s/{survey}", f"/s/{survey}/thanks"]
    page = client.get(f"/s/{survey}").get_data(as_text=True)
    # Every static file the survey page loads is kept, and nothing of the rest of the app.
    loaded = set(re.findall(r'(?:href|src)="(/static/v/[^"]+)"', page))
    assert loaded <= set(listed["files"])
    assert all(path.startswith("/static/v/") for path in listed["files"])
    assert client.get("/s/no-such-survey/sw.js").status_code == 404


def test_the_command_line_adds_lists_and_revokes_device_links(app, client, runner, survey):
    added = runner.invoke(args=["field-device", "add", survey, "tablet 7"])
    assert added.exit_code == 0, added.output
    link = added.output.strip().splitlines()[-1]
    assert f"/s/{survey}/field/fd_" in link
    listed = runner.invoke(args=["field-device", "list", survey])
    device_id, state, _made, label = listed.output.strip().split("\t")
    assert (state, label) == ("active", "tablet 7")
    assert send(client, survey, token_of(link)).status_code == 201
    revoked = runner.invoke(args=["field-device", "revoke", survey, device_id])
    assert revoked.exit_code == 0 and "tablet 7" in revoked.output
    assert send(client, survey, token_of(link), key="field-submission-key-0002").status_code == 403
    missing = runner.invoke(args=["field-device", "revoke", survey, "999"])
    assert missing.exit_code == 1 and "no device link 999" in missing.output
    assert runner.invoke(args=["field-device", "add", survey, " "]).exit_code == 2
    assert runner.invoke(args=["field-device", "list", "nope"]).exit_code == 1
