"""Fuzzing with Hypothesis: garbage never causes a 5xx and never stores anything."""

from __future__ import annotations

import contextlib
import copy
import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SAMPLE_SURVEY, no_database, stored_count
from web.core.infrastructure.extensions import db
from web.core.models import Survey
from web.core.surveys.answers import AnswerError, Shape, check_answers
from web.core.surveys.designs import DesignParameters
from web.core.surveys.flow.display import AnswerBetween
from web.core.surveys.flow.walk import Flow, FlowPage
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.scales import Scale
from web.core.surveys.surveyfile import load_survey, parse_survey

FIXTURES_OK = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=25,
)
keys = st.sampled_from(
    ["cheated", "substances", "alcohol", "tobacco", "answers", "truth", "", "x", "comment", "age"]
)
near_valid = st.fixed_dictionaries(
    {"answers": st.dictionaries(keys, json_values | st.dictionaries(keys, json_values), max_size=4)}
)


def stored(app):
    with app.app_context():
        return (
            stored_count(),
            db.session.scalar(db.select(Survey.response_count)),
        )


@FIXTURES_OK
@given(body=json_values | near_valid)
def test_submission_api_survives_any_json(app, survey, body):
    before = stored(app)
    response = app.test_client().post(f"/api/surveys/{survey}/responses", json=body)
    assert response.status_code < 500
    if response.status_code == 201:
        assert stored(app) == (before[0] + 1, before[1] + 1)
    else:
        assert response.status_code in (400, 409, 413, 415) and "error" in response.json
        assert stored(app) == before


@FIXTURES_OK
@given(
    raw=st.binary(max_size=300),
    content_type=st.sampled_from(
        [
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded",
            "application/json; charset=latin-1",
            "",
        ]
    ),
)
def test_submission_api_survives_any_bytes(app, survey, raw, content_type):
    before = stored(app)
    response = app.test_client().post(
        f"/api/surveys/{survey}/responses", data=raw, content_type=content_type
    )
    assert response.status_code < 500
    if response.status_code != 201:
        assert stored(app) == before


@no_database  # pure functions: no database reads or writes them
@settings(max_examples=300, deadline=None)
@given(body=json_values | near_valid)
def test_answer_checker_raises_only_answer_errors(body):
    with contextlib.suppress(AnswerError):
        check_answers(body, SHAPES, flow=FLOW)


# Every kind of answer: reported bits, and answers given directly (an option, words, a number
# that a display rule reads).
SHAPES = [
    Shape("cheated", "yesno"),
    Shape("substances", "multi", ("alcohol", "tobacco")),
    Shape("comment", "text", procedure="direct", plain=True,
          design=DesignParameters(max_length=20)),
    Shape("age", "number", procedure="direct", plain=True,
          design=DesignParameters(scale=Scale(16, 99, 1))),
]  # fmt: skip
FLOW = Flow(
    (FlowPage(None, ("age", "cheated", "substances", "comment")),),
    (("cheated", AnswerBetween("age", 18, None)),),
)


def mutate(data, path, value):
    target = data
    for part in path[:-1]:
        target = (
            target[part]
            if isinstance(target, dict)
            else target[part % len(target)]
            if target
            else {}
        )
    if isinstance(target, dict):
        target[path[-1]] = value
    return data


survey_paths = st.sampled_from(
    [
        ("slug",),
        ("title",),
        ("description",),
        ("questions",),
        ("questions", 0, "type"),
        ("questions", 0, "epsilon"),
        ("questions", 0, "id"),
        ("questions", 1, "options"),
        ("questions", 1, "options", 0, "id"),
        ("questions", 1, "procedure"),
        ("extra",),
        ("questions", 0, "options"),
    ]
)
# The same, of a survey of pages with display logic and drawn orders.
flow_paths = st.sampled_from(
    [
        ("pages",),
        ("pages", 0),
        ("pages", 0, "questions"),
        ("pages", 0, "questions", 0),
        ("pages", 1, "id"),
        ("pages", 1, "randomize"),
        ("pages", 1, "show_if"),
        ("pages", 1, "show_if", "in"),
        ("pages", 1, "show_if", "question"),
        ("questions", 2, "show_if"),
        ("questions", 2, "show_if", "in", 0),
        ("questions", 2, "shuffle_options"),
        ("questions", 2, "options", 2, "fixed"),
        ("questions", 1, "id"),
    ]
)


@no_database  # pure functions: no database reads or writes them
@settings(max_examples=400, deadline=None)
@given(path=survey_paths, value=json_values, data=st.data())
def test_survey_parser_raises_only_survey_file_errors(path, value, data):
    mutated = mutate(copy.deepcopy(SAMPLE_SURVEY), path, value)
    try:
        spec = parse_survey(mutated)
    except SurveyFileError as error:
        assert error.problems and all(":" in problem for problem in error.problems)
    else:
        assert parse_survey(json.loads(spec.to_json())) == spec


@no_database  # pure functions: no database reads or writes them
@settings(max_examples=300, deadline=None)
@given(path=flow_paths, value=json_values)
def test_the_flow_checks_raise_only_survey_file_errors(path, value):
    from tests.web.core.surveys.flow.test_walk import STUDY

    mutated = mutate(copy.deepcopy(STUDY), path, value)
    try:
        spec = parse_survey(mutated)
    except SurveyFileError as error:
        assert error.problems and all(":" in problem for problem in error.problems)
    else:
        assert parse_survey(json.loads(spec.to_json())) == spec


@no_database  # pure functions: no database reads or writes them
@settings(max_examples=300, deadline=None)
@given(raw=st.binary(max_size=400) | json_values.map(lambda v: json.dumps(v).encode()))
def test_survey_loader_survives_any_bytes(raw):
    with contextlib.suppress(SurveyFileError):
        load_survey(raw)


@FIXTURES_OK
@given(raw=st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()))
def test_import_page_survives_any_file(app, researcher, raw):
    with app.app_context():
        before = db.session.scalar(db.select(db.func.count(Survey.id)))
    response = researcher.post(
        "/surveys/import",
        data={"file": (io.BytesIO(raw), "x.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code in (200, 302)
    with app.app_context():
        after = db.session.scalar(db.select(db.func.count(Survey.id)))
    assert after == before + (response.status_code == 302)
