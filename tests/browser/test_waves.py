"""A respondent answering three waves of a series on one browser: the permanent reports are
drawn once (for both values of every item), survive reloads and later waves unchanged, each wave
spins on them, and neither the wire nor storage ever holds a true answer."""

from __future__ import annotations

import copy
import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems, violations
from tests.browser.researcher import log_in
from tests.browser.respondent import open_survey, spin, wait_until_done
from tests.conftest import PASSWORD, SAMPLE_SURVEY

pytestmark = pytest.mark.browser

SERIES = "campus-climate"
ITEMS = ["cheated", "substances.alcohol", "substances.tobacco"]


def wave(number: int) -> dict:
    data = copy.deepcopy(SAMPLE_SURVEY)
    data.update(slug=f"climate-w{number}", series=SERIES, wave=number)
    data["questions"][0]["epsilon_permanent"] = 2.0
    data["questions"][1]["epsilon_permanent"] = 3.0
    return data


def kept(page) -> dict:
    raw = page.evaluate("(key) => localStorage.getItem(key)", f"rr-permanent:{SERIES}")
    return json.loads(raw)["items"]


def shared_kept(page) -> dict:
    """The series' permanent reports in the shared store (IndexedDB) every tab reads."""
    raw = page.evaluate(
        """(key) => new Promise((resolve, reject) => {
          const open = indexedDB.open("rr-survey", 1);
          open.onsuccess = () => {
            const get = open.result.transaction("memo").objectStore("memo").get(key);
            get.onsuccess = () => resolve(get.result ?? null);
            get.onerror = () => reject(get.error);
          };
          open.onerror = () => reject(open.error);
        })""",
        f"rr-permanent:{SERIES}",
    )
    return json.loads(raw)["items"]


def answer_wave(page, url: str, cheated: int, alcohol: bool) -> None:
    open_survey(page, url)
    page.check(f"input[name='truth-cheated'][value='{cheated}']")
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    if alcohol:
        page.check("input[name='truth-substances-alcohol']")
    spin(page, "substances")
    wait_until_done(page, ITEMS[1:])
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")


def test_permanent_reports_are_drawn_once_and_kept_over_three_waves(
    context, live_server, import_survey, page_log
):
    for number in (1, 2, 3):
        import_survey(wave(number))
    page = context.new_page()
    log = page_log(page)
    open_survey(page, f"{live_server}/s/climate-w1")
    expect(page.locator("[data-question='cheated'] .permanent-note")).to_contain_text(
        "at most ε = 2"
    )
    page.check("input[name='truth-cheated'][value='1']")
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    first = kept(page)
    assert set(first) == {"cheated"}
    # Both values have their permanent report: storage alone says nothing of the answer.
    assert first["cheated"]["values"] == 2 and len(first["cheated"]["reports"]) == 2
    assert shared_kept(page) == first
    page.reload()
    wait_until_done(page, ["cheated"])
    assert kept(page) == first
    page.check("input[name='truth-substances-alcohol']")
    spin(page, "substances")
    wait_until_done(page, ITEMS[1:])
    after_first = kept(page)
    assert {item: after_first[item] for item in first} == first
    assert set(after_first) == set(ITEMS)
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")

    answer_wave(page, f"{live_server}/s/climate-w2", cheated=1, alcohol=True)
    # The privacy section adds up the waves this browser answered: nothing is drawn afresh here,
    # and the kept answers stay within 2 + 2 × 3 over all waves.
    page.goto(f"{live_server}/s/climate-w3")
    ledger = page.text_content("#series-ledger-figures")
    assert "waves 1, 2, 3 of this series" in ledger
    assert "add up to ε = 0;" in ledger and "within ε = 8 over all waves" in ledger
    # Wave 3 with other answers: the kept reports are still those of wave 1, for both values.
    answer_wave(page, f"{live_server}/s/climate-w3", cheated=0, alcohol=False)
    assert kept(page) == after_first
    assert shared_kept(page) == after_first

    posts = [request for request in log.requests if request.method == "POST"]
    assert len(posts) == 3
    for request in posts:
        body = json.loads(request.post_data)
        assert set(body) == {"answers"}
        assert set(body["answers"]) == {"cheated", "substances"}
        assert "truth" not in request.post_data and "permanent" not in request.post_data
    # Storage: each wave's memo of reported bits, and the series' permanent reports; nothing else.
    keys = set(page.evaluate("Object.keys(localStorage)"))
    assert keys == {f"rr-survey:climate-w{k}" for k in (1, 2, 3)} | {f"rr-permanent:{SERIES}"}
    assert log.errors == []


