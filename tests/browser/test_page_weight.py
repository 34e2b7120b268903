"""The survey page's weight budget, measured in chromium: a plain survey's first load stays within
40 KB transferred and 10 requests, the code it loads and does not run stays small, and a reload
asks for the page alone. The next feature cannot add weight to every respondent's download
silently: it fails here first."""

from __future__ import annotations

import pytest

from tests.browser.respondent import open_survey

pytestmark = pytest.mark.browser

BUDGET_BYTES = 40_000
BUDGET_REQUESTS = 10
# Code fetched at load whose functions have not run once the page is ready, in bytes as
# transferred (each script's unused share of its compressed size, as Lighthouse counts it). The
# draw comes with the first answer and the submission with the first spin, so what loads with the
# page is what sets it up.
BUDGET_UNUSED_CODE = 4_000

# Three yes/no questions and one multi-select, spinner and coin: no series, field device, die,
# experiment or schedule (the survey Lighthouse is run on, bench/lighthouse.py).
PLAIN = {
    "slug": "plain-weight",
    "title": "Campus life",
    "description": "Four questions about your term.",
    "questions": [
        *(
            {
                "id": item,
                "type": "yesno",
                "text": f"{item}?",
                "epsilon": 1.0,
                "procedure": "spinner_coin",
            }
            for item in ("cheated", "skipped", "copied")
        ),
        {
            "id": "substances",
            "type": "multi",
            "text": "Which have you used?",
            "epsilon": 1.0,
            "procedure": "spinner_coin",
            "options": [
                {"id": "alcohol", "text": "Alcohol"},
                {"id": "tobacco", "text": "Tobacco"},
                {"id": "pills", "text": "Sleeping pills"},
            ],
        },
    ],
}

TRANSFERRED = """() => [
  ...performance.getEntriesByType("navigation"),
  ...performance.getEntriesByType("resource"),
].map((entry) => ({name: entry.name, transferred: entry.transferSize, size: entry.decodedBodySize}))"""


def unused_bytes(coverage: dict, url: str) -> int:
    """Characters of ``url``'s source in no function that ran (V8's function coverage): each
    function's range carries its count, and a nested function's overrides its outer one's."""
    for script in coverage["result"]:
        if script["url"] != url:
            continue
        ranges = [r for function in script["functions"] for r in function["ranges"]]
        length = max(r["endOffset"] for r in ranges)
        counts = [1] * length
        # Outer ranges first, so that a nested block's count overrides its function's.
        for r in sorted(ranges, key=lambda r: (r["startOffset"], -r["endOffset"])):
            counts[r["startOffset"] : r["endOffset"]] = [r["count"]] * (
                r["endOffset"] - r["startOffset"]
            )
        return sum(1 for count in counts if count == 0)
    return 0


