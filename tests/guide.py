"""The guide's pages (docs/, what `make docs` builds) as the tests read them: a page's text, its
sections and its fenced code blocks, so that every command or request the guide shows is run."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def page(path: str) -> str:
    """The English source of a guide page, ``analyse/r.md``."""
    return (DOCS / path).read_text(encoding="utf-8")


def section(path: str, heading: str) -> str:
    """The part of a page under ``## heading``, up to the next heading of that level."""
    return page(path).split(f"\n## {heading}", 1)[1].split("\n## ", 1)[0]


def blocks(text: str, language: str) -> list[str]:
    """The fenced code blocks of ``text`` in ``language`` (```` ```r ````), indented ones too."""
    found = re.findall(rf"^([ \t]*)```{language}\n(.*?)^\1```", text, flags=re.S | re.M)
    return [textwrap.dedent(body) for _indent, body in found]
