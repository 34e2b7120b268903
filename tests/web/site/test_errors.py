"""Errors: pages in the app's style and the visitor's language, JSON under /api/."""

import re

import pytest
from werkzeug.exceptions import abort

from tests.conftest import no_database
from tests.servers import ROOT

# Nothing here reads or writes the database: it runs once, on SQLite.
pytestmark = no_database


CODES = [400, 403, 404, 405, 409, 413, 429, 500]


@pytest.fixture
def failing_app(app):
    """The app with a page that fails with any status, and one that raises."""
    app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)
    app.add_url_rule("/fail/<int:code>", "fail", lambda code: abort(code))
    app.add_url_rule("/api/fail/<int:code>", "api_fail", lambda code: abort(code))
    app.add_url_rule("/crash", "crash", lambda: 1 / 0)
    return app


def page(client, path, language):
    return client.get(path, headers={"Accept-Language": language})


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_error_is_a_styled_page_in_the_visitors_language(failing_app, code, language):
    response = page(
        failing_app.test_client(), "/crash" if code == 500 else f"/fail/{code}", language
    )
    html = response.get_data(as_text=True)
    assert response.status_code == code and response.mimetype == "text/html"
    assert f'<html lang="{language}">' in html and 'rel="stylesheet"' in html and "<h1>" in html
    heading = re.search(r"<h1>(.*?)</h1>", html).group(1)
    hangul = re.search(r"[\uac00-\ud7a3]", heading)
    assert bool(hangul) == (language == "ko"), heading


@pytest.mark.parametrize("code", CODES[:-1])
def test_api_errors_are_json(failing_app, code):
    response = failing_app.test_client().get(f"/api/fail/{code}")
    assert response.status_code == code and response.is_json and response.json["error"]


def test_an_unknown_survey_in_korean_is_a_korean_page(client):
    response = page(client, "/s/nope", "ko")
    html = response.get_data(as_text=True)
    assert response.status_code == 404 and '<html lang="ko">' in html
    assert "설문이 없습니다" in html or "찾을 수 없음" in html


def test_a_405_keeps_its_allow_header(client):
    response = client.get("/logout")
    assert response.status_code == 405 and "POST" in response.headers["Allow"]


def test_an_expired_form_says_so_in_the_visitors_language(app):
    app.config["WTF_CSRF_ENABLED"] = True
    response = app.test_client().post("/login", data={"email": "a@b.org", "password": "x"},
                                      headers={"Accept-Language": "ko"})  # fmt: skip
    assert response.status_code == 400
    assert "CSRF" not in response.get_data(as_text=True)


MESSAGE_CALLS = re.compile(r"""\bflash\(\s*f?["']|\bProblem\([^,()]*,\s*f?["']""")


def test_every_message_shown_to_people_goes_through_the_catalog():
    # flash("…") or a Problem/EditError built from a bare literal would reach a Korean page in
    # English: each must be wrapped in _() (the catalog test then requires its Korean).
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in sorted((ROOT / "web").rglob("*.py"))
        for match in MESSAGE_CALLS.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
