"""The JSON API: submissions, results with a bearer token, planning figures."""

from web.api import views

BLUEPRINTS = (views.bp,)
