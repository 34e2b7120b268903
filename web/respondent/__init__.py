"""What respondents see and send: the home page, the survey page, and the submission path."""

from web.respondent import home, offline, views

BLUEPRINTS = (home.bp, views.bp, offline.bp)
