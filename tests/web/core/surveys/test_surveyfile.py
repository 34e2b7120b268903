"""Survey files: every mistake is named, nothing half-parsed gets through."""

import copy
import json

import pytest

from tests.conftest import SAMPLE_SURVEY, no_database
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.surveyfile import load_survey, parse_survey

# Nothing here reads or writes the database: it runs once, on SQLite.
pytestmark = no_database


def test_parses_the_documented_format():
    spec = parse_survey(SAMPLE_SURVEY)
    assert spec.slug == "campus-life-test"
    assert [question.key for question in spec.questions] == ["cheated", "substances"]
    assert spec.questions[1].options[1].key == "tobacco"
    assert spec.questions[1].procedure == "spinner"


def test_round_trip_is_exact():
    spec = parse_survey(SAMPLE_SURVEY)
    assert json.loads(spec.to_json()) == {
        **SAMPLE_SURVEY,
        "languages": ["en"],
        "results_batch": 5,
    }  # the defaults, written out
    assert load_survey(spec.to_json().encode()) == spec


def test_procedure_defaults_to_spinner_coin():
    data = copy.deepcopy(SAMPLE_SURVEY)
    del data["questions"][0]["procedure"]
    assert parse_survey(data).questions[0].procedure == "spinner_coin"


def _broken(path, value):
    data = copy.deepcopy(SAMPLE_SURVEY)
    target = data
    for part in path[:-1]:
        target = target[part]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("slug",), "Campus Life", "slug: 'Campus Life' is not a valid slug"),
        (("slug",), "-x", "slug: '-x' is not a valid slug"),
        (("title",), "", "title: must be non-empty text"),
        (("questions",), [], "questions: must be a non-empty list"),
        (("questions", 0, "type"), "scale", "questions[0].type: unknown type 'scale'"),
        (
            ("questions", 0, "epsilon"),
            0,
            "questions[0].epsilon: must be a number from 1e-06 to 10, got 0",
        ),
        (
            ("questions", 0, "epsilon"),
            10.5,
            "questions[0].epsilon: must be a number from 1e-06 to 10, got 10.5",
        ),
        (("questions", 0, "epsilon"), "1", "questions[0].epsilon: must be a number"),
        (("questions", 0, "epsilon"), True, "questions[0].epsilon: must be a number"),
        (("questions", 0, "procedure"), "coin", "questions[0].procedure: unknown procedure 'coin'"),
        (("questions", 0, "id"), "has space", "questions[0].id: 'has space' is not a valid id"),
        (("questions", 1, "id"), "cheated", "questions[1].id: duplicate question id 'cheated'"),
        (
            ("questions", 1, "options"),
            [],
            "questions[1].options: a 'multi' question needs a non-empty list",
        ),
        (("questions", 1, "options"), KeyError, "questions[1].options: a 'multi' question needs"),
        (
            ("questions", 1, "options", 1, "id"),
            "alcohol",
            "questions[1].options[1].id: duplicate option id 'alcohol'",
        ),
        (
            ("questions", 0, "options"),
            [{"id": "a", "text": "A"}],
            "questions[0].options: a 'yesno' question has no options",
        ),
        (("questions", 0, "colour"), "red", "questions[0]: unknown field 'colour'"),
        (
            ("questions", 1, "options", 0, "text"),
            None,
            "questions[1].options[0].text: must be non-empty text",
        ),
    ],
)
def test_each_mistake_is_named(path, value, message):
    with pytest.raises(SurveyFileError) as caught:
        parse_survey(_broken(path, value))
    assert any(problem.startswith(message) for problem in caught.value.problems), (
        caught.value.problems
    )


def test_all_mistakes_are_reported_at_once():
    data = _broken(("slug",), "BAD")
    data["questions"][0]["epsilon"] = -1
    data["questions"][1]["type"] = "rank"
    with pytest.raises(SurveyFileError) as caught:
        parse_survey(data)
    assert len(caught.value.problems) == 3


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"\xff\xfe{}", "file: not UTF-8 text"),
        (b'{"slug": ', "file: not valid JSON"),
        (b"[1, 2]", "file: the top level must be a JSON object"),
        (b"[" * 30_000 + b"]" * 30_000, "file: nested too deeply"),
    ],
)
def test_unreadable_files_are_named(raw, message):
    with pytest.raises(SurveyFileError, match=message):
        load_survey(raw)


