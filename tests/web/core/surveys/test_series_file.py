"""A three-wave series through the survey file, the command line and the trend API: series and
wave kept on export and import, ε∞ checked, a question fixed across the series once any wave has
a response, and the trend's figures equal to each wave's own published figures."""

import dataclasses
import json

import pytest

import rr
from tests.conftest import no_database
from tests.helpers import api_get
from web.core.infrastructure.extensions import db
from web.core.surveys.editing import EditError, delete_survey, set_series
from web.core.surveys.lookup import find_survey
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.question_edit import update_question
from web.core.surveys.surveyfile import parse_survey

YEARS = {"id": "year", "type": "direct", "text": "Year",
         "options": [{"id": "first", "text": "First"}, {"id": "fourth", "text": "Fourth"}]}  # fmt: skip


def wave(number: int, **changes) -> dict:
    data = {
        "slug": f"climate-w{number}",
        "title": f"Campus climate, wave {number}",
        "series": "campus-climate",
        "wave": number,
        "results_batch": 5,
        "questions": [
            {"id": "cheated", "type": "yesno", "text": "Did you cheat?", "epsilon": 1.0,
             "epsilon_permanent": 2.0, "procedure": "spinner_coin"},
            {"id": "drugs", "type": "multi", "text": "Which?", "epsilon": 0.8,
             "epsilon_permanent": 1.6, "procedure": "spinner",
             "options": [{"id": "alcohol", "text": "Alcohol"}, {"id": "tobacco", "text": "Tobacco"}]},
            {"id": "hours", "type": "number", "text": "Hours", "epsilon": 1.0, "min": 0, "max": 40},
            YEARS,
        ],
    }  # fmt: skip
    data.update(changes)
    return data


@no_database
def test_series_wave_and_epsilon_permanent_round_trip_through_the_file():
    spec = parse_survey(wave(2))
    assert (spec.series, spec.wave) == ("campus-climate", 2)
    assert spec.questions[0].epsilon_permanent == 2.0
    again = parse_survey(json.loads(spec.to_json()))
    assert again == spec
    assert json.loads(spec.to_json())["questions"][1]["epsilon_permanent"] == 1.6


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"wave": 0}, "wave: must be a whole number from 1 to 1000, got 0"),
        ({"series": "Campus Climate"}, "series: must be 1 to 64 lowercase letters"),
        (
            {"series": None},
            "series: must be 1 to 64 lowercase letters, digits and hyphens, got None",
        ),
    ],
)
@no_database
def test_a_bad_series_or_wave_is_named(change, message):
    data = wave(1, **change)
    if change.get("series", "") is None:
        del data["series"]
    with pytest.raises(SurveyFileError, match=message):
        parse_survey(data)


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ({"epsilon_permanent": 1.0}, "must be above ε"),
        ({"epsilon_permanent": 11}, "must be a number from"),
        ({"procedure": "forced_response", "p_truth": 0.75, "p_forced_yes": 0.15,
          "p_forced_no": 0.1, "epsilon": None}, "only a yes/no, multi-select or single-choice"),
    ],
)  # fmt: skip
@no_database
def test_a_bad_epsilon_permanent_is_named(question, message):
    data = wave(1)
    data["questions"][0] = {k: v for k, v in {**data["questions"][0], **question}.items()
                            if v is not None}  # fmt: skip
    with pytest.raises(SurveyFileError, match=rf"questions\[0\]\.epsilon_permanent: {message}"):
        parse_survey(data)


@no_database
def test_epsilon_permanent_needs_a_series():
    data = wave(1)
    del data["series"], data["wave"]
    with pytest.raises(SurveyFileError, match="a permanent report needs the survey's series"):
        parse_survey(data)


@no_database
def test_a_number_question_draws_afresh_each_wave():
    data = wave(1)
    data["questions"][2]["epsilon_permanent"] = 2.0
    with pytest.raises(SurveyFileError, match=r"questions\[2\]\.epsilon_permanent: only a"):
        parse_survey(data)


def test_export_and_import_keep_the_series(app, runner, import_survey, tmp_path):
    import_survey(wave(1))
    exported = runner.invoke(args=["export-survey", "climate-w1"])
    assert exported.exit_code == 0, exported.output
    data = json.loads(exported.output)
    assert (data["series"], data["wave"]) == ("campus-climate", 1)
    assert data["questions"][0]["epsilon_permanent"] == 2.0


