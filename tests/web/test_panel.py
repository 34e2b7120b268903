"""A survey fielded on an online panel: the file's panel checked, the page told the parameters'
names and the completion address (never a value), the privacy note, and no id stored."""

from __future__ import annotations

import copy
import json

import pytest

from tests.conftest import stored_bits
from tests.helpers import submit_answers
from web.core.surveys.lookup import find_survey
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.surveyfile import load_survey

PANEL = {
    "parameters": ["PROLIFIC_PID", "STUDY_ID"],
    "complete_url": "https://app.prolific.com/submissions/complete?cc=C1ABC&pid={PROLIFIC_PID}",
}
ON_A_PANEL = {
    "slug": "panel-study",
    "title": "Exams",
    "description": "",
    "panel": PANEL,
    "questions": [
        {"id": "cheated", "type": "yesno", "text": "Cheated?", "epsilon": 1,
         "procedure": "spinner_coin"},
    ],
}  # fmt: skip


def test_a_panel_is_read_and_written_back():
    spec = load_survey(json.dumps(ON_A_PANEL))
    assert spec.panel.parameters == ("PROLIFIC_PID", "STUDY_ID")
    assert spec.to_dict()["panel"] == PANEL and load_survey(spec.to_json()) == spec


@pytest.mark.parametrize(
    ("panel", "message"),
    [
        ({**PANEL, "complete_url": "http://app.prolific.com/done?pid={PROLIFIC_PID}"},
         "panel.complete_url: must be an https address"),
        ({**PANEL, "complete_url": "https://app.prolific.com/done?x={EMAIL}"},
         r"panel.complete_url: fills in only the panel's parameters, not \{EMAIL\}"),
        ({**PANEL, "parameters": []}, "panel.parameters: name 1 to 10 parameters, got 0"),
        ({**PANEL, "parameters": ["PID", "PID"]}, r"panel.parameters\[1\]: 'PID' is named twice"),
        ({**PANEL, "parameters": ["a b"]}, r"panel.parameters\[0\]: 'a b' is not a parameter's name"),
        ({"parameters": ["PID"]}, "panel.complete_url: a panel needs the address"),
        ({**PANEL, "redirect": 1}, "panel.redirect: unknown field 'redirect'"),
        ("https://x", "panel: must be an object"),
    ],
)  # fmt: skip
def test_a_wrong_panel_is_refused_by_place(panel, message):
    data = copy.deepcopy(ON_A_PANEL) | {"panel": panel}
    with pytest.raises(SurveyFileError, match=message):
        load_survey(json.dumps(data))


def test_a_panel_and_a_completion_url_are_not_both_stated():
    data = copy.deepcopy(ON_A_PANEL) | {"completion_url": "https://example.org/done"}
    with pytest.raises(SurveyFileError, match="completion_url: a panel's complete_url is where"):
        load_survey(json.dumps(data))


def test_the_page_knows_the_names_and_the_address_and_says_who_learns_what(
    app, client, import_survey
):
    slug = import_survey(ON_A_PANEL)
    page = client.get(f"/s/{slug}?PROLIFIC_PID=5f0c3a2b1d&STUDY_ID=s1").get_data(as_text=True)
    config = json.loads(page.split('id="survey-config">')[1].split("</script>")[0])
    assert config["panel"] == {"parameters": ["PROLIFIC_PID", "STUDY_ID"],
                               "completeUrl": PANEL["complete_url"]}  # fmt: skip
    assert 'id="panel-note"' in page and "the panel learns only that you finished" in page
    # The id is in the address the browser asked for, and nowhere in the page (its links
    # included): the page's script keeps it on the device.
    assert "5f0c3a2b1d" not in page and "STUDY_ID=s1" not in page


def test_nothing_of_the_panel_is_stored_or_accepted_with_the_answers(app, import_in_batches):
    slug = import_in_batches(ON_A_PANEL)
    body = {"answers": {"cheated": 1}}
    assert submit_answers(app.test_client(), slug, body).status_code == 201
    refused = submit_answers(app.test_client(), slug, body | {"PROLIFIC_PID": "5f0c3a2b1d"})
    assert refused.status_code == 400
    with app.app_context():
        assert find_survey(slug).response_count == 1
        assert "5f0c3a2b1d" not in json.dumps(stored_bits())
