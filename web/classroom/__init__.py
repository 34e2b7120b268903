"""The classroom: joining by code or QR, the simulation lab (the projector is a researcher's page of
the survey: web/workspace/projector.py)."""

from web.classroom import experiment_lab, join, lab, list_lab

BLUEPRINTS = (join.bp, lab.bp, experiment_lab.bp, list_lab.bp)
