"""The audit log in a researcher's words: what an edit changed, a survey's creation, every download
of the responses and the codebook, and one verb for an action on the dashboard, in `flask audit`
and in the API."""

from __future__ import annotations

from tests.helpers import bearer
from tests.web.workspace.test_builder import YESNO
from web.core.surveys.audit_words import question_changes


def said(researcher, slug: str) -> str:
    return researcher.get(f"/surveys/{slug}").get_data(as_text=True).split('id="audit-table"')[1]


def test_an_edit_says_what_it_changed_and_creating_a_survey_is_logged(researcher, draft):
    assert researcher.post(f"/surveys/{draft}/questions/new", data=YESNO).status_code == 302
    key = YESNO["key"]
    changed = dict(YESNO, text="Have you ever copied homework?")
    assert researcher.post(f"/surveys/{draft}/questions/{key}", data=changed).status_code == 302
    log = said(researcher, draft)
    assert f"the question &#39;{key}&#39;: its text" in log
    assert f"added the question &#39;{key}&#39;" in log
    assert "created the survey" in log and "in the builder" in log
    assert "edit_question" not in log and "new_question" not in log


def test_codebook_downloads_are_logged_with_the_same_verb_everywhere(
    client, runner, researcher, draft
):
    token = runner.invoke(args=["create-token", researcher.email]).output.strip().splitlines()[-1]
    assert researcher.get(f"/surveys/{draft}/codebook.json").status_code == 200
    assert (
        client.get(f"/api/surveys/{draft}/codebook.json", headers=bearer(token)).status_code == 200
    )
    printed = runner.invoke(args=["audit", draft]).output
    assert "downloaded codebook.json\n" in printed and "downloaded codebook.json (API)" in printed
    assert "\texported" not in printed
    events = client.get(f"/api/surveys/{draft}/audit", headers=bearer(token)).json["events"]
    assert {event["said"] for event in events} >= {
        "downloaded codebook.json", "downloaded codebook.json (API)", "created the survey in the builder"
    }  # fmt: skip
    assert "downloaded" in said(researcher, draft)


def test_a_questions_changes_are_listed_in_words():
    before = {"id": "q", "text": "A?", "epsilon": 1, "procedure": "spinner", "options": [1]}
    after = {"id": "q", "text": "B?", "epsilon": 2, "procedure": "spinner", "options": [2]}
    assert (
        question_changes("q", before, after) == "the question 'q': its text, its options and its ε"
    )
    assert question_changes("q", None, after) == "added the question 'q'"
    assert question_changes("q", before, None) == "deleted the question 'q'"
    assert (
        question_changes("q", before, before | {"p_truth": 0.7}) == "the question 'q': its design"
    )