def test_a_wave_spins_on_the_kept_report_not_on_the_answer(context, live_server, import_survey):
    # Every draw lands on light: the wave reports the kept report of the true value, which the
    # forced permanent draw made the true value itself (keep).
    context.add_init_script(
        "const real = crypto.getRandomValues.bind(crypto);"
        "crypto.getRandomValues = (b) => b instanceof Uint8Array ? real(b) : b.fill(0);"
    )
    import_survey(wave(1))
    page = context.new_page()
    open_survey(page, f"{live_server}/s/climate-w1")
    page.check("input[name='truth-cheated'][value='1']")
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    assert kept(page)["cheated"]["reports"] == [0, 1]
    box = page.locator("[data-item='cheated']")
    assert box.get_attribute("data-reported") == "1"
    # Now the kept report of "yes" says no: a light spin reports what is kept, not the answer.
    page.evaluate(
        """(key) => localStorage.setItem(key, JSON.stringify({items: {cheated:
            {epsilonPermanent: 2, values: 2, reports: [0, 0]}}}))""",
        f"rr-permanent:{SERIES}",
    )
    import_survey(wave(2))
    page.evaluate(
        """(key) => new Promise((resolve) => {
          const open = indexedDB.open("rr-survey", 1);
          open.onsuccess = () => {
            const tx = open.result.transaction("memo", "readwrite");
            tx.objectStore("memo").delete(key);
            tx.oncomplete = () => resolve();
          };
        })""",
        f"rr-permanent:{SERIES}",
    )
    open_survey(page, f"{live_server}/s/climate-w2")
    page.check("input[name='truth-cheated'][value='1']")
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    assert page.locator("[data-item='cheated']").get_attribute("data-reported") == "0"


def test_a_waves_page_passes_axe_in_both_languages(phone, browser, live_server, import_survey):
    data = wave(1)
    data["languages"] = ["en", "ko"]
    data["title"] = {"en": "Campus life", "ko": "캠퍼스 생활"}
    data["description"] = {"en": "A test survey.", "ko": "시험 설문."}
    for question in data["questions"]:
        question["text"] = {"en": question["text"], "ko": "질문"}
        for option in question.get("options", []):
            option["text"] = {"en": option["text"], "ko": "선택지"}
    import_survey(data)
    for locale in ("en-US", "ko-KR"):
        page = phone("/s/climate-w1", locale=locale)
        page.wait_for_selector(".permanent-note")
        assert phone_problems(page) == []
        wide = browser.new_context(locale=locale, bypass_csp=True, reduced_motion="reduce",
                                   viewport={"width": 1280, "height": 900})  # fmt: skip
        page = wide.new_page()
        page.goto(f"{live_server}/s/climate-w1")
        page.wait_for_selector(".permanent-note")
        assert violations(page) == []
        wide.close()


def test_next_wave_and_the_trend_in_the_researchers_browser(
    browser, runner, live_server, import_survey, seed_responses
):
    import_survey(wave(1))
    seed_responses("climate-w1", 60, seed=1)
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    log_in(page, live_server, "rita@example.org")
    page.goto(f"{live_server}/surveys/climate-w1")
    expect(page.locator("#series-line")).to_contain_text("Wave 1 of the series campus-climate.")
    page.click("button:has-text('Next wave')")
    page.wait_for_url(re.compile(r"/surveys/[a-z0-9-]+/edit$"))
    assert page.input_value("#series") == SERIES and page.input_value("#wave") == "2"
    page.goto(f"{live_server}/series/{SERIES}")
    expect(page.locator("svg.trend-chart")).to_have_count(3)
    first = page.locator("svg.trend-chart").first
    described = first.locator("desc").text_content()
    assert "wave 1: " in described and "wave 2: withheld" in described
    context.close()
