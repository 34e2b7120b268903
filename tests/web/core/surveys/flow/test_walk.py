"""A questionnaire's pages, display rules and drawn orders: the file's checks, what a submission
must send, and the same decisions as the page's script (tests/cases/display.json)."""

import copy
import json

import pytest

from tests.conftest import no_database
from tests.servers import ROOT
from web.core.surveys.answers import AnswerError, Shape, check_answers
from web.core.surveys.flow.display import read_rule
from web.core.surveys.flow.walk import Flow, FlowPage
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.surveyfile import load_survey, parse_survey

pytestmark = no_database

CASES = json.loads((ROOT / "tests" / "cases" / "display.json").read_text(encoding="utf-8"))

STUDY = {
    "slug": "flow-study",
    "title": "Campus life",
    "pages": [
        {"id": "about", "title": "About you", "questions": ["student", "year"]},
        {
            "id": "sensitive",
            "questions": ["s1", "s2", "s3"],
            "randomize": True,
            "show_if": {"question": "student", "in": ["yes"]},
        },
        {"id": "last", "questions": ["drugs"]},
    ],
    "questions": [
        {"id": "s1", "type": "yesno", "text": "S1", "epsilon": 1, "procedure": "spinner_coin"},
        {
            "id": "student",
            "type": "direct",
            "text": "Student?",
            "required": True,
            "options": [{"id": "yes", "text": "Yes"}, {"id": "no", "text": "No"}],
        },
        {
            "id": "year",
            "type": "direct",
            "text": "Year",
            "shuffle_options": True,
            "show_if": {"question": "student", "in": ["yes"]},
            "options": [
                {"id": "first", "text": "First"},
                {"id": "second", "text": "Second"},
                {"id": "none", "text": "None of these", "fixed": True},
            ],
        },
        {"id": "s2", "type": "yesno", "text": "S2", "epsilon": 1, "procedure": "spinner_coin"},
        {"id": "s3", "type": "yesno", "text": "S3", "epsilon": 1, "procedure": "spinner_coin"},
        {
            "id": "drugs",
            "type": "multi",
            "text": "Drugs",
            "epsilon": 1,
            "procedure": "spinner",
            "options": [{"id": "alcohol", "text": "Alcohol"}, {"id": "tobacco", "text": "Tobacco"}],
        },
    ],
}


def problems_of(data: dict) -> list[str]:
    with pytest.raises(SurveyFileError) as caught:
        parse_survey(data)
    return caught.value.problems


def test_questions_are_asked_page_by_page_and_the_file_round_trips():
    spec = parse_survey(STUDY)
    assert [question.key for question in spec.questions] == [
        "student", "year", "s1", "s2", "s3", "drugs",
    ]  # fmt: skip
    assert [page.key for page in spec.pages] == ["about", "sensitive", "last"]
    assert spec.pages[1].randomize and spec.questions[1].shuffle_options
    assert spec.questions[1].options[2].fixed
    assert load_survey(spec.to_json()) == spec


def test_a_survey_without_pages_is_one_page_as_before():
    data = copy.deepcopy(STUDY)
    del data["pages"]
    spec = parse_survey(data)
    assert spec.pages == ()
    assert [question.key for question in spec.questions][0] == "s1"  # the file's order


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["pages"][2]["questions"].append("ghost"),
         "pages[2].questions[1]: unknown question 'ghost'"),
        (lambda d: d["pages"][2]["questions"].append("s1"),
         "pages[2].questions[1]: 's1' is already on page 'sensitive'"),
        (lambda d: d["pages"][2].update(questions=["s1"]) or d["pages"][1]["questions"].remove("s1"),
         "pages: question 'drugs' is on no page"),
        (lambda d: d["pages"][2].update(id="drugs"), "pages[2].id: 'drugs' is a question's id"),
        (lambda d: d["pages"][2].update(id="about"), "pages[2].id: duplicate page id 'about'"),
        (lambda d: d["pages"][2].update(colour="red"), "pages[2].colour: unknown field 'colour'"),
        (lambda d: d["pages"][0].update(questions=[]), "pages[0].questions: must be a non-empty list"),
        (lambda d: d["pages"][1].update(randomize="yes"), "pages[1].randomize: must be true or false"),
    ],
)  # fmt: skip
def test_a_page_naming_an_unknown_question_or_one_on_two_pages_or_none_is_refused(change, expected):
    data = copy.deepcopy(STUDY)
    change(data)
    assert any(problem.startswith(expected) for problem in problems_of(data)), problems_of(data)


