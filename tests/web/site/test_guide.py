"""The guide: MkDocs builds it with --strict in both languages, the app serves it at /guide/ in
the reader's language under its Content-Security-Policy, and every card of the builder and the
dashboard links to a page of it that exists."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from tests.conftest import no_database
from tests.guide import DOCS
from tests.helpers import files_named_but_missing
from tests.servers import ROOT
from web.core.surveys.demo import seed_demo_if_empty

TEMPLATES = ROOT / "templates" / "surveys"

# The builder's and the dashboard's pages, on the demo survey once a class has answered.
PAGES = [
    "/surveys/campus-life",
    "/surveys/campus-life/edit",
    "/surveys/campus-life/questions/new",
    "/surveys/campus-life/questions/cheated",
    "/surveys/campus-life/experiment",
    "/surveys/campus-life/groups?by=year&item=cheated&a=fourth&b=first",
    "/surveys/campus-life/synthetic",
    "/surveys/campus-life/joint",
]


@pytest.fixture
def guide_app(app, built_guide):
    app.config["GUIDE_FOLDER"] = str(built_guide)
    return app


class Cards(HTMLParser):
    """Each card of a page (an element whose class names ``card``) and the "?" link it holds
    as its first child, if any."""

    def __init__(self):
        super().__init__()
        self.cards: list[str | None] = []
        self._awaiting = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if self._awaiting and tag != "input":
            link = tag == "a" and "guide-help" in (attributes.get("class") or "").split()
            self.cards.append(attributes["href"] if link else None)
            self._awaiting = False
        if "card" in (attributes.get("class") or "").split():
            self._awaiting = True


def read(response):
    """``response`` with its body read and its file closed (a guide page is sent from its file)."""
    response.get_data()
    response.close()
    return response


def card_links(html: str) -> list[str | None]:
    parser = Cards()
    parser.feed(html)
    return parser.cards


@pytest.fixture
def answered_demo(app, runner):
    with app.app_context():
        seed_demo_if_empty()
    result = runner.invoke(args=["simulate-responses", "campus-life", "--n", "200", "--seed", "1"])
    assert result.exit_code == 0, result.output


# What it checks is the cards' links, which the database does not change: it runs on SQLite only.
@no_database
@pytest.mark.long
def test_every_card_links_to_a_page_of_the_guide_that_exists(
    guide_app, answered_demo, make_researcher
):
    researcher = make_researcher("rita@example.org")
    for language, prefix in (("en", "/guide/"), ("ko", "/guide/ko/")):
        links = set()
        for path in PAGES:
            page = researcher.get(path, headers={"Accept-Language": language})
            assert page.status_code == 200, path
            cards = card_links(page.get_data(as_text=True))
            assert cards and None not in cards, (path, cards)
            links |= set(cards)
        assert all(link.startswith(prefix) for link in links), links
        for link in links:
            opened = read(researcher.get(link))
            assert opened.status_code == 200, link
            assert f'<html lang="{language}"' in opened.text, link


@no_database
@pytest.mark.long
def test_the_guide_answers_in_the_readers_language(guide_app, client):
    english = read(client.get("/guide/"))
    assert english.status_code == 200
    assert '<html lang="en"' in english.text
    korean = client.get("/guide/", headers={"Accept-Language": "ko-KR,ko;q=0.9"})
    assert korean.status_code == 302 and korean.headers["Location"] == "/guide/ko/"
    page = read(client.get("/guide/ko/")).text
    assert '<html lang="ko"' in page and "임의화 응답" in page
    client.get("/lang/ko")  # the language switch, as on any page
    chosen = read(client.get("/guide/"))
    assert chosen.headers.get("Location") == "/guide/ko/"


@no_database
@pytest.mark.long
def test_the_guide_keeps_the_apps_content_security_policy(guide_app, client, built_guide):
    pages = sorted(built_guide.rglob("*.html"))
    assert len(pages) > 40
    for page in pages:
        html = page.read_text(encoding="utf-8")
        scripts = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", html)
        assert not scripts, (page, scripts)
        assert not re.search(r"""\sstyle=["']""", html), page
        loads = re.findall(r"""<(?:script|img|link)\b[^>]*(?:src|href)=["'](https?:)?//""", html)
        assert not loads, page
    answer = read(client.get("/guide/ask/designs/"))
    assert "default-src 'self'" in answer.headers["Content-Security-Policy"]


def test_a_guide_not_built_is_a_404_that_says_how_to_build_it(app, client, tmp_path):
    app.config["GUIDE_FOLDER"] = str(tmp_path)
    answer = read(client.get("/guide/start/install/"))
    assert answer.status_code == 404
    assert "make docs" in answer.text


def test_the_guide_serves_nothing_outside_its_folder(guide_app_unbuilt):
    client = guide_app_unbuilt.test_client()
    assert read(client.get("/guide/../app.py")).status_code == 404
    assert read(client.get("/guide/%2e%2e/app.py")).status_code == 404


@pytest.fixture
def guide_app_unbuilt(app, tmp_path):
    """The app with a guide folder of one page, beside a file that must stay out of reach."""
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "index.html").write_text("<html lang='en'></html>")
    (tmp_path / "app.py").write_text("secret")
    app.config["GUIDE_FOLDER"] = str(tmp_path / "guide")
    return app


