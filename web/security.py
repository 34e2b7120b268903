"""Headers on every response: no third-party content, no inline script, no framing."""
from flask import Flask, render_template, request
from flask_babel import gettext as _
from werkzeug.middleware.proxy_fix import ProxyFix

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


def init_app(app: Flask) -> None:
    if app.config.get("TRUST_PROXY"):
        # Behind a TLS-terminating proxy: trust its X-Forwarded-For/-Proto so that is_secure and
        # the rate limiter's address are right.
        hops = int(app.config["TRUST_PROXY"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)

    @app.errorhandler(429)
    def _too_many(error):
        message = _("Too many attempts. Please wait a minute and try again.")
        if request.path.startswith("/api/"):
            return {"error": message}, 429
        return render_template("error.html", title=_("Too many attempts"), message=message), 429

    @app.after_request
    def _headers(response):
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", HSTS)
        return response
