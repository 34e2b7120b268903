"""Results dashboard and exports: hidden below the minimum n, charts that read without sight,
and files from which anyone can recompute every estimate with rr."""

import csv
import io
import json

import pytest

import rr
from tests.conftest import LATER_QUESTION, VALID_ANSWERS, no_database
from web.core.infrastructure.extensions import db
from web.core.models import PendingResponse, Question, Response, Survey
from web.core.surveys.lookup import find_survey


def test_list_shows_status_and_n(researcher, runner, survey, seed_responses):
    seed_responses(survey, 12, seed=1)
    html = researcher.get("/surveys").get_data(as_text=True)
    row = html.split(f'data-slug="{survey}"')[1].split("</tr>")[0]
    assert "open" in row and ">12<" in row and ">4<" in row


def test_estimates_stay_hidden_below_the_minimum(researcher, runner, survey, seed_responses):
    seed_responses(survey, 9, seed=1)
    html = researcher.get(f"/surveys/{survey}").get_data(as_text=True)
    assert html.count("Figures appear once at least 10 answers to this question are shown") == 2
    assert 'id="published-count">9<' in html and 'id="response-count" data-fieldwork>9<' in html
    assert "<svg" not in html and 'class="number estimate"' not in html


def test_minimum_is_configurable(app, researcher, runner, survey, seed_responses):
    app.config["RESULTS_MIN_N"] = 3
    seed_responses(survey, 5, seed=1)  # one batch of five, past a minimum of three
    assert "<svg" in researcher.get(f"/surveys/{survey}").get_data(as_text=True)


def test_dashboard_numbers_match_rr(app, researcher, runner, survey, seed_responses):
    seed_responses(survey, 500, seed=4)
    html = researcher.get(f"/surveys/{survey}").get_data(as_text=True)
    with app.app_context():
        question = db.session.scalar(db.select(Question).filter_by(key="cheated"))
        expected = rr.estimate_proportion(question.noisy_yes, question.n, 1.0, "spinner_coin")
    block = html.split('data-question="cheated"')[1].split("</article>")[0]
    assert f"{100 * expected.estimate:.1f}%" in block
    assert f"{100 * expected.ci_low:.1f}% to {100 * expected.ci_high:.1f}%" in block
    assert f"{100 * question.noisy_yes / question.n:.1f}%" in block
    assert f">{expected.estimated_count:.0f}<" in block  # a whole count


def test_chart_is_svg_with_title_description_and_a_table(
    researcher, runner, survey, seed_responses
):
    seed_responses(survey, 200, seed=1)
    html = researcher.get(f"/surveys/{survey}").get_data(as_text=True)
    block = html.split('data-question="substances"')[1].split("</article>")[0]
    # Drawn twice, labels beside the bars and (for a phone) above them: the stylesheet shows one.
    wide, narrow = block.split("<svg")[1:]
    assert wide.startswith(' class="chart chart-wide"') and narrow.startswith(
        ' class="chart chart-narrow"'
    )
    for drawing in (wide, narrow):
        assert 'role="img"' in drawing and "<title id=" in drawing and "<desc id=" in drawing
        assert "Estimated share answering yes: Used?" in drawing
        assert "Alcohol: estimate" in drawing and "95% interval" in drawing
        assert drawing.count('class="whisker"') == 6 and drawing.count('class="bar"') == 2
    assert "<table" in block and 'data-option="tobacco"' in block


def test_note_explains_an_estimate_outside_zero_to_one(app, researcher, survey):
    with app.app_context():
        question = db.session.scalar(db.select(Question).filter_by(key="cheated"))
        # Far fewer yes than the coin alone gives (≈27%), as published.
        question.published_n, question.published_yes = 40, 2
        for option in db.session.scalar(db.select(Survey)).questions[1].options:
            option.published_n, option.published_yes = 40, 20
        question.survey.published_count = 40
        db.session.commit()
    html = researcher.get(f"/surveys/{survey}").get_data(as_text=True)
    block = html.split('data-question="cheated"')[1].split("</article>")[0]
    assert (
        "The raw estimate for Yes is -" in block
        and "left unclipped because clipping would bias it" in block
    )
    other = html.split('data-question="substances"')[1].split("</article>")[0]
    assert "outside 0–100%" not in other


