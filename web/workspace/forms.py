"""Forms of the researcher's pages; every one carries a CSRF token."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
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

from web.core.surveyfile import KEY, MAX_TEXT, MAX_TITLE, SLUG, valid_epsilon

EMAIL = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"


class LoginForm(FlaskForm):
    email = StringField(_l("Email"), validators=[DataRequired(), Length(max=254)])
    password = PasswordField(_l("Password"), validators=[DataRequired()])


class SetupForm(FlaskForm):
    email = StringField(
        _l("Email"),
        validators=[
            DataRequired(),
            Length(max=254),
            Regexp(EMAIL, message=_l("Enter an email address.")),
        ],
    )
    password = PasswordField(
        _l("Password"),
        validators=[
            DataRequired(),
            Length(min=8, max=200, message=_l("Use at least 8 characters.")),
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


def epsilon_in_range(_form, field) -> None:
    if field.data is not None and not valid_epsilon(field.data):
        raise ValidationError(_l("ε must be at least 0.000001 and at most 10."))


class QuestionForm(FlaskForm):
    text = TextAreaField(_l("Question"), validators=[DataRequired(), Length(max=MAX_TEXT)])
    key = StringField(
        _l("Short id"),
        validators=[Optional(), Regexp(KEY, message=_l("Use 1–64 letters, digits, _ or -."))],
        description=_l("Names the question in exports and the API, e.g. cheated."),
    )
    kind = SelectField(
        _l("Type"),
        choices=[SelectChoice("yesno", _l("Yes / no")), SelectChoice("multi", _l("Multi-select"))],
    )
    epsilon = FloatField(
        _l("ε per spin"),
        validators=[InputRequired(message=_l("Enter ε as a number.")), epsilon_in_range],
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
        _l("Options, one per line"), description=_l("Only for a multi-select question.")
    )

    def validate_options(self, field) -> None:
        lines = [line for line in (field.data or "").splitlines() if line.strip()]
        if self.kind.data == "multi" and not lines:
            raise ValidationError(_l("A multi-select question needs at least one option."))
        if len(lines) > 30:
            raise ValidationError(_l("At most 30 options."))


class PlanForm(FlaskForm):
    class Meta:
        csrf = False

    planned = IntegerField(
        _l("Planned respondents"), validators=[NumberRange(min=1, max=10**9)], default=100
    )


class ImportForm(FlaskForm):
    file = FileField(_l("Survey file (JSON)"), validators=[FileRequired()])


class TokenForm(FlaskForm):
    label = StringField(_l("Label"), validators=[Length(max=100)])
