"""GET /api/surveys/<slug>/results: token required, numbers from rr, cost independent of n."""

import math

import pytest
from sqlalchemy import event

import rr
from tests.conftest import no_database
from tests.helpers import bearer
from web.core.infrastructure.extensions import db
from web.core.models import ApiToken
from web.core.results.figures import significant

URL = "/api/surveys/{}/results"


def auth(token):
    return bearer(token)


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer rr_wrong"},
        {"Authorization": "Basic abc"},
        {"Authorization": "Bearer"},
    ],
)
@no_database
def test_results_need_a_valid_token(client, survey, token, headers):
    response = client.get(URL.format(survey), headers=headers)
    assert response.status_code == 401 and "error" in response.json
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_revoked_token_is_refused(app, client, survey, token):
    with app.app_context():
        db.session.scalar(db.select(ApiToken)).revoked = True
        db.session.commit()
    assert client.get(URL.format(survey), headers=auth(token)).status_code == 401


def test_only_the_hash_of_a_token_is_stored(app, token):
    with app.app_context():
        record = db.session.scalar(db.select(ApiToken))
    assert record.token_hash == ApiToken.digest(token) and token not in record.token_hash


def test_empty_survey_has_no_estimates(client, survey, token):
    body = client.get(URL.format(survey), headers=auth(token)).json
    assert (body["n"], body["received"], body["withheld"]) == (0, 0, True)
    question = body["questions"][0]
    assert question["withheld"] is True and "estimate" not in question and "n" not in question


# Ten responses (the minimum n), published as two batches of five.
ANSWERS = [
    {"cheated": 1, "substances": {"alcohol": 1, "tobacco": 0}},
    {"cheated": 0, "substances": {"alcohol": 1, "tobacco": 1}},
    {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 0}},
    {"cheated": 1, "substances": {"alcohol": 1, "tobacco": 0}},
    {"cheated": 0, "substances": {"alcohol": 0, "tobacco": 0}},
] * 2


def test_results_match_rr(app, client, survey, token):
    for bits in ANSWERS:
        assert (
            app.test_client()
            .post(f"/api/surveys/{survey}/responses", json={"answers": bits})
            .status_code
            == 201
        )
    body = client.get(URL.format(survey), headers=auth(token)).json
    assert body["slug"] == survey and body["title"] == "Campus life" and body["n"] == 10
    assert body["withheld"] is False and body["results_batch"] == 5 and body["min_n"] == 10
    assert body["epsilon_total"] == pytest.approx(1.0 + 2 * 1.5)
    cheated, substances = body["questions"]
    expected = rr.estimate_proportion(6, 10, 1.0, "spinner_coin")
    assert cheated["type"] == "yesno" and cheated["procedure"] == "spinner_coin"
    assert cheated["epsilon"] == 1.0 and cheated["epsilon_total"] == 1.0
    assert (cheated["n"], cheated["noisy_yes"]) == (10, 6)
    for field in ("estimate", "std_error", "ci_low", "ci_high", "estimated_count"):
        assert cheated[field] == pytest.approx(getattr(expected, field), rel=1e-11)
    assert substances["epsilon_total"] == pytest.approx(3.0) and "estimate" not in substances
    alcohol = substances["options"][0]
    assert alcohol["id"] == "alcohol" and (alcohol["n"], alcohol["noisy_yes"]) == (10, 6)
    assert alcohol["estimate"] == pytest.approx(
        rr.estimate_proportion(6, 10, 1.5, "spinner").estimate
    )


def test_owned_survey_is_404_to_another_researcher(app, client, runner, survey_file, token):
    runner.invoke(args=["create-user", "bob@example.org", "--password", "another secret"])
    result = runner.invoke(args=["import-survey", str(survey_file), "--owner", "bob@example.org"])
    assert result.exit_code == 0, result.output
    response = client.get(URL.format("campus-life-test"), headers=auth(token))
    assert response.status_code == 404 and response.json == {"error": "No such survey."}
    bobs = runner.invoke(args=["create-token", "bob@example.org"]).output.strip().splitlines()[-1]
    assert client.get(URL.format("campus-life-test"), headers=auth(bobs)).status_code == 200


def _statements_for_results(app, client, slug, token):
    statements = []
    with app.app_context():
        engine = db.engine

    def count(*_args):
        statements.append(1)

    event.listen(engine, "before_cursor_execute", count)
    try:
        assert client.get(URL.format(slug), headers=auth(token)).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(statements)


def test_results_cost_does_not_grow_with_responses(
    app, client, runner, survey, token, seed_responses
):
    seed_responses(survey, 10, seed=1)
    few = _statements_for_results(app, client, survey, token)
    seed_responses(survey, 5000, seed=2)
    many = _statements_for_results(app, client, survey, token)
    assert few == many
    body = client.get(URL.format(survey), headers=auth(token)).json
    assert body["n"] == 5010 and not math.isnan(body["questions"][0]["estimate"])


def floats_in(value):
    if isinstance(value, float):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from floats_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from floats_in(item)


def test_figures_carry_twelve_significant_digits_and_no_float_noise(
    app, client, runner, survey, token, seed_responses
):
    seed_responses(survey, 30, seed=5)
    body = client.get(URL.format(survey), headers=auth(token)).json
    values = list(floats_in(body))
    assert len(values) > 10
    for value in values:
        assert float(f"{value:.12g}") == value, value
    assert significant(0.5000000000000001) == 0.5 and significant(15.000000000000004) == 15.0
    assert significant(None) is None
