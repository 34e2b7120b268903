"""Grids end to end on the server: the file, the page, the submissions taken and refused, the
responses CSV, the codebook, the dashboard's stacked bars, the simulation, languages and XLSForm."""

from __future__ import annotations

import copy
import csv
import io
import json

import openpyxl
import pytest

from tests.helpers import submit_answers
from web.core.results.exports import codebook_text, responses_csv
from web.core.results.grids import grid_results
from web.core.surveys.lookup import find_survey
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.surveyfile import load_survey

OPTIONS = [{"id": "disagree", "text": "Disagree"}, {"id": "neither", "text": "Neither"},
           {"id": "agree", "text": "Agree"}]  # fmt: skip
COURSE = {
    "slug": "course",
    "title": "The course",
    "description": "",
    "questions": [
        {"id": "views", "type": "grid", "text": "How far do you agree?",
         "rows": [{"id": "fair", "text": "The exam was fair"},
                  {"id": "clear", "text": "The lectures were clear"}],
         "options": OPTIONS},
        {"id": "cheat", "type": "yesno", "text": "Cheated?", "epsilon": 1,
         "procedure": "spinner_coin"},
    ],
}  # fmt: skip


def test_a_grid_is_read_and_written_back():
    spec = load_survey(json.dumps(COURSE))
    views = spec.questions[0]
    assert views.procedure == "direct" and not views.asked_with.protects
    assert [row.key for row in views.design.rows] == ["fair", "clear"]
    assert spec.to_dict()["questions"][0] == {
        "id": "views", "type": "grid", "text": "How far do you agree?",
        "rows": [{"id": "fair", "text": "The exam was fair"},
                 {"id": "clear", "text": "The lectures were clear"}],
        "options": OPTIONS,
    }  # fmt: skip
    assert load_survey(spec.to_json()) == spec


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rows": []}, r"questions\[0\]\.rows: a 'grid' question needs 1 to 30 rows, got 0"),
        ({"rows": [{"id": "a", "text": "A"}, {"id": "a", "text": "B"}]},
         r"questions\[0\]\.rows\[1\]\.id: duplicate row id 'a'"),
        ({"rows": [{"id": "a b", "text": "A"}]}, r"questions\[0\]\.rows\[0\]\.id: 'a b' is not"),
        ({"rows": [{"id": "a", "text": ""}]}, r"questions\[0\]\.rows\[0\]\.text: must be non-emp"),
        ({"rows": [{"id": "a", "text": "A", "note": 1}]},
         r"questions\[0\]\.rows\[0\]: unknown field 'note'"),
        ({"options": OPTIONS[:1]}, r"questions\[0\]\.options: a 'grid' question needs at least 2"),
        ({"shuffle_options": True}, r"questions\[0\]\.shuffle_options: a grid's options are one"),
        ({"epsilon": 1}, r"questions\[0\]\.epsilon: a 'grid' question is not randomized"),
        ({"type": "direct"}, r"questions\[0\]\.rows: only a 'grid' question has 'rows'"),
    ],
)  # fmt: skip
def test_a_wrong_grid_is_refused_by_place(changes, message):
    data = copy.deepcopy(COURSE)
    data["questions"][0].update(changes)
    with pytest.raises(SurveyFileError, match=message):
        load_survey(json.dumps(data))


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ({"question": "views", "in": ["agree"]},
         r"questions\[1\]\.show_if\.question: 'views' is a grid: a rule reads one of its rows "
         r"\(views\.clear, views\.fair\)"),
        ({"question": "views.fair", "in": ["maybe"]},
         r"questions\[1\]\.show_if\.in: 'maybe' is not an answer of 'views\.fair'"),
        ({"question": "views.other", "in": ["agree"]},
         r"questions\[1\]\.show_if\.question: 'views\.other' is not a question asked directly"),
        ({"question": "views.fair", "at_least": 1}, r"'views\.fair' is not a number"),
    ],
)  # fmt: skip
def test_a_rule_reads_a_row_of_a_grid_and_nothing_else_of_it(rule, message):
    data = copy.deepcopy(COURSE)
    data["questions"][1]["show_if"] = rule
    with pytest.raises(SurveyFileError, match=message):
        load_survey(json.dumps(data))


