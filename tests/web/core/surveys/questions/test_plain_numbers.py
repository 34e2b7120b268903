"""Numbers asked directly end to end on the server: the file, the page, the submissions taken and
refused, a display rule that reads one, the responses CSV, the codebook, the dashboard's summary,
the simulation and XLSForm."""

from __future__ import annotations

import copy
import csv
import io
import json

import pytest

from tests.helpers import submit_answers
from web.core.results.exports import codebook_text, responses_csv
from web.core.results.plain_numbers import plain_numbers
from web.core.surveys.lookup import find_survey
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.surveyfile import load_survey
from web.core.surveys.xlsform.read import load_xlsform
from web.core.surveys.xlsform.write import survey_xlsform

AGES = {
    "slug": "ages",
    "title": "Exams",
    "description": "",
    "questions": [
        {"id": "age", "type": "number", "procedure": "direct", "text": "How old are you?",
         "min": 16, "max": 99, "unit": "years", "required": True},
        {"id": "cheat", "type": "yesno", "text": "Cheated?", "epsilon": 1,
         "procedure": "spinner_coin", "show_if": {"question": "age", "at_least": 18}},
        {"id": "hours", "type": "number", "procedure": "direct", "text": "Hours of sleep?",
         "min": 0, "max": 12, "step": 0.5},
    ],
}  # fmt: skip


def test_a_number_asked_directly_is_read_and_written_back():
    spec = load_survey(json.dumps(AGES))
    age = spec.questions[0]
    assert age.procedure == "direct" and age.epsilon == 0 and not age.asked_with.protects
    assert spec.to_dict()["questions"][0] == {
        "id": "age", "type": "number", "text": "How old are you?", "procedure": "direct",
        "min": 16, "max": 99, "step": 1, "unit": "years", "required": True,
    }  # fmt: skip
    assert load_xlsform(survey_xlsform(spec)) == spec


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"epsilon": 1}, r"questions\[0\]\.epsilon: a question asked directly has no epsilon"),
        ({"max": 10}, r"questions\[0\]\.max: must be above min"),
        ({"procedure": "forced_response"}, r"questions\[0\]\.procedure: unknown procedure"),
    ],
)
def test_a_wrong_number_is_refused_by_place(changes, message):
    data = copy.deepcopy(AGES)
    data["questions"][0].update(changes)
    with pytest.raises(SurveyFileError, match=message):
        load_survey(json.dumps(data))


def test_a_rule_reads_it_as_a_number():
    data = copy.deepcopy(AGES)
    data["questions"][1]["show_if"] = {"question": "age", "in": ["18"]}
    with pytest.raises(SurveyFileError, match="'age' is a number: use “at_least” or “at_most”"):
        load_survey(json.dumps(data))


def test_the_page_asks_in_a_labelled_number_box(client, import_survey):
    slug = import_survey(AGES)
    page = client.get(f"/s/{slug}").get_data(as_text=True)
    assert 'name="direct-age" min="16" max="99" step="1" inputmode="numeric"' in page
    assert "A whole number from 16 to 99." in page
    assert "A number from 0 to 12, in steps of 0.5. Leave it empty to say nothing." in page
    config = json.loads(page.split('id="survey-config">')[1].split("</script>")[0])
    age = next(question for question in config["questions"] if question["id"] == "age")
    assert age["answer"] == "value" and age["items"] == [] and age["plain"] is True
    assert age["scale"] == {"min": 16, "max": 99, "step": 1, "unit": "years"}


def test_values_are_checked_stored_and_read_by_the_rule(app, import_in_batches):
    slug = import_in_batches(AGES)

    def send(answers):
        return submit_answers(app.test_client(), slug, {"answers": answers})

    assert send({"age": 21, "cheat": 1, "hours": 7.5}).status_code == 201
    assert send({"age": 17, "hours": None}).status_code == 201
    for answers, error in [
        ({"age": 17, "cheat": 1}, "question 'cheat' was not shown"),
        ({"age": 15}, "takes a number from 16 to 99 in steps of 1, got 15"),
        ({"age": 30, "hours": 7.25}, "from 0 to 12 in steps of 0.5, got 7.25"),
        ({"age": "30"}, "must be a number or null"),
        ({"age": True}, "must be a number or null"),
        ({"hours": 8}, "'age' is required"),
    ]:
        refused = send(answers)
        assert refused.status_code == 400 and error in refused.json["error"], refused.json
    with app.app_context():
        survey = find_survey(slug)
        assert survey.response_count == 2
        rows = list(csv.DictReader(io.StringIO("".join(responses_csv(survey, 2)))))
        book = json.loads(codebook_text(survey))
    assert sorted((row["age"], row["hours"], row["cheat"]) for row in rows) == [
        ("17", "", ""), ("21", "7.5", "1"),
    ]  # fmt: skip
    age = next(question for question in book["questions"] if question["id"] == "age")
    assert age["randomized"] is False and (age["min"], age["max"], age["step"]) == (16, 99, 1)
    assert "quantile(d$age, c(0.25, 0.5, 0.75), na.rm = TRUE)" in age["R"]


def test_the_dashboard_summarises_the_published_values(app, import_in_batches, researcher):
    slug = import_in_batches(AGES, batch=4)
    app.config["RESULTS_MIN_N"] = 4
    for age in (18, 19, 22, 35, 40):
        assert submit_answers(app.test_client(), slug, {"answers": {"age": age}}).status_code == 201
    with app.app_context():
        age, hours = plain_numbers(find_survey(slug), 4)
    # The fifth value waits for its batch: the summary is of the first four published.
    assert age.summary.n == 4 and hours.withheld  # nobody gave their hours
    page = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    block = page.split('class="result plain-number" data-question="age"')[1].split("</article>")[0]
    assert "Number asked directly" in block and f">{age.summary.mean:.2f}".rstrip("0") in block
    document = researcher.get(f"/api/surveys/{slug}/results").get_data(as_text=True)
    assert '"age"' not in document


def test_simulated_respondents_give_values_on_the_steps(app, runner, import_survey):
    slug = import_survey(AGES)
    result = runner.invoke(args=["simulate-responses", slug, "--n", "300", "--seed", "5"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        rows = list(csv.DictReader(io.StringIO("".join(responses_csv(find_survey(slug), 1)))))
    hours = {float(row["hours"]) for row in rows}
    assert hours <= {step / 2 for step in range(25)} and len(hours) > 10
    ages = [int(row["age"]) for row in rows]
    assert min(ages) >= 16 and max(ages) <= 99
