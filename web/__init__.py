"""The web app around :mod:`rr`: models, survey files, blueprints and commands."""
