"""Static files: one versioned address each, kept for a year, brotli or gzip for text, modules
preloaded."""

from __future__ import annotations

import gzip
import re

import brotli

from tests.conftest import no_database
from tests.servers import ROOT


def asset_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/v/[^"]+)"', html)


def test_pages_name_every_asset_by_version_and_the_survey_page_one_module(client, survey):
    html = client.get(f"/s/{survey}").get_data(as_text=True)
    urls = asset_urls(html)
    assert "/static/js/" not in html and "/static/css/" not in html
    versions = {url.split("/")[3] for url in urls}
    assert len(versions) == 1
    # The page names one small module, which loads the rest once the page is painted: nothing is
    # preloaded, so that a slow phone spends its first round trips on the page and its styles.
    assert 'rel="modulepreload"' not in html
    assert [url.split("/", 4)[4] for url in urls if url.endswith(".js")] == ["js/start.js"]


def test_the_offline_files_hold_every_module_the_page_may_load(client, survey):
    files = client.get(f"/s/{survey}/offline.json").get_json()["files"]
    names = {url.split("/", 4)[4] for url in files}
    lazy = {
        *("draw", "answers", "procedure", "random", "motion", "coin"),
        *("send", "courier", "outbox"),
        *("field", "fieldwork", "die", "permanent", "ledger", "condition"),
    }
    assert {f"js/{name}.js" for name in lazy} <= names
    assert {"js/start.js", "js/survey.js", "js/memo.js", "css/app.css"} <= names
    assert "css/workspace.css" not in names


def test_current_assets_are_kept_for_a_year_and_sent_compressed(client, survey):
    html = client.get(f"/s/{survey}").get_data(as_text=True)
    script = next(url for url in asset_urls(html) if url.endswith("js/start.js")).replace(
        "js/start.js", "js/survey.js"
    )
    response = client.get(script, headers={"Accept-Encoding": "gzip, br"})
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response.headers["Content-Encoding"] == "br"
    assert response.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert "Accept-Encoding" in response.headers["Vary"]
    source = (ROOT / "static/js/survey.js").read_bytes()
    assert brotli.decompress(response.get_data()) == source
    zipped = client.get(script, headers={"Accept-Encoding": "gzip, deflate"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.get_data()) == source
    # A module is not a document: of the page's policies it carries only nosniff.
    assert zipped.headers["X-Content-Type-Options"] == "nosniff"
    assert "Content-Security-Policy" not in zipped.headers
    plain = client.get(script)
    assert "Content-Encoding" not in plain.headers and plain.get_data() == source


@no_database
def test_another_version_is_served_but_not_kept_and_nothing_outside_static(client):
    stale = client.get("/static/v/000000000000/css/app.css")
    assert stale.status_code == 200 and stale.headers["Cache-Control"] == "no-cache"
    assert client.get("/static/v/000000000000/../app.py").status_code == 404
    assert client.get("/static/v/000000000000/js/nothing.js").status_code == 404