def test_a_wave_number_is_taken_once_per_series(import_survey, runner, tmp_path):
    import_survey(wave(1))
    path = tmp_path / "again.json"
    path.write_text(json.dumps(wave(1, slug="climate-again")), encoding="utf-8")
    result = runner.invoke(args=["import-survey", str(path)])
    assert result.exit_code == 1
    assert "wave 1 of series 'campus-climate' exists already" in result.output


def test_an_item_is_fixed_across_the_series_once_a_wave_has_responses(
    app, import_survey, seed_responses, runner, tmp_path
):
    import_survey(wave(1))
    changed = wave(2)
    changed["questions"][0]["epsilon"] = 1.5
    path = tmp_path / "w2.json"
    path.write_text(json.dumps(changed), encoding="utf-8")
    # No responses yet: wave 2 may ask it another way.
    assert runner.invoke(args=["import-survey", str(path)]).exit_code == 0
    with app.app_context():
        delete_survey(find_survey("climate-w2"))
        db.session.commit()
    seed_responses("climate-w1", 10, seed=1)
    result = runner.invoke(args=["import-survey", str(path)])
    assert result.exit_code == 1
    assert "Wave 1 of this series has responses to 'cheated'" in result.output
    import_survey(wave(2))  # asked as in wave 1: fine
    with app.app_context():
        question = find_survey("climate-w2").questions[0]
        spec = find_survey("climate-w2").to_spec().questions[0]
        with pytest.raises(EditError, match="fixed across the series"):
            update_question(question.survey, question, dataclasses.replace(spec, epsilon=1.5))
        db.session.rollback()


def test_a_survey_set_into_a_series_is_checked_against_its_answered_waves(
    app, import_survey, seed_responses
):
    """The builder's series field (``set_series``) on surveys imported without an owner: joining
    a series whose wave 1 has responses to an item asked another way is refused."""
    import_survey(wave(1))
    seed_responses("climate-w1", 10, seed=1)
    question = {"id": "cheated", "type": "yesno", "text": "Did you cheat?", "epsilon": 1.5,
                "procedure": "spinner_coin"}  # fmt: skip
    import_survey({"slug": "on-its-own", "title": "On its own", "questions": [question]})
    with app.app_context():
        survey = find_survey("on-its-own")
        with pytest.raises(EditError, match="fixed across the series"):
            set_series(survey, "campus-climate", 2)
        set_series(survey, "another-series", 1)
        db.session.commit()
        assert (survey.series, survey.wave) == ("another-series", 1)


def test_the_trend_api_gives_every_waves_published_figures_and_the_changes(
    app, client, token, import_survey, seed_responses
):
    shares = {1: 0.4, 2: 0.3, 3: 0.2}
    for number, share in shares.items():
        import_survey(wave(number))
        seed_responses(f"climate-w{number}", 400, seed=number, share=share, values=(5, 20))
    response = api_get(client, token, "series/campus-climate/trend")
    assert response.status_code == 200, response.get_json()
    document = response.get_json()
    assert document["series"] == "campus-climate"
    assert [w["wave"] for w in document["waves"]] == [1, 2, 3]
    items = {item["id"]: item for item in document["items"]}
    assert list(items) == ["cheated", "drugs.alcohol", "drugs.tobacco", "hours"]
    cheated = items["cheated"]
    with app.app_context():
        for point in cheated["waves"]:
            question = find_survey(f"climate-w{point['wave']}").questions[0]
            expected = rr.spinner_coin(1.0).estimate(question.published_yes, question.published_n)
            assert point["estimate"] == pytest.approx(expected.estimate, abs=1e-11)
            assert point["ci_low"] == pytest.approx(expected.ci_low, abs=1e-11)
            assert point["n"] == 400
        first, second = (find_survey(f"climate-w{k}").questions[0] for k in (1, 2))
        expected = rr.spinner_coin(1.0).difference(
            second.published_yes, second.published_n, first.published_yes, first.published_n
        )
    assert [(c["from"], c["to"]) for c in cheated["changes"]] == [(1, 2), (2, 3)]
    assert cheated["changes"][0]["estimate"] == pytest.approx(expected.estimate, abs=1e-11)
    assert cheated["changes"][0]["ci_high"] == pytest.approx(expected.ci_high, abs=1e-11)
    assert items["hours"]["measure"] == "mean"
    assert 0 <= items["hours"]["waves"][0]["estimate"] <= 40


def test_a_wave_below_the_minimum_n_is_withheld_and_skipped_by_changes(
    app, client, token, import_survey, seed_responses
):
    for number in (1, 2, 3):
        import_survey(wave(number))
    seed_responses("climate-w1", 200, seed=1)
    seed_responses("climate-w2", 5, seed=2)
    seed_responses("climate-w3", 200, seed=3)
    document = api_get(client, token, "series/campus-climate/trend").get_json()
    cheated = document["items"][0]
    assert cheated["waves"][1] == {"wave": 2, "withheld": True}
    assert [(c["from"], c["to"]) for c in cheated["changes"]] == [(1, 3)]


