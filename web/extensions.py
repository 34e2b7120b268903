"""Extensions, created unbound and bound to the app in :func:`app.create_app`."""
from flask_babel import Babel
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
babel = Babel()
