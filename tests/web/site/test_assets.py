"""Static files: one versioned address each, kept for a year, gzip for text, modules preloaded."""

from __future__ import annotations

import gzip
import re

from tests.servers import ROOT


def asset_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/v/[^"]+)"', html)


def test_pages_name_every_asset_by_version_and_preload_the_survey_modules(client, survey):
    html = client.get(f"/s/{survey}").get_data(as_text=True)
    urls = asset_urls(html)
    assert "/static/js/" not in html and "/static/css/" not in html
    versions = {url.split("/")[3] for url in urls}
    assert len(versions) == 1
    preloaded = set(re.findall(r'rel="modulepreload" href="([^"]+)"', html))
    imported = {
        f"js/{name}"
        for name in ("answers.js", "coin.js", "die.js", "memo.js", "procedure.js", "spinner.js")
    } | {"js/motion.js", "js/random.js", "js/shared.js"}
    # The outbox, its courier and a field device's set-up.
    imported |= {"js/courier.js", "js/field.js", "js/outbox.js"}
    # A series' permanent reports.
    imported |= {"js/permanent.js", "js/ledger.js"}
    assert {url.split("/", 4)[4] for url in preloaded} == imported


def test_current_assets_are_kept_for_a_year_and_sent_compressed(client, survey):
    html = client.get(f"/s/{survey}").get_data(as_text=True)
    script = next(url for url in asset_urls(html) if url.endswith("js/survey.js"))
    response = client.get(script, headers={"Accept-Encoding": "gzip, br"})
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response.headers["Content-Encoding"] == "gzip"
    assert response.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert "Accept-Encoding" in response.headers["Vary"]
    source = (ROOT / "static/js/survey.js").read_bytes()
    assert gzip.decompress(response.get_data()) == source
    plain = client.get(script)
    assert "Content-Encoding" not in plain.headers and plain.get_data() == source


def test_another_version_is_served_but_not_kept_and_nothing_outside_static(client):
    stale = client.get("/static/v/000000000000/css/app.css")
    assert stale.status_code == 200 and stale.headers["Cache-Control"] == "no-cache"
    assert client.get("/static/v/000000000000/../app.py").status_code == 404
    assert client.get("/static/v/000000000000/js/nothing.js").status_code == 404
