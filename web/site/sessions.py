"""Flask's cookie session, opened and saved only when there is something to open or save.

Respondents never get a session (their one cookie is web/respondent/answered.py's), yet Flask's
default interface builds its signing serializer on every request just to find no cookie, and
re-parses the Vary header on the way out: on the submission path that cost as much as the
database work.
"""

from flask import request
from flask.sessions import SecureCookieSessionInterface


def sent_cookie(name: str) -> str | None:
    """The request's cookie ``name``; a request without a Cookie header is not parsed at all."""
    if "HTTP_COOKIE" not in request.environ:
        return None
    return request.cookies.get(name)


class LazyCookieSessions(SecureCookieSessionInterface):
    def open_session(self, app, request):
        if sent_cookie(self.get_cookie_name(app)) is None:
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app, session, response):
        if session or session.modified or sent_cookie(self.get_cookie_name(app)) is not None:
            return super().save_session(app, session, response)
        # No cookie came and none goes back; as Flask does, a response that looked at the
        # session varies with the Cookie header.
        if session.accessed:
            # A lookup of a missing header raises and catches an exception; a scan does not.
            if any(name.lower() == "vary" for name, _value in response.headers):
                response.vary.add("Cookie")
            else:
                response.headers.add("Vary", "Cookie")
        return None
