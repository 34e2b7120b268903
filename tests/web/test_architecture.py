"""The layout keeps its promises: rules in web/core hold no routes, and only the question types
know the names of the question types."""

import re

import pytest

from tests.servers import ROOT

TYPE_COMPARISON = re.compile(
    r"""(?:[!=]==?|\bin\b|\bnot in\b)\s*["'](?:yesno|multi)["']|["'](?:yesno|multi)["']\s*[!=]==?"""
)
SOURCES = [
    *sorted((ROOT / "web").rglob("*.py")),
    *sorted((ROOT / "templates").rglob("*.html")),
    *sorted((ROOT / "static" / "js").rglob("*.js")),
]


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_only_the_question_types_compare_type_names(path):
    if path == ROOT / "web" / "core" / "questions.py":
        return
    found = TYPE_COMPARISON.findall(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)} compares a question type by name: {found}"


@pytest.mark.parametrize(
    "path", sorted((ROOT / "web" / "core").rglob("*.py")), ids=lambda path: path.name
)
def test_the_rules_hold_no_routes(path):
    text = path.read_text(encoding="utf-8")
    assert (
        "Blueprint(" not in text
        and ".route(" not in text
        and not re.search(r"@\w+\.(get|post)\(", text)
    )
