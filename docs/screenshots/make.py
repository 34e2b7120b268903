"""Make the screenshots in this folder: the projector's slides at 1920x1080 and 1280x720 (in
English, and the first in Korean), the dashboard at 320 px wide, the analysis by group at 1280 px,
a single-choice question on a phone after its spin, the bilingual demo survey on a phone in Korean,
and the builder editing both languages side by side, from the demo survey with 400 simulated
responses (prevalence rising with the year).

Run from the repository: make screenshots (it installs Debian's chromium and fonts-noto-cjk, without
which Korean would be drawn as empty boxes: this script refuses to run without a Korean font).
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from app import create_app  # noqa: E402
from web.core.startup import prepare_database  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
PASSWORD = "violet kestrel 42"


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
        runner.invoke(args=["create-user", "teacher@example.edu", "--password", PASSWORD])
        by_year = "year=first:0.1,second:0.2,third:0.3,fourth:0.45"
        args = ["simulate-responses", "campus-life", "--n", "400", "--true-proportion-by", by_year]
        runner.invoke(args=[*args, "--seed", "7"])
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox"]
            )
            for width, height in ((1920, 1080), (1280, 720)):
                page = logged_in(browser, base, {"width": width, "height": height})
                page.goto(f"{base}/surveys/campus-life/present")
                page.click("#reveal")
                for slide in (1, 3):
                    while page.inner_text("#slide-position").split(" /")[0] != str(slide):
                        page.keyboard.press("PageDown")
                    page.screenshot(path=HERE / f"projector-{width}x{height}-slide{slide}.png")
                page.context.close()
            page = logged_in(browser, base, {"width": 1920, "height": 1080}, locale="ko-KR")
            page.goto(f"{base}/surveys/campus-life/present")
            page.click("#reveal")
            page.screenshot(path=HERE / "projector-1920x1080-slide1-ko.png")
            page.context.close()
            page = logged_in(browser, base, {"width": 1280, "height": 900})
            page.goto(f"{base}/surveys/campus-life/edit")
            page.locator("#details-form").screenshot(path=HERE / "builder-languages-1280.png")
            page.context.close()
            phone = browser.new_context(
                viewport={"width": 390, "height": 844}, reduced_motion="reduce", locale="ko-KR"
            )
            page = phone.new_page()
            page.goto(f"{base}/s/campus-life")
            page.screenshot(path=HERE / "survey-ko-390.png")
            phone.close()
            page = logged_in(browser, base, {"width": 320, "height": 900})
            page.goto(f"{base}/surveys/campus-life")
            page.screenshot(path=HERE / "dashboard-320.png", full_page=True)
            page.context.close()
            page = logged_in(browser, base, {"width": 1280, "height": 900})
            page.goto(f"{base}/surveys/campus-life/groups?by=year&item=cheated&a=fourth&b=first")
            page.screenshot(path=HERE / "analysis-by-group-1280.png", full_page=True)
            page.context.close()
            page = browser.new_context(
                viewport={"width": 390, "height": 844}, reduced_motion="reduce"
            ).new_page()
            # A draw that lands on dark, so that the die shows (as the tests force it).
            page.add_init_script(
                "crypto.getRandomValues = (b) => { b.fill(0xC0000000); return b; };"
            )
            page.goto(f"{base}/s/campus-life")
            page.check("input[name='truth-copied_work'][value='once']")
            page.click("section[data-question='copied_work'] .spin-button")
            page.wait_for_selector("[data-item='copied_work'][data-state='done']")
            page.locator("section[data-question='copied_work']").screenshot(
                path=HERE / "single-choice-390.png"
            )
            # The crosswise question: no randomizer, the report only.
            page.check("input[name='report-shared_homework'][value='0']")
            page.click("section[data-question='shared_homework'] .spin-button")
            page.wait_for_selector("[data-item='shared_homework'][data-state='done']")
            page.locator("section[data-question='shared_homework']").screenshot(
                path=HERE / "crosswise-390.png"
            )
            # A number question: the value typed (the slider follows), before the spin.
            page.fill("input[name='truth-all_nighters']", "3")
            page.locator("section[data-question='all_nighters']").screenshot(
                path=HERE / "number-390.png"
            )
            page.context.close()
            page = logged_in(browser, base, {"width": 1280, "height": 720})
            page.goto(f"{base}/surveys/campus-life/present")
            page.click("#reveal")
            while page.inner_text("#slide-position").split(" /")[0] != "6":
                page.keyboard.press("PageDown")
            page.screenshot(path=HERE / "projector-1280x720-number.png")
            page.context.close()
            browser.close()
        server.shutdown()


def logged_in(browser, base, viewport, locale="en-US"):
    context = browser.new_context(viewport=viewport, reduced_motion="reduce", locale=locale)
    page = context.new_page()
    page.goto(f"{base}/login")
    page.fill("#email", "teacher@example.edu")
    page.fill("#password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/surveys")
    return page


if __name__ == "__main__":
    main()
