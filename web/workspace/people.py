"""The owner's People card: share the survey with a colleague in a role, or stop sharing it; a
colleague with no account yet is invited (a single-use link shown once on the card)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, flash, redirect, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user

from web.core.infrastructure.extensions import db
from web.core.infrastructure.i18n import ROLE_LABELS
from web.core.surveys.invitations import has_account, invite, withdraw
from web.core.surveys.team import TeamError, unshare
from web.core.surveys.team import share as share_survey
from web.site.public_url import absolute_url
from web.workspace.access import require_login, researcher_survey
from web.workspace.forms import ShareForm

bp = Blueprint("people", __name__, url_prefix="/surveys")
# Where an invitation's link waits, in the owner's own session, to be shown once on the card.
NEW_INVITATION = "new_invitation"
bp.before_request(require_login)


@bp.post("/<slug>/people")
def share(slug: str):
    """Share the survey with the account of an email, in a role (or change its role)."""
    survey = researcher_survey(slug, needs="team")
    form = ShareForm()
    if not form.validate_on_submit():
        flash(_("Give a colleague's email and a role."), "error")
        return redirect(url_for("dashboard.survey", slug=slug, _anchor="people"))
    if not has_account(form.email.data):
        return invited(survey, form.email.data, form.role.data)
    try:
        member = share_survey(survey, form.email.data, form.role.data, current_user.id)
    except TeamError as error:
        db.session.rollback()
        flash(str(error), "error")
    else:
        db.session.commit()
        flash(_("Shared with %(email)s as %(role)s.", email=member.email,
                role=ROLE_LABELS[member.role]))  # fmt: skip
    return redirect(url_for("dashboard.survey", slug=slug, _anchor="people"))


def invited(survey, email: str, role: str):
    """Invite an email with no account; its link is kept for the next showing of the card only."""
    new = invite(survey, email, role, current_user.id)
    db.session.commit()
    session[NEW_INVITATION] = {
        "slug": survey.slug,
        "email": new.email,
        "role": new.role,
        "link": absolute_url("invitations.accept", token=new.token),
        "expires": new.expires.isoformat(),
    }
    return redirect(url_for("dashboard.survey", slug=survey.slug, _anchor="people"))


@bp.post("/<slug>/people/withdraw")
def withdraw_invitation(slug: str):
    """Withdraw an invitation not yet used: its link stops working."""
    return changed_team(
        slug,
        withdraw,
        lambda email: _(
            "The invitation of %(email)s was withdrawn: its link no longer works.", email=email
        ),
    )


@bp.post("/<slug>/people/remove")
def remove(slug: str):
    """Stop sharing the survey with an account."""
    return changed_team(
        slug,
        unshare,
        lambda email: _("%(email)s no longer has a role on this survey.", email=email),
    )


def changed_team(slug: str, change: Callable, said: Callable[[str], str]):
    """Apply ``change(survey, email, by)`` for the card's email, and say ``said(email)`` or why
    it was refused."""
    survey = researcher_survey(slug, needs="team")
    email = request.form.get("email", "")
    try:
        change(survey, email, current_user.id)
    except TeamError as error:
        db.session.rollback()
        flash(str(error), "error")
    else:
        db.session.commit()
        flash(said(email))
    return redirect(url_for("dashboard.survey", slug=slug, _anchor="people"))