def test_panel_refreshes_only_while_open(app, researcher, survey):
    assert 'data-refresh-url="/surveys/campus-life-test/panel"' in researcher.get(
        f"/surveys/{survey}"
    ).get_data(as_text=True)
    panel = researcher.get(f"/surveys/{survey}/panel").get_data(as_text=True)
    assert panel.lstrip().startswith("<section") and "<html" not in panel
    researcher.post(f"/surveys/{survey}/status", data={"status": "closed"})
    assert "data-refresh-url" not in researcher.get(f"/surveys/{survey}").get_data(as_text=True)


def read_csv(response):
    assert response.headers["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))


def test_responses_csv_has_one_row_per_response_and_no_time(
    app, researcher, runner, survey, seed_responses
):
    seed_responses(survey, 300, seed=7)
    response = researcher.get(f"/surveys/{survey}/responses.csv")
    assert (
        response.headers["Content-Disposition"] == f'attachment; filename="{survey}-responses.csv"'
    )
    rows = read_csv(response)
    assert len(rows) == 300
    assert list(rows[0]) == ["cheated", "substances.alcohol", "substances.tobacco"]
    assert all(set(row.values()) <= {"0", "1"} for row in rows)
    with app.app_context():
        question = db.session.scalar(db.select(Question).filter_by(key="cheated"))
        assert sum(int(row["cheated"]) for row in rows) == question.noisy_yes


def test_responses_csv_order_is_random(researcher, runner, survey, seed_responses):
    seed_responses(survey, 400, seed=8)
    first = researcher.get(f"/surveys/{survey}/responses.csv").get_data(as_text=True)
    second = researcher.get(f"/surveys/{survey}/responses.csv").get_data(as_text=True)
    assert sorted(first.splitlines()) == sorted(second.splitlines())
    assert first != second


def test_a_question_added_later_leaves_older_cells_empty(app, client, researcher, survey):
    app.config["RESULTS_MIN_N"] = 5
    for _ in range(5):  # five browsers: one batch
        browser = app.test_client()
        assert (
            browser.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS).status_code == 201
        )
    researcher.post(
        f"/surveys/{survey}/questions/new",
        data=LATER_QUESTION,
    )
    rows = read_csv(researcher.get(f"/surveys/{survey}/responses.csv"))
    assert (
        rows
        == [{"cheated": "1", "substances.alcohol": "0", "substances.tobacco": "1", "later": ""}] * 5
    )


def test_estimates_can_be_recomputed_from_the_csv_and_codebook(
    researcher, runner, survey, seed_responses
):
    seed_responses(survey, 1000, seed=9, share=0.2)
    responses = read_csv(researcher.get(f"/surveys/{survey}/responses.csv"))
    estimates = read_csv(researcher.get(f"/surveys/{survey}/estimates.csv"))
    book = json.loads(researcher.get(f"/surveys/{survey}/codebook.json").get_data(as_text=True))
    assert book["epsilon_total"] == pytest.approx(4.0)
    assert len(estimates) == 3
    for question in book["questions"]:
        assert question["light_fraction"] == pytest.approx(
            rr.light_fraction(question["epsilon"], question["procedure"])
        )
        assert question["noise_offset"] + question["noise_slope"] == pytest.approx(
            rr.truth_probability(question["epsilon"])
        )
        for column in question["columns"]:
            yes = sum(int(row[column]) for row in responses)
            recomputed = rr.estimate_proportion(
                yes, len(responses), question["epsilon"], question["procedure"]
            )
            option = column.split(".")[1] if "." in column else ""
            row = next(
                r for r in estimates if r["question"] == question["id"] and r["option"] == option
            )
            assert int(row["noisy_yes"]) == yes and int(row["n"]) == len(responses)
            for field in ("estimate", "std_error", "ci_low", "ci_high", "estimated_count"):
                # 12 significant digits: a relative error below 5e-12.
                assert float(row[field]) == pytest.approx(getattr(recomputed, field), rel=1e-11)


