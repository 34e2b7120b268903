"""Texts per language in survey files: declared languages, objects per language, and refusals
that name every mistake; XLSForm in and out gives the same survey."""

import copy
import io
import json

import pytest
from openpyxl import Workbook, load_workbook

from tests.conftest import no_database
from web.core.surveys.demo import DEMO_FILE
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.surveyfile import load_survey, parse_survey
from web.core.surveys.texts import Texts
from web.core.surveys.xlsform.read import load_xlsform
from web.core.surveys.xlsform.write import survey_xlsform

# Nothing here reads or writes the database: it runs once, on SQLite.
pytestmark = no_database


BILINGUAL = json.loads(DEMO_FILE.read_text(encoding="utf-8"))


def problems_of(data) -> list[str]:
    with pytest.raises(SurveyFileError) as refused:
        parse_survey(data)
    return refused.value.problems


def test_a_bilingual_file_keeps_each_language_apart(app):
    with app.app_context():
        spec = parse_survey(BILINGUAL)
    assert spec.languages == ("en", "ko")
    assert spec.questions[0].text == Texts(
        {
            "en": "Have you ever copied someone else's answers in an exam?",
            "ko": "시험에서 다른 사람의 답을 베낀 적이 있습니까?",
        }
    )
    assert spec.questions[2].options[0].text == Texts({"en": "Alcohol", "ko": "술"})
    assert "·" not in json.dumps(BILINGUAL, ensure_ascii=False)


def test_export_then_import_is_identical(app):
    with app.app_context():
        spec = parse_survey(BILINGUAL)
        written = spec.to_json()
        assert load_survey(written) == spec
        assert parse_survey(json.loads(written)).to_json() == written


def test_a_file_without_languages_is_in_one_language_guessed_from_its_writing(app):
    english = {"slug": "s", "title": "Title", "questions": [yesno("Cheated?")]}
    korean = {"slug": "s", "title": "설문", "questions": [yesno("베낀 적이 있습니까?")]}
    with app.app_context():
        assert parse_survey(english).languages == ("en",)
        assert parse_survey(korean).languages == ("ko",)
        assert parse_survey(korean).questions[0].text == Texts({"ko": "베낀 적이 있습니까?"})


def yesno(text, key="q1"):
    return {"id": key, "type": "yesno", "text": text, "epsilon": 1, "procedure": "spinner"}


def test_every_mistake_in_the_languages_is_named_at_once(app):
    data = copy.deepcopy(BILINGUAL)
    del data["questions"][0]["text"]["ko"]  # misses a declared language
    data["questions"][1]["text"]["fr"] = "Avez-vous séché ?"  # names an undeclared one
    data["questions"][2]["options"][1]["text"] = "Tobacco"  # one string among objects
    data["title"] = {"en": "Campus life", "ko": " "}  # empty in one language
    with app.app_context():
        problems = problems_of(data)
    assert "questions[0].text.ko: missing its text in 한국어" in problems
    assert any(
        p.startswith("questions[1].text.fr: 'fr' is not one of the survey's") for p in problems
    )
    assert any(
        p.startswith("questions[2].options[1].text: must be an object with the text in each")
        for p in problems
    )
    assert "title.ko: missing its text in 한국어" in problems
    assert len(problems) == 4


def test_objects_need_declared_languages_and_languages_must_be_known(app):
    data = {"slug": "s", "title": {"en": "T", "ko": "설문"}, "questions": [yesno("Q")]}
    unknown = {"slug": "s", "languages": ["en", "fr"], "title": "T", "questions": [yesno("Q")]}
    twice = {"slug": "s", "languages": ["en", "en"], "title": "T", "questions": [yesno("Q")]}
    with app.app_context():
        assert any('need the survey\'s "languages"' in p for p in problems_of(data))
        assert problems_of(unknown) == [
            "languages: 'fr' is not a language of this app (use en, ko)"
        ]
        assert problems_of(twice) == ["languages: names a language twice"]


def test_an_optional_text_is_empty_in_every_language_or_written_in_each(app):
    data = copy.deepcopy(BILINGUAL)
    data["consent"] = {"en": "", "ko": ""}
    data["description"] = {"en": "About", "ko": ""}
    with app.app_context():
        assert problems_of(data) == ["description.ko: missing its text in 한국어"]


def test_fielding_fields_round_trip_and_refuse_bad_values(app):
    data = copy.deepcopy(BILINGUAL)
    data |= {
        "consent": {"en": "I agree to take part.", "ko": "참여에 동의합니다."},
        "completion_code": "RR-2026",
        "completion_url": "https://panel.example.com/done?code={code}",
        "opens_at": "2026-12-01T18:00:00+09:00",
        "closes_at": "2026-12-08T09:00:00Z",
        "target_n": 300,
    }
    with app.app_context():
        spec = parse_survey(data)
        assert spec.fielding.completion_link() == "https://panel.example.com/done?code=RR-2026"
        written = spec.to_dict()
        assert written["opens_at"] == "2026-12-01T09:00:00Z"  # UTC
        assert parse_survey(written) == spec
        bad = dict(
            data,
            completion_code="no spaces",
            completion_url="http://panel.example.com/done?who={respondent}",
            opens_at="2026-12-09T09:00:00",
            target_n=0,
        )
        problems = problems_of(bad)
    assert (
        "completion_code: 'no spaces' is not a valid code (1-64 letters, digits, _ or -)"
        in problems
    )
    assert any(p.startswith("completion_url: must be an https address") for p in problems)
    assert any("only {code} may be filled in" in p and "{respondent}" in p for p in problems)
    assert any(p.startswith("opens_at: '2026-12-09T09:00:00' has no time zone") for p in problems)
    assert any(p.startswith("target_n: must be a whole number from 1") for p in problems)


