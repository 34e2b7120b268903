"""What every page shares over HTTP: security headers, sessions, the language switch, errors."""

from web.site import assets, guide, language

BLUEPRINTS = (language.bp, assets.bp, guide.bp)