def test_a_rule_reading_a_randomized_question_is_refused_naming_the_place_and_why():
    data = copy.deepcopy(STUDY)
    data["questions"][3]["show_if"] = {"question": "s1", "in": ["yes"]}
    (problem,) = problems_of(data)
    assert problem.startswith("questions[3].show_if.question: 's1' is randomized")
    assert "report is noise" in problem and "true answer" in problem


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        # On the same randomized page, nothing is "before" it.
        ({"question": "s2", "in": ["yes"]}, "'s2' is randomized"),
        ({"question": "drugs", "in": ["alcohol"]}, "'drugs' is randomized"),
        ({"question": "ghost", "in": ["x"]}, "'ghost' is not a question asked directly before"),
        ({"question": "student", "in": ["maybe"]}, "'maybe' is not an answer of 'student' (yes, no)"),
        ({"question": "student", "at_least": 18}, "'student' is not a number"),
        ({"question": "student"}, "needs “in”, “at_least” or “at_most”"),
        ({"question": "student", "in": "yes"}, "must be a non-empty list of answer ids"),
        ({"question": "age", "at_least": 30, "at_most": 18}, "nobody would see it"),
        ({"all": []}, "must be a non-empty list"),
        ({"all": [{"any": [{"all": [{"any": [{"question": "student", "in": ["yes"]}]}]}]}]}, "nested too deeply"),
        ({"question": "student", "in": ["yes"], "or": 1}, "unknown field 'or'"),
        ([], "must be an object"),
    ],
)  # fmt: skip
def test_rules_are_checked_against_the_questions_before_them(rule, expected):
    data = copy.deepcopy(STUDY)
    data["questions"][5]["show_if"] = rule  # drugs, on the last page
    problems = problems_of(data)
    assert any(
        expected in problem and problem.startswith("questions[5].show_if") for problem in problems
    ), problems


def test_a_rule_may_read_an_earlier_question_on_a_page_whose_order_is_not_drawn_only():
    data = copy.deepcopy(STUDY)
    data["questions"][1]["show_if"] = {"question": "year", "in": ["first"]}  # student reads year
    assert any("'year' is not a question asked directly before" in p for p in problems_of(data))
    data["questions"][1].pop("show_if")
    data["pages"][1]["show_if"] = {"question": "drugs", "in": ["alcohol"]}
    assert any(
        p.startswith("pages[1].show_if.question: 'drugs' is randomized") for p in problems_of(data)
    )


def test_a_yes_no_asked_directly_is_read_as_yes_or_no():
    data = copy.deepcopy(STUDY)
    data["questions"][0]["procedure"] = "direct"  # s1, asked plainly
    data["questions"][0].pop("epsilon")
    data["pages"][1]["randomize"] = False
    data["questions"][3]["show_if"] = {"question": "s1", "in": ["yes"]}  # s2 after s1
    spec = parse_survey(data)
    assert spec.questions[3].show_if == read_rule({"question": "s1", "in": ["yes"]}, "")[0]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["questions"][0].update(shuffle_options=True),
         "questions[0].shuffle_options: only a question with options"),
        (lambda d: d["questions"][5]["options"][0].update(fixed=True),
         "questions[5].options[0].fixed: keeps an option in place only where"),
        (lambda d: d["questions"][2].update(shuffle_options="yes"),
         "questions[2].shuffle_options: must be true or false"),
    ],
)  # fmt: skip
def test_options_are_shuffled_only_where_a_question_has_them(change, expected):
    data = copy.deepcopy(STUDY)
    change(data)
    assert any(problem.startswith(expected) for problem in problems_of(data)), problems_of(data)


@pytest.mark.parametrize("case", CASES["rules"], ids=lambda case: json.dumps(case["rule"]))
def test_each_rule_holds_where_the_page_holds_it(case):
    rule, problems = read_rule(case["rule"], "show_if")
    assert problems == []
    assert rule.holds(case["plain"]) is case["holds"]


