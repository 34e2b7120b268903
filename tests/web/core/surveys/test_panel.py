"""A survey fielded on an online panel: the file's panel checked, the page told the parameters'
names and the completion address (never a value), the privacy note, and no id stored."""

from __future__ import annotations

import copy
import json

import pytest

from tests.conftest import stored_bits
from tests.helpers import submit_answers
from web.core.infrastructure.extensions import db
from web.core.models import Survey
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
                               "completeUrl": PANEL["complete_url"],
                               "screenOutUrl": None, "quotaFullUrl": None}  # fmt: skip
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


def test_a_panel_travels_through_xlsform_settings_and_pyxform_converts_the_export(app):
    import io

    import openpyxl
    from pyxform.xls2xform import convert

    from web.core.surveys.xlsform.read import load_xlsform
    from web.core.surveys.xlsform.write import survey_xlsform

    spec = load_survey(json.dumps(ON_A_PANEL))
    with app.test_request_context():
        exported = survey_xlsform(spec)
        assert load_xlsform(exported) == spec
    settings = list(
        openpyxl.load_workbook(io.BytesIO(exported))["settings"].iter_rows(values_only=True)
    )
    row = dict(zip(settings[0], settings[1], strict=True))
    assert row["rr_panel_parameters"] == "PROLIFIC_PID STUDY_ID"
    assert row["rr_panel_complete_url"] == PANEL["complete_url"]
    xform = convert(xlsform=io.BytesIO(exported), file_type=".xlsx", validate=False).xform
    assert "PROLIFIC" not in xform  # the app's own settings stay out of the form


def test_the_builder_sets_a_panel_refuses_a_wrong_one_beside_its_field_and_clears_it(
    app, researcher, import_survey
):
    slug = import_survey(ON_A_PANEL | {"panel": None} | {"slug": "built-panel"})
    details = {"title": "Exams", "results_batch": "5"}
    page = researcher.get(f"/surveys/{slug}/edit").get_data(as_text=True)
    assert 'name="panel_parameters"' in page and 'name="panel_complete_url"' in page
    wrong = details | {"panel_parameters": "PROLIFIC_PID",
                       "panel_complete_url": "https://app.prolific.com/done?x={EMAIL}"}  # fmt: skip
    html = researcher.post(f"/surveys/{slug}/edit", data=wrong).get_data(as_text=True)
    assert 'id="panel_complete_url-errors"' in html and "not {EMAIL}" in html
    right = details | {
        "panel_parameters": "PROLIFIC_PID STUDY_ID",
        "panel_complete_url": PANEL["complete_url"],
    }
    assert researcher.post(f"/surveys/{slug}/edit", data=right).status_code == 302
    with app.app_context():
        assert find_survey(slug).panel == PANEL
    page = researcher.get(f"/surveys/{slug}/edit").get_data(as_text=True)
    assert 'value="PROLIFIC_PID STUDY_ID"' in page
    both = right | {"completion_url": "https://example.org/done"}
    html = researcher.post(f"/surveys/{slug}/edit", data=both).get_data(as_text=True)
    assert 'id="completion_url-errors"' in html
    # Both fields emptied, as a browser sends them: no panel.
    cleared = details | {"panel_parameters": "", "panel_complete_url": ""}
    assert researcher.post(f"/surveys/{slug}/edit", data=cleared).status_code == 302
    with app.app_context():
        assert find_survey(slug).panel is None


def test_an_xlsform_address_written_with_xlsform_references_reads_as_placeholders(app):
    import io

    import openpyxl

    from web.core.surveys.xlsform.read import load_xlsform
    from web.core.surveys.xlsform.write import survey_xlsform

    spec = load_survey(json.dumps(ON_A_PANEL))
    with app.test_request_context():
        book = openpyxl.load_workbook(io.BytesIO(survey_xlsform(spec)))
        settings = book["settings"]
        header = [cell.value for cell in settings[1]]
        column = header.index("rr_panel_complete_url") + 1
        settings.cell(2, column, PANEL["complete_url"].replace("{PROLIFIC_PID}", "${PROLIFIC_PID}"))
        written = io.BytesIO()
        book.save(written)
        assert load_xlsform(written.getvalue()) == spec


def test_a_closed_survey_takes_the_panel_id_out_of_the_address(client, import_survey):
    slug = import_survey(ON_A_PANEL)
    with_id = client.get(f"/s/{slug}?PROLIFIC_PID=abc123&STUDY_ID=s1&lang=ko")
    assert with_id.status_code == 200  # open: the page's script keeps it and clears the bar
    with client.application.app_context():
        db.session.scalar(db.select(Survey).filter_by(slug=slug)).status = "closed"
        db.session.commit()
    closed = client.get(f"/s/{slug}?PROLIFIC_PID=abc123&STUDY_ID=s1&lang=ko")
    assert closed.status_code == 302 and closed.location == f"/s/{slug}?lang=ko"
    assert "abc123" not in closed.location


def test_the_dashboard_gives_the_link_to_paste_into_the_panel(import_survey, researcher):
    slug = import_survey(ON_A_PANEL)
    page = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    link = page.split('id="panel-link"')[1].split("</code>")[0]
    assert f"/s/{slug}?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}&amp;STUDY_ID={{{{%STUDY_ID%}}}}" in link
