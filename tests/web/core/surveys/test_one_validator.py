"""Every way a survey changes refuses the same invalid input with the same message: a survey file
on the command line, a survey file uploaded in the browser, and the builder's question form."""

import copy
import html
import io
import json

import pytest

from tests.conftest import SAMPLE_SURVEY
from web.core.infrastructure.extensions import db
from web.core.models import Survey

QUESTION = {"id": "q", "type": "yesno", "text": "Asked?", "epsilon": 1.0, "procedure": "spinner"}
OPTIONS = [{"id": f"o{index}", "text": f"Option {index}"} for index in range(3)]

# (the question as a survey file has it, the message every path must show)
INVALID = {
    "epsilon above the maximum": (
        dict(QUESTION, epsilon=11),
        "must be a number from 1e-06 to 10, got 11.0",
    ),
    "epsilon below the minimum": (
        dict(QUESTION, epsilon=1e-7),
        "must be a number from 1e-06 to 10, got 1e-07",
    ),
    "empty wording": (dict(QUESTION, text="  "), "must be non-empty text"),
    "wording too long": (dict(QUESTION, text="x" * 2001), "at most 2000 characters, got 2001"),
    "option too long": (
        dict(QUESTION, type="multi", options=[*OPTIONS[:2], {"id": "o2", "text": "y" * 5000}]),
        "at most 2000 characters, got 5000",
    ),
    "too many options": (
        dict(QUESTION, type="multi", options=[{"id": f"o{i}", "text": f"O{i}"} for i in range(31)]),
        "at most 30 options, got 31",
    ),
    "a multi-select question without options": (
        dict(QUESTION, type="multi", options=[]),
        "a 'multi' question needs a non-empty list of options",
    ),
    "an id that is not one": (dict(QUESTION, id="has space"), "'has space' is not a valid id"),
    "an id every JavaScript object has": (
        dict(QUESTION, id="__proto__"),
        "'__proto__' is reserved",
    ),
    "another such id": (dict(QUESTION, id="toString"), "'toString' is reserved"),
    # "$" in a pattern matches before a final newline: such an id passed, then broke every export.
    "an id ending in a newline": (dict(QUESTION, id="k\n"), "'k\\n' is not a valid id"),
}


def survey_with(question: dict, count: int = 1) -> dict:
    data = copy.deepcopy(SAMPLE_SURVEY)
    data["questions"] = [dict(question, id=f"{question['id']}{index}" if count > 1 else question["id"])
                         for index in range(count)]  # fmt: skip
    return data


def by_command_line(runner, tmp_path, data: dict) -> str:
    path = tmp_path / "survey.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(args=["import-survey", str(path)])
    assert result.exit_code == 1
    return result.output


def by_upload(researcher, data: dict) -> str:
    body = {"file": (io.BytesIO(json.dumps(data).encode()), "survey.json")}
    response = researcher.post("/surveys/import", data=body, content_type="multipart/form-data")
    assert response.status_code == 200
    return html.unescape(response.get_data(as_text=True))


def by_builder(researcher, slug: str, question: dict) -> str:
    form = {
        "text": question["text"],
        "key": question["id"],
        "kind": question["type"],
        "epsilon": str(question["epsilon"]),
        "procedure": question["procedure"],
        "options": "\n".join(option["text"] for option in question.get("options", [])),
    }
    response = researcher.post(f"/surveys/{slug}/questions/new", data=form)
    assert response.status_code == 200
    return html.unescape(response.get_data(as_text=True))


@pytest.mark.parametrize("case", INVALID)
def test_every_path_refuses_an_invalid_question_alike(
    app, runner, tmp_path, researcher, draft, case
):
    question, message = INVALID[case]
    assert message in by_command_line(runner, tmp_path, survey_with(question))
    assert message in by_upload(researcher, survey_with(question))
    assert message in by_builder(researcher, draft, question)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Survey)) == 1  # the draft
        assert db.session.scalar(db.select(Survey).filter_by(slug=draft)).questions == []


def test_every_path_refuses_a_question_past_the_maximum_count(
    app, runner, tmp_path, researcher, draft
):
    message = "at most 100 questions, got 101"
    assert message in by_command_line(runner, tmp_path, survey_with(QUESTION, count=101))
    assert message in by_upload(researcher, survey_with(QUESTION, count=101))
    full = dict(survey_with(QUESTION, count=100), slug="full")
    path = tmp_path / "full.json"
    path.write_text(json.dumps(full))
    assert (
        runner.invoke(args=["import-survey", str(path), "--owner", researcher.email]).exit_code == 0
    )
    assert message in by_builder(researcher, "full", dict(QUESTION, id="one-more"))
    with app.app_context():
        assert len(db.session.scalar(db.select(Survey).filter_by(slug="full")).questions) == 100
