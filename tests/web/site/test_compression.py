"""Pages and JSON go out compressed; a response that holds a secret (a CSRF token, a field
device's token) never does, so that BREACH cannot read it through compressed lengths."""

from __future__ import annotations

import gzip

import brotli

from tests.web.respondent.test_field_devices import new_link, token_of

BROWSER = {"Accept-Encoding": "gzip, deflate, br"}


def test_the_survey_page_comes_compressed_and_reads_the_same(client, survey):
    plain = client.get(f"/s/{survey}")
    squeezed = client.get(f"/s/{survey}", headers=BROWSER)
    assert "Content-Encoding" not in plain.headers
    assert squeezed.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in squeezed.headers["Vary"]
    assert brotli.decompress(squeezed.get_data()) == plain.get_data()
    assert len(squeezed.get_data()) < len(plain.get_data()) / 3
    zipped = client.get(f"/s/{survey}", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.get_data()) == plain.get_data()


def test_json_and_the_service_worker_come_compressed(client, survey):
    for url in ("/api/openapi.json", f"/s/{survey}/sw.js", f"/s/{survey}/offline.json"):
        response = client.get(url, headers=BROWSER)
        assert response.status_code == 200, url
        assert response.headers["Content-Encoding"] == "br", url


def test_a_page_with_a_csrf_token_is_never_compressed(client, researcher, survey):
    # The login form, and every page of a signed-in researcher (its logout form), hold the token.
    assert "Content-Encoding" not in client.get("/login", headers=BROWSER).headers
    dashboard = researcher.get(f"/surveys/{survey}", headers=BROWSER)
    assert dashboard.status_code == 200
    assert 'name="csrf_token"' in dashboard.get_data(as_text=True)
    assert "Content-Encoding" not in dashboard.headers


def test_the_field_device_page_holding_its_token_is_never_compressed(client, researcher, survey):
    token = token_of(new_link(researcher, survey))
    page = client.get(f"/s/{survey}/field/{token}", headers=BROWSER)
    assert page.status_code == 200 and token in page.get_data(as_text=True)
    assert "Content-Encoding" not in page.headers


def test_small_replies_and_errors_are_sent_as_they_are(client, survey):
    missing = client.get("/s/no-such-survey", headers=BROWSER)
    assert missing.status_code == 404 and "Content-Encoding" not in missing.headers
    refused = client.post(f"/api/surveys/{survey}/responses", json={}, headers=BROWSER)
    assert refused.status_code == 400 and "Content-Encoding" not in refused.headers
