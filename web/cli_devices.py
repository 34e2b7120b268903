"""``flask field-device``: links for shared field devices, from the command line as in the
workspace (add one and print its link, list them, revoke one)."""

from __future__ import annotations

import click
from flask import current_app, url_for
from flask.cli import with_appcontext

from web.cli_lookup import survey_named
from web.core.infrastructure.extensions import db
from web.core.models import FieldDevice


@click.group("field-device")
def field_device() -> None:
    """Links that set up interviewers' tablets for a survey."""


@field_device.command("add")
@click.argument("slug")
@click.argument("label")
@with_appcontext
def add(slug: str, label: str) -> None:
    """Make a device link labelled LABEL; prints it last. Only its hash is stored: copy it now."""
    label = label.strip()
    if not label or len(label) > 100:
        raise click.BadParameter("1 to 100 characters", param_hint="LABEL")
    token, _record = FieldDevice.issue(survey_named(slug), label)
    db.session.commit()
    base = current_app.config.get("PUBLIC_URL")
    # Without PUBLIC_URL there is no host to name: the path, for the server's address.
    with current_app.test_request_context(base_url=base or "http://localhost"):
        path = url_for("offline.field_setup", slug=slug, token=token)
    where = "" if base else "; put the server's address before it"
    click.echo(f"New field device link for {label!r} (shown once{where}):")
    click.echo(f"{base or ''}{path}")


@field_device.command("list")
@click.argument("slug")
@with_appcontext
def list_devices(slug: str) -> None:
    """The survey's device links: id, state, date made, label (tab-separated)."""
    survey_id = survey_named(slug).id
    for record in db.session.scalars(
        db.select(FieldDevice).filter_by(survey_id=survey_id).order_by(FieldDevice.id)
    ):
        state = "revoked" if record.revoked else "active"
        click.echo(f"{record.id}\t{state}\t{record.created_on.isoformat()}\t{record.label}")


@field_device.command("revoke")
@click.argument("slug")
@click.argument("device_id", type=int)
@with_appcontext
def revoke(slug: str, device_id: int) -> None:
    """Revoke the link DEVICE_ID: that device's submissions are refused from now on."""
    record = db.session.get(FieldDevice, device_id)
    if record is None or record.survey_id != survey_named(slug).id:
        raise click.ClickException(f"survey {slug!r} has no device link {device_id}")
    record.revoked = True
    db.session.commit()
    click.echo(f"Revoked the link of {record.label!r}.")
