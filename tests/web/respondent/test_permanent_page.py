"""What the survey page hands its script for a question with a permanent report, and what it
says: the wave's light share and the keep share of rr.permanent_response, ε per wave and ε∞ over
all waves in the respondent's words."""

import json
import math
import re

import pytest

import rr
from tests.web.core.surveys.test_series_file import wave


def page_config(client, slug: str) -> dict:
    html = client.get(f"/s/{slug}").get_data(as_text=True)
    block = re.search(
        r'<script type="application/json" id="survey-config">(.*?)</script>', html, re.S
    )
    return json.loads(block.group(1))


def test_the_page_draws_with_rr_s_two_layers(client, import_survey):
    data = wave(1)
    data["questions"].insert(2, {
        "id": "where", "type": "choice", "text": "Where?", "epsilon": 1.0,
        "epsilon_permanent": 2.5, "procedure": "spinner",
        "options": [{"id": o, "text": o} for o in ("a", "b", "c", "d")],
    })  # fmt: skip
    import_survey(data)
    config = page_config(client, "climate-w1")
    assert config["series"] == "campus-climate"
    questions = {question["id"]: question for question in config["questions"]}
    cheated = questions["cheated"]
    layers = rr.permanent_response(2.0, 1.0)
    assert cheated["permanent"] == {
        "epsilonPermanent": 2.0, "values": 2, "labels": None, "keep": layers.keep
    }  # fmt: skip
    assert cheated["lightFraction"] == pytest.approx(math.tanh(0.5) / math.tanh(1.0), abs=1e-15)
    assert cheated["dark"] == "coin"
    # Spinner only: dark reports the other answer, so the wave's light share is (1 + q)/2.
    drugs = questions["drugs"]
    q = math.tanh(0.4) / math.tanh(0.8)
    assert drugs["lightFraction"] == pytest.approx((1 + q) / 2, abs=1e-15)
    where = questions["where"]
    choice = rr.permanent_response(2.5, 1.0, k=4)
    assert where["permanent"]["values"] == 4
    assert where["permanent"]["labels"] == ["a", "b", "c", "d"]
    assert where["lightFraction"] == pytest.approx(choice.wave_light("opposite"), abs=1e-15)
    assert questions["hours"]["permanent"] is None
    assert "permanent" in cheated["drawnUnder"]


def test_the_page_states_both_numbers(client, import_survey):
    import_survey(wave(2))
    html = client.get("/s/climate-w2").get_data(as_text=True)
    assert "Each wave ε = 1; over all waves at most ε = 2 on this browser" in html
    assert "at most ε = 1.6 per option" in html
    assert "kept stand-in for your true answer; dark: chance decides" in html
    assert "This survey is wave 2 of a series." in html


def test_the_page_knows_what_its_wave_costs_for_the_ledger(client, import_survey):
    import_survey(wave(2))
    ledger = page_config(client, "climate-w2")["seriesLedger"]
    # hours (ε = 1) is drawn afresh; cheated keeps ε∞ = 2 and drugs 1.6 per option, twice.
    assert ledger == {"wave": 2, "fresh": pytest.approx(1.0), "kept": pytest.approx(2.0 + 2 * 1.6)}
    import_survey({**wave(3), "series": None, "wave": None, "slug": "alone",
                   "questions": wave(3)["questions"][2:]})  # fmt: skip
    assert page_config(client, "alone")["seriesLedger"] is None
