"""Static files under a versioned address, cached for a year, compressed, and preloaded.

Every file in ``static/`` is served at ``/static/v/<version>/<path>``, where the version is a hash
of the whole folder: one version for all files, so that the relative imports between ES modules
(``./coin.js``) stay under it. A new release changes the version, so browsers may keep each
address forever (``immutable``) and a reload asks for nothing but the page. Text files go out
gzip-compressed when the browser accepts it (compressed once, kept in memory: the folder is
small). A page's module script lists every module it imports for ``<link rel="modulepreload">``,
so the browser fetches them all in one round instead of one round per level of imports.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, request, url_for

bp = Blueprint("assets", __name__)

YEAR = 365 * 24 * 3600
TEXT_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}  # + charset
IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s+["'](\./[^"']+)["']""", re.MULTILINE)


@lru_cache(maxsize=8)
def _folder_version(folder: str) -> str:
    """A hash of every file's path and bytes in ``folder``."""
    digest = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def version() -> str:
    return _folder_version(current_app.static_folder or "")


def asset(filename: str) -> str:
    """The versioned address of a static file."""
    return url_for("assets.static_file", version=version(), filename=filename)


def module_imports(filename: str) -> list[str]:
    """The versioned addresses of every module ``filename`` imports, directly or not."""
    return [asset(name) for name in _imports(current_app.static_folder or "", filename)]


@lru_cache(maxsize=64)
def _imports(folder: str, filename: str) -> tuple[str, ...]:
    found: list[str] = []
    pending = [filename]
    while pending:
        current = pending.pop()
        base = Path(current).parent
        source = (Path(folder) / current).read_text(encoding="utf-8")
        for relative in IMPORT.findall(source):
            name = (base / relative).as_posix()
            if name not in found:
                found.append(name)
                pending.append(name)
    return tuple(found)


@lru_cache(maxsize=256)
def _file(folder: str, filename: str, compress: bool) -> bytes:
    data = (Path(folder) / filename).read_bytes()
    return gzip.compress(data, compresslevel=9, mtime=0) if compress else data


@bp.get("/static/v/<version>/<path:filename>")
def static_file(version: str, filename: str):
    """A static file; kept for a year when the address names the current version."""
    folder = Path(current_app.static_folder or "")
    target = (folder / filename).resolve()
    if not target.is_file() or folder.resolve() not in target.parents:
        abort(404)
    mimetype = TEXT_TYPES.get(target.suffix)
    compress = mimetype is not None and "gzip" in request.headers.get("Accept-Encoding", "")
    response = current_app.response_class(
        _file(str(folder), filename, compress), mimetype=mimetype or "application/octet-stream"
    )
    if compress:
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    current = version == _folder_version(str(folder))
    # An address of another version is served, for a page loaded just before a release, but not
    # kept: its version names other contents.
    response.headers["Cache-Control"] = (
        f"public, max-age={YEAR}, immutable" if current else "no-cache"
    )
    return response


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(asset=asset, module_imports=module_imports)
