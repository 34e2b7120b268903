# `make run`: install and serve the app on the embedded SQLite database, with a demo survey.
# `make test`: install everything (Debian's chromium, R, PostgreSQL and Redis included) and run the
# whole test suite: the JavaScript tests, lint and types, every Python test on SQLite, then on
# PostgreSQL (with Redis, both stopped at the end) the tests of the database code (tests/web;
# tests/rr, tests/r and the browser tests have none of their own). Each pytest run spreads its
# tests over both cores (pytest-xdist; on PostgreSQL each worker has a database of its own,
# tests/workers.py).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PIP := $(BIN)/pip install --quiet --disable-pip-version-check
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run test test-js lint test-py test-postgres install install-dev browser fonts r screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

install: $(BIN)/python
	$(PIP) -r requirements.txt

install-dev: $(BIN)/python
	$(PIP) -r requirements-dev.txt

# Playwright cannot download its own browser here; the tests drive Debian's chromium, and
# axe-core (npm, pinned in package-lock.json) checks every page's accessibility.
node_modules/axe-core/axe.min.js: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

browser: node_modules/axe-core/axe.min.js
	@command -v chromium >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# Screenshots with Korean need a CJK font; Debian's Noto CJK, installed like chromium.
fonts:
	@fc-list :lang=ko 2>/dev/null | grep -q . || { \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk; }

# The R code the app hands researchers (README, codebook) is run by tests/r with Debian's R and the
# RRreg and rr sources beside the project (../shared/r-packages; no CRAN mirror is reachable).
R_PACKAGES ?= ../shared/r-packages
R_LIB := $(CURDIR)/.r-lib

# httr2: the README scripts a study over the API in R (tests/r runs it against the live app).
R_DEBS := r-base-core r-cran-lme4 r-cran-foreach r-cran-doparallel r-cran-mass r-cran-arm \
	r-cran-magic r-cran-coda r-cran-httr2 liblapack-dev libblas-dev gfortran

$(R_LIB)/rr/DESCRIPTION:
	@dpkg -s $(R_DEBS) >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			$(R_DEBS); }
	mkdir -p $(R_LIB)
	R CMD INSTALL --no-test-load -l $(R_LIB) $(R_PACKAGES)/RRreg.tar.gz $(R_PACKAGES)/rr.tar.gz \
		>$(R_LIB)/install.log 2>&1 || { tail -n 30 $(R_LIB)/install.log; exit 1; }

r: $(R_LIB)/rr/DESCRIPTION

screenshots: install-dev browser fonts
	$(BIN)/python docs/screenshots/make.py

run: install
	$(BIN)/flask --app app db upgrade
	@echo "Serving on http://$(HOST):$(PORT)/ (demo survey: http://$(HOST):$(PORT)/s/campus-life)"
	$(BIN)/flask --app app run --host $(HOST) --port $(PORT)

test-js:
	node --test tests/js/

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test-py: install-dev browser r
	REQUIRE_R=1 R_LIBS=$(R_LIB) $(BIN)/python -m pytest $(SQLITE_WORKERS) $(DURATIONS)

# The tests of the app's database code. Tests marked `no_database` (nothing in them reads or
# writes the database) run on SQLite only. The browser tests check pages and scripts: the server
# side of what they send (submissions, a field device's outbox and its resends) is in tests/web.
DATABASE_TESTS := tests/web
# The slowest tests of each run, printed at its end: where the suite's minutes go.
DURATIONS ?= --durations=15
# pytest-xdist workers, each handed tests as it finishes the last (load), the long ones first
# (marked `long`, put first by tests/conftest.py), so none ends the run alone. On SQLite two per core:
# the browser tests spend much of their time waiting on chromium and the live server. On
# PostgreSQL one per core: the database server needs the rest (four measured slower than two).
SQLITE_WORKERS ?= -n 4 --dist load
POSTGRES_WORKERS ?= -n 2 --dist load

# With a throwaway Redis (.ci/redis) for the limits several server processes share; both, and the
# PostgreSQL cluster, are stopped when the run ends, pass or fail (.ci/with-services).
test-postgres: install-dev browser
	bash .ci/with-services $(BIN)/python -m pytest $(POSTGRES_WORKERS) $(DURATIONS) $(DATABASE_TESTS)

test: test-js lint test-py test-postgres
