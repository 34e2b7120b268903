"""Join codes, QR codes, the projector view and the lab's endpoints."""

import re

import numpy as np
import pytest

import rr
from tests.conftest import no_database
from web.classroom import lab
from web.core.infrastructure.extensions import db
from web.core.models import Question, Survey
from web.core.surveys.joincode import ALPHABET, LENGTH, normalize


def join_code(app, slug):
    with app.app_context():
        return db.session.scalar(db.select(Survey.join_code).filter_by(slug=slug))


def test_open_survey_gets_an_unambiguous_code(app, survey):
    code = join_code(app, survey)
    assert len(code) == LENGTH and set(code) <= set(ALPHABET)
    assert not set(code) & set("0O1IL2Z5S6G8BQ")


def test_codes_are_given_when_a_draft_opens(app, researcher):
    researcher.post("/surveys/new", data={"title": "Later", "slug": "later"})
    assert join_code(app, "later") is None
    researcher.post(
        "/surveys/later/questions/new",
        data={"text": "Q?", "kind": "yesno", "epsilon": "1", "procedure": "spinner"},
    )
    researcher.post("/surveys/later/status", data={"status": "open"})
    assert join_code(app, "later") is not None


@pytest.mark.parametrize("typed", ["{code}", "{lower}", " {spaced} ", "{hyphen}"])
def test_join_code_leads_to_the_survey(app, client, survey, typed):
    code = join_code(app, survey)
    entry = typed.format(
        code=code,
        lower=code.lower(),
        spaced=f"{code[:2]} {code[2:]}",
        hyphen=f"{code[:3]}-{code[3:]}",
    )
    response = client.get("/j", query_string={"code": entry})
    assert response.status_code == 302
    final = client.get(response.headers["Location"])
    assert final.status_code == 302 and final.headers["Location"] == f"/s/{survey}"


@no_database
def test_normalize():
    assert normalize(" kx7-3m ") == "KX73M"


def test_unknown_or_closed_code_says_so(app, client, survey):
    response = client.get("/j/AAAAA")
    assert response.status_code == 404 and "No open survey has the code AAAAA" in response.get_data(
        as_text=True
    )
    with app.app_context():
        db.session.scalar(db.select(Survey)).status = "closed"
        db.session.commit()
    assert client.get(f"/j/{join_code(app, survey)}").status_code == 404


def test_home_page_has_a_join_box(client):
    html = client.get("/").get_data(as_text=True)
    assert 'action="/j"' in html and 'name="code"' in html


