"""A download: the body, its type, the name to save it under, and never kept by a cache."""

from __future__ import annotations

from flask import Response


def attachment(body, mimetype: str, filename: str) -> Response:
    """``body`` served as a file named ``filename`` (``Cache-Control: no-store``)."""
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response
