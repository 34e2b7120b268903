"""The respondent's pages: the survey with its spinners, and the thank-you page."""

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user

from web.core.infrastructure.i18n import shown
from web.core.results.cache import ResultsCache, survey_stamp
from web.core.surveys.flow.quotas import stored_quotas
from web.core.surveys.flow.walk import Flow, survey_flow
from web.core.surveys.lookup import find_survey
from web.core.surveys.panel import Panel
from web.core.surveys.schedule import close_if_due, not_yet_open
from web.core.surveys.series import wave_costs
from web.respondent.answered import answered_slugs
from web.respondent.page_question import page_flow, page_pages, page_question, page_quotas
from web.respondent.privacy_note import PrivacyNote
from web.site.lookup import survey_or_404

bp = Blueprint("respond", __name__, url_prefix="/s")


@bp.get("/<slug>")
def survey_page(slug: str):
    """The survey; every answer is perturbed in the page before anything is sent. Rendered once
    per version of the survey, language and answered state (the first request of every
    respondent in a lecture hall), unless a researcher is logged in."""
    found = survey_stamp(slug)
    if found is not None and found[0].due and close_if_due(found[0].id):
        found = survey_stamp(slug)  # the page's own check: a due survey closes when asked for
    if found is None:
        abort(404, _("No such survey."))
    if found[0].closed and set(request.args) - {"lang"}:
        # A panel's link to a closed survey: its id leaves the address bar (no page script runs).
        language = request.args.get("lang")
        return redirect(url_for("respond.survey_page", slug=slug, lang=language))
    answered = slug in answered_slugs()
    # The page shows no results: a new publication does not change it, an edit does, and so
    # does the opening time passing.
    stamp = found[0]
    waiting = not_yet_open(stamp.opens_at)
    key = (stamp.id, stamp.edits, str(get_locale()), answered, "_user_id" in session, waiting)
    page = page_cache().document(key, lambda: render_survey(slug))
    # Never kept by the browser, so Back after answering shows a fresh page, not one whose form
    # still holds the true answers (the back/forward cache keeps no page sent with no-store).
    return page, 200, {"Cache-Control": "no-store"}


def render_survey(slug: str) -> str:
    draft = find_survey(slug)
    if draft is not None and draft.status == "draft" and may_preview(draft):
        # Its owner, not a bare 404: the preview, which spins but sends nothing.
        abort(redirect(url_for("builder.preview", slug=slug)))
    survey = survey_or_404(slug, public=True)
    return render_template(
        "respond/survey.html",
        **page_context(survey),
        waiting=survey.status == "open" and not_yet_open(survey.opens_at),
        # A panel's parameters stay out of every link the page writes (the language switch's):
        # the page keeps them on the device (static/js/panel.js).
        language_next=request.path if survey.panel else None,
    )


def page_context(survey, preview: bool = False) -> dict:
    """What the survey's page is drawn from (its flow read once, for the pages and the script)."""
    flow = survey_flow(survey)
    return {
        "survey": survey,
        "config": page_config(survey, flow, preview),
        "flow": page_pages(survey, flow),
        "privacy": PrivacyNote.of(survey),
    }


def may_preview(survey) -> bool:
    return current_user.is_authenticated and survey.role_of(current_user.id) is not None


def page_cache() -> ResultsCache[str]:
    """The app's rendered survey pages, by version (web/core/results/cache.py)."""
    return current_app.extensions.setdefault("survey_pages", ResultsCache())


@bp.get("/<slug>/thanks")
def thanks(slug: str):
    """Shown after a submission, with the survey's thank-you text and completion code; a
    respondent who already answered sees the code again."""
    survey = survey_or_404(slug, public=True)
    answered = slug in answered_slugs()  # the signed cookie a stored submission sets
    return render_template(
        "respond/thanks.html",
        survey=survey,
        answered=answered,
        completion_link=survey.fielding.completion_link(),
    )


def page_config(survey, flow: Flow, preview: bool = False) -> dict:
    """What the page's script needs, passed as JSON rather than written into JavaScript; a
    preview's script sends nothing and remembers nothing."""
    return {
        "preview": preview,
        "slug": survey.slug,
        "status": survey.status,
        "revision": survey.revision,
        "submitUrl": url_for("api.submit_response", slug=survey.slug),
        "thanksUrl": url_for("respond.thanks", slug=survey.slug),
        # The survey's service worker, which keeps its pages for use without a network.
        "serviceWorker": url_for("offline.service_worker", slug=survey.slug),
        "offlineScope": url_for("respond.survey_page", slug=survey.slug),
        # Agreeing is asked on the page only: nothing about it is sent or stored.
        "consent": bool(shown(survey.texts("consent"))),
        "epsilonTotal": survey.epsilon_total,
        # The series whose permanent reports this device keeps (static/js/permanent.js), and
        # what its waves cost on this browser (static/js/ledger.js).
        "series": survey.series,
        "seriesLedger": series_ledger(survey),
        "minN": current_app.config["RESULTS_MIN_N"],
        # Known from the signed cookie before any spin, even if local storage was cleared.
        "answered": not preview and survey.slug in answered_slugs(),
        "messages": messages(),
        # An experiment's conditions: the page draws one and keeps that condition's questions.
        "conditions": [condition.to_dict() for condition in survey.condition_list],
        "questions": [page_question(question) for question in survey.questions],
        # Pages, display rules and drawn orders, where the survey has them (static/js/pages.js).
        "flow": page_flow(flow),
        # An online panel's parameter names and completion address (static/js/panel.js): the
        # page keeps the parameters on the device and never sends them.
        "panel": panel_config(survey.panel),
        # Where a respondent's survey may end early (static/js/ending.js): the quotas, each with
        # the page that decides it, and where to ask which are full and to count a screen-out.
        "quotas": page_quotas(stored_quotas(survey.quotas), flow),
        "endings": {
            "quotasFullUrl": url_for("fieldwork_api.quotas_full", slug=survey.slug),
            "screenOutUrl": url_for("fieldwork_api.screen_out", slug=survey.slug),
            "turnedAwayUrl": url_for("fieldwork_api.turned_away", slug=survey.slug),
        },
    }


