"""Jinja's gettext %-formats every string, so a literal % in a template's _() must be written %%."""

import re

from tests.conftest import no_database
from tests.servers import ROOT

# Nothing here reads or writes the database: it runs once, on SQLite.
pytestmark = no_database


TEMPLATES = ROOT / "templates"
LONE_PERCENT = re.compile(r'_\("((?:[^"\\]|\\.)*)"')


def test_no_lone_percent_in_translated_template_strings():
    for path in TEMPLATES.rglob("*.html"):
        for text in LONE_PERCENT.findall(path.read_text(encoding="utf-8")):
            stripped = re.sub(r"%%|%\(\w+\)[sd]", "", text)
            assert "%" not in stripped, f"{path.name}: {text!r}"
