"""Forms of the researcher's pages; every one carries a CSRF token."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    FloatField,
    IntegerField,
    PasswordField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import (
    DataRequired,
    EqualTo,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)

from web.core.limits import (
    DEFAULT_RESULTS_BATCH,
    EMAIL,
    MAX_EMAIL,
    MAX_PASSWORD,
    MAX_RESULTS_BATCH,
    MAX_TEXT,
    MAX_TITLE,
    MIN_PASSWORD,
    MIN_RESULTS_BATCH,
    SLUG,
)
from web.core.passwords import password_problem
from web.core.questions import QUESTION_TYPES


class LoginForm(FlaskForm):
    email = StringField(_l("Email"), validators=[DataRequired(), Length(max=MAX_EMAIL)])
    password = PasswordField(_l("Password"), validators=[DataRequired()])


class GuessablePassword:
    """A form validator: refuses common passwords and this app's words (web/core/passwords.py);
    ``email`` gives the address to compare with, from the form or the logged-in account."""

    def __init__(self, email):
        self.email = email

    def __call__(self, form, field):
        if password_problem(field.data or "", self.email(form)) is not None:
            raise ValidationError(
                _l("This password is too common or too easy to guess here. Choose another.")
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
    password = PasswordField(
        _l("Password"),
        validators=[
            DataRequired(),
            Length(min=MIN_PASSWORD, max=MAX_PASSWORD, message=_l("Use at least 8 characters.")),
            GuessablePassword(lambda form: form.email.data or ""),
        ],
    )
    confirm = PasswordField(
        _l("Password again"), validators=[EqualTo("password", message=_l("The passwords differ."))]
    )


class SurveyForm(FlaskForm):
    title = StringField(_l("Title"), validators=[DataRequired(), Length(max=MAX_TITLE)])
    slug = StringField(
        _l("Address (slug)"),
        validators=[
            Optional(),
            Regexp(SLUG, message=_l("Use 1–64 lowercase letters, digits and inner hyphens.")),
        ],
        description=_l(
            "Part of the survey's link, e.g. campus-life. Left empty, one is made from the title."
        ),
    )
    description = TextAreaField(_l("Description"), validators=[Length(max=MAX_TEXT)])
    results_batch = IntegerField(
        _l("Results move in steps of"),
        default=DEFAULT_RESULTS_BATCH,
        # Left out of a form post, a new survey takes the default and an edit keeps its value.
        validators=[Optional(), NumberRange(MIN_RESULTS_BATCH, MAX_RESULTS_BATCH)],
        description=_l(
            "Published results change only after this many new responses (at least 2), so that "
            "no one can read a single answer off a change."
        ),
    )


class QuestionForm(FlaskForm):
    """A question as typed in the builder. Only what the form must parse is checked here; what a
    question may hold is checked by the same rules as a survey file (web.core.surveyfile), and
    each refusal is attached to its field."""

    text = TextAreaField(_l("Question"))
    key = StringField(
        _l("Short id"),
        description=_l("Names the question in exports and the API, e.g. cheated."),
    )
    kind = SelectField(
        _l("Type"),
        choices=[SelectChoice(name, kind.label) for name, kind in QUESTION_TYPES.items()],
    )
    epsilon = FloatField(
        _l("ε per spin"),
        validators=[InputRequired(message=_l("Enter ε as a number."))],
        default=1.0,
    )
    procedure = SelectField(
        _l("Procedure"),
        choices=[
            SelectChoice("spinner_coin", _l("Spinner and coin: dark lets a coin decide")),
            SelectChoice("spinner", _l("Spinner only: dark reports the opposite answer")),
        ],
    )
    options = TextAreaField(
        _l("Options, one per line"), description=_l("For a multi-select or single-choice question.")
    )
    option_ids = TextAreaField(
        _l("Option ids, one per line"),
        description=_l(
            "Name each option in exports and the API, in the order of the options. "
            "Leave a line empty to make the id from the option's text."
        ),
    )


class ImportForm(FlaskForm):
    file = FileField(_l("Survey file (JSON)"), validators=[FileRequired()])


class TokenForm(FlaskForm):
    label = StringField(_l("Label"), validators=[Length(max=100)])


class PasswordForm(FlaskForm):
    current = PasswordField(_l("Current password"), validators=[DataRequired()])
    password = PasswordField(
        _l("New password"),
        validators=[
            DataRequired(),
            Length(min=MIN_PASSWORD, max=MAX_PASSWORD, message=_l("Use at least 8 characters.")),
            GuessablePassword(lambda form: current_user.email),
        ],
    )
    confirm = PasswordField(
        _l("New password again"),
        validators=[EqualTo("password", message=_l("The passwords differ."))],
    )
