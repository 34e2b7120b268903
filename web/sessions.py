"""Flask's cookie session, opened and saved only when there is something to open or save.

Respondents never get a session (their one cookie is web/answered.py's), yet Flask's default
interface builds its signing serializer on every request just to find no cookie, and re-parses the
Vary header on the way out: on the submission path that cost as much as the database work.
"""
from flask import request
from flask.sessions import SecureCookieSessionInterface


class LazyCookieSessions(SecureCookieSessionInterface):
    def open_session(self, app, request):
        if self.get_cookie_name(app) not in request.cookies:
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app, session, response):
        if session or session.modified or self.get_cookie_name(app) in request.cookies:
            return super().save_session(app, session, response)
        # No cookie came and none goes back; as Flask does, a response that looked at the
        # session varies with the Cookie header.
        if session.accessed:
            if "Vary" in response.headers:
                response.vary.add("Cookie")
            else:
                response.headers["Vary"] = "Cookie"
        return None
