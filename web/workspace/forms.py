"""Forms of the researcher's survey pages (a survey, its fielding and languages, a question, an
import, sharing, a field device); every one carries a CSRF token. An account's are in
account_forms.py."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    DateTimeLocalField,
    FloatField,
    IntegerField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    StopValidation,
)

from web.core.infrastructure.i18n import LANGUAGES
from web.core.infrastructure.passwords import (
    EMAIL,
    MAX_EMAIL,
)
from web.core.surveys.designs import (
    builder_share_fields,
    default_design,
    find_design,
    registered,
)
from web.core.surveys.limits import (
    DEFAULT_ANSWER_LENGTH,
    DEFAULT_RESULTS_BATCH,
    MAX_ANSWER_LENGTH,
    MAX_RESULTS_BATCH,
    MAX_TEXT,
    MAX_TITLE,
    MIN_RESULTS_BATCH,
    SLUG,
)
from web.core.surveys.questions import QUESTION_TYPES


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


class FieldingForm(SurveyForm):
    """The survey's details on its edit page: with consent, thank-you, completion and schedule."""

    consent = TextAreaField(
        _l("Consent text"),
        validators=[Length(max=MAX_TEXT)],
        description=_l(
            "Shown first; the respondent must agree before the questions appear. Leave empty "
            "for none."
        ),
    )
    thanks = TextAreaField(
        _l("Thank-you text"),
        validators=[Length(max=MAX_TEXT)],
        description=_l("Shown on the thank-you page after the answers are sent."),
    )
    completion_code = StringField(
        _l("Completion code"),
        validators=[Optional(), Length(max=64)],
        description=_l(
            "For a panel provider: shown to every respondent once their answers are stored, the "
            "same for all."
        ),
    )
    completion_url = StringField(
        _l("Completion address"),
        validators=[Optional(), Length(max=2000)],
        description=_l(
            "https only; the respondent is sent there once their answers are stored. {code} is "
            "replaced by the completion code; nothing about the respondent is ever added."
        ),
    )
    panel_parameters = StringField(
        _l("Panel parameters (names, separated by spaces)"),
        validators=[Optional(), Length(max=700)],
        description=_l(
            "For an online panel, e.g. PROLIFIC_PID STUDY_ID SESSION_ID: the page reads them from "
            "its address and keeps them on the respondent's device; this app never receives them."
        ),
    )
    panel_complete_url = StringField(
        _l("Panel completion address"),
        validators=[Optional(), Length(max=2000)],
        description=_l(
            "https only, with {NAME} where a parameter goes (…&pid={PROLIFIC_PID}). Leave the "
            "completion address above empty."
        ),
    )
    panel_screen_out_url = StringField(
        _l("Panel screen-out address"),
        validators=[Optional(), Length(max=2000)],
        description=_l(
            "Where a respondent a page screens out goes (https, {NAME} as above). Empty: the "
            "page thanks them and ends."
        ),
    )
    panel_quota_full_url = StringField(
        _l("Panel full-quota address"),
        validators=[Optional(), Length(max=2000)],
        description=_l(
            "Where a respondent whose quota is full goes (https, {NAME} as above). Empty: the "
            "page thanks them and ends."
        ),
    )
    quotas = TextAreaField(
        _l("Quotas, one per line"),
        validators=[Length(max=20_000)],
        description=_l(
            "id (limit): a condition on answers asked directly, written as XLSForm's relevant, "
            "e.g. women (300): ${gender} = 'f'. A response into a full quota is not stored."
        ),
    )
    opens_at = DateTimeLocalField(
        _l("Opens at (UTC)"),
        validators=[Optional()],
        format=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"],
        description=_l("An open survey takes answers only from this time. Empty: at once."),
    )
    closes_at = DateTimeLocalField(
        _l("Closes at (UTC)"),
        validators=[Optional()],
        format=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"],
        description=_l("The survey closes itself then and publishes every response. Empty: never."),
    )
    target_n = IntegerField(
        _l("Target number of responses"),
        validators=[Optional()],
        description=_l(
            "The survey closes itself once it has this many responses. Empty: no target."
        ),
    )
    series = StringField(
        _l("Series"),
        validators=[Optional()],
        description=_l(
            "For a survey asked again and again (each semester, each year): the series' name, "
            "e.g. campus-climate. Its waves keep their questions' ids, design and ε, and the "
            "series has a trend. Empty: a survey on its own."
        ),
    )
    wave = IntegerField(_l("Wave"), validators=[Optional()])


class LanguagesForm(FlaskForm):
    """Which of the app's languages a survey is written in, and which is its default."""

    default = SelectField(
        _l("Default language"),
        choices=[SelectChoice(code, name) for code, name in LANGUAGES.items()],
    )


for _code, _name in LANGUAGES.items():
    setattr(LanguagesForm, f"use_{_code}", BooleanField(_name))


