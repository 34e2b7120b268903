"""The researcher's surveys and their results."""

from __future__ import annotations

import hashlib

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user

from web.core.infrastructure.database import add_unique
from web.core.infrastructure.extensions import db
from web.core.infrastructure.i18n import STATUS_LABELS, shown
from web.core.models import Survey, owns_a_survey, surveys_readable_by
from web.core.results.cells import direct_questions
from web.core.results.fieldwork import fieldwork_counts
from web.core.results.methods import survey_methods
from web.core.surveys.demo import open_demo
from web.core.surveys.editing import (
    EditError,
    change_status,
    delete_survey,
    duplicate_survey,
    set_archived,
)
from web.core.surveys.invitations import pending
from web.core.surveys.lookup import is_due
from web.core.surveys.panel import Panel
from web.core.surveys.permissions import may
from web.core.surveys.team import audit_log, members, record_status
from web.site.public_url import absolute_url
from web.workspace.access import require_login, researcher_survey
from web.workspace.builder import committed_event, free_slug
from web.workspace.forms import ShareForm
from web.workspace.group_analysis import group_analysis
from web.workspace.joint_page import joint_page
from web.workspace.panel import results_panel
from web.workspace.people import NEW_INVITATION
from web.workspace.synthetic_page import synthetic_page

bp = Blueprint("dashboard", __name__, url_prefix="/surveys")
# The researcher's pages offer grouping by these (the dashboard, a series' trend).
bp.add_app_template_global(direct_questions)
# The dashboard only reads: it says when a survey is due to close, which a write then does.
bp.add_app_template_global(is_due)
bp.before_request(require_login)


@bp.get("")
def surveys():
    """The researcher's surveys with their status and responses; archived ones on request."""
    archived = request.args.get("archived") == "1"
    mine = surveys_readable_by(current_user.id)
    rows = db.session.scalars(
        mine.where(Survey.archived.is_(archived)).order_by(Survey.id.desc())
    ).all()
    hidden = db.session.scalar(
        db.select(db.func.count()).select_from(mine.where(Survey.archived).subquery())
    )
    return render_template(
        "surveys/list.html",
        surveys=rows,
        archived=archived,
        hidden=hidden,
        first_steps=not archived and not owns_a_survey(current_user.id),
        demo=open_demo(),
    )


@bp.get("/<slug>")
def survey(slug: str):
    """Results, controls, quotas and screen-outs, a methods paragraph and exports of one survey,
    as the researcher's role allows; its owner's team and audit log."""
    survey = researcher_survey(slug, one_snapshot=True)
    min_n = current_app.config["RESULTS_MIN_N"]
    role = survey.role_of(current_user.id)
    team = may(role, "team")
    return with_panel(
        "surveys/dashboard.html", survey, role=role,
        methods=survey_methods(survey, min_n) if may(role, "methods") else None,
        fieldwork=fieldwork_counts(survey, min_n),
        members=members(survey) if team else [], events=audit_log(survey) if team else [],
        share_form=ShareForm() if team else None,
        invitations=pending(survey) if team else [], new_invitation=new_invitation(slug),
        study_link=study_link(survey),
    )  # fmt: skip


def study_link(survey: Survey) -> str | None:
    """The survey's address with its panel's placeholders, for the panel's study settings."""
    panel = Panel.stored(survey.panel)
    if panel is None:
        return None
    return panel.study_link(absolute_url("respond.survey_page", slug=survey.slug))


def new_invitation(slug: str) -> dict | None:
    """The invitation just made for this survey, shown once: taken out of the session here."""
    made = session.get(NEW_INVITATION)
    if made is None or made.get("slug") != slug:
        return None
    return session.pop(NEW_INVITATION)


@bp.get("/<slug>/groups")
def groups(slug: str):
    """One randomized item by group of a direct question: estimates, a difference, a regression."""
    survey = researcher_survey(slug, one_snapshot=True)
    page = group_analysis(survey, request.args, current_app.config["RESULTS_MIN_N"])
    return render_template(
        "surveys/groups.html", survey=survey, page=page, min_n=current_app.config["RESULTS_MIN_N"]
    )


@bp.get("/<slug>/joint")
def joint(slug: str):
    """Two yes/no answers together: their true 2 × 2 table, P(B | A) and their correlation."""
    survey = researcher_survey(slug, one_snapshot=True, needs="responses")
    page = joint_page(survey, request.args, current_app.config["RESULTS_MIN_N"])
    return render_template("surveys/joint.html", survey=survey, page=page)


