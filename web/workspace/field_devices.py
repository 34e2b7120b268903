"""Links that set up shared field devices (interviewers' tablets) for a survey: made, listed and
revoked by the survey's researcher. A new link is shown once; only its fingerprint is kept."""

from __future__ import annotations

import segno
from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user
from markupsafe import Markup

from web.core.infrastructure.extensions import db
from web.core.models import FieldDevice
from web.core.surveys.team import record as audit
from web.site.public_url import absolute_url
from web.workspace.access import require_login, researcher_survey
from web.workspace.forms import FieldDeviceForm

bp = Blueprint("devices", __name__, url_prefix="/surveys")
bp.before_request(require_login)


@bp.route("/<slug>/devices", methods=["GET", "POST"])
def devices(slug: str):
    """The survey's field-device links, and a form that makes one (shown once, with a QR code)."""
    survey = researcher_survey(slug, needs="edit")
    form = FieldDeviceForm()
    link = None
    if form.validate_on_submit():
        token, _record = FieldDevice.issue(survey, form.label.data.strip())
        audit(survey, current_user.id, "device_link", form.label.data.strip())
        db.session.commit()
        link = absolute_url("offline.field_setup", slug=survey.slug, token=token)
    records = db.session.scalars(
        db.select(FieldDevice).filter_by(survey_id=survey.id).order_by(FieldDevice.id.desc())
    ).all()
    qr = Markup(segno.make(link, error="m").svg_inline(scale=4, svgclass="qr")) if link else None
    return render_template(
        "surveys/devices.html", survey=survey, form=form, devices=records, link=link, qr=qr
    )


@bp.post("/<slug>/devices/<int:device_id>/revoke")
def revoke(slug: str, device_id: int):
    """Revoke a device's link: its submissions are refused from now on."""
    survey = researcher_survey(slug, needs="edit")
    record = db.get_or_404(FieldDevice, device_id)
    if record.survey_id != survey.id:
        abort(404)
    record.revoked = True
    audit(survey, current_user.id, "device_revoked", record.label)
    db.session.commit()
    flash(_("The link of “%(label)s” was revoked: that device can no longer send answers.",
            label=record.label))  # fmt: skip
    return redirect(url_for("devices.devices", slug=survey.slug))
