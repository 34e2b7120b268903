"""The researcher's series pages: Next wave from the dashboard, the trend page with its charts and
changes, the projector's view, the trend CSV, and who may see them."""

import csv
import io
import json

from tests.web.core.surveys.test_series_file import wave
from web.core.infrastructure.extensions import db
from web.core.models import Survey
from web.core.surveys.lookup import find_survey


def own_wave(researcher, tmp_path, number: int) -> str:
    """Import wave ``number`` as the researcher (the builder's import); its slug."""
    path = tmp_path / f"w{number}.json"
    path.write_text(json.dumps(wave(number)), encoding="utf-8")
    with path.open("rb") as handle:
        response = researcher.post(
            "/surveys/import", data={"file": (handle, path.name)},
            content_type="multipart/form-data",
        )  # fmt: skip
    assert response.status_code == 302, response.get_data(as_text=True)
    return f"climate-w{number}"


def test_next_wave_makes_a_draft_with_the_same_questions_and_the_next_number(
    app, researcher, tmp_path
):
    own_wave(researcher, tmp_path, 1)
    page = researcher.get("/surveys/climate-w1").get_data(as_text=True)
    assert "Wave 1 of the series campus-climate." in page
    response = researcher.post("/surveys/climate-w1/next-wave")
    assert response.status_code == 302
    slug = response.headers["Location"].split("/surveys/")[1].split("/")[0]
    assert slug == "campus-climate-w2"
    with app.app_context():
        made = find_survey(slug)
        assert (made.series, made.wave, made.status) == ("campus-climate", 2, "draft")
        first = find_survey("climate-w1")
        assert [q.key for q in made.questions] == [q.key for q in first.questions]
        assert [q.epsilon_permanent for q in made.questions] == [2.0, 1.6, None, None]
        assert made.texts("title").get("en") == "Campus climate, wave 1 (wave 2)"


def test_next_wave_of_a_survey_on_its_own_starts_a_series_named_after_it(
    app, researcher, import_survey
):
    response = researcher.post("/surveys/new", data={"title": "Alone", "slug": "alone"})
    assert response.status_code == 302
    response = researcher.post("/surveys/alone/next-wave")
    assert response.status_code == 302
    with app.app_context():
        assert (find_survey("alone").series, find_survey("alone").wave) == ("alone", 1)
        waves = {s.wave for s in db.session.scalars(db.select(Survey).filter_by(series="alone"))}
    assert waves == {1, 2}


def test_the_trend_page_projector_and_csv_show_every_wave(researcher, tmp_path, seed_responses):
    for number, share in ((1, 0.4), (2, 0.3), (3, 0.2)):
        seed_responses(own_wave(researcher, tmp_path, number), 300, seed=number, share=share)
    page = researcher.get("/series/campus-climate").get_data(as_text=True)
    assert page.count('class="chart trend-chart"') == 4
    assert page.count('data-change="1-2"') == 4 and page.count('data-change="2-3"') == 4
    assert "Wave 3" in page
    present = researcher.get("/series/campus-climate/present")
    assert present.status_code == 200
    assert present.get_data(as_text=True).count("trend-chart") == 4
    grouped = researcher.get("/series/campus-climate?by=year").get_data(as_text=True)
    assert "Did you cheat? (First)" in grouped
    response = researcher.get("/series/campus-climate/trend.csv")
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert response.headers["Content-Disposition"].endswith('campus-climate-trend.csv"')
    cheated = [row for row in rows if row["item"] == "cheated"]
    assert [row["wave"] for row in cheated] == ["1", "2", "3"]
    assert cheated[0]["change_from_wave"] == "" and cheated[1]["change_from_wave"] == "1"
    assert float(cheated[1]["change_ci_low"]) < float(cheated[1]["change"])


def test_another_researchers_series_is_not_found(researcher, make_researcher, tmp_path):
    own_wave(researcher, tmp_path, 1)
    other = make_researcher("otto@example.org")
    assert other.get("/series/campus-climate").status_code == 404
    assert other.get("/series/campus-climate/trend.csv").status_code == 404
    assert other.post("/surveys/climate-w1/next-wave").status_code == 404
    assert researcher.get("/series/campus-climate?by=cheated").status_code == 400


def test_the_builder_sets_the_series_and_a_questions_epsilon_permanent(app, researcher):
    assert (
        researcher.post("/surveys/new", data={"title": "Alone", "slug": "alone"}).status_code == 302
    )
    details = {"title": "Alone", "results_batch": 5, "series": "campus-climate", "wave": 4}
    assert researcher.post("/surveys/alone/edit", data=details).status_code == 302
    question = {"text": "Did you cheat?", "key": "cheated", "kind": "yesno", "epsilon": 1,
                "procedure": "spinner_coin", "epsilon_permanent": 0.5}  # fmt: skip
    refused = researcher.post("/surveys/alone/questions/new", data=question)
    assert "must be above ε" in refused.get_data(as_text=True)
    question["epsilon_permanent"] = 2.5
    assert researcher.post("/surveys/alone/questions/new", data=question).status_code == 302
    with app.app_context():
        survey = find_survey("alone")
        assert (survey.series, survey.wave) == ("campus-climate", 4)
        assert survey.questions[0].epsilon_permanent == 2.5
    # Leaving the series would orphan the permanent reports: refused with the reason.
    page = researcher.post("/surveys/alone/edit", data={**details, "series": "", "wave": ""})
    assert "remove their ε∞ first" in page.get_data(as_text=True)
