"""POST /api/surveys/<slug>/responses: reported bits in, nothing else kept, bad input refused."""

import json

import pytest

from tests.conftest import (
    LATER_QUESTION,
    SAMPLE_SURVEY,
    VALID_ANSWERS,
    no_database,
    sqlite_only,
    stored_bits,
)
from web.core.infrastructure.extensions import db
from web.core.models import Option, PendingResponse, Question, Response, Survey

URL = "/api/surveys/{}/responses"


def stored(app):
    with app.app_context():
        return stored_bits()


def tallies(app):
    with app.app_context():
        questions = {q.key: (q.n, q.noisy_yes) for q in db.session.scalars(db.select(Question))}
        options = {o.key: (o.n, o.noisy_yes) for o in db.session.scalars(db.select(Option))}
        count = db.session.scalar(db.select(Survey.response_count))
    return questions, options, count


def test_valid_submission_is_stored_and_tallied(app, client, survey):
    response = client.post(URL.format(survey), json=VALID_ANSWERS)
    assert response.status_code == 201 and response.json == {"ok": True}
    assert stored(app) == [VALID_ANSWERS["answers"]]
    questions, options, count = tallies(app)
    assert questions["cheated"] == (1, 1)
    assert options == {"alcohol": (1, 0), "tobacco": (1, 1)}
    assert count == 1


SECRETS = ("UniqueAgent", "203.0.113.77", "198.51.100.23")


def submit_with_identifying_headers(client, survey):
    response = client.post(
        URL.format(survey),
        json=VALID_ANSWERS,
        headers={"User-Agent": "UniqueAgent/9.9 (probe)", "X-Forwarded-For": "203.0.113.77"},
        environ_base={"REMOTE_ADDR": "198.51.100.23"},
    )
    assert response.status_code == 201


def test_nothing_but_the_bits_is_kept(app, client, survey):
    submit_with_identifying_headers(client, survey)
    with app.app_context():
        # A random key, the survey and the bits, published or still pending: no time.
        for table in (Response, PendingResponse):
            assert set(table.__table__.columns.keys()) == {"id", "survey_id", "bits"}
        everything = " ".join(
            str(row)
            for table in db.metadata.sorted_tables
            for row in db.session.execute(db.select(table)).all()
        )
    for secret in SECRETS:
        assert secret not in everything


@sqlite_only
def test_not_even_the_database_file_holds_the_address(app, client, survey, tmp_path):
    submit_with_identifying_headers(client, survey)
    with app.app_context():
        db.engine.dispose()
    raw = b"".join(path.read_bytes() for path in tmp_path.glob("test.sqlite3*"))
    for secret in SECRETS:
        assert secret.encode() not in raw


BAD_BODIES = [
    ({"answers": {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 2}}}, "must be 0 or 1"),
    (
        {
            "answers": {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1}},
            "truth": {"cheated": 0},
        },
        "unexpected field 'truth'",
    ),
    (
        {"answers": {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1, "heroin": 1}}},
        "has no option 'heroin'",
    ),
    ([1, 0], "the body must be a JSON object"),
    ("yes", "the body must be a JSON object"),
]


@pytest.mark.parametrize(("body", "message"), BAD_BODIES)
def test_bad_answers_get_400_and_store_nothing(app, client, survey, body, message):
    response = client.post(URL.format(survey), json=body)
    assert response.status_code == 400
    assert message in response.json["error"]
    assert stored(app) == [] and tallies(app)[2] == 0


@pytest.mark.parametrize(
    "raw",
    [
        "{not json",
        b"\xff\xfe\xff",
        "[" * 30_000 + "]" * 30_000,  # deeper than Python's JSON parser recurses: no 500
        '{"answers": ' * 4_000 + "1" + "}" * 4_000,
    ],
)
def test_malformed_json_gets_400(app, client, survey, raw):
    response = client.post(URL.format(survey), data=raw, content_type="application/json")
    assert response.status_code == 400 and "not valid JSON" in response.json["error"]
    assert stored(app) == []


