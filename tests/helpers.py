"""Small helpers the test modules share (fixtures live in conftest.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from tests.servers import ROOT


def bearer(token: str) -> dict[str, str]:
    """The header that authenticates an API request with ``token``."""
    return {"Authorization": f"Bearer {token}"}


def api_get(client, token: str, path: str, **query):
    """GET ``/api/<path>`` with ``query`` as the researcher holding ``token``."""
    return client.get(f"/api/{path}", query_string=query, headers=bearer(token))


def submit_answers(client, slug: str, answers: dict):
    """POST one respondent's ``{"answers": …}`` body to the survey's submission API."""
    return client.post(f"/api/surveys/{slug}/responses", json=answers)


def files_named_but_missing(sources: Iterable[Path], pattern: re.Pattern) -> tuple[int, list]:
    """How many (source, path) pairs ``pattern`` finds in ``sources`` (its one group a path from
    the repository's root), and those whose file is not there."""
    named = {
        (str(source.relative_to(ROOT)), path)
        for source in sources
        for path in pattern.findall(source.read_text(encoding="utf-8"))
    }
    return len(named), [
        (source, path) for source, path in sorted(named) if not (ROOT / path).exists()
    ]