FOLLOW_UP = copy.deepcopy(COURSE) | {"slug": "follow-up"}
FOLLOW_UP["questions"][1]["show_if"] = {"question": "views.fair", "in": ["disagree"]}


def test_a_hidden_question_by_a_row_is_refused_and_the_shown_one_taken(app, import_in_batches):
    slug = import_in_batches(FOLLOW_UP)

    def send(answers):
        return submit_answers(app.test_client(), slug, {"answers": answers})

    refused = send({"views": {"fair": "agree"}, "cheat": 1})
    assert refused.status_code == 400 and "question 'cheat' was not shown" in refused.json["error"]
    assert send({"views": {"fair": "disagree"}, "cheat": 1}).status_code == 201
    assert send({"views": {"clear": "agree"}}).status_code == 201
    with app.app_context():
        assert find_survey(slug).response_count == 2


def test_the_page_asks_a_fieldset_per_row(client, import_survey):
    slug = import_survey(COURSE)
    page = client.get(f"/s/{slug}").get_data(as_text=True)
    assert page.count('class="truth direct grid-row"') == 2
    assert "<legend><span>The exam was fair</span></legend>" in page
    assert page.count('name="direct-views.clear"') == 4  # three options and "Prefer not to say"
    config = json.loads(page.split('id="survey-config">')[1].split("</script>")[0])
    views = next(question for question in config["questions"] if question["id"] == "views")
    assert views["answer"] == "grid" and views["items"] == [] and views["plain"] is True
    assert views["rows"] == [{"id": "fair", "text": "The exam was fair"},
                             {"id": "clear", "text": "The lectures were clear"}]  # fmt: skip


def test_answers_are_checked_stored_and_exported_by_row(app, import_in_batches):
    data = copy.deepcopy(COURSE)
    slug = import_in_batches(data)

    def send(answers):
        return submit_answers(app.test_client(), slug, {"answers": answers})

    assert send({"views": {"fair": "agree", "clear": "neither"}, "cheat": 1}).status_code == 201
    assert send({"views": {"fair": "disagree", "clear": None}}).status_code == 201
    for answers, error in [
        ({"views": {"fair": "maybe"}}, "row 'fair' must be one of its option ids or null"),
        ({"views": {"other": "agree"}}, "question 'views' has no row 'other'"),
        ({"views": ["agree"]}, "must be an object of row ids and option ids"),
        ({"views": {"fair": 1}}, "row 'fair' must be one of its option ids or null"),
    ]:
        refused = send(answers)
        assert refused.status_code == 400 and error in refused.json["error"], refused.json
    with app.app_context():
        survey = find_survey(slug)
        assert survey.response_count == 2
        rows = list(csv.DictReader(io.StringIO("".join(responses_csv(survey, 2)))))
        book = json.loads(codebook_text(survey))
    assert sorted((row["views_fair"], row["views_clear"]) for row in rows) == [
        ("agree", "neither"), ("disagree", ""),
    ]  # fmt: skip
    views = next(question for question in book["questions"] if question["id"] == "views")
    assert views["columns"] == ["views_fair", "views_clear"] and views["randomized"] is False
    assert views["rows"]["fair"] == {"en": "The exam was fair"}
    assert 'table(d$views_fair, useNA = "ifany")' in views["R"]


def test_a_required_grid_needs_every_row(app, import_in_batches):
    data = copy.deepcopy(COURSE)
    data["questions"][0]["required"] = True
    slug = import_in_batches(data)
    refused = submit_answers(app.test_client(), slug, {"answers": {"views": {"fair": "agree"}}})
    assert refused.status_code == 400
    assert "question 'views' is required: row 'clear' is unanswered" in refused.json["error"]
    whole = {"views": {"fair": "agree", "clear": "agree"}}
    assert submit_answers(app.test_client(), slug, {"answers": whole}).status_code == 201


