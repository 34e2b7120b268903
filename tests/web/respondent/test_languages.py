"""The respondent reads one language: the page's when the survey has it, else the survey's
default, whichever way the language was chosen; the answers sent are the same whatever it was."""

import copy
import json
from html import unescape

import pytest

from tests.conftest import VALID_ANSWERS
from web.core.surveys.demo import DEMO_FILE

BILINGUAL = json.loads(DEMO_FILE.read_text(encoding="utf-8"))
ENGLISH = BILINGUAL["questions"][0]["text"]["en"]
KOREAN = BILINGUAL["questions"][0]["text"]["ko"]


@pytest.fixture
def bilingual(import_survey):
    return import_survey(BILINGUAL)


@pytest.mark.parametrize(
    ("header", "shown", "hidden", "page"),
    [
        ("ko", KOREAN, ENGLISH, "ko"),
        ("en", ENGLISH, KOREAN, "en"),
        ("fr", ENGLISH, KOREAN, "en"),  # not a language of the survey: its default
    ],
)
def test_the_page_shows_one_language(client, bilingual, header, shown, hidden, page):
    page_html = client.get(f"/s/{bilingual}", headers={"Accept-Language": header})
    html = unescape(page_html.get_data(as_text=True))
    assert shown in html and hidden not in html
    assert f'<html lang="{page}">' in html


def test_lang_in_the_address_and_the_switch_choose_it(client, bilingual):
    html = unescape(
        client.get(f"/s/{bilingual}?lang=ko", headers={"Accept-Language": "en"}).get_data(
            as_text=True
        )
    )
    assert KOREAN in html and ENGLISH not in html
    # The switch on a page asked for with ?lang= keeps the choice it sets.
    switched = client.get("/lang/en", query_string={"next": f"/s/{bilingual}?lang=ko"})
    assert switched.headers["Location"] == f"/s/{bilingual}?lang=en"
    config = json.loads(
        client.get(f"/s/{bilingual}?lang=ko")
        .get_data(as_text=True)
        .split('id="survey-config">')[1]
        .split("</script>")[0]
    )
    assert config["questions"][2]["options"][0]["text"] == "술"
    # The address's choice is remembered like the switch's, so the thank-you page follows it.
    assert "?" not in config["thanksUrl"]
    thanks = client.get(f"/s/{bilingual}/thanks", headers={"Accept-Language": "en"})
    assert '<html lang="ko">' in thanks.get_data(as_text=True)


def test_a_survey_without_the_page_language_marks_its_texts(client, import_survey):
    korean = copy.deepcopy(BILINGUAL)
    korean["slug"], korean["languages"] = "korean-only", ["ko"]
    for holder in [
        korean,
        *korean["questions"],
        *[o for q in korean["questions"] for o in q.get("options", [])],
    ]:
        for name in ("title", "description", "text", "thanks", "unit"):
            if isinstance(holder.get(name), dict):
                holder[name] = holder[name]["ko"]
        if "innocuous" in holder:
            holder["innocuous"]["text"] = holder["innocuous"]["text"]["ko"]
    slug = import_survey(korean)
    html = client.get(f"/s/{slug}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="en">' in html  # the page's own words are English
    assert f'<span lang="ko">{KOREAN}</span>' in html
    assert '<span lang="ko">술</span>' in html
    assert '<h1 lang="ko">캠퍼스 생활</h1>' in html


def test_the_reported_answers_do_not_depend_on_the_language(client, import_survey):
    from tests.conftest import SAMPLE_SURVEY

    data = copy.deepcopy(SAMPLE_SURVEY)
    data["languages"] = ["en", "ko"]
    data["title"] = {"en": "Campus life", "ko": "캠퍼스 생활"}
    data["description"] = {"en": "A test survey.", "ko": "시험 설문"}
    data["questions"][0]["text"] = {"en": "Cheated?", "ko": "베꼈습니까?"}
    data["questions"][1]["text"] = {"en": "Used?", "ko": "썼습니까?"}
    for option, korean in zip(data["questions"][1]["options"], ["술", "담배"], strict=True):
        option["text"] = {"en": option["text"], "ko": korean}
    slug = import_survey(data)
    response = client.post(
        f"/api/surveys/{slug}/responses", json=VALID_ANSWERS, headers={"Accept-Language": "ko"}
    )
    assert response.status_code == 201 and response.get_data() == b'{"ok":true}\n'
