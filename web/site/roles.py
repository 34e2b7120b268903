"""A survey's roles at the door of every researcher page and API route: a survey an account has
no role on is 404 (as if it did not exist), an action its role does not allow is 403 with the
role it needs, as the one table of web/core/surveys/permissions.py says."""

from __future__ import annotations

from flask import Flask, abort
from flask_babel import gettext as _

from web.core.infrastructure.i18n import ROLE_LABELS
from web.core.models.team import allows
from web.core.surveys.permissions import may, role_needed
from web.site.logs import security_event


def checked_role(role: str | None, capability: str, slug: str, account: int, **how: object) -> str:
    """``role`` if it may ``capability``; else 404 (no role) or 403, logged."""
    needed = role_needed(capability)
    if role is None:
        security_event("access.refused", account=account, survey=slug, **how)
        abort(404, _("No such survey."))
    if not allows(role, needed):
        security_event("access.forbidden", account=account, survey=slug, role=role,
                       needed=needed, **how)  # fmt: skip
        abort(403, _("Your role on this survey (%(role)s) does not allow this: it needs %(needed)s.",
                     role=ROLE_LABELS[role], needed=ROLE_LABELS[needed]))  # fmt: skip
    return role


def init_app(app: Flask) -> None:
    """Pages ask the same table: ``{% if may(role, "responses") %}``."""
    app.jinja_env.globals["may"] = may