def test_not_json_gets_415(app, client, survey):
    response = client.post(URL.format(survey), data={"cheated": "1"})
    assert response.status_code == 415 and "application/json" in response.json["error"]
    assert stored(app) == []


def test_oversized_body_gets_413(app, client, survey):
    body = {"answers": {"cheated": 1, "padding": "x" * 70_000}}
    response = client.post(URL.format(survey), json=body)
    assert response.status_code == 413 and "error" in response.json
    assert stored(app) == []


def test_unknown_survey_gets_404(client):
    response = client.post(URL.format("nope"), json=VALID_ANSWERS)
    assert response.status_code == 404 and response.json == {"error": "No such survey."}


@pytest.mark.parametrize(("status", "code"), [("closed", 409), ("draft", 404)])
def test_closed_and_draft_surveys_refuse(app, client, survey, status, code):
    with app.app_context():
        db.session.scalar(db.select(Survey)).status = status
        db.session.commit()
    response = client.post(URL.format(survey), json=VALID_ANSWERS)
    assert response.status_code == code and "error" in response.json
    assert stored(app) == []


def test_same_browser_cannot_submit_twice(app, client, survey):
    assert client.post(URL.format(survey), json=VALID_ANSWERS).status_code == 201
    again = client.post(URL.format(survey), json=VALID_ANSWERS)
    assert again.status_code == 409 and "already answered" in again.json["error"]
    assert len(stored(app)) == 1


def test_another_browser_can_submit(app, client, survey):
    assert client.post(URL.format(survey), json=VALID_ANSWERS).status_code == 201
    assert app.test_client().post(URL.format(survey), json=VALID_ANSWERS).status_code == 201
    assert tallies(app)[2] == 2


@no_database
def test_wrong_method_is_json_405(client, survey):
    response = client.get(URL.format(survey))
    assert response.status_code == 405 and "error" in response.json


def set_status_behind_the_apps_back(app, status):
    with app.app_context():
        db.session.execute(db.update(Survey).values(status=status))
        db.session.commit()


def test_kept_survey_state_never_accepts_into_a_closed_survey(app, client, survey):
    assert app.test_client().post(URL.format(survey), json=VALID_ANSWERS).status_code == 201
    set_status_behind_the_apps_back(app, "closed")
    refused = app.test_client().post(URL.format(survey), json=VALID_ANSWERS)
    assert refused.status_code == 409 and refused.json["error"] == "This survey is closed."
    assert len(stored(app)) == 1
    set_status_behind_the_apps_back(app, "open")
    assert app.test_client().post(URL.format(survey), json=VALID_ANSWERS).status_code == 201
    assert len(stored(app)) == 2 and tallies(app)[2] == 2


def test_kept_plan_follows_a_new_question(app, survey, researcher):
    assert app.test_client().post(URL.format(survey), json=VALID_ANSWERS).status_code == 201
    researcher.post(
        f"/surveys/{survey}/questions/new",
        data=LATER_QUESTION | {"required": "y"},
    )
    old_shape = app.test_client().post(URL.format(survey), json=VALID_ANSWERS)
    assert old_shape.status_code == 400 and "'later' is required" in old_shape.json["error"]
    new_body = {"answers": dict(VALID_ANSWERS["answers"], later=1)}
    assert app.test_client().post(URL.format(survey), json=new_body).status_code == 201
    questions, _, count = tallies(app)
    assert questions["later"] == (1, 1) and count == 2