def first_load(browser, url: str):
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Profiler.enable")
    session.send("Profiler.startPreciseCoverage", {"callCount": False, "detailed": False})
    page.goto(url, wait_until="load")
    page.wait_for_selector("[data-item='cheated'] .spinner svg", timeout=60_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    return context, page, page.evaluate(TRANSFERRED), session.send("Profiler.takePreciseCoverage")


def test_a_plain_survey_loads_within_its_budget(browser, live_server, import_survey):
    slug = import_survey(PLAIN)
    context, page, entries, coverage = first_load(browser, f"{live_server}/s/{slug}")
    transferred = sum(entry["transferred"] for entry in entries)
    assert transferred <= BUDGET_BYTES, entries
    assert len(entries) <= BUDGET_REQUESTS, [entry["name"] for entry in entries]
    scripts = [entry for entry in entries if entry["name"].endswith(".js")]
    # Only the modules this survey uses: no series, field device, die, outbox or experiment; and
    # nothing of the draw or the submission before the respondent answers.
    loaded = {entry["name"].rsplit("/", 1)[1] for entry in scripts}
    unused_features = {"permanent.js", "ledger.js", "field.js", "fieldwork.js", "die.js"}
    unused_features |= {"condition.js", "local-time.js"}
    not_yet = {"draw.js", "answers.js", "procedure.js", "random.js", "motion.js", "coin.js"}
    not_yet |= {"send.js", "courier.js", "outbox.js"}
    assert not loaded & (unused_features | not_yet), loaded
    # Every text comes compressed (a transfer far below the file's size).
    assert all(
        entry["transferred"] < entry["size"] * 0.6 for entry in entries if entry["size"] > 2_000
    ), entries
    unused = {
        entry["name"].rsplit("/", 1)[1]: round(
            unused_bytes(coverage, entry["name"]) / entry["size"] * entry["transferred"]
        )
        for entry in scripts
    }
    assert sum(unused.values()) <= BUDGET_UNUSED_CODE, unused
    page.reload(wait_until="load")
    page.wait_for_selector("[data-item='cheated'] .spinner svg", timeout=60_000)
    fetched = [entry["name"] for entry in page.evaluate(TRANSFERRED) if entry["transferred"] > 0]
    assert fetched == [f"{live_server}/s/{slug}"], fetched
    context.close()


def test_the_first_answer_fetches_the_draw_and_the_first_spin_the_courier(
    browser, live_server, import_survey
):
    slug = import_survey(PLAIN)
    context, page, _entries, _coverage = first_load(browser, f"{live_server}/s/{slug}")
    with page.expect_response(lambda response: response.url.endswith("/js/draw.js")):
        page.check("input[name='truth-cheated'][value='1']")
    with page.expect_response(lambda response: response.url.endswith("/js/courier.js")):
        page.click("section[data-question='cheated'] .spin-button")
    page.wait_for_selector("[data-item='cheated'][data-state='done']", timeout=60_000)
    context.close()


def test_a_respondent_who_loses_the_network_once_the_page_is_there_still_answers(
    browser, live_server, import_survey
):
    # The draw and the submission load after the page: the survey's worker has them by then.
    slug = import_survey(PLAIN)
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/s/{slug}")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    context.set_offline(True)
    for item in ("cheated", "skipped", "copied"):
        page.check(f"input[name='truth-{item}'][value='0']")
        page.click(f"section[data-question='{item}'] .spin-button")
        page.wait_for_selector(f"[data-item='{item}'][data-state='done']", timeout=60_000)
    page.check("input[name='truth-substances-pills']")
    page.click("section[data-question='substances'] .spin-button")
    page.wait_for_selector("#submit-button:not([disabled]):not([data-waiting])", timeout=60_000)
    page.click("#submit-button")
    page.wait_for_selector("#saved:not([hidden])", timeout=60_000)
    assert page.is_visible("#saved-waiting")
    context.close()


def test_the_service_worker_keeps_the_page_it_was_installed_from(
    browser, live_server, import_survey
):
    slug = import_survey(PLAIN)
    context = browser.new_context(reduced_motion="reduce")
    requested: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    page = context.new_page()
    page.goto(f"{live_server}/s/{slug}")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    # The worker fetched its list and the thank-you page; the page itself was asked for once, by
    # the browser (the modules the worker keeps come from the browser's cache where it has them).
    assert requested.count(f"{live_server}/s/{slug}") == 1, requested
    assert f"{live_server}/s/{slug}/thanks" in requested
    kept = page.evaluate(
        """async (path) => {
            const cache = await caches.open(`rr-offline:${path}`);
            return (await (await cache.match(path)).text());
        }""",
        f"/s/{slug}",
    )
    assert kept.startswith("<!doctype html>") and 'id="survey-config"' in kept
    assert 'data-state="done"' not in kept and "<svg" not in kept.split('id="survey-form"')[1]
    context.close()


def test_a_spin_whose_code_cannot_load_says_so_and_draws_nothing(
    browser, live_server, import_survey
):
    slug = import_survey(PLAIN)
    context = browser.new_context(reduced_motion="reduce", service_workers="block")
    page = context.new_page()
    page.route("**/js/draw.js", lambda route: route.abort())
    open_survey(page, f"{live_server}/s/{slug}")
    page.check("input[name='truth-cheated'][value='1']")
    page.click("section[data-question='cheated'] .spin-button")
    hint = page.locator("section[data-question='cheated'] .hint")
    hint.filter(has_text="could not load").wait_for(timeout=60_000)
    assert page.get_attribute("[data-item='cheated']", "data-state") is None
    assert page.is_checked("input[name='truth-cheated'][value='1']")
    assert page.evaluate("() => Object.keys(localStorage)") == []
    context.close()


def test_a_survey_of_pages_loads_within_the_same_budget(browser, live_server, import_survey):
    """Its pages, logic and orders come with the first load (the orders are drawn before anything
    is shown); the draw and the submission still wait for the first answer and spin."""
    from tests.web.core.surveys.flow.test_walk import STUDY

    slug = import_survey(STUDY)
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/s/{slug}", wait_until="load")
    page.wait_for_selector("#page-nav:not([hidden])", timeout=60_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    entries = page.evaluate(TRANSFERRED)
    assert sum(entry["transferred"] for entry in entries) <= BUDGET_BYTES, entries
    names = " ".join(entry["name"].rsplit("/", 1)[1] for entry in entries)
    assert len(entries) <= BUDGET_REQUESTS, names
    loaded = {entry["name"].rsplit("/", 1)[1] for entry in entries if entry["name"].endswith(".js")}
    assert {"pages.js", "flow.js"} <= loaded
    # The summary's words come with the last page, the draw with the first answer.
    not_yet = {"answers.js", "procedure.js", "draw.js", "send.js", "courier.js"}
    assert not loaded & (not_yet | {"condition.js", "die.js"}), loaded
    context.close()
