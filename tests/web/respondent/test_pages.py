"""The respondent's pages, the headers on every response, and the static assets."""

import json
import re

import pytest

from tests.conftest import VALID_ANSWERS, no_database
from tests.servers import ROOT
from web.core.infrastructure.extensions import db
from web.core.models import Survey
from web.core.surveys.editing import edit_details
from web.core.surveys.lookup import find_survey
from web.core.surveys.texts import Texts


def page_config(html: str) -> dict:
    match = re.search(
        r'<script type="application/json" id="survey-config">(.*?)</script>', html, re.S
    )
    return json.loads(match.group(1))


def test_survey_page_carries_its_config_as_json(client, survey):
    response = client.get(f"/s/{survey}")
    assert response.status_code == 200
    config = page_config(response.get_data(as_text=True))
    assert config["slug"] == survey and config["submitUrl"] == f"/api/surveys/{survey}/responses"
    assert config["epsilonTotal"] == pytest.approx(4.0)
    cheated, substances = config["questions"]
    assert cheated["lightFraction"] == pytest.approx(0.46211715726000974)
    assert substances["procedure"] == "spinner" and [o["id"] for o in substances["options"]] == [
        "alcohol",
        "tobacco",
    ]


def test_survey_page_states_the_total_epsilon(client, survey):
    html = client.get(f"/s/{survey}").get_data(as_text=True)
    assert "ε = 4 in total" in html
    assert "ε = 1.5 per option × 2 options = 3" in html


def test_the_privacy_note_leads_with_plain_words_and_states_its_limits(client, survey):
    html = client.get(f"/s/{survey}").get_data(as_text=True)
    start = html.index('class="privacy-note"')
    note = html[start : html.index("</header>", start)]
    # What is sent and how often it is the truth come first; ε is kept for those who open it.
    assert note.index("Your true answers never leave this device.") < note.index("<details>")
    assert note.index("ε = 4 in total") > note.index("<details>")
    # e^1/(1+e^1) = 73% for the yes/no question, e^1.5/(1+e^1.5) = 82% for the options.
    assert "between 73% and 82% of the time" in note
    assert "Your true answer is sent 73% of the time" in html
    assert "Your true answer is sent 82% of the time" in html
    assert "A private window or another device would start afresh" in note


@pytest.mark.parametrize(
    "path", ["/", "/s/{slug}", "/s/{slug}/thanks", "/api/surveys/{slug}/results"]
)
def test_security_headers_on_every_response(client, survey, path):
    response = client.get(path.format(slug=survey))
    policy = response.headers["Content-Security-Policy"]
    for directive in (
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ):
        assert directive in policy
    assert "unsafe-inline" not in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_pages_have_no_inline_script_or_outside_assets(client, survey):
    for path in ("/", f"/s/{survey}", f"/s/{survey}/thanks"):
        html = client.get(path).get_data(as_text=True)
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert 'type="application/json"' in tag or 'src="/static/' in tag, tag
        assert not re.search(r"""(?:src|href)=["'](?:https?:)?//""", html)
        assert not re.search(r"<[^>]+\son[a-z]+=", html)
        assert "style=" not in html


@no_database
def test_static_code_never_uses_math_random():
    for path in (ROOT / "static").rglob("*.js"):
        assert "Math.random" not in path.read_text(), path


@no_database
def test_static_code_never_names_another_origin():
    for path in (ROOT / "static").rglob("*"):
        if path.suffix in {".js", ".css", ".svg"}:
            assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", path.read_text()), path


@pytest.mark.parametrize(("status", "code"), [("draft", 404), ("closed", 200)])
def test_draft_is_hidden_and_closed_says_so(app, client, survey, status, code):
    with app.app_context():
        db.session.scalar(db.select(Survey)).status = status
        db.session.commit()
    response = client.get(f"/s/{survey}")
    assert response.status_code == code
    if status == "closed":
        html = response.get_data(as_text=True)
        assert "This survey is closed" in html and 'id="survey-form"' not in html


@no_database
def test_unknown_survey_page_is_404(client):
    assert client.get("/s/nope").status_code == 404


def test_home_links_the_demo_only_when_present(client, app):
    assert "Try the demo survey" not in client.get("/").get_data(as_text=True)


def test_the_survey_page_is_never_stored_and_its_form_never_autofilled(client, survey):
    response = client.get(f"/s/{survey}")
    assert response.headers["Cache-Control"] == "no-store"
    assert '<form id="survey-form" novalidate autocomplete="off">' in response.get_data(
        as_text=True
    )


def test_thanks_says_received_only_after_this_browser_answered(client, survey):
    before = client.get(f"/s/{survey}/thanks").get_data(as_text=True)
    assert "were received" not in before and "has not sent answers" in before
    assert client.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS).status_code == 201
    after = client.get(f"/s/{survey}/thanks").get_data(as_text=True)
    assert "were received" in after


def test_the_kept_survey_page_follows_every_change(app, client, researcher, survey):
    assert "Cheated?" in client.get(f"/s/{survey}").get_data(as_text=True)
    # A new wording, a closed survey: each is a new version of the page.
    edited = researcher.post(
        f"/surveys/{survey}/questions/cheated",
        data={"text": "Reworded?", "kind": "yesno", "epsilon": "1", "procedure": "spinner_coin"},
    )
    assert edited.status_code == 302
    assert "Reworded?" in client.get(f"/s/{survey}").get_data(as_text=True)
    korean = client.get(f"/s/{survey}", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert 'lang="ko"' in korean
    assert 'lang="en"' in client.get(f"/s/{survey}").get_data(as_text=True)
    assert client.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS).status_code == 201
    answered = client.get(f"/s/{survey}").get_data(as_text=True)
    assert '"answered": true' in answered
    assert '"answered": false' in app.test_client().get(f"/s/{survey}").get_data(as_text=True)
    researcher.post(f"/surveys/{survey}/status", data={"status": "closed"})
    assert "This survey is closed" in app.test_client().get(f"/s/{survey}").get_data(as_text=True)


def test_the_survey_page_is_rendered_again_after_an_edit_not_after_a_publication(
    app, client, survey, runner, seed_responses
):
    first = client.get(f"/s/{survey}").get_data(as_text=True)
    seed_responses(survey, 20, seed=1)  # publishes
    with app.app_context():
        cache = app.extensions["survey_pages"]
        size = len(cache._documents)
    assert client.get(f"/s/{survey}").get_data(as_text=True) == first
    with app.app_context():
        assert len(app.extensions["survey_pages"]._documents) == size  # served from the same render
        edit_details(find_survey(survey), Texts.one("en", "A new title"), Texts(), None)
        db.session.commit()
    assert "A new title" in client.get(f"/s/{survey}").get_data(as_text=True)
