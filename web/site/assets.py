"""Static files under a versioned address, cached for a year, compressed, and preloaded.

Every file in ``static/`` is served at ``/static/v/<version>/<path>``, where the version is a hash
of the whole folder: one version for all files, so that the relative imports between ES modules
(``./coin.js``) stay under it. A new release changes the version, so browsers may keep each
address forever (``immutable``) and a reload asks for nothing but the page. Text files go out
compressed, brotli or gzip as the browser accepts (compressed once at the highest level, kept in
memory: the folder is small). A page's module script lists every module it imports for ``<link rel="modulepreload">``,
so the browser fetches them all in one round instead of one round per level of imports.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

import brotli
from flask import Blueprint, Flask, abort, current_app, request, url_for

bp = Blueprint("assets", __name__)

YEAR = 365 * 24 * 3600
# The respondent's pages (a survey, its thank-you page, a field device's set-up, joining): they
# load css/app.css alone; every other page adds css/workspace.css.
RESPONDENT_BLUEPRINTS = ("respond", "offline", "join")
TEXT_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}  # + charset
IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s+["'](\./[^"']+)["']""", re.MULTILINE)
LAZY_IMPORT = re.compile(r"""\bimport\(\s*["'](\./[^"']+)["']\s*\)""")


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


def module_imports(filename: str, lazy: bool = False) -> list[str]:
    """The versioned addresses of every module ``filename`` imports, directly or not; with
    ``lazy``, also those it may load later (``import("./die.js")``), directly or not."""
    return [asset(name) for name in _imports(current_app.static_folder or "", filename, lazy)]


def inline_asset(filename: str) -> str:
    """A small static file as a ``data:`` address: one request fewer for every page (the
    favicon). The policy allows ``data:`` images."""
    return _data_address(current_app.static_folder or "", filename)


@lru_cache(maxsize=8)
def _data_address(folder: str, filename: str) -> str:
    text = (Path(folder) / filename).read_text(encoding="utf-8")
    return "data:" + TEXT_TYPES[Path(filename).suffix] + "," + quote(text.strip(), safe=" =:/'")


@lru_cache(maxsize=64)
def _imports(folder: str, filename: str, lazy: bool) -> tuple[str, ...]:
    found: list[str] = []
    pending = [filename]
    while pending:
        current = pending.pop()
        base = Path(current).parent
        source = (Path(folder) / current).read_text(encoding="utf-8")
        relatives = IMPORT.findall(source) + (LAZY_IMPORT.findall(source) if lazy else [])
        for relative in relatives:
            name = (base / relative).as_posix()
            if name not in found:
                found.append(name)
                pending.append(name)
    return tuple(found)


@lru_cache(maxsize=256)
def _file(folder: str, filename: str, encoding: str | None) -> bytes:
    data = (Path(folder) / filename).read_bytes()
    if encoding == "br":
        return brotli.compress(data, quality=11, mode=brotli.MODE_TEXT)
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    return data


def _encoding(accepted: str) -> str | None:
    """The better of brotli and gzip the browser accepts, or None."""
    offered = {part.split(";")[0].strip() for part in accepted.lower().split(",")}
    return next((name for name in ("br", "gzip") if name in offered), None)


@bp.get("/static/v/<version>/<path:filename>")
def static_file(version: str, filename: str):
    """A static file; kept for a year when the address names the current version."""
    folder = Path(current_app.static_folder or "")
    target = (folder / filename).resolve()
    if not target.is_file() or folder.resolve() not in target.parents:
        abort(404)
    mimetype = TEXT_TYPES.get(target.suffix)
    encoding = _encoding(request.headers.get("Accept-Encoding", "")) if mimetype else None
    response = current_app.response_class(
        _file(str(folder), filename, encoding), mimetype=mimetype or "application/octet-stream"
    )
    if encoding:
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    current = version == _folder_version(str(folder))
    # An address of another version is served, for a page loaded just before a release, but not
    # kept: its version names other contents.
    response.headers["Cache-Control"] = (
        f"public, max-age={YEAR}, immutable" if current else "no-cache"
    )
    return response


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(
        asset=asset,
        module_imports=module_imports,
        inline_asset=inline_asset,
        RESPONDENT_BLUEPRINTS=RESPONDENT_BLUEPRINTS,
    )
