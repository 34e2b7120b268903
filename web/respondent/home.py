"""The front page."""

from flask import Blueprint, render_template

from web.core.models import User
from web.core.surveys.demo import open_demo

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    """What the app does, the open demo survey if there is one, and on a fresh install the way
    to set it up."""
    return render_template("home.html", demo=open_demo(), first_run=User.none_yet())
