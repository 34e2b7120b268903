"""Open answers end to end on the server: the file, the page, the submissions taken and refused,
the responses CSV, the codebook, the dashboard's list and every output that must not show them."""

from __future__ import annotations

import copy
import csv
import io
import json

import pytest

from tests.helpers import submit_answers
from web.core.infrastructure.extensions import db
from web.core.results.exports import codebook_text, responses_csv
from web.core.results.open_answers import open_answers
from web.core.surveys.lookup import find_survey
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.surveyfile import load_survey

OPEN = {
    "slug": "open-words",
    "title": "Exams",
    "description": "",
    "questions": [
        {"id": "cheat", "type": "yesno", "text": "Cheated?", "epsilon": 1,
         "procedure": "spinner_coin"},
        {"id": "year", "type": "direct", "text": "Year",
         "options": [{"id": "first", "text": "First"}, {"id": "later", "text": "Later"}]},
        {"id": "comment", "type": "text", "text": "Anything else?", "max_length": 40},
    ],
}  # fmt: skip


def with_question(**changes) -> dict:
    data = copy.deepcopy(OPEN)
    data["questions"][2].update(changes)
    return data


def test_a_file_s_open_question_takes_a_default_length_and_is_written_back():
    default = copy.deepcopy(OPEN)
    del default["questions"][2]["max_length"]
    spec = load_survey(json.dumps(default))
    assert spec.questions[2].design.max_length == 500
    assert spec.questions[2].epsilon == 0 and spec.questions[2].procedure == "direct"
    assert spec.to_dict()["questions"][2] == {
        "id": "comment",
        "type": "text",
        "text": "Anything else?",
        "max_length": 500,
    }


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"max_length": 0}, "questions[2].max_length: must be a whole number of characters from 1 to 5000"),
        ({"max_length": 5001}, "from 1 to 5000, got 5001"),
        ({"max_length": "40"}, "got '40'"),
        ({"options": [{"id": "a", "text": "A"}]}, "questions[2].options: an open question has no options"),
        ({"epsilon": 1}, "questions[2].epsilon"),
    ],
)  # fmt: skip
def test_a_wrong_open_question_is_refused_by_place(changes, message):
    with pytest.raises(SurveyFileError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_survey(json.dumps(with_question(**changes)))


def test_only_an_open_question_has_a_length_and_no_rule_reads_one():
    data = copy.deepcopy(OPEN)
    data["questions"][1]["max_length"] = 10
    with pytest.raises(
        SurveyFileError, match=r"questions\[1\]\.max_length: only a 'text' question"
    ):
        load_survey(json.dumps(data))
    data = copy.deepcopy(OPEN)
    data["questions"].append({"id": "more", "type": "yesno", "procedure": "direct", "text": "More?",
                              "show_if": {"question": "comment", "in": ["yes"]}})  # fmt: skip
    with pytest.raises(SurveyFileError, match="'comment' is an open answer"):
        load_survey(json.dumps(data))


def test_the_page_asks_in_a_labelled_box_and_says_who_reads_the_words(client, import_survey):
    slug = import_survey(OPEN)
    page = client.get(f"/s/{slug}").get_data(as_text=True)
    assert '<textarea id="direct-comment" name="direct-comment" rows="4" maxlength="40"' in page
    assert '<label for="direct-comment">' in page
    assert "At most 40 characters. Leave it empty to say nothing." in page
    assert "the researcher reads them as you wrote them" in page
    assert "An open answer, written in your own words, is read by the researcher" in page
    config = json.loads(page.split('id="survey-config">')[1].split("</script>")[0])
    comment = next(question for question in config["questions"] if question["id"] == "comment")
    assert comment["answer"] == "text" and comment["items"] == [] and comment["plain"] is True


def test_answers_are_stored_as_written_and_bad_ones_store_nothing(app, import_in_batches):
    slug = import_in_batches(OPEN)

    def send(comment):
        body = {"answers": {"cheat": 1, "year": "first", "comment": comment}}
        return submit_answers(app.test_client(), slug, body)

    assert send("  =SUM(A1) it was hard\nreally  ").status_code == 201
    assert send(None).status_code == 201
    for bad, error in [
        ("x" * 41, "takes at most 40 characters, got 41"),
        ("   ", "must be text that is not blank"),
        (7, "must be text that is not blank"),
        ("bell\x07", "control character"),
    ]:
        refused = send(bad)
        assert refused.status_code == 400 and error in refused.json["error"]
    with app.app_context():
        survey = find_survey(slug)
        assert survey.response_count == 2
        rows = list(csv.DictReader(io.StringIO("".join(responses_csv(survey, 2)))))
        book = json.loads(codebook_text(survey))
    # Kept as written but for the blanks around it; inert in the CSV (a spreadsheet runs no formula).
    assert sorted(row["comment"] for row in rows) == ["", "'=SUM(A1) it was hard\nreally"]
    entry = next(question for question in book["questions"] if question["id"] == "comment")
    assert entry["max_length"] == 40 and entry["randomized"] is False and "n" not in entry


def test_a_required_open_question_must_be_answered(app, import_survey):
    slug = import_survey(with_question(required=True))
    body = {"answers": {"cheat": 1, "year": "first"}}
    refused = submit_answers(app.test_client(), slug, body)
    assert refused.status_code == 400 and "'comment' is required" in refused.json["error"]


def test_the_dashboard_lists_answers_alphabetically_once_published(
    app, import_in_batches, researcher
):
    slug = import_in_batches(OPEN, batch=4)
    app.config["RESULTS_MIN_N"] = 4
    for comment in ["zebra", "Apple", "apple", "zebra", None]:
        body = {"answers": {"cheat": 0, "year": "later", "comment": comment}}
        assert submit_answers(app.test_client(), slug, body).status_code == 201
    page = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    listed = page.split('class="open-answer-list"')[1].split("</ul>")[0]
    assert listed.index(">Apple<") < listed.index(">apple<") < listed.index(">zebra<")
    assert "× 2" in listed and "Respondents who wrote an answer: 4." in page
    with app.app_context():
        (found,) = open_answers(find_survey(slug), 4)
        assert found.answers == (("Apple", 1), ("apple", 1), ("zebra", 2)) and found.n == 4
        # The fifth response waits for its batch: nothing moves before it.
        (waiting,) = open_answers(find_survey(slug), 6)
        assert waiting.withheld and waiting.answers == ()


def test_open_answers_stay_off_the_projector_and_the_results_document(
    app, client, import_in_batches, researcher
):
    slug = import_in_batches(OPEN)
    for comment in ["my name is Kim", "nothing"]:
        body = {"answers": {"cheat": 1, "year": "first", "comment": comment}}
        assert submit_answers(app.test_client(), slug, body).status_code == 201
    projector = researcher.get(f"/surveys/{slug}/present").get_data(as_text=True)
    assert "Kim" not in projector and "Anything else?" not in projector
    document = researcher.get(f"/api/surveys/{slug}/results").get_data(as_text=True)
    assert "Kim" not in document and '"comment"' not in document
    estimates = researcher.get(f"/surveys/{slug}/estimates.csv").get_data(as_text=True)
    assert "Kim" not in estimates and "comment" not in estimates
    with app.app_context():
        db.session.remove()