def _spinner_only(validator):
    """``validator``, for a question asked with a spinner: a design's ε is derived."""

    def check(form, field):
        kind = QUESTION_TYPES.get(form.kind.data)
        chosen = form.procedure.data
        design = find_design(chosen if kind is None else kind.procedure_for(chosen))
        if design is None or not design.derived:
            validator(form, field)
        else:
            field.errors[:] = []
            raise StopValidation()

    return check


class QuestionForm(FlaskForm):
    """A question as typed in the builder. Only what the form must parse is checked here; what a
    question may hold is checked by the same rules as a survey file
    (web.core.surveys.question_checks), and each refusal is attached to its field."""

    text = TextAreaField(_l("Question"))
    hint = TextAreaField(
        _l("Help under the question (optional)"),
        description=_l("Shown under the question's text, e.g. what counts or which period."),
    )
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
        validators=[_spinner_only(InputRequired(message=_l("Enter ε as a number.")))],
        default=1.0,
    )
    epsilon_permanent = FloatField(
        _l("ε∞ over all waves (optional)"),
        validators=[Optional()],
        description=_l(
            "Keeps a permanent report on each respondent's device, so that answering every "
            "wave of the series reveals at most ε∞ while the answer stays the same. Above ε; "
            "yes/no, multi-select and single-choice questions with a spinner."
        ),
    )
    procedure = SelectField(
        _l("Procedure"),
        default=default_design().name,
        choices=[SelectChoice(design.name, design.label) for design in registered()],
    )
    # A design's parameters (web/core/surveys/designs/): checked by the shared rules. Each
    # design's own shares are added below, from the registry.
    innocuous = TextAreaField(
        _l("Innocuous question"),
        description=_l(
            "A yes/no question whose share of yes is known, e.g. “Were you born in January, February or March?”"
        ),
    )
    prevalence = FloatField(_l("Its known share of yes"), validators=[Optional()], default=0.25)
    # Cheating detection's arms: each a forced-response design.
    arm_1_p_truth = FloatField(
        _l("Arm 1: share answering truthfully"), validators=[Optional()], default=0.6
    )
    arm_1_p_forced_yes = FloatField(
        _l("Arm 1: share told to say “yes”"), validators=[Optional()], default=0.3
    )
    arm_1_p_forced_no = FloatField(
        _l("Arm 1: share told to say “no”"), validators=[Optional()], default=0.1
    )
    arm_2_p_truth = FloatField(
        _l("Arm 2: share answering truthfully"), validators=[Optional()], default=0.6
    )
    arm_2_p_forced_yes = FloatField(
        _l("Arm 2: share told to say “yes”"), validators=[Optional()], default=0.1
    )
    arm_2_p_forced_no = FloatField(
        _l("Arm 2: share told to say “no”"), validators=[Optional()], default=0.3
    )
    # The extended crosswise model's arms: each its innocuous question and that one's prevalence.
    arm_1_innocuous = TextAreaField(
        _l("Arm 1: innocuous question"),
        description=_l("e.g. “Were you born in January, February or March?”"),
    )
    arm_1_prevalence = FloatField(
        _l("Arm 1: its known share of yes"), validators=[Optional()], default=0.25
    )
    arm_2_innocuous = TextAreaField(
        _l("Arm 2: innocuous question"),
        description=_l("e.g. “Were you born between April and December?”"),
    )
    arm_2_prevalence = FloatField(
        _l("Arm 2: its known share of yes"), validators=[Optional()], default=0.75
    )
    # The stochastic lie detector's arms: the share of non-carriers told to say "no" in each.
    arm_1_p_no = FloatField(
        _l("Arm 1: share of non-carriers told to say “no”"), validators=[Optional()], default=0.25
    )
    arm_2_p_no = FloatField(
        _l("Arm 2: share of non-carriers told to say “no”"), validators=[Optional()], default=0.75
    )
    randomizer = SelectField(
        _l("Randomizer"),
        default="page",
        choices=[
            SelectChoice("page", _l("The page draws (crypto random numbers)")),
            SelectChoice(
                "own", _l("The respondent's own die or coin: the page asks for the report only")
            ),
        ],
    )
    # A number question's range (web/core/surveys/scales.py): checked by the shared rules.
    value_min = FloatField(_l("Smallest answer"), validators=[Optional()], default=0)
    value_max = FloatField(_l("Largest answer"), validators=[Optional()], default=30)
    value_step = FloatField(
        _l("Step"),
        validators=[Optional()],
        default=1,
        description=_l("Every answer is the smallest plus a whole number of steps."),
    )
    unit = StringField(_l("Unit (optional)"), description=_l("e.g. drinks, hours, days"))
    # An open question's longest answer: checked by the shared rules.
    max_length = IntegerField(
        _l("Longest answer (characters)"),
        validators=[Optional()],
        default=DEFAULT_ANSWER_LENGTH,
        description=_l("The box takes no more; at most %(limit)s.", limit=f"{MAX_ANSWER_LENGTH:,}"),
    )
    required = BooleanField(
        _l("Required: respondents cannot skip it"),
        description=_l(
            "Leave it off to let respondents skip the question, as ethics boards usually ask. "
            "A skip is decided before any spin, and counted in no estimate."
        ),
    )
    options = TextAreaField(
        _l("Options, one per line"),
        description=_l("For a question with options: a grid asks each row on them."),
    )
    rows = TextAreaField(
        _l("Rows, one per line"),
        description=_l("For a grid: each row is a statement answered on the options."),
    )
    row_ids = TextAreaField(
        _l("Row ids, one per line"),
        description=_l(
            "Name each row in exports (the responses CSV's <grid>_<row> columns), in the order "
            "of the rows. Leave a line empty to make the id from the row's text."
        ),
    )
    controls = TextAreaField(
        _l("Control items, one per line"),
        description=_l(
            "For a list experiment: the items every respondent sees (2 to 10; the published "
            "studies use 3 to 5, some that most people hold and some that few do, so that few "
            "say every item or none)."
        ),
    )
    control_ids = TextAreaField(
        _l("Control item ids, one per line"),
        description=_l(
            "Name each control item in the codebook, in the order of the items. Leave a line "
            "empty to make the id from the item's text."
        ),
    )
    controls_b = TextAreaField(
        _l("A second list's control items, one per line (optional: a double list)"),
        description=_l(
            "Every respondent then answers both lists, the sensitive item added to one of them "
            "drawn at random: more precise than one list for the same respondents."
        ),
    )
    control_ids_b = TextAreaField(_l("The second list's item ids, one per line"))
    sensitive = TextAreaField(
        _l("Sensitive item"),
        description=_l(
            "For a list question: the item only the long list adds. A yes/no question asked as "
            "a list adds its own text."
        ),
    )
    correct = StringField(
        _l("Right answer, for a comprehension check (an option id; optional)"),
        validators=[Length(max=64)],
        description=_l(
            "Makes this direct question a check of the instructions: a split ballot's analysis "
            "gives each condition's pass rate, and each estimate among those who passed."
        ),
    )
    # Who is shown the question: one condition on an answer asked plainly before it (a file may
    # state more, and the builder then keeps its rule). The choices are the survey's own.
    show_if_question = SelectField(
        _l("Shown to"),
        choices=[SelectChoice("", _l("Every respondent"))],
        validate_choice=False,
        default="",
    )
    show_if_answers = StringField(
        _l("…who gave one of these answers (ids, separated by spaces)"),
    )
    show_if_at_least = FloatField(_l("…whose number is at least"), validators=[Optional()])
    show_if_at_most = FloatField(_l("…and at most"), validators=[Optional()])
    show_if_written = StringField(
        _l("…or several conditions, written as XLSForm's relevant"),
        validators=[Length(max=2000)],
        description=_l(
            "e.g. ${student} = 'yes' and ${age} >= 18; joined with and, or and "
            "parentheses. When written, it is the rule."
        ),  # fmt: skip
    )
    shuffle_options = BooleanField(
        _l("Shuffle the options: each respondent sees them in an order drawn at random"),
        description=_l(
            "The order shown is stored with each response (the responses CSV's options_ "
            "column), so order effects can be checked."
        ),
    )
    fixed_options = TextAreaField(
        _l("Options that keep their place (ids, one per line)"),
        description=_l("e.g. none_of_these or other: shown where they stand, the rest shuffled."),
    )
    option_ids = TextAreaField(
        _l("Option ids, one per line"),
        description=_l(
            "Name each option in exports and the API, in the order of the options. "
            "Leave a line empty to make the id from the option's text."
        ),
    )


# Each design's own shares, as its module names and labels them.
for _name, (_label, _default) in builder_share_fields().items():
    setattr(QuestionForm, _name, FloatField(_label, validators=[Optional()], default=_default))


class ImportForm(FlaskForm):
    file = FileField(_l("Survey file (JSON or XLSForm)"), validators=[FileRequired()])


class FieldDeviceForm(FlaskForm):
    label = StringField(_l("Device label"), validators=[DataRequired(), Length(max=100)])


class ShareForm(FlaskForm):
    """Share a survey with a colleague's account, in a role."""

    email = StringField(_l("Colleague's email"),
                        validators=[DataRequired(), Length(max=MAX_EMAIL),
                                    Regexp(EMAIL, message=_l("Enter an email address."))],
                       description=_l("Without an account here yet, they get an invitation link "
                                      "to send them."))  # fmt: skip
    role = SelectField(
        _l("Role"),
        choices=[
            SelectChoice("viewer", _l("Viewer: the dashboard's estimates")),
            SelectChoice("analyst", _l("Analyst: results, downloads and the API")),
            SelectChoice("editor", _l("Editor: questions, texts, schedule, open and close")),
            SelectChoice("owner", _l("Owner: everything, sharing and deleting included")),
        ],
        default="analyst",
    )