def test_qr_code_is_an_svg_of_the_survey_address(client, survey):
    response = client.get(f"/s/{survey}/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    svg = response.get_data(as_text=True)
    assert svg.startswith("<?xml") and "<svg" in svg and f"http://localhost/s/{survey}" in svg
    assert client.get("/s/nope/qr.svg").status_code == 404


def test_projector_view_shows_code_qr_and_live_count(
    app, researcher, runner, survey, seed_responses
):
    seed_responses(survey, 25, seed=1)
    html = researcher.get(f"/surveys/{survey}/present").get_data(as_text=True)
    assert f">{join_code(app, survey)}<" in html
    assert f'src="/s/{survey}/qr.svg"' in html
    assert 'id="live-count" data-fieldwork>25<' in html
    assert 'id="reveal" aria-pressed="false"' in html
    assert 'data-refresh-interval="1000"' in html
    panel = researcher.get(f"/surveys/{survey}/present/panel").get_data(as_text=True)
    assert (
        'id="live-count" data-fieldwork>25<' in panel and "<html" not in panel and "<svg" in panel
    )
    korean = researcher.get(f"/surveys/{survey}/present/panel", headers={"Accept-Language": "ko"})
    assert 'id="live-count" data-fieldwork>25</strong>명 응답' in korean.get_data(as_text=True)


@no_database
def test_projector_needs_a_login(client, survey):
    assert client.get(f"/surveys/{survey}/present").status_code == 302
    assert client.get(f"/surveys/{survey}/present/panel").status_code == 302


@no_database
def test_lab_page_is_public(client):
    html = client.get("/lab").get_data(as_text=True)
    assert 'id="lab-config"' in html and re.search(r"/static/v/\w+/js/lab.js", html)


@no_database
def test_lab_distribution_matches_rr(client):
    query = {
        "true_proportion": 0.2,
        "n": 50,
        "epsilon": 1.5,
        "procedure": "spinner",
        "trials": 3000,
        "seed": 4,
    }
    body = client.get("/api/lab/distribution", query_string=query).json
    draws = rr.simulate_estimates(0.2, 50, 1.5, "spinner", trials=3000, seed=4)
    assert sum(body["counts"]) == 3000
    assert body["edges"] == rr.lattice_histogram(draws, 50, 1.5).edges.tolist()
    assert body["mean"] == pytest.approx(draws.mean()) and body["sd"] == pytest.approx(
        draws.std(ddof=1)
    )
    assert (
        body["coverage"]
        == rr.simulate_coverage(0.2, 50, 1.5, "spinner", trials=3000, seed=4).coverage
    )
    assert body["theory_sd"] == pytest.approx(draws.std(), rel=0.05)


@no_database
def test_lab_running_estimate_matches_rr(client):
    bits = "0110100111"
    body = client.get(
        "/api/lab/running", query_string={"bits": bits, "epsilon": 1, "procedure": "spinner_coin"}
    ).json
    counts = np.cumsum([int(bit) for bit in bits])
    for k in (1, 5, 10):
        expected = rr.estimate_proportion(int(counts[k - 1]), k, 1.0)
        assert body["estimate"][k - 1] == pytest.approx(expected.estimate)
        assert body["ci_low"][k - 1] == pytest.approx(expected.ci_low)


@no_database
def test_lab_noise_matches_rr(client):
    body = client.get(
        "/api/lab/noise", query_string={"sensitivity": 2, "epsilon": 0.5, "delta": 1e-6}
    ).json
    assert body["laplace_scale"] == 4.0
    assert body["sigma"]["analytic"] == pytest.approx(rr.gaussian_sigma(2, 0.5, 1e-6))
    assert body["sigma"]["reference"] == pytest.approx(rr.gaussian_sigma(2, 0.5, 1e-6, "reference"))
    assert body["classical_valid"] is True


@no_database
def test_the_averaging_attack_is_rrs_figures(client):
    attack = client.get("/api/lab/averaging?epsilon=1&epsilon_permanent=2&waves=30").json
    expected = rr.averaging_attack(1.0, 2.0, 30)
    assert attack["fresh"] == expected.fresh.tolist()
    assert attack["permanent"] == expected.permanent.tolist()
    assert attack["limit"] == expected.limit and len(attack["fresh"]) == 30
    assert attack["light"] == rr.permanent_response(2.0, 1.0).light


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/api/lab/distribution", {"true_proportion": 2}),
        ("/api/lab/distribution", {"n": 0}),
        ("/api/lab/distribution", {"trials": 10**7}),
        ("/api/lab/distribution", {"procedure": "dice"}),
        ("/api/lab/running", {"bits": "0120"}),
        ("/api/lab/running", {"bits": ""}),
        ("/api/lab/running", {"bits": "1" * 5001}),
        ("/api/lab/noise", {"delta": 0}),
        ("/api/lab/noise", {"epsilon": "x"}),
        ("/api/lab/averaging", {"epsilon": 2, "epsilon_permanent": 1}),
        ("/api/lab/averaging", {"waves": 0}),
    ],
)
@no_database
def test_lab_endpoints_refuse_bad_input(client, path, query):
    response = client.get(path, query_string=query)
    assert response.status_code == 400 and re.search(r"must", response.json["error"])


