"""What every page shares over HTTP: security headers, sessions, the language switch, errors."""

from web.site import language

BLUEPRINTS = (language.bp,)
