"""The builder's planner: the power to see a change between waves, for the design being edited,
with its curve; the figures are the server's (rr.change_power)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

import rr
from tests.browser.axe import violations
from tests.browser.researcher import log_in
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def builder_page(browser, runner, live_server, survey, locale):
    """A researcher's builder page of the survey's "cheated" question, and its script errors."""
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    context = browser.new_context(locale=locale, reduced_motion="reduce", bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server, "rita@example.org")
    page.goto(f"{live_server}/surveys/{survey}/questions/cheated")
    return page, errors


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_the_planner_shows_the_power_to_see_a_change(browser, runner, live_server, survey, locale):
    page, errors = builder_page(browser, runner, live_server, survey, locale)
    page.fill("#planned", "500")
    page.click("#change-plan summary")
    page.fill("#baseline", "20")
    page.fill("#change", "10")
    page.wait_for_selector("#power-curve svg polyline")
    expected = rr.change_power(rr.spinner_coin(1.0), 500, 0.2, 0.1).power
    expect(page.locator("#change-power")).to_contain_text(f"{expected * 100:.1f}%")
    n = rr.change_sample_size(rr.spinner_coin(1.0), 0.2, 0.1)
    expect(page.locator("#change-n")).to_contain_text(f"{n}")
    points = page.locator("#power-curve polyline").get_attribute("points").split()
    assert len(points) == 41
    # The curve starts at the test's size (about 5%) and rises with the change.
    heights = [float(point.split(",")[1]) for point in points]
    assert heights[0] > heights[-1]
    assert violations(page) == []
    page.fill("#change", "90")  # 20% + 90 points is past 100%
    page.wait_for_selector("#power-curve:empty", state="attached")
    if locale == "en-US":
        expect(page.locator("#change-power")).to_contain_text("0 to 100")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_the_planner_gives_a_split_ballots_n_per_condition(
    browser, runner, live_server, survey, locale
):
    page, errors = builder_page(browser, runner, live_server, survey, locale)
    page.fill("#planned", "400")
    page.click("#experiment-plan summary")
    page.fill("#experiment-baseline", "20")
    page.fill("#experiment-lift", "10")
    n = rr.plan_experiment(rr.spinner_coin(1.0), 0.2, 0.1).n_per_condition
    page.wait_for_function(
        "(n) => document.getElementById('experiment-n').textContent.includes(n)", arg=str(n)
    )
    power = rr.plan_experiment(rr.spinner_coin(1.0), 0.2, 0.1, n=400).power
    page.wait_for_function(
        "(p) => document.getElementById('experiment-power').textContent.includes(p)",
        arg=f"{power * 100:.1f}",
    )
    assert violations(page) == []
    page.fill("#experiment-lift", "0")
    page.wait_for_function("() => document.getElementById('experiment-power').textContent === ''")
    assert errors == []
    page.context.close()
