"""Logging in and out, and the first-run page that creates the first account."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import login_required, login_user, logout_user

from web.core.extensions import db, limiter, login_manager
from web.core.models import User
from web.site.redirects import local_path
from web.workspace.forms import LoginForm, SetupForm

bp = Blueprint("auth", __name__)


@login_manager.user_loader
def load_user(user_id: str) -> User | None:
    return db.session.get(User, int(user_id))


def no_accounts_yet() -> bool:
    return db.session.scalar(db.select(User.id).limit(1)) is None


def account_key() -> str:
    """Rate-limit key for the account a login attempt names."""
    return "account:" + (request.form.get("email") or "").strip().lower()


def failed_login(response) -> bool:
    """A login that re-shows the form failed; only failures count towards the limits."""
    return response.status_code == 200


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit("10/minute", methods=["POST"], deduct_when=failed_login, scope="login-address")
@limiter.limit(
    "10/minute",
    methods=["POST"],
    deduct_when=failed_login,
    key_func=account_key,
    scope="login-account",
)
def login():
    """Email and password; on success back to the page that asked for a login."""
    if no_accounts_yet():
        return redirect(url_for("auth.setup"))
    form = LoginForm()
    if form.validate_on_submit():
        user = db.session.scalar(db.select(User).filter_by(email=form.email.data.strip().lower()))
        if user is not None and user.check_password(form.password.data):
            login_user(user)
            return redirect(local_path(request.args.get("next"), url_for("dashboard.surveys")))
        form.password.errors.append(_("Wrong email or password."))
    return render_template("auth/login.html", form=form)


@bp.post("/logout")
@login_required
def logout():
    """End the session."""
    logout_user()
    return redirect(url_for("home.index"))


@bp.route("/setup", methods=["GET", "POST"])
def setup():
    """Create the first researcher account; gone once any account exists."""
    if not no_accounts_yet():
        abort(404)
    form = SetupForm()
    if form.validate_on_submit():
        user = User(email=form.email.data.strip().lower())
        user.set_password(form.password.data)
        db.session.add(user)
        db.session.commit()
        login_user(user)
        flash(_("Your account is ready."))
        return redirect(url_for("dashboard.surveys"))
    return render_template("auth/setup.html", form=form)
