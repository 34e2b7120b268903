"""Exactly-once submissions: an idempotency key makes a resend answer as the first send did and
store nothing, whichever writer, group or process it reaches."""

import copy
import hmac
import json
import threading

import pytest

from tests.conftest import ON_POSTGRES, SAMPLE_SURVEY, VALID_ANSWERS, stored_count
from tests.web.respondent.test_writer import (
    HeldFirstGroup,
    engine_of,
    plan_of,
    service_of,
    submit_all,
)
from web.core.infrastructure.extensions import db
from web.core.models import SubmissionKey
from web.core.surveys.lookup import find_survey
from web.respondent.writer import GroupCommit, Receipt, Resent

KEY = "k3Yq0v9yPzS1mH7bN2cXwA"  # 22 base64url characters: 128 bits
OTHER = {"answers": {"cheated": 0, "substances": {"alcohol": 1, "tobacco": 0}}}


def send(client, slug, answers=VALID_ANSWERS, key=KEY, **headers):
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(f"/api/surveys/{slug}/responses", json=answers, headers=headers)


def keys_stored(app) -> list[SubmissionKey]:
    with app.app_context():
        return list(db.session.scalars(db.select(SubmissionKey)))


def test_a_resent_submission_is_answered_as_the_first_and_stores_nothing(app, survey):
    # A reply lost on the way: the browser never got the cookie, and sends again.
    first = send(app.test_client(), survey)
    again = send(app.test_client(), survey)
    assert first.status_code == again.status_code == 201
    assert again.get_data() == first.get_data()
    assert "rr_answered" in again.headers.get("Set-Cookie", "")
    with app.app_context():
        assert stored_count() == 1 and find_survey(survey).response_count == 1


def test_a_resend_after_the_cookie_arrived_is_still_answered_as_stored(app, client, import_survey):
    data = copy.deepcopy(SAMPLE_SURVEY) | {"completion_code": "RR2026"}
    slug = import_survey(data)
    first = send(client, slug)
    again = send(client, slug)
    assert again.status_code == 201 and again.json == first.json
    assert again.json["completion_code"] == "RR2026"
    # Another submission from that browser is still one too many.
    refused = send(client, slug, key="another-key-of-22-chars")
    assert refused.status_code == 409 and "already answered" in refused.json["error"]
    with app.app_context():
        assert stored_count() == 1


def test_the_same_key_with_other_reports_is_refused_and_stores_nothing(app, survey):
    assert send(app.test_client(), survey).status_code == 201
    clash = send(app.test_client(), survey, answers=OTHER)
    assert clash.status_code == 409
    assert "already used with other answers" in clash.json["error"]
    with app.app_context():
        assert stored_count() == 1


@pytest.mark.parametrize("key", ["short", "x" * 129, "has space in it 0123456789", "ключ" * 8])
def test_a_malformed_key_is_refused_with_a_reason(app, survey, key):
    reply = send(app.test_client(), survey, key=key)
    assert reply.status_code == 400 and "Idempotency-Key" in reply.json["error"]
    with app.app_context():
        assert stored_count() == 0
    assert keys_stored(app) == []


def test_without_a_key_each_send_is_a_new_response(app, survey):
    # API clients and pages from before keys: accepted as ever, and a lost reply then costs a
    # second response when they send again (the guide says so: docs/run/api-routes.md).
    for _ in range(2):
        assert send(app.test_client(), survey, key=None).status_code == 201
    with app.app_context():
        assert stored_count() == 2
    assert keys_stored(app) == []


def test_the_key_is_kept_only_as_a_keyed_hash_scoped_to_its_survey(app, survey):
    send(app.test_client(), survey)
    (stored,) = keys_stored(app)
    assert KEY.encode() not in stored.key_hash and KEY.encode() not in stored.reports_hash
    assert len(stored.key_hash) == len(stored.reports_hash) == 16
    if not ON_POSTGRES:
        # No rowid: SQLite keeps the table in the order of its random hashes, not of arrival.
        with app.app_context():
            sql = db.session.execute(
                db.text("SELECT sql FROM sqlite_master WHERE name = 'submission_key'")
            ).scalar_one()
        assert "WITHOUT ROWID" in sql


