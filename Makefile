# Two entry points: `make run` (the app with a demo survey) and `make test` (everything CI runs).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test install install-dev browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

install: $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt

test: install-dev
	$(BIN)/python -m pytest
