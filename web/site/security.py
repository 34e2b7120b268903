"""Headers on every response: no third-party content, no inline script, no framing."""

from flask import Flask, request
from werkzeug.middleware.proxy_fix import ProxyFix

from web.site.bodies import LengthedBodies

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


HSTS = "max-age=31536000; includeSubDomains"
# A script or style sheet is never a document: the policies that govern documents say nothing
# there, and each of a page's modules would carry them again.
SUBRESOURCE_TYPES = {"text/javascript", "text/css"}
EVERY_RESPONSE = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
)


def init_app(app: Flask) -> None:
    app.wsgi_app = LengthedBodies(  # type: ignore[method-assign]  # Flask's documented way
        app.wsgi_app, app.config["MAX_CONTENT_LENGTH"]
    )
    if app.config.get("TRUST_PROXY"):
        # Behind a TLS-terminating proxy: trust its X-Forwarded-For/-Proto so that is_secure and
        # the rate limiter's address are right. Not X-Forwarded-Host: addresses come from
        # PUBLIC_URL (web/site/public_url.py).
        hops = int(app.config["TRUST_PROXY"])
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]  # Flask's documented way
            app.wsgi_app, x_for=hops, x_proto=hops
        )

    @app.after_request
    def _headers(response):
        # One pass over the headers a view set (it may set its own), not a lookup per header.
        present = {name.lower() for name, _value in response.headers}
        if request.endpoint == "assets.static_file" and response.mimetype in SUBRESOURCE_TYPES:
            wanted: tuple[tuple[str, str], ...] = (("X-Content-Type-Options", "nosniff"),)
        else:
            wanted = EVERY_RESPONSE
        if request.is_secure:
            wanted += (("Strict-Transport-Security", HSTS),)
        response.headers.extend(
            [(name, value) for name, value in wanted if name.lower() not in present]
        )
        return response
