"""What the request logs may say: no client address, no query string (a panel's id may ride in
one), and no line for a stored response.

A line per stored response, written as it happens, would give each response a time (the log
collector stamps every line), and the k-th such line would point at the k-th row. Submissions
that were stored are therefore not logged, on the development server or under gunicorn; every
other request still is, without the client's address.
"""

from __future__ import annotations

import logging
import re

from gunicorn import glogging

# The submission endpoint (web/api/views.py); a 201 from it means a response was stored.
SUBMISSION_PATH = re.compile(r"/api/surveys/[^/?\s]+/responses(?:\?|\s|$)")
ADDRESS_AT_START = re.compile(r"^\S+(?= - - \[)")


SECURITY = logging.getLogger("rr.security")


def security_event(event: str, **fields: object) -> None:
    """Log a security decision (a login, a refusal) as ``event key=value …``: what and whom, by
    account id, never a password, an email, a client address or a response. Values are quoted
    with repr, so a crafted value cannot forge another line."""
    SECURITY.info(" ".join([event, *(f"{key}={value!r}" for key, value in fields.items())]))


def is_stored_submission(method: str, path: str, status: int | str) -> bool:
    """Whether a request line reports a stored response."""
    return method == "POST" and str(status) == "201" and bool(SUBMISSION_PATH.search(path))


class _NoAddresses(logging.Filter):
    """Drop the client address that the development server puts first on each request line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = ADDRESS_AT_START.sub("-", record.msg, count=1)
        return True


class _NoStoredSubmissions(logging.Filter):
    """Drop the development server's line for a stored response (its arguments are the request
    line, possibly coloured, the status and the size)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and len(record.args) == 3:
            line, status, _size = record.args
            method = "POST" if "POST " in str(line) else ""
            return not is_stored_submission(method, str(line), str(status))
        return True


class _NoQueries(logging.Filter):
    """Drop the query string from the development server's request line: it may carry a panel's
    id for the respondent (web/core/surveys/panel.py), which no log may hold."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args and isinstance(record.args[0], str):
            record.args = (QUERY.sub("", record.args[0]), *record.args[1:])
        return True


QUERY = re.compile(r"\?[^\s\"]*")


def quiet_development_log() -> None:
    """Install the filters on the development server's logger, once."""
    werkzeug_log = logging.getLogger("werkzeug")
    for kind in (_NoAddresses, _NoStoredSubmissions, _NoQueries):
        if not any(isinstance(existing, kind) for existing in werkzeug_log.filters):
            werkzeug_log.addFilter(kind())


class _NoAddressInMessages(logging.Filter):
    """gunicorn's error log names the client of a malformed request ("Invalid request from
    ip=…: …"): the address goes."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "ip=" in record.msg:
            record.msg = ADDRESS_IN_MESSAGE.sub("ip=-", record.msg)
        return True


ADDRESS_IN_MESSAGE = re.compile(r"ip=.*?(?=: |\s|$)")


class GunicornLogger(glogging.Logger):
    """gunicorn's logger, less the access line of a stored response and any client address in
    the error log (``logger_class`` in gunicorn.conf.py; its access format leaves client
    addresses out)."""

    def setup(self, cfg):
        super().setup(cfg)
        if not any(
            isinstance(existing, _NoAddressInMessages) for existing in self.error_log.filters
        ):
            self.error_log.addFilter(_NoAddressInMessages())

    def access(self, resp, req, environ, request_time):
        if is_stored_submission(req.method, req.path, resp.status_code):
            return
        super().access(resp, req, environ, request_time)