def test_concurrent_submissions_are_all_counted(app, survey):
    import threading

    start = threading.Barrier(40)
    codes = []

    def submit(index):
        bits = {
            "answers": {
                "cheated": index % 2,
                "substances": {"alcohol": index % 3 == 0, "tobacco": 1},
            }
        }
        bits["answers"]["substances"]["alcohol"] = int(bits["answers"]["substances"]["alcohol"])
        client = app.test_client()
        start.wait()
        codes.append(client.post(URL.format(survey), json=bits).status_code)

    threads = [threading.Thread(target=submit, args=(index,)) for index in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert codes == [201] * 40
    rows = stored(app)
    questions, options, count = tallies(app)
    assert len(rows) == 40 and count == 40
    assert questions["cheated"] == (40, sum(row["cheated"] for row in rows)) == (40, 20)
    assert options["alcohol"] == (40, sum(row["substances"]["alcohol"] for row in rows)) == (40, 14)
    assert options["tobacco"] == (40, 40)


@pytest.mark.parametrize("secure", [False, True])
def test_answered_cookie_is_signed_httponly_lax_and_lasts_a_year(app_like, survey, secure):
    other = app_like(SESSION_COOKIE_SECURE=secure)
    response = other.test_client().post(URL.format(survey), json=VALID_ANSWERS)
    cookie = response.headers["Set-Cookie"]
    attributes = [part.strip() for part in cookie.split(";")]
    name, _, value = attributes[0].partition("=")
    assert name == ("__Host-rr_answered" if secure else "rr_answered")
    assert value.startswith(f"{survey}.") and len(value) > len(survey) + 20
    assert {"HttpOnly", "SameSite=Lax", "Max-Age=31536000", "Path=/"} <= set(attributes)
    assert ("Secure" in attributes) is secure


def test_answered_cookie_lists_every_survey_answered_in_this_browser(
    app, client, survey, runner, tmp_path
):
    second = "second-survey"
    path = tmp_path / "second.json"
    path.write_text(json.dumps(dict(SAMPLE_SURVEY, slug=second)), encoding="utf-8")
    assert runner.invoke(args=["import-survey", str(path)]).exit_code == 0
    assert client.post(URL.format(survey), json=VALID_ANSWERS).status_code == 201
    assert client.post(URL.format(second), json=VALID_ANSWERS).status_code == 201
    assert client.post(URL.format(survey), json=VALID_ANSWERS).status_code == 409
    assert client.post(URL.format(second), json=VALID_ANSWERS).status_code == 409
    assert len(stored(app)) == 2


def test_forged_answered_cookie_is_ignored(app, client, survey):
    client.set_cookie("rr_answered", f"{survey}.forged-signature")
    assert client.post(URL.format(survey), json=VALID_ANSWERS).status_code == 201


def test_an_optional_question_left_out_is_stored_as_skipped_and_counted_nowhere(
    app, client, survey
):
    """Every question may be skipped unless its file says "required": left out, or sent as
    null, it is stored as null and adds to no tally; its n counts only those who answered."""
    for body in (
        {"answers": {"cheated": 1}},
        {"answers": {"cheated": None, "substances": {"alcohol": 1, "tobacco": 0}}},
        {"answers": {}},
    ):
        assert app.test_client().post(URL.format(survey), json=body).status_code == 201, body
    expected = [
        {"cheated": 1, "substances": None},
        {"cheated": None, "substances": {"alcohol": 1, "tobacco": 0}},
        {"cheated": None, "substances": None},
    ]
    assert sorted(stored(app), key=json.dumps) == sorted(expected, key=json.dumps)
    questions, options, count = tallies(app)
    assert questions["cheated"] == (1, 1) and count == 3
    assert options == {"alcohol": (1, 1), "tobacco": (1, 0)}


def test_a_required_question_left_out_is_a_400_and_stores_nothing(app, client, import_survey):
    data = {**SAMPLE_SURVEY, "slug": "required"}
    data["questions"] = [{**data["questions"][0], "required": True}, data["questions"][1]]
    slug = import_survey(data)
    for answers in ({"substances": {"alcohol": 1, "tobacco": 0}}, {"cheated": None}):
        response = client.post(URL.format(slug), json={"answers": answers})
        assert response.status_code == 400
        assert response.json["error"] == "question 'cheated' is required: it cannot be skipped"
    assert stored(app) == [] and tallies(app)[2] == 0
    assert (
        app.test_client().post(URL.format(slug), json={"answers": {"cheated": 0}}).status_code
        == 201
    )
    assert stored(app) == [{"cheated": 0, "substances": None}]
