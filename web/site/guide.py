"""The guide: MkDocs' build of docs/ (``make docs``, into site/), served at /guide/ in the
reader's language, and the "?" link from a card of the builder or the dashboard to its page."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, redirect, send_from_directory, url_for
from flask_babel import get_locale

bp = Blueprint("guide", __name__, url_prefix="/guide")

# The guide's default language is at its root; every other language under its own folder.
DEFAULT_LANGUAGE = "en"
BUILT_BY = "make docs"
# The theme asks for a sitemap below each page's link to the same page in another language; the
# guide has one, at its root.
SITEMAP = "sitemap.xml"


def guide_folder() -> Path:
    return Path(current_app.config["GUIDE_FOLDER"])


def page_language() -> str:
    return str(get_locale() or DEFAULT_LANGUAGE)


def guide_path(page: str, language: str) -> str:
    """The address, under /guide/, of a guide page (``ask/designs``) in ``language``."""
    folder = "" if language == DEFAULT_LANGUAGE else f"{language}/"
    return f"{folder}{page.strip('/')}/" if page else folder


def guide_url(page: str) -> str:
    """The link to a guide page in the page's language, for a card's "?"."""
    path = guide_path(page, page_language())
    return url_for("guide.page", path=path) if path else url_for("guide.home")


@bp.get("/")
def home():
    """The guide's first page, in the reader's language."""
    path = guide_path("", page_language())
    return redirect(url_for("guide.page", path=path)) if path else page("")


@bp.get("/<path:path>")
def page(path: str):
    """A page or file of the built guide."""
    folder = guide_folder()
    if not (folder / "index.html").is_file():
        abort(404, description=f"The guide has not been built: run `{BUILT_BY}`.")
    if path == "" or path.endswith("/"):
        path += "index.html"
    elif path.endswith(f"/{SITEMAP}"):
        path = SITEMAP
    return send_from_directory(folder, path)


def init_app(app: Flask) -> None:
    app.jinja_env.globals["guide_url"] = guide_url
