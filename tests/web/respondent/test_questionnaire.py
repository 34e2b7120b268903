"""A questionnaire of pages end to end on the server: the page it serves, the submissions it
takes and refuses, and the orders in the responses CSV and the codebook."""

import copy
import csv
import io
import json

from tests.helpers import submit_answers
from tests.web.core.surveys.flow.test_walk import STUDY
from web.core.infrastructure.extensions import db
from web.core.results.exports import codebook_text, responses_csv
from web.core.surveys.lookup import find_survey


def full(student="yes", sensitive=("s3", "s1", "s2")):
    answers = {"student": student, "drugs": {"alcohol": 1, "tobacco": 0}}
    order = {}
    if student == "yes":
        answers |= {"year": "first", "s1": 1, "s2": 0, "s3": 1}
        order = {"sensitive": list(sensitive), "year": ["second", "first", "none"]}
    return {"answers": answers, **({"order": order} if order else {})}


def test_the_page_has_its_pages_hidden_until_its_script_draws_the_orders(client, import_survey):
    slug = import_survey(STUDY)
    page = client.get(f"/s/{slug}").get_data(as_text=True)
    assert page.count('<section class="page"') == 3
    assert page.count(' hidden>\n      <h2 class="page-title') == 3
    assert 'id="page-next"' in page and 'id="flow-note"' in page
    config = json.loads(page.split('id="survey-config">')[1].split("</script>")[0])
    assert config["flow"]["pages"][1] == {
        "id": "sensitive", "questions": ["s1", "s2", "s3"], "randomize": True,
        "showIf": {"question": "student", "in": ["yes"]}, "screenOutIf": None,
    }  # fmt: skip
    assert config["flow"]["shuffled"] == [
        {"question": "year", "options": ["first", "second", "none"], "fixed": [False, False, True]}
    ]


def test_a_survey_of_one_page_has_no_pages_on_its_page(client, survey):
    page = client.get(f"/s/{survey}").get_data(as_text=True)
    assert 'class="page"' not in page and "page-nav" not in page
    assert '"flow": null' in page


def test_submissions_follow_the_flow_and_a_refused_one_stores_nothing(app, import_in_batches):
    slug = import_in_batches(STUDY)

    def send(body):  # each respondent with a browser of their own
        return submit_answers(app.test_client(), slug, body)

    assert send(full()).status_code == 201
    assert send(full("no")).status_code == 201
    hidden = full("no")
    hidden["answers"]["s1"] = 1
    refused = send(hidden)
    assert refused.status_code == 400
    assert "question 's1' was not shown" in refused.json["error"]
    unordered = full()
    del unordered["order"]
    assert send(unordered).status_code == 400
    with app.app_context():
        survey = find_survey(slug)
        assert survey.response_count == 2
        rows = list(csv.DictReader(io.StringIO("".join(responses_csv(survey, 2)))))
        book = json.loads(codebook_text(survey))
        s1 = next(question for question in survey.questions if question.key == "s1")
        # Each item's n counts those it was shown to and who answered.
        assert s1.n == 1
    assert {row["order_sensitive"] for row in rows} == {"s3 s1 s2", ""}
    assert {row["options_year"] for row in rows} == {"second first none", ""}
    assert {row["year"] for row in rows} == {"first", ""}
    assert book["flow"]["order_columns"] == ["order_sensitive", "options_year"]
    assert book["flow"]["pages"][1]["show_if"] == {"question": "student", "in": ["yes"]}
    year = next(entry for entry in book["questions"] if entry["id"] == "year")
    assert year["show_if"] == {"question": "student", "in": ["yes"]}
    assert year["options"][2] == {"id": "none", "text": "None of these", "fixed": True}


def test_a_stored_survey_gives_back_its_file(app, import_survey):
    slug = import_survey(STUDY)
    with app.app_context():
        spec = find_survey(slug).to_spec()
    written = spec.to_dict()
    assert written["pages"] == [
        {"id": "about", "title": "About you", "questions": ["student", "year"]},
        {**copy.deepcopy(STUDY["pages"][1])},
        {"id": "last", "questions": ["drugs"]},
    ]
    year = next(question for question in written["questions"] if question["id"] == "year")
    assert year["shuffle_options"] is True and year["options"][2]["fixed"] is True


