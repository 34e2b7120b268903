"""Building surveys in the browser: create, edit, add and edit questions, import a file."""

from __future__ import annotations

import re
import secrets

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user
from wtforms import SelectChoice

from web.core.infrastructure.database import add_unique
from web.core.infrastructure.extensions import db
from web.core.infrastructure.i18n import LANGUAGES
from web.core.models import Question, Survey
from web.core.results.group_sizes import group_sizes
from web.core.surveys.audit_words import question_changes, question_entry
from web.core.surveys.designs import (
    builder_arm_fields,
    builder_descriptors,
    builder_share_fields,
    registered,
)
from web.core.surveys.editing import (
    EditError,
    edit_details,
    set_languages,
    set_panel,
    set_series,
)
from web.core.surveys.experiment_edit import set_experiment
from web.core.surveys.flow.conditions import MAX_CONDITIONS
from web.core.surveys.flow.display import stored_rule
from web.core.surveys.importing import ImportRefused, import_survey_file
from web.core.surveys.limits import DEFAULT_RESULTS_BATCH, page_limits
from web.core.surveys.lookup import find_survey
from web.core.surveys.page_breaks import cut_pages
from web.core.surveys.question_edit import (
    add_question,
    delete_question,
    moved,
    next_question_key,
    reorder_questions,
    update_question,
)
from web.core.surveys.questions import QUESTION_TYPES
from web.core.surveys.quota_edit import set_quotas
from web.core.surveys.team import record
from web.core.surveys.texts import Texts
from web.respondent.views import page_context
from web.workspace.access import require_login, researcher_survey
from web.workspace.details_form import (
    QUESTION_PLACE,
    details_form,
    fielding_from_form,
    languages_form,
    missing_by_place,
    on_panel_fields,
    panel_from_form,
    question_gaps,
)
from web.workspace.experiment_form import experiment_from_form, experiment_rows, takes_epsilon
from web.workspace.flow_notes import flow_notes
from web.workspace.forms import ImportForm, LanguagesForm, QuestionForm, SurveyForm
from web.workspace.page_form import page_rows, starts_from_form
from web.workspace.question_form import (
    design_data,
    readable_before,
    rule_data,
    scale_data,
    show_problems,
    spec_from_form,
)
from web.workspace.quota_form import on_quota_field, quotas_from_text
from web.workspace.rule_text import WRITTEN_RULE, rule_reader
from web.workspace.translated_fields import form_texts, texts_data, translated_form

bp = Blueprint("builder", __name__, url_prefix="/surveys")
bp.before_request(require_login)


@bp.route("/new", methods=["GET", "POST"])
def new():
    """Start a draft survey owned by the researcher."""
    form = SurveyForm()
    if form.validate_on_submit():
        slug = form.slug.data or free_slug(form.title.data)
        survey = Survey(
            slug=slug,
            # Written in the language the researcher works in; more can be added on its page.
            languages=str(get_locale()),
            title=form.title.data.strip(),
            description=(form.description.data or "").strip(),
            translations={},
            results_batch=form.results_batch.data or DEFAULT_RESULTS_BATCH,
            status="draft",
            owner=current_user,
        )
        if add_unique(survey):
            committed_event(survey, "created", "in the builder")
            return redirect(url_for("builder.edit", slug=slug))
        form.slug.errors.append(_("This address is taken; choose another."))
    return render_template("surveys/new.html", form=form)


@bp.route("/<slug>/edit", methods=["GET", "POST"])
def edit(slug: str):
    """The survey's texts in each of its languages, fielding, questions and privacy costs."""
    survey = researcher_survey(slug, needs="edit")
    languages = survey.language_list
    form = details_form(survey)
    if form.validate_on_submit():
        try:
            edit_details(
                survey,
                form_texts(form, "title", languages),
                form_texts(form, "description", languages),
                form.results_batch.data,
                fielding_from_form(form, languages),
            )
            set_panel(survey, panel_from_form(form))
            set_quotas(survey, quotas_from_text(form.quotas.data or "", survey))
            set_series(survey, form.series.data or None, form.wave.data)
        except EditError as error:
            db.session.rollback()
            problems = [on_quota_field(on_panel_fields(problem)) for problem in error.problems]
            show_problems(form, problems, languages)
        else:
            committed_edit(survey, "its details (texts, fielding, panel, quotas, series)")
            flash(_("Saved."))
            return redirect(url_for("builder.edit", slug=slug))
    cells = group_sizes(survey, current_app.config["RESULTS_MIN_N"])
    warning = cells if cells is not None and cells.too_small else None
    missing = missing_by_place(survey)
    return render_template(
        "surveys/edit.html",
        survey=survey,
        form=form,
        cells=warning,
        languages_form=languages_form(survey),
        missing=missing,
        question_gaps=question_gaps(missing),
        flow_notes=flow_notes(survey),
        page_rows=page_rows(survey),
        quota_readable=readable_before(survey, None),
    )


