"""Request bodies are held to their limit by the bytes read, whatever the headers say.

Flask checks a body against ``MAX_CONTENT_LENGTH`` through its Content-Length; a chunked body has
none, and Werkzeug then reads it only up to the limit and stops without a word, so valid JSON
followed by megabytes of padding was taken as the JSON alone. This middleware reads a body that
comes without a length (at most one byte past the limit), and hands the app the body with its
length: one past the limit, and every route's own check refuses it with 413.
"""

from __future__ import annotations

import io


class LengthedBodies:
    """WSGI middleware: a chunked body is buffered (up to ``limit`` + 1 bytes) and given a
    Content-Length."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    def __call__(self, environ, start_response):
        if not environ.get("CONTENT_LENGTH") and self._has_body(environ):
            stream = environ["wsgi.input"]
            body = bytearray()
            while len(body) <= self.limit:
                chunk = stream.read(min(65536, self.limit + 1 - len(body)))
                if not chunk:
                    break
                body += chunk
            environ["wsgi.input"] = io.BytesIO(bytes(body))
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ["wsgi.input_terminated"] = False
        return self.app(environ, start_response)

    @staticmethod
    def _has_body(environ) -> bool:
        if environ.get("REQUEST_METHOD") not in ("POST", "PUT", "PATCH", "DELETE"):
            return False
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        return chunked or bool(environ.get("wsgi.input_terminated"))
