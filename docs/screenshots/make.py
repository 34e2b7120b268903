"""Make every picture of the guide (docs/assets/shots/<language>/), in English and in Korean.

Each language gets the same screens, taken with the browser set to that language: a first survey
made in the builder as docs/start/first-survey.md tells it (its form, the question editor, the
survey's page, the dashboard before and after it opens), a respondent answering it on a phone,
its results once a simulated class has answered, and the demo survey's other screens (groups,
the projector, a crosswise and a number question on a phone, the lab). Nothing is drawn by hand:
rerun this after a change and every picture follows.

Run from the repository: make docs-shots (it installs Debian's chromium and fonts-noto-cjk, without
which Korean would be drawn as empty boxes: this script refuses to run without a Korean font).
"""

from __future__ import annotations

import logging
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from app import create_app  # noqa: E402
from web.core.startup import prepare_database  # noqa: E402

SHOTS = ROOT / "docs" / "assets" / "shots"
EMAIL = "teacher@example.edu"
PASSWORD = "violet kestrel 42"
# A draw that lands on dark, so that the coin or the die shows (as the browser tests force it).
DARK_DRAW = "crypto.getRandomValues = (b) => { b.fill(0xC0000000); return b; };"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


@dataclass(frozen=True)
class Words:
    """What the walkthrough types, in one language."""

    locale: str
    title: str
    slug: str
    question: str
    year: str
    years: str


WORDS = {
    "en": Words(
        "en-US",
        "Exam honesty",
        "exam-honesty",
        "Have you ever copied someone else's answers in an exam?",
        "Which year are you in?",
        "First year\nSecond year\nThird year\nFourth year",
    ),
    "ko": Words(
        "ko-KR",
        "시험 정직성",
        "exam-honesty-ko",
        "시험에서 다른 사람의 답을 베낀 적이 있습니까?",
        "몇 학년입니까?",
        "1학년\n2학년\n3학년\n4학년",
    ),
}


def spin(page: Page, key: str) -> None:
    """Press a question's Spin and wait until its report is drawn and kept."""
    page.click(f"section[data-question='{key}'] .spin-button")
    page.wait_for_selector(f"[data-item='{key}'][data-state='done']")


def has_korean_font() -> bool:
    """Whether fontconfig knows a font that covers Korean (fonts-noto-cjk gives one)."""
    if not shutil.which("fc-list"):
        return False
    listed = subprocess.run(["fc-list", ":lang=ko"], capture_output=True, text=True, check=False)
    return bool(listed.stdout.strip())


def main() -> None:
    if not has_korean_font():
        sys.exit("No Korean font: run `make fonts` (apt-get install fonts-noto-cjk) first.")
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "screenshots",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/shots.sqlite3",
                "RATELIMIT_ENABLED": False,
                "PUBLIC_URL": "https://surveys.example.edu",
            }
        )
        prepare_database(app)
        runner = app.test_cli_runner()
        runner.invoke(args=["create-user", EMAIL, "--password", PASSWORD])
        by_year = "year=first:0.1,second:0.2,third:0.3,fourth:0.45"
        args = ["simulate-responses", "campus-life", "--n", "400", "--true-proportion-by", by_year]
        runner.invoke(args=[*args, "--seed", "7"])
        # The development server's request lines would bury what went wrong.
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox"]
            )
            for language, words in WORDS.items():
                folder_out = SHOTS / language
                folder_out.mkdir(parents=True, exist_ok=True)
                Shots(browser, base, words, folder_out, runner).take()
            browser.close()
        server.shutdown()