def file_of(survey: Survey) -> dict:
    """The survey as its file says it, to tell an edit's changes."""
    return survey.to_spec().to_dict()


def committed_edit(survey: Survey, detail: str) -> None:
    """Commit an edit with its line in the audit log, ``detail`` saying what changed."""
    committed_event(survey, "edited", detail)


def committed_event(survey: Survey, action: str, detail: str) -> None:
    """Commit a change with its line in the audit log, by the logged-in researcher."""
    record(survey, current_user.id, action, detail)
    db.session.commit()


@bp.post("/<slug>/languages")
def languages(slug: str):
    """Declare the survey's languages and its default; texts of a removed language go."""
    survey = researcher_survey(slug, needs="edit")
    form = LanguagesForm()
    if not form.validate_on_submit():
        abort(400, _("Choose the survey's languages."))
    default = form.default.data
    chosen = [default] + [
        code for code in LANGUAGES if code != default and form[f"use_{code}"].data
    ]
    try:
        set_languages(survey, chosen)
    except EditError as error:
        abort(400, error.problems[0].message)
    committed_edit(survey, "its languages")
    flash(_("Languages saved."))
    return redirect(url_for("builder.edit", slug=slug, _anchor="languages-title"))


@bp.route("/<slug>/questions/new", methods=["GET", "POST"])
def new_question(slug: str):
    """Add a question, with a live preview of its spinner and cost."""
    survey = researcher_survey(slug, needs="edit")
    languages = survey.language_list
    form = translated_form(QuestionForm, languages)
    if form.validate_on_submit():
        try:
            key = form.key.data or next_question_key(survey)
            add_question(survey, spec_from_form(form, key, languages, read=rule_reader(survey)))
        except EditError as error:
            show_problems(form, error.problems, languages)
        else:
            committed_edit(survey, question_changes(key, None, {}))
            return redirect(url_for("builder.edit", slug=slug))
    return question_page(survey, form, None)


@bp.route("/<slug>/questions/<key>", methods=["GET", "POST"])
def edit_question(slug: str, key: str):
    """Edit a question; once it has responses only its wording can change."""
    survey = researcher_survey(slug, needs="edit")
    question = question_or_404(survey, key)
    languages = survey.language_list
    data = {
        "key": question.key,
        "kind": question.kind,
        "epsilon": question.epsilon,
        "epsilon_permanent": question.epsilon_permanent,
        "procedure": question.procedure,
        "required": question.required,
        "option_ids": "\n".join(option.key for option in question.options),
        "row_ids": "\n".join(row.key for row in question.design.rows or ()),
        "control_ids": "\n".join(item.key for item in question.design.controls or ()),
        "control_ids_b": "\n".join(item.key for item in question.design.controls_b or ()),
        "shuffle_options": question.shuffle_options,
        "fixed_options": "\n".join(option.key for option in question.options if option.fixed),
        "correct": question.correct or "",
        **design_data(question.design, question.procedure),
        **scale_data(question.design),
        **rule_data(stored_rule(question.display_rule)),
    }
    data |= texts_data("text", question.texts, languages)
    data |= texts_data("innocuous", question.design.innocuous_text, languages)
    for number, text in enumerate(question.design.arm_texts or (), start=1):
        data |= texts_data(f"arm_{number}_innocuous", text, languages)
    data |= texts_data("hint", Texts(question.hint or {}), languages)
    if question.design.scale is not None:
        data |= texts_data("unit", question.design.scale.unit, languages)
    options = [option.texts for option in question.options]
    data |= texts_data("options", lines_of(options, languages), languages)
    rows = [row.text for row in question.design.rows or ()]
    data |= texts_data("rows", lines_of(rows, languages), languages)
    items = [item.text for item in question.design.controls or ()]
    data |= texts_data("controls", lines_of(items, languages), languages)
    data |= texts_data("sensitive", question.design.sensitive_text, languages)
    items_b = [item.text for item in question.design.controls_b or ()]
    data |= texts_data("controls_b", lines_of(items_b, languages), languages)
    form = translated_form(QuestionForm, languages, data=data)
    if form.validate_on_submit():
        before = question_entry(file_of(survey), key)
        try:
            kept = stored_rule(question.display_rule)
            spec = spec_from_form(
                form, question.key, languages, question.options, kept,
                kept_items(question.design), read=rule_reader(survey),
            )  # fmt: skip
            update_question(survey, question, spec)
        except EditError as error:
            db.session.rollback()  # the revision it moved to, and the survey's row lock
            show_problems(form, error.problems, languages)
        else:
            committed_edit(
                survey, question_changes(key, before, question_entry(file_of(survey), key))
            )
            return redirect(url_for("builder.edit", slug=slug))
    return question_page(survey, form, question)


