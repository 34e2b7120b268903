"""The builder in several languages: languages added and removed, every text edited side by side,
missing translations marked and an incomplete survey kept from opening; fielding fields; a survey
uploaded as JSON or XLSForm is the same survey; exports carry every language."""

import csv
import io
import json
from datetime import UTC, datetime

from openpyxl import load_workbook

from tests.conftest import SAMPLE_SURVEY
from tests.helpers import bearer
from web.core.infrastructure.extensions import db
from web.core.surveys.demo import DEMO_FILE
from web.core.surveys.lookup import find_survey
from web.core.surveys.surveyfile import parse_survey
from web.core.surveys.texts import Texts
from web.core.surveys.xlsform.write import survey_xlsform

BILINGUAL = json.loads(DEMO_FILE.read_text(encoding="utf-8"))


def make_draft(researcher, language="en"):
    made = researcher.post(
        "/surveys/new",
        data={"title": "Class survey", "slug": "class"},
        headers={"Accept-Language": language},
    )
    assert made.status_code == 302
    added = researcher.post(
        "/surveys/class/questions/new",
        data={
            "text": "Cheated?",
            "key": "cheated",
            "kind": "yesno",
            "epsilon": "1",
            "procedure": "spinner",
        },
    )
    assert added.status_code == 302
    added = researcher.post(
        "/surveys/class/questions/new",
        data={
            "text": "Used?",
            "key": "used",
            "kind": "multi",
            "epsilon": "1",
            "procedure": "spinner",
            "options": "Alcohol\nTobacco",
        },
    )
    assert added.status_code == 302
    return "class"


def set_languages(researcher, slug, default, *others):
    data = {"default": default, f"use_{default}": "y", **{f"use_{code}": "y" for code in others}}
    return researcher.post(f"/surveys/{slug}/languages", data=data)


def test_a_new_survey_is_written_in_the_researchers_language(app, researcher):
    researcher.post(
        "/surveys/new",
        data={"title": "설문", "slug": "ko-survey"},
        headers={"Accept-Language": "ko"},
    )
    with app.app_context():
        assert find_survey("ko-survey").language_list == ["ko"]


def test_one_language_stays_as_simple_as_before(researcher):
    slug = make_draft(researcher)
    html = researcher.get(f"/surveys/{slug}/edit").get_data(as_text=True)
    assert 'name="title_ko"' not in html and 'class="translations"' in html
    assert 'id="missing-texts"' not in html


def test_adding_a_language_marks_every_missing_translation_and_keeps_the_survey_closed(
    app, researcher
):
    slug = make_draft(researcher)
    assert set_languages(researcher, slug, "en", "ko").status_code == 302
    html = researcher.get(f"/surveys/{slug}/edit").get_data(as_text=True)
    assert 'class="translations many"' in html and 'name="title_ko"' in html and 'lang="ko"' in html
    assert 'id="title_ko-missing"' in html and 'id="missing-texts"' in html
    assert html.count('class="missing"') >= 3  # the title, and both questions in the list
    question = researcher.get(f"/surveys/{slug}/questions/used").get_data(as_text=True)
    assert 'name="text_ko"' in question and 'id="options_ko-missing"' in question
    refused = researcher.post(
        f"/surveys/{slug}/status", data={"status": "open"}, follow_redirects=True
    )
    text = refused.get_data(as_text=True)
    assert "before opening it. Missing: 한국어: title, questions[0].text, questions[1].text" in text
    with app.app_context():
        assert find_survey(slug).status == "draft"
    # Written in both languages, side by side, it opens.
    saved = researcher.post(
        f"/surveys/{slug}/edit",
        data={"title": "Class survey", "title_ko": "학급 설문", "results_batch": "5"},
    )
    assert saved.status_code == 302
    researcher.post(
        f"/surveys/{slug}/questions/cheated",
        data={
            "text": "Cheated?",
            "text_ko": "베꼈습니까?",
            "kind": "yesno",
            "epsilon": "1",
            "procedure": "spinner",
        },
    )
    researcher.post(
        f"/surveys/{slug}/questions/used",
        data={
            "text": "Used?",
            "text_ko": "썼습니까?",
            "kind": "multi",
            "epsilon": "1",
            "procedure": "spinner",
            "options": "Alcohol\nTobacco",
            "options_ko": "술\n담배",
        },
    )
    assert researcher.post(f"/surveys/{slug}/status", data={"status": "open"}).status_code == 302
    with app.app_context():
        survey = find_survey(slug)
        assert survey.status == "open"
        assert survey.texts("title") == Texts({"en": "Class survey", "ko": "학급 설문"})
        assert [o.texts for o in survey.questions[1].options] == [
            Texts({"en": "Alcohol", "ko": "술"}),
            Texts({"en": "Tobacco", "ko": "담배"}),
        ]
        assert [o.key for o in survey.questions[1].options] == ["alcohol", "tobacco"]


