"""A colleague's way in: the invitation link the owner sent, through which they set a password and
land on the shared survey in the role given. The only way an account is made besides the first
(``/setup``) and the command line's."""

from __future__ import annotations

from datetime import UTC

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm

from web.core.infrastructure.extensions import db, limiter
from web.core.models import Survey
from web.core.surveys.invitations import accept as accept_invitation
from web.core.surveys.invitations import has_account, invitation_of
from web.site.logs import security_event
from web.workspace.account_forms import new_password, password_again
from web.workspace.auth import start_session

bp = Blueprint("invitations", __name__, url_prefix="/invitations")
# A link is 32 random bytes: a brake on scripts, not a guard of guessing.
TRIES_PER_MINUTE = "20/minute"


class InvitationForm(FlaskForm):
    """The invited colleague's new password, twice."""

    password = new_password(_l("Password"), lambda form: form.email)
    confirm = password_again(_l("Password again"))


@bp.route("/<token>", methods=["GET", "POST"])
@limiter.limit(TRIES_PER_MINUTE)
def accept(token: str):
    """Set a password and join the survey's team; an account that exists joins at once."""
    invitation = invitation_of(token)
    if invitation is None:
        abort(410, _("This invitation link no longer works: it was used, withdrawn or has "
                     "expired. Ask the survey's owner for a new one."))  # fmt: skip
    survey = db.get_or_404(Survey, invitation.survey_id)
    if has_account(invitation.email):
        accept_invitation(invitation, None)
        db.session.commit()
        flash(_("The survey is shared with your account: log in to open it."))
        return redirect(url_for("auth.login", next=url_for("dashboard.survey", slug=survey.slug)))
    form = InvitationForm()
    form.email = invitation.email
    if form.validate_on_submit():
        user = accept_invitation(invitation, form.password.data)
        db.session.commit()
        security_event("invitation.accepted", account=user.id)
        start_session(user)
        flash(_("Welcome. Your account is ready, and the survey is shared with you."))
        return redirect(url_for("dashboard.survey", slug=survey.slug))
    expires = invitation.expires_at.replace(tzinfo=UTC)
    return render_template(
        "auth/invitation.html", form=form, invitation=invitation, survey=survey, expires=expires
    )
