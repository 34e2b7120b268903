"""Every command the guide shows a researcher, a teacher or an administrator (the shell blocks of
its pages, English and Korean) is run or checked here, or by the test named for it: a
``flask --app app …`` line runs as written on a fresh app holding what the page has made by
then; a usage line (a placeholder in capitals, ``[options]``, ``a|b``) names a command and
options that exist; ``make`` names a target of the Makefile. A line of any other kind fails,
until a test runs it."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

import click
import pytest

from tests.conftest import ON_POSTGRES
from tests.guide import DOCS, blocks
from tests.servers import ROOT
from web.core.surveys.demo import seed_demo_if_empty

# The guide's sections for its readers; the developers' pages (architecture, testing, …) hold
# the developers' own scripts.
READERS_PAGES = sorted(
    path.relative_to(DOCS).as_posix()
    for folder in ("start", "ask", "field", "analyse", "teach", "run")
    for path in (DOCS / folder).glob("*.md")
)
# What another test runs: the line's start, and the test.
RUN_ELSEWHERE = {
    "auth=": "tests/r/test_scripted_study.py",
    "curl ": "tests/r/test_scripted_study.py",
    "gunicorn -c gunicorn.conf.py": "tests/servers.py (start_gunicorn)",
    "mkdocs build --strict": "tests/conftest.py (built_guide)",
    "pip install -r requirements.txt": "make install",
    "python3 -m venv rr-env": "tests/rr/test_packaging.py (the wheel holds rr alone)",
}
# What a command says on PostgreSQL, where the page says it is for the embedded database.
REFUSED_ON_POSTGRES = {"backup": "pg_dump"}
# The first survey of docs/start/first-survey.md, as its steps make it in the builder.
FIRST_SURVEY = {
    "title": "Exam honesty",
    "questions": [
        {"id": "copied", "type": "yesno", "text": "Copied?", "epsilon": 1,
         "procedure": "spinner_coin"},
        {"id": "year", "type": "direct", "text": "Year?",
         "options": [{"id": "first", "text": "First"}, {"id": "second", "text": "Second"}]},
    ],
}  # fmt: skip


def shell_lines(page: str) -> list[str]:
    """The command lines of a page's shell blocks, without comments, joined where continued."""
    text = (DOCS / page).read_text(encoding="utf-8")
    lines = []
    for block in blocks(text, "sh"):
        for line in block.replace("\\\n", " ").splitlines():
            command = line.split("  #")[0].strip()
            if command and not command.startswith("#"):
                lines.append(command)
    return lines


def page_lines(page: str) -> list[str]:
    """The command lines of a page in English, then those of its Korean version (if it has one)
    that the English does not have: a line both show is run once, as a reader runs it once."""
    english, korean = shell_lines(page), page.replace(".md", ".ko.md")
    if not (DOCS / korean).is_file():
        return english
    return english + [line for line in shell_lines(korean) if line not in english]


def is_usage(words: list[str]) -> bool:
    """Whether a command line is a synopsis: a placeholder in capitals, or optional parts."""
    return any(
        re.fullmatch(r"[A-Z][A-Z0-9_-]+", word) or any(mark in word for mark in "[]|<>")
        for word in words
    )


def flask_words(line: str) -> list[str] | None:
    """The words after ``flask --app app`` (from ``.venv/bin/`` too), or None."""
    words = shlex.split(line)
    for start in ("flask", ".venv/bin/flask"):
        if words[:3] == [start, "--app", "app"]:
            return words[3:]
    return None


def command_of(app, words: list[str]) -> click.Command:
    """The click command a line names (a group's subcommand too)."""
    with app.app_context():
        context = click.Context(app.cli)
        command = app.cli.get_command(context, words[0])
        assert command is not None, f"no command {words[0]!r}"
        if isinstance(command, click.Group):
            command = command.get_command(context, words[1])
            assert command is not None, f"no command {words[:2]!r}"
    return command


def options_of(command: click.Command) -> set[str]:
    return {name for parameter in command.params for name in parameter.opts}


def test_the_readers_pages_have_commands():
    assert len(READERS_PAGES) > 20
    assert sum(len(shell_lines(page)) for page in READERS_PAGES) > 10


@pytest.mark.parametrize("page", READERS_PAGES)
def test_every_command_of_the_page_runs_or_is_checked(app, runner, tmp_path, monkeypatch, page):
    # A command that writes a file (a backup) writes it here, as in a reader's own folder.
    monkeypatch.chdir(tmp_path)
    with app.app_context():
        seed_demo_if_empty()
    for slug in ("exam-honesty", "exam-honesty-ko"):
        file = tmp_path / f"{slug}.json"
        file.write_text(json.dumps({**FIRST_SURVEY, "slug": slug}), encoding="utf-8")
        imported = runner.invoke(args=["import-survey", str(file), "--status", "open"])
        assert imported.exit_code == 0, imported.output
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for line in page_lines(page):
        if line.startswith(("git clone", "cd ", ". .venv/bin/activate")):
            continue  # the setup the newcomer's walkthrough follows (docs/testing.md)
        words = flask_words(line)
        if words is not None:
            if is_usage(words):
                command = command_of(app, words)
                named = {word.split("=")[0] for word in words if word.startswith("--")}
                assert named <= options_of(command), (page, line)
            elif ON_POSTGRES and words[0] in REFUSED_ON_POSTGRES:
                ran = runner.invoke(args=words)
                assert ran.exit_code == 1, (page, line, ran.output)
                assert REFUSED_ON_POSTGRES[words[0]] in ran.output, (page, line, ran.output)
            else:
                ran = runner.invoke(args=words)
                assert ran.exit_code == 0, (page, line, ran.output)
        elif make_target(line):
            assert re.search(rf"^{make_target(line)}:", makefile, re.M), (page, line)
        elif line.startswith("rr-env/bin/python -c "):
            code = shlex.split(line)[2]
            ran = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                                 text=True, timeout=120)  # fmt: skip
            assert ran.returncode == 0 and ran.stdout.strip(), (page, line, ran.stderr)
        else:
            assert any(line.startswith(start) for start in RUN_ELSEWHERE), (
                f"{page}: {line!r} is run by no test: run it in one, and name it here"
            )


def make_target(line: str) -> str | None:
    """The target of a ``make`` line (``HOST=0.0.0.0 make run``), or None."""
    words = [word for word in shlex.split(line) if "=" not in word]
    return words[1] if words[:1] == ["make"] and len(words) > 1 else None