def test_changing_the_default_keeps_texts_and_removing_a_language_drops_its_own(
    app, researcher, import_survey
):
    slug = import_survey(dict(BILINGUAL, slug="both"))
    with app.app_context():
        before = find_survey(slug).to_spec()
    assert set_languages(researcher, slug, "ko", "en").status_code == 302
    with app.app_context():
        survey = find_survey(slug)
        assert survey.language_list == ["ko", "en"] and survey.title == "캠퍼스 생활"
        assert survey.questions[0].texts == before.questions[0].text
        revision = survey.revision
    assert set_languages(researcher, slug, "ko").status_code == 302
    with app.app_context():
        survey = find_survey(slug)
        assert survey.language_list == ["ko"] and survey.revision == revision  # no redraw
        assert survey.questions[2].options[0].texts == Texts({"ko": "술"})


def test_fielding_fields_are_saved_and_bad_ones_refused_beside_their_field(app, researcher):
    slug = make_draft(researcher)
    refused = researcher.post(
        f"/surveys/{slug}/edit",
        data={
            "title": "Class survey",
            "results_batch": "5",
            "completion_url": "http://x.example/?who={name}",
        },
    )
    html = refused.get_data(as_text=True)
    assert refused.status_code == 200 and 'id="completion_url-errors"' in html
    assert "must be an https address" in html
    saved = researcher.post(
        f"/surveys/{slug}/edit",
        data={
            "title": "Class survey",
            "results_batch": "5",
            "consent": "I agree.",
            "thanks": "Thanks!",
            "completion_code": "CODE7",
            "completion_url": "https://panel.example/done?c={code}",
            "opens_at": "2026-12-01T09:00",
            "closes_at": "2026-12-08T09:00",
            "target_n": "120",
        },
    )
    assert saved.status_code == 302
    with app.app_context():
        survey = find_survey(slug)
        assert survey.opens_at == datetime(2026, 12, 1, 9, tzinfo=UTC)  # typed as UTC
        assert survey.fielding.completion_link() == "https://panel.example/done?c=CODE7"
        assert (survey.consent, survey.thanks, survey.target_n) == ("I agree.", "Thanks!", 120)
    html = researcher.get(f"/surveys/{slug}/edit").get_data(as_text=True)
    assert 'value="2026-12-01T09:00"' in html and 'datetime="2026-12-01T09:00:00Z"' in html


def test_a_survey_uploaded_as_json_or_xlsform_is_the_same(app, researcher):
    raw_json = json.dumps(dict(BILINGUAL, slug="from-json")).encode()
    with app.app_context():
        workbook = survey_xlsform(parse_survey(dict(BILINGUAL, slug="from-xlsx")))
    for raw, name in ((raw_json, "survey.json"), (workbook, "survey.xlsx")):
        uploaded = researcher.post(
            "/surveys/import",
            data={"file": (io.BytesIO(raw), name)},
            content_type="multipart/form-data",
        )
        assert uploaded.status_code == 302, uploaded.get_data(as_text=True)
    with app.app_context():
        first, second = (find_survey(slug).to_spec() for slug in ("from-json", "from-xlsx"))
    assert first.to_dict() | {"slug": ""} == second.to_dict() | {"slug": ""}
    downloaded = researcher.get("/surveys/from-xlsx/survey.xlsx")
    assert downloaded.headers["Content-Disposition"] == 'attachment; filename="from-xlsx.xlsx"'
    # The same sheets, cell by cell (the file's own save time differs by the second).
    assert sheet_values(downloaded.get_data()) == sheet_values(workbook)


