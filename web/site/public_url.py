"""Absolute addresses (the QR code, links to share) come from ``PUBLIC_URL``, never from the
request.

The Host header, and X-Forwarded-Host behind a proxy, is whatever the client sends: a QR code made
from it could send a lecture hall to another site. In production ``PUBLIC_URL`` names the
address respondents use (gunicorn.conf.py refuses to serve beyond the loopback without it, and
warns at start on the loopback); in development, with none set, the request's host is used and
the first such address logs a warning.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, current_app, url_for


def absolute_url(endpoint: str, **values) -> str:
    """The public, absolute address of ``endpoint``."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return base + url_for(endpoint, **values)
    if not current_app.extensions.get("public_url_warned"):
        current_app.extensions["public_url_warned"] = True
        if not current_app.testing:
            current_app.logger.warning(NOT_SET)
    return url_for(endpoint, _external=True, **values)


NOT_SET = (
    "PUBLIC_URL is not set: QR codes and shared links use each request's Host header, which is "
    "fine for development only"
)


def checked_public_url(value: str | None) -> str | None:
    """``value`` without a trailing slash, or ValueError naming what is wrong with it."""
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"PUBLIC_URL must look like https://surveys.example.edu, got {value!r}")
    return value.rstrip("/")


def init_app(app: Flask) -> None:
    app.config["PUBLIC_URL"] = checked_public_url(app.config.get("PUBLIC_URL"))
    app.jinja_env.globals["absolute_url"] = absolute_url
