"""Submissions must match the survey exactly: every question, every option, each 0 or 1."""

import pytest

from tests.conftest import no_database
from web.core.surveys.answers import AnswerError, Shape, check_answers

# Nothing here reads or writes the database: it runs once, on SQLite.
pytestmark = no_database


SHAPES = [Shape("cheated", "yesno"), Shape("substances", "multi", ("alcohol", "tobacco"))]


def test_valid_answers_come_back_as_bits():
    body = {"answers": {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1}}}
    assert check_answers(body, SHAPES).bits == body["answers"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ([], "the body must be a JSON object"),
        ({}, "'answers' must be an object"),
        ({"answers": []}, "'answers' must be an object"),
        (
            {"answers": {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1}}, "truth": 1},
            "unexpected field 'truth'",
        ),
        (
            {"answers": {"cheated": 1, "substances": {"alcohol": 0}}},
            "option 'tobacco' of question 'substances' is missing",
        ),
        (
            {"answers": {"cheated": 2, "substances": {"alcohol": 0, "tobacco": 1}}},
            "question 'cheated' must be 0 or 1, got 2",
        ),
        (
            {"answers": {"cheated": True, "substances": {"alcohol": 0, "tobacco": 1}}},
            "must be 0 or 1, got True",
        ),
        (
            {"answers": {"cheated": 1.0, "substances": {"alcohol": 0, "tobacco": 1}}},
            "must be 0 or 1, got 1.0",
        ),
        (
            {"answers": {"cheated": "1", "substances": {"alcohol": 0, "tobacco": 1}}},
            "must be 0 or 1, got '1'",
        ),
        (
            {"answers": {"cheated": 1, "substances": 1}},
            "question 'substances' must be an object of options",
        ),
        (
            {"answers": {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1, "x": 0}}},
            "question 'substances' has no option 'x'",
        ),
        (
            {"answers": {"cheated": 1, "other": 0, "substances": {"alcohol": 0, "tobacco": 1}}},
            "unknown question 'other'",
        ),
        (
            {"answers": {"cheated": 1, "substances": {"alcohol": [0], "tobacco": 1}}},
            "option 'alcohol' of question 'substances' must be 0 or 1",
        ),
    ],
)
def test_bad_submissions_are_named(body, message):
    with pytest.raises(AnswerError, match=message):
        check_answers(body, SHAPES)


def test_an_optional_question_may_be_skipped_and_a_required_one_may_not():
    shapes = [Shape("cheated", "yesno", required=True), Shape("substances", "multi", ("alcohol",))]
    body = {"answers": {"cheated": 1}}
    assert check_answers(body, shapes).bits == {"cheated": 1, "substances": None}
    assert check_answers({"answers": {"cheated": 0, "substances": None}}, shapes).bits == {
        "cheated": 0,
        "substances": None,
    }
    for answers in ({"substances": {"alcohol": 1}}, {"cheated": None, "substances": None}):
        with pytest.raises(AnswerError, match="question 'cheated' is required"):
            check_answers({"answers": answers}, shapes)