@pytest.mark.parametrize("case", CASES["flows"], ids=lambda case: json.dumps(case["plain"]))
def test_the_pages_and_questions_shown_are_the_pages(case):
    flow = Flow(
        tuple(
            FlowPage(page["id"], tuple(page["questions"]), False,
                     read_rule(page["showIf"], "")[0] if "showIf" in page else None)
            for page in case["pages"]
        ),
        tuple((name, read_rule(rule, "")[0]) for name, rule in case["rules"].items()),
    )  # fmt: skip
    shown = flow.shown(case["plain"])
    assert shown.pages == set(case["pages_shown"])
    assert shown.questions == set(case["questions_shown"])


# A submission to STUDY: the shapes and flow a stored survey gives it.
SHAPES = [
    Shape("student", "direct", ("yes", "no"), "direct", required=True, plain=True),
    Shape("year", "direct", ("first", "second", "none"), "direct", plain=True),
    Shape("s1", "yesno"),
    Shape("s2", "yesno"),
    Shape("s3", "yesno"),
    Shape("drugs", "multi", ("alcohol", "tobacco")),
]


def study_flow() -> Flow:
    spec = parse_survey(STUDY)
    return Flow.of(spec.questions, spec.pages)


def body(student="yes", **orders):
    """A whole submission to STUDY; ``orders`` replace the orders sent."""
    answers = {"student": student, "year": "first", "s1": 1, "s2": 0, "s3": 1,
               "drugs": {"alcohol": 1, "tobacco": 0}}  # fmt: skip
    order = {"sensitive": ["s3", "s1", "s2"], "year": ["second", "first", "none"]}
    return {"answers": answers, "order": order | orders}


def test_the_orders_shown_are_stored_with_the_reports():
    stored = check_answers(body(), SHAPES, flow=study_flow()).bits
    assert stored["order:sensitive"] == ["s3", "s1", "s2"]
    assert stored["options:year"] == ["second", "first", "none"]
    assert stored["s1"] == 1 and stored["year"] == "first"


def test_a_question_that_was_not_shown_must_not_be_answered():
    sent = body(student="no")
    with pytest.raises(AnswerError, match="question 'year' was not shown"):
        check_answers(sent, SHAPES, flow=study_flow())
    # Nor may its page's order be sent: the sensitive page was not shown either.
    for name in ("year", "s1", "s2", "s3"):
        sent["answers"].pop(name)
    with pytest.raises(AnswerError, match="'order' has 'sensitive'"):
        check_answers(sent, SHAPES, flow=study_flow())
    del sent["order"]
    stored = check_answers(sent, SHAPES, flow=study_flow()).bits
    assert stored["year"] is None and stored["s1"] is None
    assert "order:sensitive" not in stored


def test_a_hidden_required_question_is_not_required():
    flow = study_flow()
    shapes = [*SHAPES[:2], Shape("s1", "yesno", required=True), *SHAPES[3:]]
    sent = {"answers": {"student": "no", "drugs": {"alcohol": 0, "tobacco": 0}}}
    assert check_answers(sent, shapes, flow=flow).bits["s1"] is None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"sensitive": ["s1", "s2"]}, "'order' must give 'sensitive' as a permutation"),
        ({"sensitive": ["s1", "s2", "s2"]}, "as a permutation"),
        ({"sensitive": "s1 s2 s3"}, "as a permutation"),
        ({"year": ["none", "first", "second"]}, "'order' of 'year' moves 'none'"),
    ],
)
def test_an_order_that_is_no_permutation_or_moves_a_fixed_option_is_refused(changes, message):
    with pytest.raises(AnswerError, match=message):
        check_answers(body(**changes), SHAPES, flow=study_flow())


def test_a_missing_order_is_refused_and_a_survey_without_orders_takes_none():
    sent = body()
    del sent["order"]["sensitive"]
    with pytest.raises(AnswerError, match="'order' must give 'sensitive'"):
        check_answers(sent, SHAPES, flow=study_flow())
    with pytest.raises(AnswerError, match="unexpected field 'order'"):
        check_answers(body(), SHAPES)
