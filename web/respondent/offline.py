"""What lets a survey be answered without a network: its service worker and what it keeps, and
the page that sets up a shared field device.

The service worker is served from the survey's own address (``/s/<slug>/sw.js``) and controls
only that survey's pages, so nothing else of the app is ever kept on a device. What it keeps is
listed by ``/s/<slug>/offline.json``: the survey page, its thank-you page, and the static files
the survey page loads.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, current_app, jsonify, render_template, url_for
from flask_babel import gettext as _

from web.core.infrastructure.extensions import db
from web.core.models import FieldDevice
from web.site.assets import asset, module_imports
from web.site.compression import keep_uncompressed
from web.site.guessing import limit_guesses
from web.site.lookup import survey_or_404

bp = Blueprint("offline", __name__, url_prefix="/s")

# The survey page's scripts besides the one that imports the rest (see respond/survey.html).
PAGE_SCRIPTS = ("js/start.js", "js/local-time.js")


@bp.get("/<slug>/sw.js")
def service_worker(slug: str):
    """The survey's service worker, allowed to control the survey's address and what is under it."""
    survey_or_404(slug, public=True)
    script = Path(current_app.static_folder or "", "js", "sw.js").read_bytes()
    response = current_app.response_class(script, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = url_for("respond.survey_page", slug=slug)
    # Checked at every visit, so a new release's worker replaces the old one.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/<slug>/offline.json")
def offline_files(slug: str):
    """The addresses the survey's service worker keeps for use without a network."""
    survey = survey_or_404(slug, public=True)
    # Every module the page may load, those of features only some surveys use included.
    scripts = [
        name
        for script in PAGE_SCRIPTS
        for name in (asset(script), *module_imports(script, lazy=True))
    ]
    files = [asset("css/app.css"), *dict.fromkeys(scripts)]
    pages = [
        url_for("respond.survey_page", slug=survey.slug),
        url_for("respond.thanks", slug=survey.slug),
    ]
    response = jsonify(pages=pages, files=files)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/<slug>/field/<token>")
@limit_guesses("field-link")
def field_setup(slug: str, token: str):
    """Set up this device as a shared field device of the survey: the interviewer sets a PIN."""
    survey = survey_or_404(slug, public=True)
    device = db.session.scalar(
        db.select(FieldDevice).filter_by(token_hash=FieldDevice.digest(token))
    )
    if device is None or device.survey_id != survey.id:
        abort(404, _("This field device link is not known. Ask the researcher for the link."))
    if device.revoked:
        abort(410, _("This field device link was revoked. Ask the researcher for a new one."))
    config = {
        "slug": survey.slug,
        "token": token,
        "label": device.label,
        "surveyUrl": url_for("respond.survey_page", slug=survey.slug),
    }
    page = render_template("respond/field.html", survey=survey, device=device, config=config)
    keep_uncompressed()  # the page holds the device's token
    return page, 200, {"Cache-Control": "no-store"}
