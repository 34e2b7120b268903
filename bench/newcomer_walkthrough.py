"""A newcomer follows the guide on a fresh clone: prints how long each step took.

Clones this repository into a temporary folder, runs `make run` there (a virtual environment of
its own, the guide's build, migrations), then drives chromium through docs/start/install.md and
docs/start/first-survey.md, finding every control by the words the guide uses and running the
guide's commands as printed (the server stopped for `simulate-responses`, as the page says, and
started again). A control the guide names wrongly fails the walk. docs/testing.md (session 35)
has the figures.

    python bench/newcomer_walkthrough.py [--port 5077]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from playwright.sync_api import expect, sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[1]
EMAIL, PASSWORD = "newcomer@example.edu", "a long passphrase 42"


def serve(folder: pathlib.Path, port: int) -> subprocess.Popen:
    """`make run` in ``folder``, once it answers; the process group is the caller's to stop."""
    server = subprocess.Popen(
        ["make", "run", f"PORT={port}"], cwd=folder, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            return server
        except OSError:
            time.sleep(0.5)
    raise SystemExit("make run did not answer within 10 minutes")


def cloned_and_served(clone: pathlib.Path, port: int) -> subprocess.Popen:
    """A fresh clone of this repository, served by its own `make run`."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    return serve(clone, port)


def simulated_and_served(clone: pathlib.Path, port: int) -> subprocess.Popen:
    """first-survey.md's command, run as printed while the server is stopped; then served again."""
    simulate = [".venv/bin/flask", "--app", "app", "simulate-responses", "exam-honesty"]
    simulate += ["--n", "400", "--true-proportion", "0.3", "--seed", "3"]
    subprocess.run(simulate, cwd=clone, check=True, capture_output=True)
    return serve(clone, port)


def stop(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGINT)  # Ctrl+C, as the guide says
    server.wait(timeout=60)


def first_steps(browser, base: str) -> None:
    """install.md's account and demo, then first-survey.md's steps 1 to 5."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{base}/setup")
    page.get_by_label("Email").fill(EMAIL)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url("**/surveys**")
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{base}/s/campus-life")
    phone.locator("input[name='truth-cheated'][value='0']").check()
    phone.locator("section[data-question='cheated']").get_by_role("button", name="Spin").click()
    expect(phone.locator("[data-item='cheated'][data-state='done']")).to_be_visible()
    page.get_by_role("link", name="New survey").click()
    page.get_by_label("Title").fill("Exam honesty")
    page.get_by_role("button", name="Create draft").click()
    for text, key, kind in (
        ("Have you ever copied someone else's answers in an exam?", "copied", "Yes / no"),
        ("Which year are you in?", "year", "Direct (not randomized)"),
    ):
        page.get_by_role("link", name="Add a question").click()
        page.get_by_label("Question", exact=True).fill(text)
        page.get_by_label("Short id").fill(key)
        page.get_by_label("Type").select_option(label=kind)
        if key == "year":
            page.locator("#options").fill("First year\nSecond year\nThird year\nFourth year")
        page.get_by_role("button", name="Save question").click()
    page.goto(f"{base}/surveys/exam-honesty")
    page.get_by_role("button", name="Open survey").click()
    phone.goto(f"{base}/s/exam-honesty")
    phone.locator("input[name='truth-copied'][value='1']").check()
    phone.locator("section[data-question='copied']").get_by_role("button", name="Spin").click()
    expect(phone.locator("[data-item='copied'][data-state='done']")).to_be_visible()


def last_steps(browser, base: str) -> None:
    """first-survey.md's steps 6 and 7: the estimate, the downloads, the methods, closing."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{base}/login")
    page.get_by_label("Email").fill(EMAIL)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/surveys**")
    page.goto(f"{base}/surveys/exam-honesty")
    expect(page.locator("#results-panel")).to_contain_text("400")
    for name in ("Reported responses (CSV)", "Codebook (JSON)"):
        with page.expect_download():
            page.get_by_role("link", name=name).click()
    expect(page.locator("#methods")).to_contain_text("Warner")
    page.get_by_text("Close survey…").click()
    page.get_by_role("button", name="Yes, close it").click()
    expect(page.locator("#survey-status")).to_contain_text("closed", ignore_case=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=5077)
    port = parser.parse_args().port
    base = f"http://127.0.0.1:{port}"
    times: list[tuple[str, float]] = []

    def timed(name, step, *args):
        started = time.monotonic()
        result = step(*args)
        times.append((name, time.monotonic() - started))
        return result

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        clone = pathlib.Path(folder) / "clone"
        server = timed("git clone, then make run until the app answers", cloned_and_served,
                       clone, port)  # fmt: skip
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox"]
        )
        try:
            timed("the account, the demo, steps 1-5", first_steps, browser, base)
            stop(server)
            server = timed("server stopped, simulate-responses as printed, make run again",
                           simulated_and_served, clone, port)  # fmt: skip
            timed("steps 6-7: the estimate, the downloads, closing", last_steps, browser, base)
        finally:
            browser.close()
            stop(server)
    for name, seconds in times:
        print(f"{seconds:7.1f} s  {name}")
    print(f"{sum(seconds for _, seconds in times):7.1f} s  in all")


if __name__ == "__main__":
    sys.exit(main())