@bp.post("/<slug>/questions/<key>/delete")
def remove_question(slug: str, key: str):
    """Delete a question that has no responses."""
    survey = researcher_survey(slug, needs="edit")
    try:
        delete_question(survey, question_or_404(survey, key))
    except EditError as error:
        db.session.rollback()
        for problem in error.problems:
            flash(problem.message, "error")
    else:
        committed_edit(survey, question_changes(key, {}, None))
    return redirect(url_for("builder.edit", slug=slug))


@bp.post("/<slug>/pages")
def pages(slug: str):
    """Put the questions on pages: where each page starts, its title, whether its order is drawn."""
    survey = researcher_survey(slug, needs="edit")
    starts, problems = starts_from_form(request.form, survey)
    problems = problems or cut_pages(survey, starts)
    if problems:
        db.session.rollback()
        for problem in problems:
            flash(str(problem), "error")
    else:
        committed_edit(survey, "its pages")
        flash(_("Pages saved."))
    return redirect(url_for("builder.edit", slug=slug, _anchor="pages"))


@bp.route("/<slug>/experiment", methods=["GET", "POST"])
def experiment(slug: str):
    """Declare the split ballot: its conditions with their shares, and how each asks each question."""
    survey = researcher_survey(slug, needs="edit")
    problems: list = []
    if request.method == "POST":
        conditions, asked = experiment_from_form(request.form, survey)
        try:
            set_experiment(survey, conditions, asked)
        except EditError as error:
            db.session.rollback()
            problems = error.problems
        else:
            committed_edit(survey, "its experiment (conditions and how each asks)")
            flash(_("Experiment saved."))
            return redirect(url_for("builder.edit", slug=slug))
    return render_template(
        "surveys/experiment_form.html", survey=survey, rows=experiment_rows(survey),
        conditions=survey.condition_list, places=range(1, MAX_CONDITIONS + 1), problems=problems,
        posted=request.form, frozen=survey.response_count > 0,
        designs={design.name: design.label for design in registered()},
        takes_epsilon=takes_epsilon,
    )  # fmt: skip


@bp.post("/<slug>/questions/<key>/move")
def move_question(slug: str, key: str):
    """Move a question one place up or down (the keyboard's and no-script way to reorder)."""
    survey = researcher_survey(slug, needs="edit")
    keys = [question.key for question in survey.questions]
    direction = request.form.get("direction", "")
    offset = {"up": -1, "down": 1}.get(direction)
    if offset is None or key not in keys:
        abort(400, _("Say which question moves, up or down."))
    order = moved(keys, key, offset)
    # Focus comes back to the same arrow, or to the other one once the question reached an end.
    place = order.index(key)
    arrow = "up" if place == len(order) - 1 else "down" if place == 0 else direction
    return reordered(survey, order, focus=f"move-{key}-{arrow}")


@bp.post("/<slug>/questions/order")
def order_questions(slug: str):
    """Put the questions in a new order, as dragged on the page (ids, comma-separated)."""
    survey = researcher_survey(slug, needs="edit")
    return reordered(survey, request.form.get("order", "").split(","), focus="questions-title")


