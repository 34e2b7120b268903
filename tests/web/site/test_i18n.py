"""Korean and English: choice, switching, complete catalogs, and no stray language on a page."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from tests.conftest import SAMPLE_SURVEY, VALID_ANSWERS, no_database
from tests.servers import ROOT
from web.core.surveys.joincode import ALPHABET, LENGTH

PO = ROOT / "translations/ko/LC_MESSAGES/messages.po"
MO = PO.with_suffix(".mo")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
# Symbols, formats and names that stay as they are in a Korean page.
LATIN_ALLOWED = {
    "API",
    "UTC",
    "https",
    "code",
    "XLSForm",
    # A device's PIN is called so in Korean too.
    "PIN",
    # The system whose permanent randomized response the waves use (Erlingsson et al. 2014).
    "RAPPOR",
    # An example series name, typed as it is in any language (lowercase letters and hyphens).
    "climate",
    # Authors of designs and of interval methods, named as in the literature (with "et al.").
    "Kuk",
    "Warner",
    "Boruch",
    "Greenberg",
    "et",
    "al",
    "Yu",
    "Tian",
    "Tang",
    "Clark",
    "Desharnais",
    "Kairouz",
    "Oh",
    "Viswanath",
    "Clopper",
    "Pearson",
    "Zou",
    "Donner",
    "MOVER",
    "Newcombe",
    "Blair",
    "Imai",
    # The number of a list experiment's control items, as its literature writes it.
    "J",
    # Formats a methods paragraph is copied as.
    "Markdown",
    "LaTeX",
    # A panel's parameter names, as Prolific writes them, and the placeholder's name.
    "PROLIFIC",
    "PID",
    "STUDY",
    "SESSION",
    "NAME",
    "pid",
    # A quota's example, written as XLSForm's relevant is (women (300): ${gender} = 'f').
    "relevant",
    "women",
    "gender",
    "f",
    # Statistics packages the responses are downloaded for, and their files' extensions.
    "SPSS",
    "Stata",
    "sav",
    "dta",
    "Var",
    "xlsx",
    "survey",
    "choices",
    "settings",
    "CSV",
    "JSON",
    "QR",
    "ID",
    "README",
    "Authorization",
    "Bearer",
    "TOKEN",
    "slug",
    "ln",
    "e",
    "p",
    "n",
    "R",  # the number of repetitions of the report's experiment, a symbol like n
    "k",
    "q",
    "b",
    "P",
    "campus",
    "life",
}  # an example slug: slugs are ASCII


class VisibleText(HTMLParser):
    """Text a person sees: not scripts or styles, nor elements marked with another language."""

    SKIP = {"script", "style", "title"}
    VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr"}

    def __init__(self, page_language: str):
        super().__init__()
        self.page_language = page_language
        self.stack: list[bool] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        attributes = dict(attrs)
        hidden = (
            tag in self.SKIP or attributes.get("lang", self.page_language) != self.page_language
        )
        self.stack.append(hidden or (self.stack[-1] if self.stack else False))

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)


def visible_text(html: str, language: str, authored: list[str]) -> str:
    parser = VisibleText(language)
    parser.feed(html)
    text = " ".join(parser.parts)
    for piece in sorted(authored, key=len, reverse=True):
        text = text.replace(piece, " ")
    # Addresses and join codes are data, not words of either language.
    text = re.sub(r"https?://\S+|/[\w/.-]+", " ", text)
    return re.sub(rf"\b[{ALPHABET}]{{{LENGTH}}}\b", " ", text)


def authored_text(survey_slug: str) -> list[str]:
    texts = [
        SAMPLE_SURVEY["title"],
        SAMPLE_SURVEY["description"],
        survey_slug,
        "rita@example.org",
        "NOPE1",
    ]
    for question in SAMPLE_SURVEY["questions"]:
        texts += [question["text"], question["id"]]
        texts += [option["text"] for option in question.get("options", [])]
        texts += [f"{question['id']}.{option['id']}" for option in question.get("options", [])]
        texts += [option["id"] for option in question.get("options", [])]
    return texts


def pages(slug):
    public = ["/", f"/s/{slug}", f"/s/{slug}/thanks", "/lab", "/login", "/j/NOPE1"]
    private = [
        "/surveys",
        f"/surveys/{slug}",
        f"/surveys/{slug}/edit",
        f"/surveys/{slug}/present",
        f"/surveys/{slug}/preview",
        f"/surveys/{slug}/groups",
        "/surveys?archived=1",
        f"/surveys/{slug}/questions/new",
        f"/surveys/{slug}/questions/substances",
        "/surveys/new",
        "/surveys/import",
        "/account/tokens",
    ]
    return public, private


@pytest.fixture
def answered_survey(app, runner, survey, seed_responses):
    app.config["RESULTS_MIN_N"] = 1
    seed_responses(survey, 40, seed=1)
    return survey


# What it checks is the pages' words, which the database does not change: it runs on SQLite only.
@no_database
@pytest.mark.parametrize("language", ["en", "ko"])
def test_no_stray_language_on_any_page(answered_survey, researcher, language):
    public, private = pages(answered_survey)
    headers = {"Accept-Language": language}
    for path in public + private:
        response = researcher.get(path, headers=headers)
        assert response.status_code in (200, 404), path
        html = response.get_data(as_text=True)
        assert f'<html lang="{language}">' in html, path
        text = visible_text(html, language, authored_text(answered_survey))
        if language == "en":
            assert not HANGUL.search(text), (path, HANGUL.findall(text)[:10])
        else:
            words = set(re.findall(r"[A-Za-z]{1,}", text)) - LATIN_ALLOWED
            assert not words, (path, sorted(words)[:20])


def test_language_follows_the_browser_then_the_choice(client, survey):
    assert '<html lang="ko">' in client.get(
        "/", headers={"Accept-Language": "ko-KR,ko;q=0.9,en;q=0.5"}
    ).get_data(as_text=True)
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "fr, de"}).get_data(
        as_text=True
    )
    response = client.get("/lang/ko", query_string={"next": f"/s/{survey}"})
    assert response.status_code == 302 and response.headers["Location"] == f"/s/{survey}"
    assert "lang=ko" in response.headers["Set-Cookie"]
    html = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="ko">' in html and "민감한 질문에도" in html


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example", "javascript:alert(1)"]
)
@no_database
def test_language_switch_only_returns_to_this_site(client, target):
    assert client.get("/lang/en", query_string={"next": target}).headers["Location"] == "/"


@no_database
def test_unknown_language_is_ignored(client):
    response = client.get("/lang/xx")
    assert response.status_code == 302 and "Set-Cookie" not in response.headers


def test_every_page_offers_both_languages(client, survey):
    html = client.get(f"/s/{survey}").get_data(as_text=True)
    assert 'hreflang="ko"' in html and 'hreflang="en"' in html
    assert f"/lang/ko?next=/s/{survey}" in html


def test_api_errors_follow_the_language(client, survey):
    client.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS)
    again = client.post(
        f"/api/surveys/{survey}/responses", json=VALID_ANSWERS, headers={"Accept-Language": "ko"}
    )
    assert (
        again.status_code == 409
        and again.json["error"] == "이 브라우저에서는 이미 이 설문에 응답했습니다."
    )


def test_form_messages_are_translated(researcher):
    html = researcher.post(
        "/surveys/new", data={"title": ""}, headers={"Accept-Language": "ko"}
    ).get_data(as_text=True)
    assert "This field is required." not in html
    assert "필수" in html or "입력" in html


def test_numbers_are_formatted_for_the_locale(app, researcher, runner, survey, seed_responses):
    seed_responses(survey, 1234, seed=2)
    html = researcher.get(f"/surveys/{survey}/present", headers={"Accept-Language": "ko"}).get_data(
        as_text=True
    )
    assert ">1,234<" in html


@no_database
def test_korean_catalog_translates_every_message_in_the_source_and_no_other():
    """A message the code no longer has is taken out of the catalog (``pybabel update``,
    docs/develop/translating.md), so a translator reads only what the pages say."""
    method_map = [("app.py", "python"), ("web/**.py", "python"), ("templates/**.html", "jinja2")]
    # As `pybabel extract -k _l -k lazy_gettext` reads it (Babel's own keywords, N_ among them).
    keywords = {**DEFAULT_KEYWORDS, "_l": None, "lazy_gettext": None}
    in_source = {
        message[2]
        for message in extract_from_dir(str(ROOT), method_map, keywords=keywords)
        if not message[2].startswith(".venv")
    }
    in_source = {text if isinstance(text, str) else text[0] for text in in_source}
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    translated = {
        message.id for message in catalog if message.id and message.string and not message.fuzzy
    }
    assert in_source - translated == set()
    in_catalog = {
        message.id if isinstance(message.id, str) else message.id[0] for message in catalog
    }
    assert in_catalog - in_source - {""} == set()


@no_database
def test_compiled_catalog_matches_its_source():
    with PO.open("rb") as po, MO.open("rb") as mo:
        source = {m.id: m.string for m in read_po(po) if m.id}
        compiled = {m.id: m.string for m in read_mo(mo) if m.id}
    assert compiled == source


@no_database
def test_every_page_that_shows_an_instant_shows_it_in_the_viewers_time_zone():
    """``local_time()`` writes an instant in UTC for static/js/local-time.js to write again in
    the viewer's zone: a template that shows one loads the script, or every page including it
    does (the sessions and invitation pages once showed a researcher in Seoul UTC)."""
    templates = {
        path.relative_to(ROOT / "templates").as_posix(): path.read_text(encoding="utf-8")
        for path in (ROOT / "templates").rglob("*.html")
    }
    for name, text in templates.items():
        if "local_time(" not in text or "js/local-time.js" in text:
            continue
        including = [page for page, body in templates.items() if f'include "{name}"' in body]
        assert including, f"{name} shows an instant and does not load js/local-time.js"
        for page in including:
            assert "js/local-time.js" in templates[page], f"{page} includes {name}"
