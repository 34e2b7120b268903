"""The classroom: joining by code or QR, the projector, the simulation lab."""

from web.classroom import join, lab, projector

BLUEPRINTS = (join.bp, projector.bp, lab.bp)
