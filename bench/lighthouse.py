"""Google Lighthouse (12.2.3, its default mobile setting) on the pages respondents and teachers load.

Serves the app as in production (gunicorn.conf.py) on a fresh SQLite database holding a plain
survey (three yes/no questions and one multi-select, spinner and coin: no series, no field device,
no die), signs a researcher in for the dashboard and the projector, and runs Lighthouse with
Debian's chromium on:

- the plain survey page, in English and in Korean; its thank-you page;
- the dashboard of the demo survey, its projector, and the lab.

For each page it prints the four category scores, First Contentful Paint, Total Blocking Time,
Cumulative Layout Shift, the bytes transferred and the requests of the first load, and the bytes of
code unused at load. Each page is requested once before its audit, as every visitor but the first
after a restart finds it: the lab computes its default simulations on its first request (about
2 s here) and keeps them; that first request's time is printed as "1st ms". Lighthouse is
installed with npm into ``bench/.lighthouse`` the first time (``--lighthouse`` takes another path
to its ``cli/index.js``). Prints figures; asserts nothing.

    python bench/lighthouse.py [--pages survey,survey-ko,thanks,dashboard,projector,lab] [--runs 1]
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bench.load import PYTHON, ROOT, free_port  # noqa: E402
from bench.plain_survey import PLAIN_SURVEY  # noqa: E402

LIGHTHOUSE_VERSION = "12.2.3"
LIGHTHOUSE_HOME = ROOT / "bench" / ".lighthouse"
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "violet kestrel 42"

PAGES = {
    "survey": "/s/plain",
    "survey-ko": "/s/plain?lang=ko",
    "thanks": "/s/plain/thanks",
    "dashboard": "/surveys/campus-life",
    "projector": "/surveys/campus-life/present",
    "lab": "/lab",
}
SIGNED_IN = {"dashboard", "projector"}


def lighthouse_cli(given: str | None) -> pathlib.Path:
    """The path of Lighthouse's command line, installing the pinned version if it is missing."""
    if given:
        return pathlib.Path(given)
    cli = LIGHTHOUSE_HOME / "node_modules" / "lighthouse" / "cli" / "index.js"
    if not cli.exists():
        LIGHTHOUSE_HOME.mkdir(parents=True, exist_ok=True)
        (LIGHTHOUSE_HOME / "package.json").write_text('{"private": true}\n')
        subprocess.run(
            [
                "npm",
                "install",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                f"lighthouse@{LIGHTHOUSE_VERSION}",
            ],
            cwd=LIGHTHOUSE_HOME,
            check=True,
        )
    return cli


def prepared_database(folder: pathlib.Path) -> dict:
    """A fresh database with the demo survey, the plain survey and a researcher; its environment."""
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'app.sqlite3'}",
        "FLASK_SECRET_KEY": "bench",
        "FLASK_RATELIMIT_ENABLED": "false",
        "FLASK_SESSION_COOKIE_SECURE": "false",
    }
    survey_file = folder / "plain.json"
    survey_file.write_text(json.dumps(PLAIN_SURVEY), encoding="utf-8")
    for arguments in (
        ["db", "upgrade"],
        ["import-survey", str(survey_file)],
        ["create-user", "bench@example.org", "--password", PASSWORD],
        ["simulate-responses", "campus-life", "--n", "200", "--seed", "1"],
    ):
        subprocess.run(
            [PYTHON, "-m", "flask", "--app", "app", *arguments],
            cwd=ROOT,
            env=environment,
            check=True,
            capture_output=True,
        )
    return environment