def test_editing_a_question_keeps_its_rule_and_order(app, import_survey):
    from web.core.surveys.question_edit import update_question

    slug = import_survey(STUDY)
    with app.app_context():
        survey = find_survey(slug)
        year = next(question for question in survey.questions if question.key == "year")
        spec = next(question for question in survey.to_spec().questions if question.key == "year")
        update_question(survey, year, spec)
        db.session.commit()
        year = next(question for question in find_survey(slug).questions if question.key == "year")
        assert year.display_rule == {"question": "student", "in": ["yes"]}
        assert year.shuffle_options and year.options[2].fixed


def test_simulated_responses_follow_the_flow(app, import_in_batches, seed_responses):
    slug = import_in_batches(STUDY)
    seed_responses(slug, 200, seed=5)
    with app.app_context():
        survey = find_survey(slug)
        rows = list(csv.DictReader(io.StringIO("".join(responses_csv(survey, 2)))))
        n_of = {question.key: question.response_count for question in survey.questions}
    students = [row for row in rows if row["student"] == "yes"]
    others = [row for row in rows if row["student"] == "no"]
    assert len(students) + len(others) == 200 and students and others
    # A non-student was shown neither the year nor the exams page, and drew no order for them.
    assert all(row["s1"] == row["year"] == row["order_sensitive"] == "" for row in others)
    assert all(sorted(row["order_sensitive"].split()) == ["s1", "s2", "s3"] for row in students)
    assert all(row["options_year"].split()[2] == "none" for row in students)
    # Each item's n counts those it was shown to.
    assert n_of["s1"] == n_of["year"] == len(students) and n_of["drugs"] == 200


def test_the_builders_edits_keep_the_pages_in_step(app, import_survey):
    from web.core.surveys.editing import EditError
    from web.core.surveys.question_edit import (
        add_question,
        delete_question,
        reorder_questions,
        update_question,
    )
    from web.core.surveys.specs import QuestionSpec
    from web.core.surveys.texts import Texts

    slug = import_survey(STUDY)
    with app.app_context():
        survey = find_survey(slug)
        by_key = {question.key: question for question in survey.questions}
        # A question a rule reads cannot go: the rules would hide their questions for ever.
        try:
            delete_question(survey, by_key["student"])
        except EditError as refused:
            said = str(refused.problems)
            assert "the display rule of question 'year', a rule of the page 'sensitive'" in said
            assert "survey file" not in said
        else:
            raise AssertionError("deleting a question a rule reads was not refused")
        db.session.rollback()
        survey = find_survey(slug)
        by_key = {question.key: question for question in survey.questions}
        delete_question(survey, by_key["drugs"])  # the last page's only question: the page goes
        spec = QuestionSpec("extra", "yesno", Texts.one("en", "Extra?"), 1.0, "spinner_coin")
        add_question(survey, spec)  # onto the last page
        # Year's rule reads student: it cannot come first.
        try:
            reorder_questions(survey, ["year", "student", "s3", "s2", "s1", "extra"])
        except EditError as refused:
            assert "Not in this order: 'student' is not a question asked directly before" in str(
                refused.problems
            )
        else:
            raise AssertionError("an order in which a rule reads a later question was taken")
        reorder_questions(survey, ["student", "year", "s3", "s2", "extra", "s1"])
        year = next(question for question in survey.questions if question.key == "year")
        update_question(
            survey, year, next(q for q in survey.to_spec().questions if q.key == "year")
        )
        db.session.commit()
        survey = find_survey(slug)
        assert [page["id"] for page in survey.pages] == ["about", "sensitive"]
        assert survey.pages[0]["questions"] == ["student", "year"]
        assert survey.pages[1]["questions"] == ["s3", "s2", "extra", "s1"]
        year = next(question for question in survey.questions if question.key == "year")
        assert [option.fixed for option in year.options] == [False, False, True]


def test_the_builder_says_each_questions_page_rule_and_order(import_survey, make_researcher):
    slug = import_survey(STUDY)
    page = make_researcher("ada@example.org").client.get(f"/surveys/{slug}/edit")
    text = page.get_data(as_text=True)
    assert "year · page “About you” · shown if student = yes · options in a drawn order" in text
    assert "s1 · page “sensitive” (its order drawn) · shown if student = yes" in text