def test_korean_text_survives():
    data = copy.deepcopy(SAMPLE_SURVEY)
    data["title"] = "캠퍼스 생활"
    spec = load_survey(json.dumps(data, ensure_ascii=False).encode("utf-8"))
    assert spec.title["ko"] == "캠퍼스 생활" and "캠퍼스 생활" in spec.to_json()


@pytest.mark.parametrize(
    "key", ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"]
)
def test_ids_that_every_javascript_object_has_are_refused(key):
    data = copy.deepcopy(SAMPLE_SURVEY)
    data["questions"][1]["options"][0]["id"] = key
    with pytest.raises(SurveyFileError) as caught:
        parse_survey(data)
    assert caught.value.problems == [
        f"questions[1].options[0].id: {key!r} is reserved: every JavaScript object has it; choose another id"
    ]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ([{"id": "a", "text": "A"}], "a 'choice' question needs at least 2 options, got 1"),
        ([], "a 'choice' question needs at least 2 options, got 0"),
        ([{"id": f"o{i}", "text": f"O {i}"} for i in range(31)], "at most 30 options, got 31"),
    ],
)
def test_a_single_choice_question_needs_2_to_30_options(options, message):
    question = {"id": "times", "type": "choice", "text": "How often?", "epsilon": 1.0}
    survey = {
        "slug": "s",
        "title": "S",
        "questions": [{**question, "procedure": "spinner", "options": options}],
    }
    with pytest.raises(SurveyFileError) as caught:
        parse_survey(survey)
    assert caught.value.problems == [f"questions[0].options: {message}"]


def test_a_single_choice_question_round_trips():
    options = [{"id": "never", "text": "Never"}, {"id": "often", "text": "Often"}]
    question = {
        "id": "times",
        "type": "choice",
        "text": "How often?",
        "epsilon": 1.0,
        "procedure": "spinner",
    }
    spec = parse_survey(
        {"slug": "s", "title": "S", "questions": [{**question, "options": options}]}
    )
    assert spec.questions[0].kind == "choice" and [o.key for o in spec.questions[0].options] == [
        "never",
        "often",
    ]
    assert json.loads(spec.to_json())["questions"][0]["type"] == "choice"


@pytest.mark.parametrize(
    ("value", "ok"), [(7, True), (2, True), (1, False), (1001, False), (True, False), ("5", False)]
)
def test_a_file_may_set_its_results_batch(value, ok):
    data = {**copy.deepcopy(SAMPLE_SURVEY), "results_batch": value}
    if ok:
        spec = parse_survey(data)
        assert spec.results_batch == value and json.loads(spec.to_json())["results_batch"] == value
    else:
        with pytest.raises(SurveyFileError) as caught:
            parse_survey(data)
        assert caught.value.problems[0].startswith(
            "results_batch: must be a whole number from 2 to 1000"
        )


def test_a_file_without_results_batch_gets_the_default():
    assert parse_survey(copy.deepcopy(SAMPLE_SURVEY)).results_batch == 5


@pytest.mark.parametrize("name", ["procedure", "epsilon"])
def test_a_direct_question_with_a_null_procedure_or_epsilon_is_refused_by_name(name):
    """A null used to pass the check and then fail the import with an error naming no field."""
    data = copy.deepcopy(SAMPLE_SURVEY)
    data["questions"].append(
        {
            "id": "year",
            "type": "direct",
            "text": "Year of study?",
            name: None,
            "options": [{"id": "first", "text": "First"}, {"id": "later", "text": "Later"}],
        }
    )
    with pytest.raises(SurveyFileError) as caught:
        parse_survey(data)
    assert caught.value.problems == [
        f"questions[2].{name}: a 'direct' question is not randomized: remove '{name}'"
    ]
