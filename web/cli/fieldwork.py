"""Fieldwork: ``flask fieldwork`` (quotas and screen-outs) and ``field-device`` (links for shared
devices)."""

from __future__ import annotations

import json

import click
from flask import current_app, url_for
from flask.cli import with_appcontext

from web.cli.lookup import survey_named
from web.core.infrastructure.extensions import db
from web.core.models import FieldDevice
from web.core.results.fieldwork import fieldwork_counts


@click.command("fieldwork")
@click.argument("slug")
@click.option("--json", "as_json", is_flag=True, help="The API's JSON instead of lines.")
@with_appcontext
def fieldwork(slug: str, as_json: bool) -> None:
    """Print each quota's completes against its limit and its turn-aways, and each page's
    screen-outs."""
    counts = fieldwork_counts(survey_named(slug, one_snapshot=True),
                              current_app.config["RESULTS_MIN_N"])  # fmt: skip
    if as_json:
        click.echo(json.dumps(counts.to_dict(), ensure_ascii=False, indent=2))
        return
    if not counts:
        click.echo(f"{slug} has no quotas and screens nobody out.")
        return
    for row in counts.quotas:
        state = "full" if row.full else _shown(row.count, counts.min_n)
        click.echo(
            f"quota {row.quota.key} ({row.quota.rule.words()}): {state} of {row.quota.limit}; "
            f"turned away once full: {_shown(row.turned_away, counts.min_n)}"
        )
    for screen in counts.screen_outs:
        click.echo(f"screened out at {screen.page} ({screen.words}): "
                   f"{_shown(screen.count, counts.min_n)}")  # fmt: skip
    click.echo(f"(counts move in batches of {counts.batch} and show from {counts.min_n})")


def _shown(count: int | None, min_n: int) -> str:
    return f"< {min_n}" if count is None else f"≥ {count}"


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
