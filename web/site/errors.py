"""Every error, answered in one place: JSON ``{"error": ...}`` under /api/, and elsewhere a page in
the app's style, in the visitor's language, with the right ``lang``."""

from __future__ import annotations

from flask import Flask, current_app, render_template, request
from flask.globals import request_ctx
from flask_babel import lazy_gettext as _l
from flask_limiter.errors import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable

from web.core.infrastructure.database import is_missing_schema

UNSAID = (RateLimitExceeded, CSRFError)

# Each status a visitor can meet: its title, and what to say when the code gave no reason.
PAGES = {
    400: (_l("Bad request"), _l("The request could not be understood. Go back and try again.")),
    401: (_l("Sign-in needed"), _l("Sign in to see this page.")),
    403: (_l("Not allowed"), _l("You may not do this. Reload the page and try again.")),
    404: (
        _l("Not found"),
        _l("There is no page at this address. Check the link or the join code."),
    ),
    405: (_l("Not allowed"), _l("This address does not take that kind of request.")),
    409: (_l("Conflict"), _l("This changed in the meantime. Reload the page and try again.")),
    410: (_l("Gone"), _l("This link no longer works.")),
    413: (_l("Too large"), _l("What was sent is larger than this app takes.")),
    415: (_l("Unsupported"), _l("What was sent is not in a form this app takes.")),
    429: (_l("Too many attempts"), _l("Too many attempts. Please wait a minute and try again.")),
    500: (
        _l("Something went wrong"),
        _l("The app could not answer. Please try again in a moment."),
    ),
    503: (_l("Busy"), _l("The app is busy. Please try again in a moment.")),
}
# A database whose migrations were never applied: what its operator must do, on every page.
NO_SCHEMA = (
    _l("The database is not set up"),
    _l(
        "The database has no tables yet. Whoever runs this app should run "
        "'flask --app app db upgrade' and then reload this page."
    ),
)


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, answer_error)
    app.register_error_handler(InternalServerError, answer_error)


def answer_error(error: HTTPException):
    """The error as JSON for the API, or as a page."""
    code = error.code or 500
    title, default = PAGES.get(code, PAGES[500] if code >= 500 else PAGES[400])
    if is_missing_schema(getattr(error, "original_exception", None)):
        code, (title, default) = 503, NO_SCHEMA
        error = ServiceUnavailable()
    # A reason the code gave (already translated where it is shown to people) beats the default;
    # Werkzeug's own English descriptions are replaced, and so are the rate limiter's (its limit)
    # and the CSRF check's (English, and meant for developers).
    own = error.description != type(error).description and not isinstance(error, UNSAID)
    given = error.description if own else None
    if isinstance(error, CSRFError):
        given = _l("This form has expired. Reload the page and try again.")
    if request.path.startswith("/api/") or request_ctx.url_adapter is None:
        # JSON for the API, and for a request the app cannot build a page for (a Host outside
        # TRUSTED_HOSTS leaves it no URL adapter, so no page links).
        response = error.get_response()
        response.content_type = "application/json"
        response.set_data(current_app.json.dumps({"error": str(given or default)}))
        if code == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="results"'
        return response
    page = render_template("error.html", title=title, message=given or default, code=code)
    return page, code, _headers(error)


def _headers(error: HTTPException) -> dict:
    """Headers the error itself carries (Allow on a 405, Retry-After on a 429)."""
    return {
        name: value
        for name, value in error.get_headers()
        if name.lower() in {"allow", "retry-after", "www-authenticate"}
    }