def test_the_dashboard_stacks_each_row_and_withholds_small_counts(
    app, import_in_batches, researcher
):
    slug = import_in_batches(COURSE, batch=5)
    app.config["RESULTS_MIN_N"] = 2
    answers = [("agree", "neither"), ("agree", "neither"), ("agree", "agree"),
               ("disagree", None), ("neither", None)]  # fmt: skip
    for fair, clear in answers:
        sent = {"views": {"fair": fair, "clear": clear}}
        assert submit_answers(app.test_client(), slug, {"answers": sent}).status_code == 201
    with app.app_context():
        (views,) = grid_results(find_survey(slug), 2)
    fair, clear = views.rows
    # One chose "disagree" and one "neither" for the first row: fewer than 2, not counted apart.
    assert (fair.n, fair.counts) == (5, (None, None, 3)) and fair.withheld_share == pytest.approx(
        0.4
    )
    assert (clear.n, clear.counts) == (3, (0, 2, None))
    page = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    block = page.split('class="result grid-result" data-question="views"')[1].split("</article>")[0]
    assert block.count('class="segment segment-2"') == 2 and 'class="segment withheld"' in block
    assert "fewer than 2" in block and "60%" in block
    document = researcher.get(f"/api/surveys/{slug}/results").get_data(as_text=True)
    assert '"views"' not in document


def test_a_row_answered_by_too_few_is_withheld(app, import_in_batches, researcher):
    slug = import_in_batches(COURSE, batch=2)
    app.config["RESULTS_MIN_N"] = 2
    for clear in ("agree", None):
        sent = {"views": {"fair": "agree", "clear": clear}}
        assert submit_answers(app.test_client(), slug, {"answers": sent}).status_code == 201
    with app.app_context():
        (views,) = grid_results(find_survey(slug), 2)
    assert [row.key for row in views.rows] == ["fair"] and views.withheld_rows == 1
    page = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    assert "Rows answered by fewer than 2 respondents, withheld: 1." in page