def test_the_keyed_hash_is_hmac_sha256_of_the_survey_and_key_so_kept_keys_match_after_upgrades(
    app, survey
):
    # A resend after an upgrade must find its key: the kept form is fixed, whatever computes it.
    send(app.test_client(), survey)
    (stored,) = keys_stored(app)
    with app.app_context():
        survey_id = find_survey(survey).id
    secret = app.secret_key.encode() if isinstance(app.secret_key, str) else app.secret_key
    scoped = f"{survey_id}\0{KEY}".encode()
    reports = json.dumps(VALID_ANSWERS["answers"], separators=(",", ":"), sort_keys=True).encode()
    assert stored.key_hash == hmac.digest(secret, b"submission\0" + scoped, "sha256")[:16]
    assert (
        stored.reports_hash
        == hmac.digest(secret, b"reports\0" + scoped + b"\0" + reports, "sha256")[:16]
    )


def test_a_key_the_survey_did_not_take_is_not_kept(app, survey):
    plan = plan_of(app, survey)
    service = service_of(app)
    with app.app_context():
        submission_id = service.submission_id(plan, KEY, VALID_ANSWERS["answers"])
        find_survey(survey).status = "closed"
        db.session.commit()
    assert service.writer.submit(plan, VALID_ANSWERS["answers"], submission_id) is None
    assert keys_stored(app) == []
    with app.app_context():
        find_survey(survey).status = "open"
        db.session.commit()
    assert isinstance(service.writer.submit(plan, VALID_ANSWERS["answers"], submission_id), Receipt)
    assert len(keys_stored(app)) == 1


def test_resends_queued_in_one_group_store_one_response(app, survey, monkeypatch):
    service = service_of(app)
    writer = service.writer
    held = HeldFirstGroup(writer, others=5)
    monkeypatch.setattr(writer, "_write", held)
    plan = plan_of(app, survey)
    bits = VALID_ANSWERS["answers"]
    with app.app_context():
        same = service.submission_id(plan, KEY, bits)
        clash = service.submission_id(plan, KEY, OTHER["answers"])
    results = submit_all(writer, [(plan, bits, same)] * 5 + [(plan, OTHER["answers"], clash)])
    assert held.groups == [1, 5]
    assert isinstance(results[0], Receipt)
    assert results[1:5] == [Resent(results[0], True)] * 4
    assert results[5] == Resent(results[0], False)
    with app.app_context():
        assert stored_count() == 1 and find_survey(survey).response_count == 1


def test_concurrent_resends_through_separate_writers_store_one_row(app, survey):
    # Two writers with their own connections, as two server processes have: the database's
    # unique key decides, whichever commits first.
    service = service_of(app)
    plan = plan_of(app, survey)
    bits = VALID_ANSWERS["answers"]
    with app.app_context():
        submission_id = service.submission_id(plan, KEY, bits)
    writers = [GroupCommit(engine_of(app)) for _ in range(4)]
    start = threading.Barrier(len(writers))
    results = [None] * len(writers)

    def resend(index):
        start.wait(timeout=30)
        results[index] = writers[index].submit(plan, bits, submission_id)

    threads = [threading.Thread(target=resend, args=(index,)) for index in range(len(writers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for writer in writers:
        writer.close()
    stored = [result for result in results if isinstance(result, Receipt)]
    assert len(stored) == 1
    assert sorted(results, key=lambda result: isinstance(result, Resent)) == [
        stored[0],
        *[Resent(stored[0], True)] * 3,
    ]
    with app.app_context():
        assert stored_count() == 1 and find_survey(survey).response_count == 1
    assert len(keys_stored(app)) == 1
