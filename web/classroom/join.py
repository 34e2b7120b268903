"""Joining a survey by its short code, and the QR code of its address."""

from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from web.core.surveys.joincode import open_survey_for
from web.site.guessing import limit_guesses
from web.site.lookup import survey_or_404
from web.site.public_url import absolute_url

bp = Blueprint("join", __name__)


@bp.get("/j")
def join_form():
    """The home page's join box: /j?code=XXXXX."""
    code = request.args.get("code", "").strip()
    if not code:
        return redirect(url_for("home.index"))
    return redirect(url_for("join.join", code=code))


@bp.get("/j/<code>")
@limit_guesses("join")
def join(code: str):
    """Go to the open survey with this join code."""
    survey = open_survey_for(code)
    if survey is None:
        return render_template("home.html", demo=None, join_error=code), 404
    return redirect(url_for("respond.survey_page", slug=survey.slug))


@bp.get("/s/<slug>/qr.svg")
def qr_code(slug: str):
    """A QR code (SVG) of the survey's address, for the projector and printed handouts."""
    survey = survey_or_404(slug, public=True)
    address = absolute_url("respond.survey_page", slug=survey.slug)
    buffer = io.BytesIO()
    segno.make(address, error="m").save(
        buffer,
        kind="svg",
        scale=10,
        border=4,
        dark="#000",
        light="#fff",
        title=_("QR code of %(address)s", address=address),
        svgclass="qr",
        nl=False,
    )
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    # private: a shared cache must not keep one host's QR code for everyone.
    response.headers["Cache-Control"] = "private, max-age=300"
    return response
