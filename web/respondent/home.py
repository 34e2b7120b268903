"""The front page."""

from flask import Blueprint, render_template

from web.core.infrastructure.extensions import db
from web.core.models import Survey

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    """What the app does, and the open demo survey if there is one."""
    demo = db.session.scalar(db.select(Survey).filter_by(slug="campus-life", status="open"))
    return render_template("home.html", demo=demo)
