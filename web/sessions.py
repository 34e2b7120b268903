"""Flask's cookie session, opened only when the request has a session cookie.

Respondents never get a session (their one cookie is web/answered.py's), yet Flask's default
interface builds its signing serializer on every request just to find no cookie: on the submission
path that cost as much as the database work.
"""
from flask.sessions import SecureCookieSessionInterface


class LazyCookieSessions(SecureCookieSessionInterface):
    def open_session(self, app, request):
        if self.get_cookie_name(app) not in request.cookies:
            return self.session_class()
        return super().open_session(app, request)