def session_cookie(origin: str) -> str:
    """Sign the researcher in through the login form; the Cookie header that carries the session."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    form = opener.open(f"{origin}/login").read().decode()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form)
    token = token or re.search(r'name="csrf_token"[^>]*value="([^"]+)"', form)
    body = urllib.parse.urlencode(
        {"csrf_token": token.group(1), "email": "bench@example.org", "password": PASSWORD}
    ).encode()
    opener.open(f"{origin}/login", data=body)
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)


def audit(cli: pathlib.Path, url: str, headers: dict, folder: pathlib.Path) -> dict:
    """Run Lighthouse once on ``url``; the figures this script prints."""
    report = folder / "report.json"
    command = [
        "node",
        str(cli),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={report}",
        f"--chrome-path={CHROMIUM}",
        "--chrome-flags=--headless=new --no-sandbox",
    ]
    if headers:
        command.append(f"--extra-headers={json.dumps(headers)}")
    if os.environ.get("LIGHTHOUSE_BLOCK"):
        command.append(f"--blocked-url-patterns={os.environ['LIGHTHOUSE_BLOCK']}")
    subprocess.run(command, check=True, capture_output=True)
    result = json.loads(report.read_text())
    if os.environ.get("LIGHTHOUSE_KEEP"):
        pathlib.Path(os.environ["LIGHTHOUSE_KEEP"]).write_text(report.read_text())
    audits = result["audits"]
    requests = audits["network-requests"]["details"]["items"]
    unused = audits["unused-javascript"].get("details", {}).get("items", [])
    if os.environ.get("LIGHTHOUSE_REQUESTS"):
        for item in requests:
            print(f"    {item['transferSize']:>7} {item['resourceSize']:>7} {item['url']}")
    return {
        "scores": {
            name: round(category["score"] * 100) for name, category in result["categories"].items()
        },
        "fcp_ms": audits["first-contentful-paint"]["numericValue"],
        "observed_fcp_ms": audits["metrics"]["details"]["items"][0]["observedFirstContentfulPaint"],
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "bytes": audits["total-byte-weight"]["numericValue"],
        "requests": len(requests),
        "unused_js": sum(item.get("wastedBytes", 0) for item in unused),
        "unused_css": sum(
            item.get("wastedBytes", 0)
            for item in audits["unused-css-rules"].get("details", {}).get("items", [])
        ),
        "failed": sorted(
            key
            for category in result["categories"].values()
            for reference in category["auditRefs"]
            if reference["weight"] > 0
            and (key := reference["id"]) in audits
            and audits[key]["score"] is not None
            and audits[key]["score"] < 1
            and audits[key]["scoreDisplayMode"] in {"binary", "numeric"}
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default=",".join(PAGES))
    parser.add_argument("--runs", type=int, default=1, help="runs per page; medians are printed")
    parser.add_argument("--lighthouse", help="path to lighthouse/cli/index.js")
    arguments = parser.parse_args()
    cli = lighthouse_cli(arguments.lighthouse)
    with tempfile.TemporaryDirectory() as scratch:
        folder = pathlib.Path(scratch)
        environment = prepared_database(folder)
        port = free_port()
        server = subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"],
            cwd=ROOT,
            env={**environment, "BIND": f"127.0.0.1:{port}"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        origin = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(origin)
            cookie = session_cookie(origin)
            print(f"Lighthouse {LIGHTHOUSE_VERSION}, mobile default (slow 4G, 4x CPU slowdown)")
            print(
                f"{'page':<10} {'perf':>4} {'a11y':>4} {'best':>4} {'seo':>4} {'FCP ms':>7} {'seen':>5} "
                f"{'TBT ms':>6} {'CLS':>6} {'bytes':>7} {'reqs':>4} {'unused JS':>9} {'unused CSS':>10} "
                f"{'1st ms':>6}  below 1"
            )
            for name in arguments.pages.split(","):
                headers = {"Cookie": cookie} if name in SIGNED_IN else {}
                first_ms = first_response_ms(origin + PAGES[name], headers)
                runs = [
                    audit(cli, origin + PAGES[name], headers, folder) for _ in range(arguments.runs)
                ]
                print_row(name, runs, first_ms)
        finally:
            server.terminate()
            server.wait(timeout=30)


def wait_until_up(origin: str) -> None:
    for _ in range(400):
        try:
            urllib.request.urlopen(origin + "/", timeout=1)
            return
        except OSError:
            subprocess.run(["sleep", "0.05"], check=True)
    raise SystemExit("the server did not start")


def first_response_ms(url: str, headers: dict) -> float:
    """Milliseconds to the whole of one response: the page's first, which fills its caches."""
    started = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=60) as page:
        page.read()
    return (time.perf_counter() - started) * 1000


def print_row(name: str, runs: list[dict], first_ms: float) -> None:
    def median(key: str) -> float:
        return statistics.median(run[key] for run in runs)

    scores = {key: min(run["scores"][key] for run in runs) for key in runs[0]["scores"]}
    print(
        f"{name:<10} {scores['performance']:>4} {scores['accessibility']:>4} "
        f"{scores['best-practices']:>4} {scores['seo']:>4} {median('fcp_ms'):>7.0f} "
        f"{median('observed_fcp_ms'):>5.0f} "
        f"{median('tbt_ms'):>6.0f} {median('cls'):>6.3f} {median('bytes'):>7.0f} "
        f"{median('requests'):>4.0f} {median('unused_js'):>9.0f} {median('unused_css'):>10.0f} "
        f"{first_ms:>6.0f}  "
        f"{' '.join(sorted(set().union(*(run['failed'] for run in runs)))) or '-'}"
    )


if __name__ == "__main__":
    main()
