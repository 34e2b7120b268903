"""What the respondent tests share: answering, spinning, reading what the page shows, and
randomness forced from an init script so that a test knows what a draw will be."""

from __future__ import annotations

import json
import re

# Truth chosen by the respondent in these tests: yes to "cheated"; alcohol ticked, tobacco not.
TRUTH = {"cheated": 1, "substances.alcohol": 1, "substances.tobacco": 0}
PROCEDURE = {
    "cheated": "spinner_coin",
    "substances.alcohol": "spinner",
    "substances.tobacco": "spinner",
}

# Every draw lands at the very end of the wheel (dark) and every coin shows tails: a true "yes"
# to "cheated" is reported as 0. FORCE_LIGHT lands every draw on light: the truth is reported.
# Both count the draws in window.draws, so a test can tell that none was made.
# Only the draws' 32-bit words are forced: byte buffers (a submission id, a PIN's salt) stay
# random, so that two respondents never share a submission id.
FORCED = """
window.draws = 0;
const realRandom = crypto.getRandomValues.bind(crypto);
crypto.getRandomValues = (buffer) => {
  if (buffer instanceof Uint8Array) return realRandom(buffer);
  window.draws += 1; buffer.fill(%s); return buffer;
};
"""
FORCE_DARK_AND_TAILS = FORCED % "0xFFFFFFFE"
FORCE_LIGHT = FORCED % "0"
# Dark and tails while the tab's window.name is empty, light once a test sets it to "light": a
# reload then draws light, so a second draw would change what is reported.
FORCE_DARK_THEN_LIGHT = FORCED % "window.name === 'light' ? 0 : 0xFFFFFFFE"


def on_a_phone(browser, script: str | None = None, **options):
    """A phone-sized context (with the context ``options`` given, a locale say) and its page (with
    ``script`` run first on every load, forcing the draws), and the bodies of every POST it
    sends, in order."""
    context = browser.new_context(
        reduced_motion="reduce", viewport={"width": 390, "height": 844}, **options
    )
    page = context.new_page()
    if script is not None:
        page.add_init_script(script)
    posted: list = []
    page.on(
        "request",
        lambda request: posted.append(request.post_data) if request.method == "POST" else None,
    )
    return context, page, posted


def sent_answers(posted) -> list[dict]:
    """The answers of every submission among ``posted`` bodies."""
    return [json.loads(body)["answers"] for body in posted if body and "answers" in body]


def open_survey(page, url):
    """Load a survey page and wait until its code has set the questions up: the code starts once
    the page has loaded, and an answer given before then may be undone by it."""
    page.goto(url)
    page.wait_for_selector(".spin-button:not([disabled])", timeout=60_000)


def answer_truthfully(page):
    page.check("input[name='truth-cheated'][value='1']")
    page.check("input[name='truth-substances-alcohol']")


def spin(page, question):
    page.click(f"section[data-question='{question}'] .spin-button")


def wait_until_fetched(page, *modules: str):
    """Wait until the page has fetched each of the app's ``modules`` (``"problems.js"``)."""
    page.wait_for_function(
        """(names) => names.every((name) => performance.getEntriesByType("resource")
            .some((entry) => entry.name.endsWith(`/js/${name}`)))""",
        arg=list(modules),
    )


def wait_until_done(page, items):
    for item in items:
        page.wait_for_selector(f"[data-item='{item}'][data-state='done']", timeout=60_000)


def hint(page, question, says=""):
    """The hint under a question once it says ``says`` (any text if empty): the page sets it when
    its draw's code has loaded, a moment after the click."""
    box = page.locator(f"section[data-question='{question}'] .hint")
    box.filter(has_text=re.compile(re.escape(says) if says else ".")).wait_for(timeout=60_000)
    return box.inner_text()


def shown(page, item):
    """What the page shows for one item: outcome, coin and reported bit."""
    box = page.locator(f"[data-item='{item}']")
    reported = box.get_attribute("data-reported")
    return {
        "outcome": box.get_attribute("data-outcome"),
        "coin": box.get_attribute("data-coin"),
        "reported": None if reported is None else int(reported),
    }


def reload_once_kept(page):
    """Reload once the page has kept where the respondent is and their plain answers (pages.js
    marks the form `data-keeping` while a commit to the memo is pending)."""
    page.wait_for_selector("form[data-keeping]", state="detached", timeout=60_000)
    page.reload()


def memo(page, slug):
    """The survey's memo in the page's local storage, parsed (None when there is none)."""
    raw = page.evaluate("(key) => localStorage.getItem(key)", f"rr-survey:{slug}")
    return None if raw is None else json.loads(raw)


def reported_bits(stored):
    """Reported bit by item in a memo."""
    return {item: entry["bit"] for item, entry in stored["reported"].items()}


def checked_inputs(page):
    return page.eval_on_selector_all(
        "input[name^='truth-']", "inputs => inputs.filter((i) => i.checked).map((i) => i.name)"
    )


def storage_holds_only_reported_bits(page, slug):
    """Local storage holds this survey's memo and nothing else; the memo holds only reported bits
    with the parameters they were drawn under; session storage is empty."""
    assert page.evaluate("Object.keys(localStorage)") == [f"rr-survey:{slug}"]
    assert page.evaluate("sessionStorage.length") == 0
    stored = memo(page, slug)
    assert set(stored) == {"revision", "reported", "submitted", "submission"}
    assert re.fullmatch("[0-9a-f]{32}", stored["submission"])
    for entry in stored["reported"].values():
        assert set(entry) == {"bit", "epsilon", "procedure"} and entry["bit"] in (0, 1)
    return stored


def expected_report(truth, procedure, outcome, coin):
    """What the procedure reports for a true answer, given where the spinner and coin landed."""
    if outcome == "light":
        return truth
    if procedure == "spinner_coin":
        return 1 if coin == "heads" else 0
    return 1 - truth
