"""Inputs that once answered 500: each is now a 4xx with its reason (or a 200 where the question
is a valid one), and a body that means two things is refused."""

from __future__ import annotations

import json

import pytest

from tests.conftest import VALID_ANSWERS, no_database, stored_count
from web.core.models import ApiToken


@pytest.mark.parametrize("baseline", ["0.11", "0.21", "0.22", "0.23"])
@no_database
def test_a_fall_to_zero_has_its_power_curve(client, baseline):
    response = client.get(
        f"/api/plan/change?procedure=spinner_coin&epsilon=1&n=100&baseline={baseline}&change=-0.05"
    )
    assert response.status_code == 200, response.json
    curve = response.json["curve"]
    assert curve[-1]["change"] == -float(baseline)
    assert all(0 <= float(baseline) + point["change"] <= 1 for point in curve)


@no_database
def test_baselines_at_both_ends_plan_in_both_directions(client):
    for percent in (0, 1, 3, 7, 29, 49, 50, 51, 70, 93, 97, 99, 100):
        baseline = percent / 100
        for change in (-0.05, 0.05):
            if not 0 <= baseline + change <= 1:
                continue
            response = client.get(
                f"/api/plan/change?procedure=spinner&epsilon=1&n=50&baseline={baseline}"
                f"&change={change}"
            )
            assert response.status_code == 200, (baseline, change, response.json)


@pytest.mark.parametrize("endpoint", ["distribution", "number"])
@pytest.mark.parametrize("seed", ["-1", "4294967296", "1.5", "x"])
@no_database
def test_a_seed_out_of_range_is_refused_by_name(client, endpoint, seed):
    response = client.get(f"/api/lab/{endpoint}?seed={seed}")
    assert response.status_code == 400
    assert "seed" in response.json["error"]


@pytest.mark.parametrize("endpoint", ["distribution", "number"])
@no_database
def test_a_seed_in_range_gives_the_same_numbers_twice(client, endpoint):
    first = client.get(f"/api/lab/{endpoint}?seed=4294967295&n=40")
    assert first.status_code == 200
    assert client.get(f"/api/lab/{endpoint}?seed=4294967295&n=40").json == first.json


@pytest.mark.parametrize("next_value", ["/%0d%0aSet-Cookie:%20x=1", "/surveys%0a", "/a%09b"])
@no_database
def test_a_control_character_in_next_goes_home(client, next_value):
    response = client.get(f"/lang/ko?next={next_value}")
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_a_control_character_in_next_after_login_goes_to_the_surveys(make_researcher):
    researcher = make_researcher("cr@example.org")
    researcher.client.get("/logout")
    page = researcher.client.get("/login?next=/surveys%0d%0aX:1").get_data(as_text=True)
    token = __import__("re").search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    response = researcher.client.post(
        "/login?next=/surveys%0d%0aX:1",
        data={"csrf_token": token, "email": "cr@example.org", "password": "violet kestrel 42"},
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/surveys"


def test_a_token_made_without_a_label_field(app, researcher):
    response = researcher.client.post("/account/tokens", data={"csrf_token": researcher.token})
    assert response.status_code == 200
    with app.app_context():
        from web.core.infrastructure.extensions import db

        assert [token.label for token in db.session.scalars(db.select(ApiToken))] == [""]


def test_a_key_given_twice_is_refused_and_nothing_stored(app, client, survey):
    body = '{"answers": {"cheated": 1, "cheated": 0, "substances": {"alcohol": 0, "tobacco": 1}}}'
    response = client.post(
        f"/api/surveys/{survey}/responses", data=body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "'cheated' is given twice" in response.json["error"]
    twice_at_the_top = json.dumps(VALID_ANSWERS)[:-1] + ', "answers": {}}'
    response = client.post(
        f"/api/surveys/{survey}/responses", data=twice_at_the_top, content_type="application/json"
    )
    assert response.status_code == 400
    assert "'answers' is given twice" in response.json["error"]
    with app.app_context():
        assert stored_count() == 0


@no_database
def test_a_survey_file_with_a_key_given_twice_is_refused(runner, tmp_path):
    path = tmp_path / "twice.json"
    path.write_text('{"slug": "a", "slug": "b", "title": "T", "questions": []}', encoding="utf-8")
    result = runner.invoke(args=["import-survey", str(path)])
    assert result.exit_code != 0
    assert "file: the key 'slug' is given twice" in result.output


@no_database
def test_an_effect_too_small_for_any_survey_is_a_400_naming_it(client):
    """Schemathesis found lift=3.8e-275 a 500 (its square underflowed to 0)."""
    for query, named in (
        ("/api/plan/experiment?procedure=direct&baseline=0.68&lift=3.8e-275", "lift"),
        ("/api/plan/change?procedure=spinner_coin&epsilon=1&n=100&baseline=0.3&change=1e-300",
         "change"),
    ):  # fmt: skip
        response = client.get(query)
        assert response.status_code == 400, (query, response.json)
        assert named in response.json["error"] and "too small" in response.json["error"]


@no_database
def test_a_margin_no_survey_reaches_has_no_sample_size(client):
    """A design whose truth share is 1e-10 would need past 10^18 respondents for any margin:
    null, not a 500."""
    query = "procedure=forced_response&p_truth=1e-10&p_forced_yes=0.5&p_forced_no=0.4999999999"
    response = client.get(f"/api/plan?{query}&n=100")
    assert response.status_code == 200
    assert response.json["sample_size"] == {"0.1": None, "0.05": None, "0.03": None}
    assert client.get("/api/plan?epsilon=1&n=100").json["sample_size"]["0.05"] > 100