@no_database
def test_every_card_of_the_builder_and_the_dashboard_has_its_guide_link():
    """In the templates, so that a card a test page does not show (quotas, an experiment) is
    held to it too: each card's first child is its "?"."""
    for template in sorted(TEMPLATES.glob("*.html")):
        lines = template.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if re.search(r'<(section|form|aside|div)\b[^>]*class="card\b', line):
                following = lines[number + 1].strip()
                page = re.fullmatch(
                    r'\{\{ guide_help\("([a-z/-]+)", _\("[^"]+"\)\) \}\}', following
                )
                assert page, f"{template.name}:{number + 1}: a card without its guide link"
                for name in (f"{page.group(1)}.md", f"{page.group(1)}.ko.md"):
                    assert (DOCS / name).is_file(), f"{template.name}: {name} is not in docs/"


def guide_sections() -> dict[str, list[str]]:
    """The pages of each section of the guide's navigation, as ``mkdocs.yml`` lists them (its
    first, untitled page under "")."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    sections: dict[str, list[str]] = {"": []}
    section = ""
    for line in config[config.index("\nnav:\n") :].splitlines()[2:]:
        if not line.startswith("  "):
            break
        if titled := re.fullmatch(r"  - ([A-Z][a-z]+):", line):
            section = titled.group(1)
            sections[section] = []
        elif page := re.fullmatch(r" +- ([a-z/.-]+\.md)", line):
            sections[section].append(page.group(1))
    return sections


@no_database
def test_every_page_for_researchers_and_teachers_is_in_korean_too():
    """Every page the guide's navigation lists outside Develop, wherever its file lies (the
    privacy and security pages of Run sit at the top of docs/). The API's list of routes, a
    reference in the OpenAPI document's words, and the Develop pages, for developers, fall back
    to English in the Korean guide."""
    english_only = {"run/api-routes.md"}
    sections = guide_sections()
    assert set(sections) == {"", "Start", "Ask", "Field", "Analyse", "Teach", "Run", "Develop"}
    for name, pages in sections.items():
        for page in pages:
            assert (DOCS / page).is_file(), page
            if name != "Develop" and page not in english_only:
                assert (DOCS / page.replace(".md", ".ko.md")).is_file(), page


def outline(page: str) -> tuple[int, int, list[str]]:
    """What a translation of a guide page keeps: its number of headings, its number of table
    rows, and every code span (a file, a setting, a test, a route) as often as it appears (in
    the order of the alphabet: a sentence of another language names them in its own order)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    lines = text.splitlines()
    headings = sum(line.startswith("#") for line in lines)
    rows = sum(line.startswith("|") for line in lines)
    return headings, rows, sorted(re.findall(r"`([^`\n]+)`", text))


@pytest.mark.parametrize("page", ["privacy", "security"])
@no_database
def test_the_korean_privacy_and_security_pages_say_all_the_english_ones_say(page):
    """An ethics board or a security review may read either: a row, a section or a named
    control added to one page and not the other fails here."""
    assert outline(f"{page}.ko.md") == outline(f"{page}.md")


# A security event as the app logs it: security_event("login.failed", ...).
SECURITY_EVENT = re.compile(r'security_event\(\s*"([a-z_.]+)"')


@no_database
def test_every_security_event_the_app_logs_is_named_on_the_security_page():
    """A reviewer reads the list of what is logged (ASVS 16.3) there, in either language."""
    logged = {
        name
        for module in (ROOT / "web").rglob("*.py")
        for name in SECURITY_EVENT.findall(module.read_text(encoding="utf-8"))
    }
    assert len(logged) > 10
    for page in ("security.md", "security.ko.md"):
        text = (DOCS / page).read_text(encoding="utf-8")
        assert sorted(name for name in logged if f"`{name}" not in text) == [], page


@no_database
def test_every_picture_of_the_guide_is_one_that_make_docs_shots_takes():
    """No picture is drawn or kept by hand: each one a page shows is in docs/assets/shots/ under
    its language, named as docs/screenshots/make.py names a screen it takes."""
    taken = set(
        re.findall(r'self\.shot\(page, "([a-z-]+)"', (DOCS / "screenshots/make.py").read_text())
    )
    assert len(taken) > 15
    for page in DOCS.rglob("*.md"):
        language = "ko" if page.name.endswith(".ko.md") else "en"
        for picture in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text(encoding="utf-8")):
            found = re.fullmatch(r"(?:\.\./)*assets/shots/(en|ko)/([a-z-]+)\.png", picture)
            assert found, (page, picture)
            assert found.group(1) == language, (page, picture)
            assert found.group(2) in taken, (page, picture)
    on_disk = {path.stem for path in (DOCS / "assets/shots").rglob("*.png")}
    assert on_disk == taken


# A file of the repository named in backticks: `web/core/infrastructure/sqlite_guard.py`.
NAMED_FILE = re.compile(
    r"`((?:web|rr|tests|bench|static|templates|docs|migrations|\.ci)/[\w./-]+)`"
)


@no_database
def test_every_file_the_guide_and_the_readme_name_is_there():
    """A module moved or a picture renamed leaves no page pointing at nothing."""
    named, missing = files_named_but_missing(
        [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))], NAMED_FILE
    )
    assert named > 50
    assert missing == []


@no_database
def test_the_readme_is_a_front_door_whose_links_lead_somewhere():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    assert readme.splitlines()[3].startswith("make run") and "make test" in readme.splitlines()[4]
    for target in re.findall(r"\]\(((?:docs/|CHANGES)[^)#]*)", readme):
        assert (ROOT / target).exists(), target