@no_database
def test_plan_endpoint_matches_rr(client):
    body = client.get(
        "/api/plan", query_string={"epsilon": "1.5", "procedure": "spinner", "n": "250"}
    ).json
    assert body["light_fraction"] == pytest.approx(rr.light_fraction(1.5, "spinner"))
    assert body["margin_of_error"] == pytest.approx(rr.margin_of_error(250, 1.5, "spinner"))
    assert body["sample_size"]["0.05"] == rr.sample_size(0.05, 1.5, "spinner")
    assert body["privacy_loss_ratio"] == pytest.approx(4.4816890703380645)


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ({"epsilon": "0"}, "epsilon"),
        ({"epsilon": "x"}, "epsilon"),
        ({}, "epsilon"),
        ({"epsilon": "40"}, "epsilon"),
        ({"epsilon": "1e-300"}, "epsilon"),
        ({"epsilon": "1e308"}, "epsilon"),
        ({"epsilon": "1e999"}, "epsilon"),
        ({"epsilon": "nan"}, "epsilon"),
        ({"epsilon": "-inf"}, "epsilon"),
        ({"epsilon": "1", "n": "0"}, "n must"),
        ({"epsilon": "1", "n": "1" + "0" * 400}, "n must"),
        ({"epsilon": "1", "n": "2.5"}, "n must"),
        ({"epsilon": "1", "procedure": "dice"}, "procedure"),
    ],
)
@no_database
def test_plan_endpoint_refuses_bad_input(client, query, named):
    response = client.get("/api/plan", query_string=query)
    assert response.status_code == 400 and named in response.json["error"]


@pytest.mark.parametrize("epsilon", ["1e-6", "0.01", "10"])
@no_database
def test_plan_endpoint_answers_at_both_ends_of_the_range(client, epsilon):
    body = client.get("/api/plan", query_string={"epsilon": epsilon, "n": "1000000000"}).json
    assert body["sample_size"]["0.1"] >= 1 and body["margin_of_error"] > 0


@pytest.mark.parametrize("path", ["/surveys/{slug}/panel", "/surveys/{slug}/present/panel"])
def test_an_unchanged_panel_costs_a_304(app, researcher, survey, path):
    url = path.format(slug=survey)
    first = researcher.get(url)
    etag = first.headers["ETag"]
    again = researcher.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    # A response moves the running total, which the panels show: a new version.
    assert (
        app.test_client().post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS).status_code
        == 201
    )
    changed = researcher.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_a_survey_is_deleted_with_every_response(app, researcher, runner, survey, seed_responses):
    seed_responses(survey, 12, seed=1)
    page = researcher.get(f"/surveys/{survey}").get_data(as_text=True)
    assert (
        'Delete “Campus life” and its <span data-fieldwork="">12</span> responses for good?' in page
    )
    deleted = researcher.post(f"/surveys/{survey}/delete")
    assert deleted.status_code == 302 and deleted.location.endswith("/surveys")
    listing = researcher.get("/surveys").get_data(as_text=True)
    assert "“Campus life” and its 12 responses were deleted." in listing
    assert researcher.get(f"/surveys/{survey}").status_code == 404
    with app.app_context():
        for model in (Survey, Question, Response, PendingResponse):
            assert db.session.scalar(db.select(db.func.count()).select_from(model)) == 0


def test_another_researcher_cannot_delete_or_duplicate_a_survey(
    make_researcher, runner, survey_file
):
    owner = make_researcher("owner@example.org")
    runner.invoke(args=["import-survey", str(survey_file), "--owner", "owner@example.org"])
    other = make_researcher("other@example.org")
    slug = "campus-life-test"
    assert other.post(f"/surveys/{slug}/delete").status_code == 404
    assert other.post(f"/surveys/{slug}/duplicate").status_code == 404
    assert owner.get(f"/surveys/{slug}").status_code == 200


def test_a_duplicate_is_a_draft_with_the_same_questions_and_no_responses(
    app, researcher, runner, survey, seed_responses
):
    seed_responses(survey, 12, seed=1)
    made = researcher.post(f"/surveys/{survey}/duplicate")
    assert made.status_code == 302 and made.location.endswith("/surveys/campus-life/edit")
    with app.app_context():
        original, copy = find_survey(survey), find_survey("campus-life")
        assert copy.title == "Copy of Campus life" and copy.status == "draft"
        assert copy.response_count == 0 and copy.owner.email == "rita@example.org"
        assert [q.key for q in copy.questions] == [q.key for q in original.questions]
        assert [(q.epsilon, q.procedure, q.n) for q in copy.questions] == [
            (q.epsilon, q.procedure, 0) for q in original.questions
        ]
        assert [o.key for o in copy.questions[1].options] == ["alcohol", "tobacco"]