def reordered(survey: Survey, keys: list[str], focus: str):
    """Apply an order and go back to the editor, at the control the researcher used."""
    try:
        reorder_questions(survey, keys)
    except EditError as error:
        abort(400, error.problems[0].message)
    committed_edit(survey, "the order of its questions")
    return redirect(url_for("builder.edit", slug=survey.slug, _anchor=focus))


@bp.get("/<slug>/preview")
def preview(slug: str):
    """The survey as a respondent sees it, in any status: it spins, but sends and keeps nothing."""
    survey = researcher_survey(slug, needs="edit")
    page = render_template(
        "respond/survey.html",
        **page_context(survey, preview=True),
        preview=True,
    )
    return page, 200, {"Cache-Control": "no-store"}


@bp.route("/import", methods=["GET", "POST"])
def import_file():
    """Import a survey file as a new draft; every mistake in it is listed."""
    form = ImportForm()
    if form.validate_on_submit():
        try:
            survey = import_survey_file(
                form.file.data.filename or "", form.file.data.read(), current_user, "draft"
            )
        except ImportRefused as error:
            if error.taken:
                form.file.errors.append(_("The address %(slug)s is taken.", slug=error.taken))
            else:
                form.file.errors.extend(error.problems)
        else:
            return redirect(url_for("builder.edit", slug=survey.slug))
    return render_template("surveys/import.html", form=form)


def question_page(survey: Survey, form, question: Question | None) -> str:
    """The question editor, with the limits and types its preview script needs, and the answers
    asked plainly before the question that its display rule may read."""
    readable = readable_before(survey, question)
    written = [SelectChoice(WRITTEN_RULE, _("Those the conditions written below name"))]
    form.show_if_question.choices = [
        SelectChoice("", _("Every respondent")),
        *(written if form.show_if_written.data else []),
        *(SelectChoice(name, f"{name}: {entry['text']}") for name, entry in readable.items()),
    ]
    if form.show_if_written.data and not form.show_if_question.data:
        form.show_if_question.data = WRITTEN_RULE
    missing: dict[str, list[str]] = {}
    if question is not None:
        for place, codes in missing_by_place(survey).items():
            found = QUESTION_PLACE.match(place)
            if found and int(found[1]) == question.position:
                name = "options" if ".options[" in place else "text"
                missing[name] = sorted({*missing.get(name, []), *codes})
    return render_template(
        "surveys/question.html",
        survey=survey,
        form=form,
        question=question,
        languages=survey.language_list,
        missing=missing,
        limits=page_limits(),
        types_with_options=[name for name, kind in QUESTION_TYPES.items() if kind.has_options],
        single_choice_types=[name for name, kind in QUESTION_TYPES.items() if kind.sums_to_one],
        direct_types=[name for name, kind in QUESTION_TYPES.items() if kind.fixed_fields()],
        ranged_types=[name for name, kind in QUESTION_TYPES.items() if kind.has_range],
        written_types=[name for name, kind in QUESTION_TYPES.items() if kind.written],
        grid_types=[name for name, kind in QUESTION_TYPES.items() if kind.has_rows],
        list_types=[name for name, kind in QUESTION_TYPES.items() if kind.states_sensitive],
        list_designs=[
            design.name for design in registered() if "controls" in design.fields.parameters
        ],
        readable=readable,
        designs=builder_descriptors(),
        share_fields=list(builder_share_fields()),
        arm_form_fields=builder_arm_fields(),
    )


def kept_items(design) -> tuple:
    """What a question's ids stay by, position for position: a grid's rows, or a list's two
    lists of control items."""
    if design.controls is not None:
        return (design.controls, design.controls_b or ())
    return design.rows or ()


# Which form field each part of a question is entered in.
def lines_of(texts: list[Texts], languages: list[str]) -> Texts:
    """Texts (options, a grid's rows) as the form's fields hold them: one per line, by language."""
    return Texts(
        (language, "\n".join(text.get(language, "") for text in texts)) for language in languages
    )


def question_or_404(survey: Survey, key: str) -> Question:
    question = next((question for question in survey.questions if question.key == key), None)
    if question is None:
        abort(404)
    return question


def free_slug(title: str) -> str:
    """A slug made from the title (or random for a title with no Latin letters), not yet taken."""
    base = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:50].strip("-")
    base = base or f"survey-{secrets.token_hex(3)}"
    slug, number = base, 2
    while find_survey(slug) is not None:
        slug, number = f"{base}-{number}", number + 1
    return slug
