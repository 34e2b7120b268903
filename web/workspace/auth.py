"""Logging in and out, and the first-run page that creates the first account."""

from __future__ import annotations

import time

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_limiter.util import get_remote_address
from flask_login import current_user, login_required, login_user, logout_user

from web.core.infrastructure.extensions import db, login_manager
from web.core.models import ResearcherSession, User
from web.core.surveys.demo import give_demo_to_first_account
from web.site.logs import security_event
from web.site.redirects import local_path
from web.workspace.account_forms import LoginForm, SetupForm
from web.workspace.login_guard import LoginAttempt

bp = Blueprint("auth", __name__)


# A researcher's session ends after 2 hours without a request and 12 hours after the login,
# whatever happens in between (docs/security.md says why these two figures).
IDLE_SECONDS = 2 * 3600
LIFETIME_SECONDS = 12 * 3600
SEEN_EVERY_SECONDS = 300  # how stale the "last seen" mark may be: not a new cookie per request
SESSION_KEY = "key"  # the cookie's name for the key of its session's row on the server


def start_session(user: User) -> None:
    """Log ``user`` in on this browser, from now, in a session kept on the server (its key in the
    signed cookie): ending it there ends every copy of the cookie."""
    login_user(user)
    session["signed_in_at"] = session["seen_at"] = int(time.time())
    session[SESSION_KEY] = ResearcherSession.open(user.id, request.user_agent.string)
    db.session.commit()


@bp.before_app_request
def end_expired_sessions() -> None:
    """Log out a session that has been idle or open too long (a request with no session, as
    every respondent's is, costs nothing here)."""
    if "_user_id" not in session:
        return
    now = int(time.time())
    signed_in, seen = session.get("signed_in_at", 0), session.get("seen_at", 0)
    if now - signed_in > LIFETIME_SECONDS or now - seen > IDLE_SECONDS:
        security_event("session.expired", idle=now - seen > IDLE_SECONDS)
        forget_session()
    elif now - seen > SEEN_EVERY_SECONDS:
        session["seen_at"] = now
        seen_now(session.get(SESSION_KEY))


@bp.after_app_request
def keep_researcher_pages_out_of_caches(response):
    """A page shown to a logged-in researcher is never stored by the browser (ASVS 14.3.2)."""
    if "_user_id" in session:
        response.headers.setdefault("Cache-Control", "no-store")
    return response


@login_manager.user_loader
def load_user(session_id: str) -> User | None:
    """The session's account, unless the session was ended (logout here or everywhere, a
    password change, on the account page): its row on the server is gone."""
    user = User.from_session(session_id)
    if user is None or ResearcherSession.live(user.id, session.get(SESSION_KEY)) is None:
        return None
    return user


def seen_now(key: str | None) -> None:
    """Mark the session with this key seen now (to the minute), for the account's list."""
    if key is not None:
        ResearcherSession.mark_seen(key)
        db.session.commit()


def forget_session() -> None:
    """End this browser's session on the server and in its cookie."""
    key = session.pop(SESSION_KEY, None)
    if key is not None and "_user_id" in session:
        account = session["_user_id"].partition(":")[0]
        if account.isdigit():
            ResearcherSession.end(int(account), key=key)
            db.session.commit()
    logout_user()
    for name in ("signed_in_at", "seen_at"):
        session.pop(name, None)


@bp.route("/login", methods=["GET", "POST"])
def login():
    """Email and password; on success back to the page that asked for a login."""
    if User.none_yet():
        return redirect(url_for("auth.setup"))
    form = LoginForm()
    if form.validate_on_submit():
        attempt = LoginAttempt(get_remote_address(), form.email.data.strip().lower())
        if attempt.refused():
            security_event("login.refused", reason="too many failures")
            abort(429)
        user = User.authenticate(attempt.account, form.password.data)
        if user is not None:
            start_session(user)
            security_event("login.succeeded", account=user.id)
            return redirect(local_path(request.args.get("next"), url_for("dashboard.surveys")))
        security_event("login.failed")
        attempt.failed()
        form.password.errors.append(_("Wrong email or password."))
    return render_template("auth/login.html", form=form)


@bp.post("/logout")
@login_required
def logout():
    """End the session on this device and every other: a copied cookie stops working too."""
    current_user.end_sessions()
    db.session.commit()
    security_event("sessions.ended", account=current_user.id, by="logout")
    return logged_out()


@bp.post("/logout/here")
@login_required
def logout_here():
    """End this device's session, on the server too (a copy of its cookie stops working); the
    account's other devices stay logged in."""
    security_event("session.ended", account=current_user.id, by="logout_here")
    return logged_out()


def logged_out():
    """Forget the session here and go home."""
    forget_session()
    response = redirect(url_for("home.index"))
    # What the browser cached of researcher pages goes too (ASVS 14.3.1); its storage is kept, as
    # it holds only respondents' reported bits, whose loss would allow a second draw.
    response.headers["Clear-Site-Data"] = '"cache"'
    return response


@bp.route("/setup", methods=["GET", "POST"])
def setup():
    """Create the first researcher account; gone once any account exists."""
    if not User.none_yet():
        abort(404)
    form = SetupForm()
    if form.validate_on_submit():
        user = User(email=form.email.data.strip().lower())
        user.set_password(form.password.data)
        db.session.add(user)
        db.session.flush()
        give_demo_to_first_account(user.id)
        db.session.commit()
        start_session(user)
        flash(_("Your account is ready."))
        return redirect(url_for("dashboard.surveys"))
    return render_template("auth/setup.html", form=form)
