"""Requests racing: for the same unique value the database decides, one wins, the others get the
friendly refusal (not a 500), and nothing is stored twice; an edit racing submissions never
changes a question's parameters on top of responses collected under the old ones."""

import threading

from tests.conftest import VALID_ANSWERS
from web.core.infrastructure.extensions import db
from web.core.models import Question, Survey
from web.core.surveys import question_edit as editing_module

RACERS = 6


def test_researchers_racing_for_one_address_get_one_survey_and_clear_refusals(app, make_researcher):
    researchers = [make_researcher(f"r{index}@example.org") for index in range(RACERS)]
    start = threading.Barrier(RACERS)
    replies = [None] * RACERS

    def create(index):
        start.wait(timeout=60)
        replies[index] = researchers[index].post(
            "/surveys/new", data={"title": "Same", "slug": "same"}
        )

    threads = [threading.Thread(target=create, args=(index,)) for index in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    codes = sorted(reply.status_code for reply in replies)
    assert codes == [200] * (RACERS - 1) + [302]
    refusals = [reply.get_data(as_text=True) for reply in replies if reply.status_code == 200]
    assert all("This address is taken; choose another." in page for page in refusals)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Survey)) == 1


def test_a_question_cannot_change_once_a_response_slipped_in(app, researcher, survey, monkeypatch):
    # The editor loads the question while it has no response; responses arrive while the edit is
    # under way; the edit must then be refused, not stored on top of them under other parameters.
    editing, submitted = threading.Event(), threading.Event()
    checks = editing_module.question_problems

    def held(spec, **kwargs):
        editing.set()
        assert submitted.wait(timeout=120)
        return checks(spec, **kwargs)

    monkeypatch.setattr(editing_module, "question_problems", held)
    reply = {}

    def edit():
        reply["edit"] = researcher.post(
            f"/surveys/{survey}/questions/cheated",
            data={"text": "Cheated?", "kind": "yesno", "epsilon": "3", "procedure": "spinner"},
        )

    editor = threading.Thread(target=edit)
    editor.start()
    assert editing.wait(timeout=120)
    for _ in range(5):
        response = app.test_client().post(
            f"/api/surveys/{survey}/responses",
            json=VALID_ANSWERS,
            headers={"X-Survey-Revision": "1"},
        )
        assert response.status_code == 201
    submitted.set()
    editor.join(timeout=120)
    assert reply["edit"].status_code == 200  # the form again, with the refusal
    assert "frozen" in reply["edit"].get_data(as_text=True)
    with app.app_context():
        question = db.session.scalar(db.select(Question).filter_by(key="cheated"))
        assert (question.epsilon, question.procedure, question.n) == (1.0, "spinner_coin", 5)
        assert question.survey.revision == 1


def test_an_edit_that_wins_the_race_refuses_the_late_responses(app, researcher, survey):
    # The edit comes first: submissions of the revision it replaced are refused, none stored.
    changed = researcher.post(
        f"/surveys/{survey}/questions/cheated",
        data={"text": "Cheated?", "kind": "yesno", "epsilon": "3", "procedure": "spinner"},
    )
    assert changed.status_code == 302
    late = app.test_client().post(
        f"/api/surveys/{survey}/responses", json=VALID_ANSWERS, headers={"X-Survey-Revision": "1"}
    )
    assert late.status_code == 409
    with app.app_context():
        question = db.session.scalar(db.select(Question).filter_by(key="cheated"))
        assert (question.epsilon, question.n, question.survey.revision) == (3.0, 0, 2)