class Shots:
    """The guide's screens in one language."""

    def __init__(self, browser, base: str, words: Words, folder: pathlib.Path, runner) -> None:
        self.browser, self.base, self.words, self.folder = browser, base, words, folder
        self.runner = runner

    def take(self) -> None:
        self.first_survey()
        self.respondent()
        self.results()
        self.demo_screens()
        self.lab()

    def page(self, viewport=LAPTOP, logged_in=True, dark_draw=False) -> Page:
        context = self.browser.new_context(
            viewport=viewport, reduced_motion="reduce", locale=self.words.locale
        )
        page = context.new_page()
        if dark_draw:
            page.add_init_script(DARK_DRAW)
        if logged_in:
            page.goto(f"{self.base}/login")
            page.fill("#email", EMAIL)
            page.fill("#password", PASSWORD)
            page.click("main button[type=submit]")
            page.wait_for_url(f"{self.base}/surveys**")
        return page

    def shot(self, page: Page, name: str, selector: str | None = None, full: bool = False) -> None:
        path = self.folder / f"{name}.png"
        # No focus ring on the field typed last: the picture shows the page, not the cursor.
        page.evaluate("document.activeElement && document.activeElement.blur()")
        if selector:
            page.locator(selector).first.screenshot(path=path)
        else:
            page.screenshot(path=path, full_page=full)

    def first_survey(self) -> None:
        """The walkthrough of docs/start/first-survey.md, step by step."""
        words, base = self.words, self.base
        page = self.page()
        page.goto(f"{base}/surveys/new")
        page.fill("#title", words.title)
        page.fill("#slug", words.slug)
        self.shot(page, "new-survey", "main")
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{base}/surveys/{words.slug}/edit")
        self.new_question(page)
        page.fill("#text", words.question)
        page.fill("#key", "copied")
        page.select_option("#kind", "yesno")
        page.select_option("#procedure", "spinner_coin")
        page.fill("#epsilon", "1")
        page.wait_for_function(
            "() => document.getElementById('preview-margin').textContent.length > 20"
        )
        self.shot(page, "question-editor", full=True)
        self.save_question(page)
        self.new_question(page)
        page.fill("#text", words.year)
        page.fill("#key", "year")
        page.select_option("#kind", "direct")
        page.fill("#options", words.years)
        self.save_question(page)
        self.shot(page, "survey-questions", "section[aria-labelledby='questions-title']")
        page.goto(f"{base}/surveys/{words.slug}")
        self.shot(page, "dashboard-draft", "main .title-row")
        page.click("main button[value='open']")
        page.wait_for_selector("#survey-link")
        self.shot(page, "dashboard-open", "main .share")
        page.context.close()

    def new_question(self, page: Page) -> None:
        page.goto(f"{self.base}/surveys/{self.words.slug}/questions/new")

    def save_question(self, page: Page) -> None:
        """Save the question editor's form and land back on the survey's page."""
        page.click("#question-form button[type=submit]")
        page.wait_for_url(f"{self.base}/surveys/{self.words.slug}/edit")

    def respondent(self) -> None:
        """The first survey answered on a phone: the true answer chosen, then what was sent."""
        page = self.page(PHONE, logged_in=False, dark_draw=True)
        page.goto(f"{self.base}/s/{self.words.slug}")
        page.check("input[name='truth-copied'][value='1']")
        self.shot(page, "respondent-phone", "section[data-question='copied']")
        spin(page, "copied")
        self.shot(page, "respondent-sent", "section[data-question='copied']")
        page.context.close()

    def results(self) -> None:
        """The first survey's dashboard once a simulated class of 400 has answered."""
        slug = self.words.slug
        self.runner.invoke(
            args=["simulate-responses", slug, "--n", "400", "--true-proportion", "0.3"]
            + ["--seed", "3"]
        )
        page = self.page()
        page.goto(f"{self.base}/surveys/{slug}")
        self.shot(page, "dashboard-results", "#results-panel")
        self.shot(page, "downloads", "section[aria-labelledby='exports-title']")
        self.shot(page, "methods", "#methods")
        page.context.close()

    def demo_screens(self) -> None:
        """The demo survey: groups, the projector, the builder's languages, designs on a phone."""
        base = self.base
        page = self.page()
        page.goto(f"{base}/surveys/campus-life/groups?by=year&item=cheated&a=fourth&b=first")
        self.shot(page, "groups", full=True)
        page.goto(f"{base}/surveys/campus-life/edit")
        self.shot(page, "builder-languages", "#details-form")
        page.context.close()
        page = self.page({"width": 1280, "height": 720})
        page.goto(f"{base}/surveys/campus-life/present")
        self.shot(page, "projector-join")
        page.click("#reveal")
        self.shot(page, "projector-slide")
        page.context.close()
        page = self.page(PHONE, logged_in=False, dark_draw=True)
        page.goto(f"{base}/s/campus-life")
        page.check("input[name='truth-copied_work'][value='once']")
        spin(page, "copied_work")
        self.shot(page, "single-choice", "section[data-question='copied_work']")
        page.check("input[name='report-shared_homework'][value='0']")
        spin(page, "shared_homework")
        self.shot(page, "crosswise", "section[data-question='shared_homework']")
        page.fill("input[name='truth-all_nighters']", "3")
        self.shot(page, "number", "section[data-question='all_nighters']")
        page.context.close()

    def lab(self) -> None:
        """The lab's first cards: one simulated class, and many."""
        page = self.page(logged_in=False)
        page.goto(f"{self.base}/lab")
        page.wait_for_selector("#class-title")
        self.shot(page, "lab", full=False)
        page.context.close()


if __name__ == "__main__":
    main()