def test_closing_before_opening_is_refused(app):
    data = dict(BILINGUAL, opens_at="2026-12-02T00:00:00Z", closes_at="2026-12-01T00:00:00Z")
    with app.app_context():
        assert problems_of(data) == ["closes_at: must be later than opens_at"]


# XLSForm


def test_xlsform_round_trip_gives_the_same_survey(app):
    data = dict(copy.deepcopy(BILINGUAL), completion_code="DONE1", target_n=40)
    # The demo's crosswise question adds the design columns, its number question the range's;
    # a survey without them has none.
    data["questions"] = [
        q for q in data["questions"] if q.get("procedure") != "crosswise" and q["type"] != "number"
    ]
    with app.app_context():
        spec = parse_survey(data)
        workbook = survey_xlsform(spec)
        assert load_xlsform(workbook) == spec
    sheets = load_workbook(io.BytesIO(workbook))
    header = [cell.value for cell in sheets["survey"][1]]
    assert header == [
        "type",
        "name",
        "label::English (en)",
        "label::한국어 (ko)",
        "rr_procedure",
        "rr_epsilon",
    ]
    types = [row[0].value for row in sheets["survey"].iter_rows(min_row=2)]
    assert types == [
        "select_one yes_no",
        "select_one yes_no",
        "select_multiple substances",
        "select_one copied_work",
        "select_one year",
    ]


def workbook(survey_rows, choices=(), settings=None) -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.title = "survey"
    for row in survey_rows:
        sheet.append(list(row))
    choice_sheet = book.create_sheet("choices")
    choice_sheet.append(["list_name", "name", "label::English (en)", "label::Korean (ko)"])
    for row in choices:
        choice_sheet.append(list(row))
    settings_sheet = book.create_sheet("settings")
    settings = settings or {
        "form_id": "kobo",
        "form_title::English (en)": "Kobo",
        "form_title::Korean (ko)": "코보",
    }
    settings_sheet.append(list(settings))
    settings_sheet.append(list(settings.values()))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


HEADER = ("type", "name", "label::English (en)", "label::Korean (ko)", "rr_procedure", "rr_epsilon")


def test_a_kobo_style_workbook_imports(app):
    raw = workbook(
        [
            HEADER,
            ("select_one yes_no", "cheated", "Cheated?", "베꼈습니까?", "spinner_coin", 1),
            ("select_one year", "year", "Year?", "학년?", "direct", None),
        ],
        [("year", "first", "First", "1학년"), ("year", "second", "Second", "2학년")],
    )
    with app.app_context():
        spec = load_xlsform(raw)
    assert spec.slug == "kobo" and spec.languages == ("en", "ko")
    assert [q.kind for q in spec.questions] == ["yesno", "direct"]
    assert spec.questions[1].options[1].text == Texts({"en": "Second", "ko": "2학년"})


def test_questions_that_cannot_be_randomized_are_refused_with_their_rows(app):
    raw = workbook(
        [
            HEADER,
            ("start", "start", None, None, None, None),
            ("select_one yes_no", "cheated", "Cheated?", "베꼈습니까?", "spinner_coin", 1),
            ("geopoint", "where", "Where are you?", "어디?", None, None),
            ("select_one yes_no", "skipped", "Skipped?", "빠졌습니까?", None, 1),
            ("select_one yes_no", "late", "Late?", "", "spinner", 20),
        ]
    )
    with app.app_context(), pytest.raises(SurveyFileError) as refused:
        load_xlsform(raw)
    problems = refused.value.problems
    assert problems[0].startswith("survey row 2: type 'start' is not a question this app asks")
    assert problems[1].startswith("survey row 4: type 'geopoint' is not a question this app asks")
    assert problems[2].startswith("survey row 5: rr_procedure must say how it is asked")
    assert len(problems) == 3  # the validator's mistakes come once the rows can be read
    fixed = workbook([HEADER, ("select_one yes_no", "late", "Late?", "", "spinner", 20)])
    with app.app_context(), pytest.raises(SurveyFileError) as refused:
        load_xlsform(fixed)
    assert refused.value.problems == [
        "survey row 2, column label: missing its text in 한국어",
        "survey row 2, column rr_epsilon: must be a number from 1e-06 to 10, got 20.0",
    ]


def test_a_file_that_is_not_a_workbook_is_refused(app):
    with app.app_context(), pytest.raises(SurveyFileError) as refused:
        load_xlsform(b"PK\x03\x04 not really a zip")
    assert refused.value.problems == ["file: not an XLSForm workbook (.xlsx)"]


def test_texts_that_are_not_text_are_named_not_crashed_on(app):
    data = copy.deepcopy(BILINGUAL)
    data["title"] = {"en": 5, "ko": ["캠퍼스"]}
    data["questions"][0]["text"] = {"en": {}, "ko": "베꼈습니까?"}
    with app.app_context():
        problems = problems_of(data)
    assert problems == [
        "title.en: must be text",
        "title.ko: must be text",
        "questions[0].text.en: must be text",
    ]
