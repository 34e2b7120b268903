"""Where a redirect may go after a form or a switch: only a path on this site."""

from __future__ import annotations

from urllib.parse import urlsplit


def local_path(target: str | None, default: str = "/") -> str:
    """``target`` if it is a path on this site, else ``default``: never another host, and never a
    scheme-relative ``//host`` that a browser would treat as one, and never a control character
    (a CR or LF would split the Location header)."""
    if (
        not target
        or any(ord(character) < 32 or ord(character) == 127 for character in target)
        or not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or urlsplit(target).netloc
    ):
        return default
    return target
