"""The survey page's weight budget, measured in chromium: a plain survey's first load stays within
40 KB transferred and 10 requests, the code it loads and does not run stays small, and a reload
asks for the page alone. The next feature cannot add weight to every respondent's download
silently: it fails here first."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

BUDGET_BYTES = 40_000
BUDGET_REQUESTS = 10
# Code fetched at load whose functions have not run once the page is ready, in bytes as
# transferred (each script's unused share of its compressed size, as Lighthouse counts it). It is
# 9.5 KB now: the spin's and the submission's code is fetched with the page, so that a respondent
# who loses the network after the page has loaded can still answer. Issue 43 asks for 4 KB; this
# holds what there is until the spin's code moves to a module of its own.
BUDGET_UNUSED_CODE = 10_000

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
    # Only the modules this survey uses: no series, field device, die, outbox or experiment.
    loaded = {entry["name"].rsplit("/", 1)[1] for entry in scripts}
    unused_features = {
        "permanent.js",
        "ledger.js",
        "field.js",
        "die.js",
        "condition.js",
        "local-time.js",
    }
    assert not loaded & (unused_features | {"courier.js", "outbox.js"}), loaded
    # Every text comes compressed (a transfer far below the file's size).
    assert all(
        entry["transferred"] < entry["size"] * 0.6 for entry in entries if entry["size"] > 2_000
    ), entries
    unused = sum(
        unused_bytes(coverage, entry["name"]) / entry["size"] * entry["transferred"]
        for entry in scripts
    )
    assert unused <= BUDGET_UNUSED_CODE, round(unused)
    page.reload(wait_until="load")
    page.wait_for_selector("[data-item='cheated'] .spinner svg", timeout=60_000)
    fetched = [entry["name"] for entry in page.evaluate(TRANSFERRED) if entry["transferred"] > 0]
    assert fetched == [f"{live_server}/s/{slug}"], fetched
    context.close()


def test_the_first_spin_fetches_the_courier_before_it_is_needed(
    browser, live_server, import_survey
):
    slug = import_survey(PLAIN)
    context, page, _entries, _coverage = first_load(browser, f"{live_server}/s/{slug}")
    page.check("input[name='truth-cheated'][value='1']")
    with page.expect_response(lambda response: response.url.endswith("/js/courier.js")):
        page.click("section[data-question='cheated'] .spin-button")
    page.wait_for_selector("[data-item='cheated'][data-state='done']", timeout=60_000)
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
