"""Small helpers the test modules share (fixtures live in conftest.py)."""

from __future__ import annotations


def bearer(token: str) -> dict[str, str]:
    """The header that authenticates an API request with ``token``."""
    return {"Authorization": f"Bearer {token}"}


def api_get(client, token: str, path: str, **query):
    """GET ``/api/<path>`` with ``query`` as the researcher holding ``token``."""
    return client.get(f"/api/{path}", query_string=query, headers=bearer(token))


def submit_answers(client, slug: str, answers: dict):
    """POST one respondent's ``{"answers": …}`` body to the survey's submission API."""
    return client.post(f"/api/surveys/{slug}/responses", json=answers)