def panel_config(stored: dict | None) -> dict | None:
    """The page's part of the survey's panel (its parameters' names, the completion address)."""
    panel = Panel.stored(stored)
    return None if panel is None else panel.page_config()


def series_ledger(survey) -> dict | None:
    """For a wave of a series: its number, what its fresh draws cost and the bound on its kept
    answers. The page records the cost in its memo when it submits, and adds up what the memos of
    the other waves it answered recorded. None for a survey on its own."""
    if survey.series is None:
        return None
    fresh, kept = wave_costs(survey)
    return {"wave": survey.wave, "fresh": fresh, "kept": kept}


def messages() -> dict:
    """The page script's words, translated on the server."""
    return {
        "spinnerLabel": _("Spinner: {percent} light (your true answer), the rest dark"),
        "coinLabel": _("Coin: heads means yes, tails means no"),
        "heads": _("Yes"),
        "tails": _("No"),
        "lightWord": _("light"),
        "chooseFirst": _("Choose your true answer first. It stays on this device."),
        "decided": _("The spin decided it: nobody can tell whether it is your true answer."),
        "willReport": _("You will report:"),
        "remembered": _("Already spun in this browser."),
        "notSaid": _("Prefer not to say"),
        "notAnswered": _("Not answered"),
        "notWritten": _("Nothing written"),
        "skipped": _("Skipped: nothing is sent for this question"),
        "sentAsChosen": _("answered directly, sent as chosen"),
        "dieLabel": _("Die: {count} equal sectors, one per option, numbered as the options"),
        "yes": _("Yes"),
        "no": _("No"),
        "forcedYes": _("“yes”"),
        "forcedNo": _("“no”"),
        "chooseReport": _("Choose what you report first."),
        # A list experiment's count, in the summary and the outcome.
        "listCount": _("{count} of the items apply"),
        "listCounts": _("{a} of list A's items and {b} of list B's apply"),
        "chooseInnocuous": _(
            "Choose your true answer to the everyday question too. It stays on this device."
        ),
        "wheel": _("Wheel {number} of 2, picked at random."),
        "recorded": _("Recorded as you reported it: the page never saw your true answer."),
        "sentAsGiven": _("Asked directly: your answer is sent as you gave it."),
        "pageOf": _("Page {page} of {pages}"),
        "submitFailed": _("Your answers could not be sent. Please try again."),
        "notLoaded": _(
            "The page could not load what it needs to spin. Check the connection and try again."
        ),
        "completionCode": _("Your completion code: {code}"),
        "enterNumber": _("Enter a number from {min} to {max} in steps of {step}."),
        "enterWholeNumber": _("Enter a whole number from {min} to {max}."),
        "needsAnswer": _("This question needs an answer."),
        "needsAnswerSpin": _("This question needs an answer: choose it, then press {button}."),
        "spinToSend": _(
            "You chose an answer but have not spun yet, so nothing would be sent for it. "
            "Press {button} to send it."
        ),
        "spinOrSkip": _(
            "You chose an answer but have not spun yet, so nothing would be sent for it. "
            "Press {button} to send it, or tick “Skip this question”."
        ),
        "spinOrSkipUntouched": _(
            "This question is not answered yet: answer it and press {button}, or tick “Skip "
            "this question”."
        ),
        "valueWheelLabel": _("Value wheel: {percent} yes, your number's place in its range"),
        "yesWord": _("yes"),
        "fieldStatus": _("{waiting} waiting to be sent · last sent {time}"),
        "neverSent": _("not yet"),
        "wrongPin": _("That is not this device's PIN."),
        "refusedItem": _("Refused by the server ({status}): {reason}"),
        "noOutbox": _(
            "No connection to the server, and this browser cannot keep your answers to send "
            "later. Please try again when you are online."
        ),
        "previewNotSent": _(
            "Preview: nothing was sent or stored. A respondent would now see the thank-you page."
        ),
        "seriesLedger": _(
            "On this browser, with this one, waves {waves} of this series: the questions drawn "
            "afresh add up to ε = {fresh}; the questions with a kept answer stay within "
            "ε = {kept} over all waves while your answers stay the same."
        ),
    }