def test_the_trend_by_group_gives_each_groups_points(client, token, import_survey, seed_responses):
    for number in (1, 2):
        import_survey(wave(number))
        seed_responses(f"climate-w{number}", 600, seed=number,
                       by=("year", {"first": 0.5, "fourth": 0.2}))  # fmt: skip
    document = api_get(client, token, "series/campus-climate/trend", by="year").get_json()
    groups = [(item["id"], item["group"]) for item in document["items"] if item["id"] == "cheated"]
    assert groups == [("cheated", "first"), ("cheated", "fourth")]
    assert all(len(item["changes"]) == 1 for item in document["items"])
    bad = api_get(client, token, "series/campus-climate/trend", by="cheated")
    assert bad.status_code == 400


def test_no_token_no_series_and_anothers_series(client, token, import_survey):
    import_survey(wave(1))
    assert client.get("/api/series/campus-climate/trend").status_code == 401
    missing = api_get(client, token, "series/nothing/trend")
    assert missing.status_code == 404
    assert "no series 'nothing'" in missing.get_json()["error"]


@no_database
def test_xlsform_keeps_the_series_wave_and_epsilon_permanent():
    from web.core.surveys.xlsform.read import load_any_survey
    from web.core.surveys.xlsform.write import survey_xlsform

    spec = parse_survey(wave(3))
    workbook = survey_xlsform(spec)
    again = load_any_survey("climate-w3.xlsx", workbook)
    assert (again.series, again.wave) == ("campus-climate", 3)
    assert [q.epsilon_permanent for q in again.questions] == [2.0, 1.6, None, None]
    assert again == spec


def test_the_command_line_makes_the_next_wave_and_prints_the_trend(
    runner, import_survey, seed_responses
):
    import_survey(wave(1))
    made = runner.invoke(args=["next-wave", "climate-w1", "--slug", "climate-w2"])
    assert made.exit_code == 0, made.output
    assert made.output.splitlines() == ["Wave 2 of series 'campus-climate', a draft.", "climate-w2"]
    seed_responses("climate-w1", 50, seed=1)
    printed = runner.invoke(args=["trend", "campus-climate"])
    assert printed.exit_code == 0, printed.output
    document = json.loads(printed.output)
    assert [w["wave"] for w in document["waves"]] == [1, 2]
    assert document["items"][0]["waves"][1] == {"wave": 2, "withheld": True}
    table = runner.invoke(args=["trend", "campus-climate", "--csv"])
    assert table.output.splitlines()[0].startswith("series,item,measure,group,wave,n,estimate")
    missing = runner.invoke(args=["trend", "nothing"])
    assert missing.exit_code == 1 and "no series 'nothing'" in missing.output
    taken = runner.invoke(args=["next-wave", "climate-w1", "--slug", "climate-w2"])
    assert taken.exit_code == 1 and "already taken" in taken.output


def test_the_results_document_names_the_series_and_each_epsilon_permanent(
    client, token, import_survey, seed_responses
):
    import_survey(wave(2))
    seed_responses("climate-w2", 20, seed=1)
    document = api_get(client, token, "surveys/climate-w2/results").get_json()
    assert (document["series"], document["wave"]) == ("campus-climate", 2)
    questions = {question["id"]: question for question in document["questions"]}
    assert questions["cheated"]["epsilon_permanent"] == 2.0
    assert questions["drugs"]["epsilon_permanent"] == 1.6
    assert "epsilon_permanent" not in questions["hours"]


def test_the_codebook_gives_the_series_the_r_for_a_change_and_both_layers(app, import_survey):
    from web.core.results.exports import codebook
    from web.core.results.figures import published_results

    import_survey(wave(1))
    with app.app_context():
        survey = find_survey("climate-w1")
        book = codebook(survey, published_results(survey))
    assert book["survey"]["series"] == "campus-climate" and book["survey"]["wave"] == 1
    assert book["trend"]["R"].startswith("rr_change <- function(")
    cheated = book["questions"][0]
    layers = rr.permanent_response(2.0, 1.0)
    assert cheated["epsilon_permanent"] == 2.0
    assert cheated["permanent"]["keep"] == layers.keep
    assert cheated["permanent"]["wave_light"] == pytest.approx(layers.light, abs=1e-15)
    assert "epsilon_permanent" not in book["questions"][2]