def sheet_values(workbook: bytes) -> dict[str, list[list]]:
    book = load_workbook(io.BytesIO(workbook))
    return {
        name: [[cell.value for cell in row] for row in book[name].iter_rows()]
        for name in book.sheetnames
    }


def test_cli_imports_and_exports_both_formats_as_the_same_survey(app, runner, tmp_path):
    source = tmp_path / "campus.json"
    source.write_text(json.dumps(dict(BILINGUAL, slug="cli-json")), encoding="utf-8")
    assert runner.invoke(args=["import-survey", str(source)]).exit_code == 0
    workbook = tmp_path / "campus.xlsx"
    exported = runner.invoke(
        args=["export-survey", "cli-json", "--format", "xlsx", "-o", str(workbook)]
    )
    assert exported.exit_code == 0
    renamed = tmp_path / "renamed.xlsx"
    from openpyxl import load_workbook

    book = load_workbook(workbook)
    book["settings"]["A2"].value = "cli-xlsx"  # form_id: the slug
    book.save(renamed)
    assert runner.invoke(args=["import-survey", str(renamed)]).exit_code == 0
    as_json = runner.invoke(args=["export-survey", "cli-xlsx", "--format", "json"]).output
    original = runner.invoke(args=["export-survey", "cli-json"]).output
    assert json.loads(as_json) | {"slug": ""} == json.loads(original) | {"slug": ""}
    bad = tmp_path / "bad.xlsx"
    book["survey"]["A2"].value = "date"
    book.save(bad)
    refused = runner.invoke(args=["import-survey", str(bad)])
    assert refused.exit_code == 1
    assert refused.output.splitlines()[1].strip().startswith("survey row 2: type 'date'")


def test_exports_carry_every_language(app, runner, researcher, import_survey, seed_responses):
    slug = import_survey(dict(BILINGUAL, slug="exported"))
    app.config["RESULTS_MIN_N"] = 1
    seed_responses(slug, 20, seed=1)
    codebook = researcher.get(f"/surveys/{slug}/codebook.json").json
    assert codebook["survey"]["title"] == {"en": "Campus life", "ko": "캠퍼스 생활"}
    assert codebook["questions"][2]["options"][0]["text"] == {"en": "Alcohol", "ko": "술"}
    rows = list(
        csv.DictReader(
            io.StringIO(researcher.get(f"/surveys/{slug}/estimates.csv").get_data(as_text=True))
        )
    )
    assert rows[0]["text_en"].startswith("Have you ever copied") and rows[0]["text_ko"].startswith(
        "시험에서"
    )
    alcohol = next(row for row in rows if row["option"] == "alcohol")
    assert (alcohol["option_text_en"], alcohol["option_text_ko"]) == ("Alcohol", "술")
    responses = researcher.get(f"/surveys/{slug}/responses.csv").get_data(as_text=True)
    assert responses.splitlines()[0].startswith(
        "cheated,skipped,substances.alcohol"
    )  # ids, not words
    dashboard = researcher.get(f"/surveys/{slug}", headers={"Accept-Language": "ko"}).get_data(
        as_text=True
    )
    assert "시험에서 다른 사람의 답을" in dashboard and "Have you ever copied" not in dashboard
    with app.app_context():
        db.session.remove()


def test_the_results_api_names_texts_as_the_file_does(client, import_survey, token):
    bilingual = import_survey(dict(BILINGUAL, slug="api-both"))
    one = import_survey(dict(SAMPLE_SURVEY))
    headers = bearer(token)
    both = client.get(f"/api/surveys/{bilingual}/results", headers=headers).json
    assert both["languages"] == ["en", "ko"] and both["title"] == {
        "en": "Campus life",
        "ko": "캠퍼스 생활",
    }
    assert both["questions"][2]["options"][0]["text"] == {"en": "Alcohol", "ko": "술"}
    single = client.get(f"/api/surveys/{one}/results", headers=headers).json
    assert single["title"] == "Campus life" and single["questions"][0]["text"] == "Cheated?"