def test_the_projector_explains_an_estimate_below_zero(app, researcher, survey):
    with app.app_context():
        question = db.session.scalar(db.select(Question).filter_by(key="cheated"))
        question.published_n, question.published_yes = 40, 2  # far fewer yes than chance gives
        for option in question.survey.questions[1].options:
            option.published_n, option.published_yes = 40, 20
        question.survey.published_count = 40
        db.session.commit()
    panel = researcher.get(f"/surveys/{survey}/present/panel").get_data(as_text=True)
    block = panel.split('data-question="cheated"')[1].split("</article>")[0]
    note = block.split("Shown at the edge, estimated past it:")[1].split("</p>")[0]
    assert "-" in note.split("Chance")[0]
    # The bar's value is said as it is drawn, within 0–100%, on the slide as on the dashboard.
    values = re.findall(r'<text class="value"[^>]*>([^<]*)</text>', block)
    assert values == ["0.0%"] * 2  # in the wide drawing and the phone's


def test_the_projector_says_once_which_options_are_past_the_edge(app, researcher, survey):
    with app.app_context():
        substances = db.session.scalar(db.select(Question).filter_by(key="substances"))
        for option in substances.options:
            option.published_n, option.published_yes = 40, 2
        substances.survey.published_count = 40
        db.session.commit()
    panel = researcher.get(f"/surveys/{survey}/present/panel").get_data(as_text=True)
    block = panel.split('data-question="substances"')[1].split("</article>")[0]
    assert block.count('class="note outside"') == 1
    note = block.split("Shown at the edge, estimated past it:")[1].split("Chance")[0]
    assert note.count("-") == 2
    values = re.findall(r'<text class="value"[^>]*>([^<]*)</text>', block)
    assert values == ["0.0%"] * 4  # two options, in the wide drawing and the phone's


@no_database
def test_lab_choice_estimates_match_rr(client):
    body = client.get(
        "/api/lab/choice", query_string={"counts": "12,5,3", "epsilon": 2, "procedure": "spinner"}
    ).json
    expected = rr.estimate_choice([12, 5, 3], 2.0, "spinner")
    assert body["estimate"] == pytest.approx(expected.estimate.tolist())
    assert body["ci_low"] == pytest.approx(expected.ci_low.tolist())
    assert body["light_fraction"] == pytest.approx(rr.choice_light_fraction(2.0, 3, "spinner"))


@pytest.mark.parametrize("counts", ["", "5", "1,x", "0,0", "1,,2", ",".join(["1"] * 31), "3000,1"])
@no_database
def test_lab_choice_refuses_bad_counts(client, counts):
    response = client.get("/api/lab/choice", query_string={"counts": counts, "epsilon": 1})
    assert response.status_code == 400 and "counts must" in response.json["error"]


@no_database
def test_the_lab_compares_the_designs_at_one_epsilon(client):
    html = client.get("/lab?designs_epsilon=2").get_data(as_text=True)
    table = html.split('id="designs-table"')[1].split("</table>")[0]
    rows = re.findall(r'<tr data-design="([a-z_]+)">', table)
    assert rows == ["spinner_coin", "forced_response", "unrelated_question", "crosswise", "kuk"]
    spinner_row = table.split('data-design="spinner_coin"')[1].split("</tr>")[0]
    # n·Var at π = 0.5 and ε = 2: θ(1 − θ)/b² = 0.25/tanh(1)² = 0.431.
    assert "0.43 <span" in spinner_row and "88.1%" in spinner_row
    assert client.get("/lab?designs_epsilon=9").status_code == 400
    assert client.get("/lab?designs_epsilon=abc").status_code == 400


@no_database
def test_the_designs_caption_names_the_simulations_own_sizes(client, monkeypatch):
    """The caption once repeated 4,000 surveys of 500 beside the constants that set them."""
    monkeypatch.setattr(lab, "DESIGN_SURVEYS", 300)
    monkeypatch.setattr(lab, "DESIGN_RESPONDENTS", 40)
    lab.designs_comparison.cache_clear()
    try:
        html = client.get("/lab?designs_epsilon=1.7").get_data(as_text=True)
    finally:
        lab.designs_comparison.cache_clear()
    caption = html.split('id="designs-caption">')[1].split("</caption>")[0]
    assert "over 300 simulated surveys of 40," in caption
