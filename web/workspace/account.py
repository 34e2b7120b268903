"""The researcher's account: API tokens, created and revoked in the browser, the password, and the
account's sessions, each of which can be ended."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, session, url_for
from flask_babel import gettext as _
from flask_login import current_user

from web.core.infrastructure.extensions import db
from web.core.models import ApiToken, ResearcherSession
from web.site.logs import security_event
from web.workspace.access import require_login
from web.workspace.account_forms import PasswordForm, TokenForm
from web.workspace.auth import SESSION_KEY, logged_out, start_session

bp = Blueprint("account", __name__, url_prefix="/account")
bp.before_request(require_login)


@bp.route("/tokens", methods=["GET", "POST"])
def tokens():
    """List the researcher's tokens and create one; a new token is shown once."""
    form = TokenForm()
    new_token = None
    if form.validate_on_submit():
        new_token, _record = ApiToken.issue(
            current_user, (form.label.data or "").strip(), write=form.write.data
        )
        db.session.commit()
    records = db.session.scalars(
        db.select(ApiToken).filter_by(user_id=current_user.id).order_by(ApiToken.id.desc())
    ).all()
    return render_template("account/tokens.html", form=form, tokens=records, new_token=new_token)


@bp.route("/password", methods=["GET", "POST"])
def password():
    """Change the password (the current one is needed); every other session ends with it."""
    form = PasswordForm()
    user = current_user._get_current_object()  # the account itself, not the proxy to it
    if form.validate_on_submit():
        if user.check_password(form.current.data):
            user.set_password(form.password.data)
            db.session.commit()
            start_session(user)  # this session goes on, under the new generation
            security_event("password.changed", account=user.id)
            flash(_("Your password was changed. Every other session has ended."))
            return redirect(url_for("account.tokens"))
        security_event("password.change_refused", account=user.id)
        form.current.errors.append(_("This is not your current password."))
    return render_template("account/password.html", form=form)


@bp.post("/tokens/<int:token_id>/revoke")
def revoke(token_id: int):
    """Revoke one of the researcher's tokens."""
    record = db.get_or_404(ApiToken, token_id)
    if record.user_id != current_user.id:
        abort(404)
    record.revoked = True
    db.session.commit()
    flash(_("The token was revoked."))
    return redirect(url_for("account.tokens"))


@bp.get("/sessions")
def sessions():
    """The account's sessions: each one's device, login and last use, and a button to end it."""
    listed = ResearcherSession.of_account(current_user.id)
    return render_template("account/sessions.html", sessions=listed, here=session.get(SESSION_KEY))


@bp.post("/sessions/<int:session_id>/end")
def end_session(session_id: int):
    """End one of the account's sessions on the server; ending this one logs out here."""
    record = db.get_or_404(ResearcherSession, session_id)
    if record.user_id != current_user.id:
        abort(404)
    security_event("session.ended", account=current_user.id, by="account_page")
    if record.is_keyed(session.get(SESSION_KEY)):
        return logged_out()
    ResearcherSession.end(current_user.id, session_id=session_id)
    db.session.commit()
    flash(_("That session has ended: its browser is logged out."))
    return redirect(url_for("account.sessions"))
