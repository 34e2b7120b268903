"""The classroom: joining by code or QR, the projector, the simulation lab."""

from web.classroom import experiment_lab, join, lab, projector

BLUEPRINTS = (join.bp, projector.bp, lab.bp, experiment_lab.bp)
