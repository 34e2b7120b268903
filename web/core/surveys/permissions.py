"""What each role on a survey may see and do: the one table every dashboard card, page, API route
and download reads (through :func:`may` and :func:`role_needed`), and that the guide prints (docs/field/team.md)
(``flask --app app roles``). A role may everything the roles before it may (web/core/models/team.py).

The command line acts for the server's administrator, who may everything: it has no role.
"""

from __future__ import annotations

from typing import NamedTuple

from flask_babel import lazy_gettext as _l

from web.core.models.team import ANALYST, EDITOR, OWNER, ROLES, VIEWER, allows


class Capability(NamedTuple):
    """Something a survey's team may see or do, the least role that may, and what it covers."""

    name: str
    least: str
    covers: object  # lazily translated words


CAPABILITIES = (
    Capability("estimates", VIEWER, _l(
        "the estimates with their charts, grids and number summaries, quota and screen-out counts, "
        "analysis by group, the projector, the estimates CSV")),
    Capability("open_answers", ANALYST, _l("open answers as written")),
    Capability("methods", ANALYST, _l("the methods paragraph")),
    Capability("responses", ANALYST, _l(
        "the responses (CSV, SPSS, Stata), the codebook, the survey file, two answers together, "
        "synthetic data")),
    Capability("api", ANALYST, _l("the API's reads with a token")),
    Capability("edit", EDITOR, _l(
        "questions, texts, pages, quotas, schedule, preview, opening and closing, field devices, "
        "duplicating, next wave, archiving")),
    Capability("team", OWNER, _l("sharing, invitations and the audit log")),
    Capability("delete", OWNER, _l("deleting the survey")),
)  # fmt: skip
PERMISSIONS = {capability.name: capability for capability in CAPABILITIES}


def role_needed(capability: str) -> str:
    """The least role that may ``capability`` (a name of :data:`CAPABILITIES`)."""
    return PERMISSIONS[capability].least


def may(role: str | None, capability: str) -> bool:
    """Whether ``role`` (None: no role) may ``capability``."""
    return allows(role, role_needed(capability))


def roles_table() -> str:
    """The table as Markdown, a row per capability and a column per role (English)."""
    lines = [
        "| may | " + " | ".join(ROLES) + " |",
        "|---|" + "---|" * len(ROLES),
    ]
    for capability in CAPABILITIES:
        marks = " | ".join("✓" if allows(role, capability.least) else "—" for role in ROLES)
        lines.append(f"| {capability.covers} | {marks} |")
    return "\n".join(lines)
