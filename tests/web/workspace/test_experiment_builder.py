"""The builder's split ballot: conditions declared with their shares, each question asked the
same way or its own way per condition, checked as a file's, and fixed once there are
responses."""

from __future__ import annotations

from tests.helpers import submit_answers
from web.core.surveys.lookup import find_survey

SURVEY = {
    "slug": "ballot",
    "title": "Ballot",
    "description": "",
    "questions": [
        {"id": "drugs", "type": "yesno", "text": "Used drugs?", "epsilon": 1,
         "procedure": "spinner_coin"},
        {"id": "year", "type": "direct", "text": "Year?",
         "options": [{"id": "first", "text": "First"}, {"id": "later", "text": "Later"}]},
    ],
}  # fmt: skip

DECLARED = {
    "condition-1": "direct", "share-1": "1", "condition-2": "spin", "share-2": "2",
    "mode-drugs": "each", "procedure-drugs-1": "direct", "procedure-drugs-2": "spinner",
    "epsilon-drugs-2": "1.5", "mode-year": "same",
}  # fmt: skip


def test_conditions_are_declared_and_each_asks_its_way(app, researcher, import_survey):
    slug = import_survey(SURVEY)
    page = researcher.get(f"/surveys/{slug}/edit").get_data(as_text=True)
    assert f'href="/surveys/{slug}/experiment"' in page and "Declare conditions" in page
    form = researcher.get(f"/surveys/{slug}/experiment").get_data(as_text=True)
    assert 'name="condition-6"' in form and 'name="procedure-drugs-1"' in form
    saved = researcher.post(f"/surveys/{slug}/experiment", data=DECLARED)
    assert saved.status_code == 302
    with app.app_context():
        survey = find_survey(slug)
        assert [(c.id, c.share) for c in survey.condition_list] == [("direct", 1), ("spin", 2)]
        rows = [(q.key, q.procedure, q.epsilon) for q in survey.questions]
        file = survey.to_spec().to_dict()
    assert rows == [("drugs@direct", "direct", 0.0), ("drugs@spin", "spinner", 1.5),
                    ("year", "direct", 0.0)]  # fmt: skip
    assert file["questions"][0]["asked"] == {"direct": {"procedure": "direct"},
                                             "spin": {"procedure": "spinner", "epsilon": 1.5}}  # fmt: skip
    # The form shows what was saved, and saving the same again changes nothing.
    form = researcher.get(f"/surveys/{slug}/experiment").get_data(as_text=True)
    assert 'value="spin"' in form and '<option value="spinner" selected data-epsilon>' in form
    assert researcher.post(f"/surveys/{slug}/experiment", data=DECLARED).status_code == 302
    with app.app_context():
        assert [q.key for q in find_survey(slug).questions] == [
            "drugs@direct",
            "drugs@spin",
            "year",
        ]
    # No conditions: every question asked one way again (its first condition's way).
    assert (
        researcher.post(f"/surveys/{slug}/experiment", data={"mode-drugs": "each"}).status_code
        == 302
    )
    with app.app_context():
        survey = find_survey(slug)
        assert survey.condition_list == () and [q.key for q in survey.questions] == [
            "drugs",
            "year",
        ]


def test_a_wrong_experiment_is_refused_with_the_file_checks_and_nothing_changes(
    app, researcher, import_survey
):
    slug = import_survey(SURVEY)
    for data, message in [
        ({"condition-1": "only", "share-1": "1", "mode-drugs": "each",
          "procedure-drugs-1": "spinner", "epsilon-drugs-1": "1"}, "an experiment has 2 to 6 conditions, got 1"),
        (DECLARED | {"mode-drugs": "same"}, "asks no question of its own"),
        (DECLARED | {"share-2": "lots"}, "share"),
        (DECLARED | {"epsilon-drugs-2": "99"}, "must be a number from"),
        (DECLARED | {"condition-2": "Spin Me"}, "Spin Me"),
    ]:  # fmt: skip
        refused = researcher.post(f"/surveys/{slug}/experiment", data=data)
        page = refused.get_data(as_text=True)
        assert refused.status_code == 200 and "Nothing was saved" in page, data
        assert message in page, (message, page[page.find("Nothing was saved") :][:600])
    with app.app_context():
        survey = find_survey(slug)
        assert survey.condition_list == () and [q.key for q in survey.questions] == [
            "drugs",
            "year",
        ]


def test_the_experiment_is_fixed_once_there_are_responses(app, researcher, import_in_batches):
    slug = import_in_batches(SURVEY)
    body = {"answers": {"drugs": 1, "year": "first"}}
    assert submit_answers(app.test_client(), slug, body).status_code == 201
    form = researcher.get(f"/surveys/{slug}/experiment").get_data(as_text=True)
    assert "its experiment is fixed" in form
    refused = researcher.post(f"/surveys/{slug}/experiment", data=DECLARED)
    assert "The survey has responses, so its experiment is fixed." in refused.get_data(as_text=True)
    with app.app_context():
        assert find_survey(slug).condition_list == ()
