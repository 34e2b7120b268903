"""A study scripted over HTTP with a token: listed, imported (JSON and XLSForm), opened, closed
and exported; a read-only token is refused every write."""

from __future__ import annotations

import copy
import csv
import io
import json

import pytest

from tests.conftest import SAMPLE_SURVEY, VALID_ANSWERS
from tests.helpers import bearer
from web.core.infrastructure.extensions import db
from web.core.models import ApiToken, Survey
from web.core.surveys.surveyfile import parse_survey
from web.core.surveys.xlsform.write import survey_xlsform


def imported(client, write_token, data=SAMPLE_SURVEY, **query):
    return client.post("/api/surveys", json=data, headers=bearer(write_token), query_string=query)


def test_a_study_from_import_to_export(app, client, write_token):
    created = imported(client, write_token)
    assert created.status_code == 201, created.json
    assert created.headers["Location"] == "/api/surveys/campus-life-test"
    assert created.json["status"] == "draft" and created.json["join_code"] is None
    assert (
        client.post("/api/surveys/campus-life-test/responses", json=VALID_ANSWERS).status_code
        == 404
    )

    opened = client.post("/api/surveys/campus-life-test/open", headers=bearer(write_token))
    assert opened.status_code == 200 and opened.json["status"] == "open"
    for _ in range(10):
        respondent = app.test_client()  # one browser each: a browser answers once
        assert (
            respondent.post(
                "/api/surveys/campus-life-test/responses", json=VALID_ANSWERS
            ).status_code
            == 201
        )
    closed = client.post("/api/surveys/campus-life-test/close", headers=bearer(write_token))
    assert closed.json["status"] == "closed" and closed.json["n"] == 10

    listed = client.get("/api/surveys", headers=bearer(write_token)).json["surveys"]
    assert [(s["slug"], s["status"], s["n"], s["series"]) for s in listed] == [
        ("campus-life-test", "closed", 10, None)
    ]
    rows = list(csv.reader(io.StringIO(
        client.get("/api/surveys/campus-life-test/responses.csv", headers=bearer(write_token)).get_data(as_text=True)
    )))  # fmt: skip
    assert rows[0] == ["cheated", "substances.alcohol", "substances.tobacco"]
    assert sorted(rows[1:]) == [["1", "0", "1"]] * 10
    codebook = client.get(
        "/api/surveys/campus-life-test/codebook.json", headers=bearer(write_token)
    )
    assert codebook.headers["Content-Disposition"] == (
        'attachment; filename="campus-life-test-codebook.json"'
    )
    assert [q["id"] for q in json.loads(codebook.get_data())["questions"]] == [
        "cheated", "substances"
    ]  # fmt: skip


def test_the_downloads_are_the_dashboards(client, write_token, researcher):
    imported(client, write_token, status="open")
    for name in ("responses.csv", "codebook.json"):
        api = client.get(f"/api/surveys/campus-life-test/{name}", headers=bearer(write_token))
        # The dashboard's user may read it too: the survey is the token account's, not rita's.
        dashboard = researcher.get(f"/surveys/campus-life-test/{name}")
        assert dashboard.status_code == 404
        assert api.status_code == 200


def test_responses_below_the_minimum_n_give_only_the_header(client, write_token):
    imported(client, write_token, status="open")
    client.post("/api/surveys/campus-life-test/responses", json=VALID_ANSWERS)
    body = client.get("/api/surveys/campus-life-test/responses.csv", headers=bearer(write_token))
    assert body.get_data(as_text=True).strip().splitlines() == [
        "cheated,substances.alcohol,substances.tobacco"
    ]


def test_an_xlsform_imports_as_a_multipart_upload(client, write_token):
    workbook = survey_xlsform(parse_survey(copy.deepcopy(SAMPLE_SURVEY)))
    created = client.post(
        "/api/surveys",
        data={"file": (io.BytesIO(workbook), "campus.xlsx")},
        headers=bearer(write_token),
        content_type="multipart/form-data",
    )
    assert created.status_code == 201, created.json
    assert created.json["slug"] == "campus-life-test"


def test_a_bad_file_is_refused_with_every_row_named_and_nothing_stored(app, client, write_token):
    bad = copy.deepcopy(SAMPLE_SURVEY)
    bad["questions"][0]["epsilon"] = -1
    bad["questions"][1]["procedure"] = "telepathy"
    refused = imported(client, write_token, data=bad)
    assert refused.status_code == 400
    problems = refused.json["problems"]
    assert len(problems) == 2
    assert problems[0].startswith("questions[0].epsilon: ")
    assert problems[1].startswith("questions[1].procedure: unknown procedure 'telepathy'")
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Survey)) == 0


def test_a_taken_address_is_409(client, write_token):
    assert imported(client, write_token).status_code == 201
    again = imported(client, write_token)
    assert again.status_code == 409 and "already taken" in again.json["problems"][0]


@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        ({"data": "slug: x", "content_type": "text/yaml"}, 415),
        (
            {
                "data": {"other": (io.BytesIO(b"{}"), "x.json")},
                "content_type": "multipart/form-data",
            },
            400,
        ),
        ({"json": SAMPLE_SURVEY, "query_string": {"status": "archived"}}, 400),
    ],
)
def test_what_is_not_a_survey_file_is_refused(client, write_token, kwargs, status):
    response = client.post("/api/surveys", headers=bearer(write_token), **kwargs)
    assert response.status_code == status and "error" in response.json


def test_a_read_only_token_reads_but_cannot_write(client, token, write_token):
    assert imported(client, write_token).status_code == 201
    assert client.get("/api/surveys", headers=bearer(token)).status_code == 200
    for path in ("/api/surveys", "/api/surveys/campus-life-test/open"):
        refused = client.post(path, json=SAMPLE_SURVEY, headers=bearer(token))
        assert refused.status_code == 403 and "read-only" in refused.json["error"]
    assert client.post("/api/surveys/campus-life-test/open").status_code == 401


def test_opening_what_cannot_open_is_409_with_the_reason(client, write_token):
    imported(client, write_token, status="open")
    refused = client.post("/api/surveys/campus-life-test/open", headers=bearer(write_token))
    assert refused.status_code == 409 and "cannot become" in refused.json["error"]


def test_another_accounts_survey_is_not_there(client, runner, write_token):
    imported(client, write_token)
    runner.invoke(args=["create-user", "bo@example.org", "--password", "violet kestrel 42"])
    other = runner.invoke(args=["create-token", "bo@example.org", "--write"]).output.split()[-1]
    assert client.get("/api/surveys", headers=bearer(other)).json == {"surveys": []}
    for method, path in [
        ("get", "/api/surveys/campus-life-test"),
        ("post", "/api/surveys/campus-life-test/close"),
        ("get", "/api/surveys/campus-life-test/responses.csv"),
        ("get", "/api/surveys/campus-life-test/codebook.json"),
    ]:
        assert getattr(client, method)(path, headers=bearer(other)).status_code == 404


def test_tokens_made_in_the_browser_carry_their_scope(app, researcher):
    researcher.post("/account/tokens", data={"label": "read"})
    page = researcher.post("/account/tokens", data={"label": "write", "write": "y"})
    assert "read and write" in page.get_data(as_text=True)
    with app.app_context():
        scopes = {t.label: t.scope for t in db.session.scalars(db.select(ApiToken))}
    assert scopes == {"read": "read", "write": "read_write"}
