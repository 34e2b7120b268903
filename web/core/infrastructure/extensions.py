"""Extensions, created unbound and bound to the app in :func:`app.create_app`."""

from typing import TYPE_CHECKING

from flask_babel import Babel
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
# Models subclass db.Model, which Flask-SQLAlchemy builds at run time from Base; type checkers only
# see it as a value, so they are shown Base, whose mapping and columns it has.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
# SQLite cannot alter a table in place: batch mode copies it (web/../migrations).
migrate = Migrate(render_as_batch=True)
babel = Babel()
csrf = CSRFProtect()
login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.session_protection = "strong"
# Limits live in memory by default (one process); RATELIMIT_STORAGE_URI can point at Redis.
limiter = Limiter(key_func=get_remote_address, default_limits=[])