def test_simulated_respondents_answer_every_row(app, runner, import_survey):
    slug = import_survey(COURSE)
    result = runner.invoke(args=["simulate-responses", slug, "--n", "300", "--seed", "5"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        rows = list(csv.DictReader(io.StringIO("".join(responses_csv(find_survey(slug), 1)))))
    assert len(rows) == 300
    for column in ("views_fair", "views_clear"):
        seen = [row[column] for row in rows]
        # Each option drawn evenly: 100 expected, binomial sd about 8.2; 5 sd either side.
        for option in ("disagree", "neither", "agree"):
            assert abs(seen.count(option) - 100) < 41


def test_a_new_language_keeps_the_rows_and_asks_for_their_translation(app, import_survey):
    from web.core.surveys.editing import set_languages

    slug = import_survey(COURSE)
    with app.app_context():
        from web.core.infrastructure.extensions import db

        survey = find_survey(slug)
        set_languages(survey, ["en", "ko"])
        db.session.commit()
        rows = find_survey(slug).questions[0].design.rows
        assert [dict(row.text) for row in rows] == [
            {"en": "The exam was fair"}, {"en": "The lectures were clear"},
        ]  # fmt: skip
        set_languages(find_survey(slug), ["ko"])
        db.session.commit()
        assert [dict(row.text) for row in find_survey(slug).questions[0].design.rows] == [{}, {}]


def test_a_grid_in_a_page_round_trips_through_xlsform_and_pyxform_converts_it(app):
    from pyxform.xls2xform import convert

    from web.core.surveys.xlsform.read import load_xlsform
    from web.core.surveys.xlsform.write import survey_xlsform

    data = copy.deepcopy(COURSE)
    data["questions"][0]["required"] = True
    data["questions"].insert(0, {"id": "student", "type": "direct", "text": "Student?",
                                 "options": [{"id": "y", "text": "Yes"}, {"id": "n", "text": "No"}]})  # fmt: skip
    data["questions"][1]["show_if"] = {"question": "student", "in": ["y"]}
    data["questions"][2]["show_if"] = {"question": "views.fair", "in": ["disagree"]}
    data["pages"] = [{"id": "first", "questions": ["student"]},
                     {"id": "second", "questions": ["views", "cheat"]}]  # fmt: skip
    with app.test_request_context():
        spec = load_survey(json.dumps(data))
        exported = survey_xlsform(spec)
        assert load_xlsform(exported) == spec
    book = openpyxl.load_workbook(io.BytesIO(exported))
    header, *rows = list(book["survey"].iter_rows(values_only=True))
    rows = [dict(zip(header, row, strict=True)) for row in rows]
    grid = next(row for row in rows if row["name"] == "views")
    assert (grid["type"], grid["appearance"]) == ("begin group", "table-list")
    assert grid["relevant"] == "${student} = 'y'"
    cheat = next(row for row in rows if row["name"] == "cheat")
    assert cheat["relevant"] == "${views_fair} = 'disagree'"
    assert [(row["type"], row["required"]) for row in rows if row["name"] in
            ("views_fair", "views_clear")] == [("select_one views", "yes")] * 2  # fmt: skip
    xform = convert(xlsform=io.BytesIO(exported), file_type=".xlsx", validate=False).xform
    # pyxform draws a table-list as a field-list group of its rows.
    assert 'ref="/data/second/views"' in xform and "/data/second/views/views_fair" in xform


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([["select_one agree", "fair", "Fair"], ["select_one other", "clear", "Clear"]],
         "survey row 4: every row of a grid uses the same list (agree)"),
        ([["integer", "fair", "Fair"]], "survey row 3: a grid's (table-list) rows are select_one"),
        ([["select_one agree", "fair", "Fair", "spinner"]],
         "survey row 3: a grid's rows are asked directly"),
    ],
)  # fmt: skip
def test_a_wrong_table_list_is_refused_by_row(app, rows, message):
    from web.core.surveys.problems import SurveyFileError
    from web.core.surveys.xlsform.read import load_xlsform

    book = openpyxl.Workbook()
    survey = book.active
    survey.title = "survey"
    survey.append(["type", "name", "label", "rr_procedure", "appearance"])
    survey.append(["begin group", "views", "Views?", None, "table-list"])
    for row in rows:
        survey.append(row)
    survey.append(["end group"])
    choices = book.create_sheet("choices")
    choices.append(["list_name", "name", "label"])
    for list_name in ("agree", "other"):
        choices.append([list_name, "yes", "Yes"])
        choices.append([list_name, "no", "No"])
    buffer = io.BytesIO()
    book.save(buffer)
    with app.test_request_context(), pytest.raises(SurveyFileError) as refused:
        load_xlsform(buffer.getvalue())
    assert any(message in problem for problem in refused.value.problems), refused.value.problems


def test_the_builder_makes_and_edits_a_grid(app, researcher, import_survey):
    slug = import_survey(COURSE | {"slug": "built"})
    # The form's hidden fields (ε, procedure) are sent as a browser sends them; a grid ignores them.
    form = {"epsilon": "1", "procedure": "spinner_coin", "kind": "grid", "key": "habits",
            "text": "How often do you…", "options": "Never\nOften",
            "rows": "Sleep late\nSkip lectures", "row_ids": "late\n"}  # fmt: skip
    made = researcher.post(f"/surveys/{slug}/questions/new", data=form)
    assert made.status_code == 302, made.get_data(as_text=True)
    with app.app_context():
        habits = find_survey(slug).questions[-1]
        assert [(row.key, row.text["en"]) for row in habits.design.rows] == [
            ("late", "Sleep late"), ("skip_lectures", "Skip lectures"),
        ]  # fmt: skip
    page = researcher.get(f"/surveys/{slug}/questions/habits").get_data(as_text=True)
    assert (
        "Sleep late\nSkip lectures</textarea>" in page and "late\nskip_lectures</textarea>" in page
    )
    refused = researcher.post(f"/surveys/{slug}/questions/habits", data=form | {"row_ids": "a\na"})
    assert "Row 2: duplicate row id" in refused.get_data(as_text=True)
