"""Pages and JSON go out compressed (brotli or gzip, as the browser accepts), by Flask-Compress.

BREACH: an attacker who can make a victim's browser request a page many times, with text of the
attacker's choosing reflected in it, and can watch the compressed lengths, can guess a secret the
same page holds one character at a time. So a response that carries a secret is never compressed:

- every response that rendered a CSRF token (Flask-WTF keeps it in ``g``): every page of a
  signed-in researcher (the logout form) and every form;
- a response whose view calls :func:`keep_uncompressed` (the field device's setup page, which
  holds the device's token).

Nothing else the app sends holds a secret: the survey page, the thank-you page, the lab and the
JSON API (which never returns a token) are compressed. Static files are compressed ahead of time
(web/site/assets.py).
"""

from __future__ import annotations

from flask import Flask, Response, current_app, g
from flask_compress import Compress

compress = Compress()

# Dynamic responses worth compressing; static files come compressed already.
COMPRESSED_TYPES = [
    "text/html",
    "application/json",
    "application/problem+json",
    "text/javascript",
    "text/csv",
    "image/svg+xml",
]


def keep_uncompressed() -> None:
    """Send this request's response as it is: it holds a secret beside text a visitor chose."""
    g.keep_uncompressed = True


def holds_secret() -> bool:
    return current_app.config["WTF_CSRF_FIELD_NAME"] in g or g.get("keep_uncompressed", False)


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED_TYPES)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # Brotli's level 5 compresses a page in about the time gzip's 6 takes, and smaller.
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    # Streamed downloads are left as they are, and pages carry no ETag to compare.
    app.config.setdefault("COMPRESS_STREAMS", False)
    app.config.setdefault("COMPRESS_EVALUATE_CONDITIONAL_REQUEST", False)
    app.config["COMPRESS_REGISTER"] = False
    compress.init_app(app)

    minimum = app.config["COMPRESS_MIN_SIZE"]
    types = frozenset(app.config["COMPRESS_MIMETYPES"])

    @app.after_request
    def _compressed(response: Response) -> Response:
        # A reply too small or of another type is never compressed, whoever asks: it needs no
        # Vary either (a submission's reply, on the busiest path, passes here in a few µs).
        small = response.content_length is not None and response.content_length < minimum
        if small or response.mimetype not in types or holds_secret():
            return response
        return compress.after_request(response)