@bp.get("/<slug>/synthetic")
def synthetic(slug: str):
    """Synthetic microdata to share: how close they come to the estimates, and the download."""
    survey = researcher_survey(slug, one_snapshot=True, needs="responses")
    page = synthetic_page(survey, request.args, current_app.config["RESULTS_MIN_N"])
    return render_template("surveys/synthetic.html", survey=survey, page=page)


@bp.get("/<slug>/panel")
def panel(slug: str):
    """The results panel alone, which the dashboard fetches again while the survey is open."""
    return versioned(with_panel("surveys/_panel.html", researcher_survey(slug, one_snapshot=True)))


@bp.post("/<slug>/status")
def status(slug: str):
    """Open, close or reopen the survey."""
    found = researcher_survey(slug, needs="edit")
    try:
        change_status(found, request.form.get("status", ""))
    except EditError as error:
        for problem in error.problems:
            flash(problem.message, "error")
    else:
        record_status(found, current_user.id)
        db.session.commit()
        flash(_("The survey is now %(status)s.", status=STATUS_LABELS[found.status]))
    return redirect(url_for("dashboard.survey", slug=slug))


@bp.post("/<slug>/archive")
def archive(slug: str):
    """Archive the survey (hide it from the list) or restore it."""
    survey = researcher_survey(slug, needs="edit")
    archived = request.form.get("archived") == "1"
    try:
        set_archived(survey, archived)
    except EditError as error:
        flash(error.problems[0].message, "error")
        return redirect(url_for("dashboard.survey", slug=slug))
    db.session.commit()
    if archived:
        flash(
            _("“%(title)s” was archived. Find it under Archived surveys.", title=title_of(survey))
        )
        return redirect(url_for("dashboard.surveys"))
    flash(_("“%(title)s” was restored to your list.", title=title_of(survey)))
    return redirect(url_for("dashboard.survey", slug=slug))


@bp.post("/<slug>/delete")
def delete(slug: str):
    """Delete the survey and every response to it (the page asked first)."""
    survey = researcher_survey(slug, needs="delete")
    title = title_of(survey)
    count = delete_survey(survey)
    db.session.commit()
    flash(_("“%(title)s” and its %(count)d responses were deleted.", title=title, count=count))
    return redirect(url_for("dashboard.surveys"))


@bp.post("/<slug>/duplicate")
def duplicate(slug: str):
    """A new draft with the same questions, and no responses."""
    survey = researcher_survey(slug, needs="edit")
    copy = duplicate_survey(survey, current_user, free_slug(survey.title))
    if not add_unique(copy):
        abort(409, _("This address is taken; choose another."))
    committed_event(copy, "created", f"as a copy of {survey.slug}")
    flash(_("A copy was made as a draft."))
    return redirect(url_for("builder.edit", slug=copy.slug))


def versioned(html: str) -> Response:
    """A fragment with its version (ETag): a refresh that names it gets 304 and no body."""
    response = make_response(html)
    response.set_etag(hashlib.sha256(html.encode()).hexdigest()[:20])
    response.make_conditional(request)  # a 304 with no body when the named version is current
    return response


def with_panel(template: str, survey: Survey, **context) -> str:
    """Render a page or fragment that shows the survey's results panel (with the posteriors when
    the researcher chose Bayesian estimates, a choice the session remembers)."""
    bayes = session.get("estimates") == "bayes"
    panel = results_panel(survey, current_app.config["RESULTS_MIN_N"], bayes=bayes)
    context.setdefault("role", survey.role_of(current_user.id))
    return render_template(template, survey=survey, panel=panel, **context)


@bp.post("/<slug>/estimates")
def estimates(slug: str):
    """Show Bayesian estimates beside the published ones, or not; remembered for the session."""
    researcher_survey(slug)
    chosen = request.form.get("method")
    if chosen not in ("bayes", "frequentist"):
        abort(400, _("Choose Bayesian or frequentist estimates."))
    session["estimates"] = chosen
    return redirect(url_for("dashboard.survey", slug=slug, _anchor="results-title"))


def title_of(survey: Survey) -> str:
    """The survey's title in the viewer's language (else its default)."""
    return shown(survey.texts("title")).text
