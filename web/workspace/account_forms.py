"""Forms of a researcher's account: logging in, the first account, a new password, an API
token; every one carries a CSRF token."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import BooleanField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length, Regexp, ValidationError

from web.core.infrastructure.passwords import (
    EMAIL,
    MAX_EMAIL,
    MAX_PASSWORD,
    MIN_PASSWORD,
    password_problem,
)


class LoginForm(FlaskForm):
    email = StringField(_l("Email"), validators=[DataRequired(), Length(max=MAX_EMAIL)])
    password = PasswordField(_l("Password"), validators=[DataRequired()])


class GuessablePassword:
    """A form validator: refuses common passwords and this app's words (web/core/infrastructure/passwords.py);
    ``email`` gives the address to compare with, from the form or the logged-in account."""

    def __init__(self, email):
        self.email = email

    def __call__(self, form, field):
        if password_problem(field.data or "", self.email(form)) is not None:
            raise ValidationError(
                _l("This password is too common or too easy to guess here. Choose another.")
            )


def new_password(label, email_of) -> PasswordField:
    """A new password's field: long enough, and neither common nor guessable from the address
    ``email_of(form)`` gives."""
    return PasswordField(
        label,
        validators=[
            DataRequired(),
            Length(min=MIN_PASSWORD, max=MAX_PASSWORD, message=_l("Use at least 8 characters.")),
            GuessablePassword(email_of),
        ],
    )


def password_again(label) -> PasswordField:
    """The new password typed a second time: the same as the form's ``password``."""
    return PasswordField(
        label, validators=[EqualTo("password", message=_l("The passwords differ."))]
    )


class SetupForm(FlaskForm):
    email = StringField(
        _l("Email"),
        validators=[
            DataRequired(),
            Length(max=MAX_EMAIL),
            Regexp(EMAIL, message=_l("Enter an email address.")),
        ],
    )
    password = new_password(_l("Password"), lambda form: form.email.data or "")
    confirm = password_again(_l("Password again"))


class TokenForm(FlaskForm):
    label = StringField(_l("Label"), validators=[Length(max=100)])
    write = BooleanField(_l("Read and write: may also import, open and close surveys"))


class PasswordForm(FlaskForm):
    current = PasswordField(_l("Current password"), validators=[DataRequired()])
    password = new_password(_l("New password"), lambda form: current_user.email)
    confirm = password_again(_l("New password again"))
