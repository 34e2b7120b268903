# `make run`: install and serve the app on the embedded SQLite database, with a demo survey.
# `make test`: install everything (Debian's chromium, R, PostgreSQL and Redis included) and run the
# whole test suite: the JavaScript tests, lint and types beside two passes: every Python test on
# SQLite (the guide's build among them), and on PostgreSQL (with Redis, both stopped at the end)
# the tests of the database code and the tests that send, between them, every SQL statement the
# suite sends (tests/postgres_pass.py; the SQLite pass fails if a statement is missing from them).
# The SQLite pass spreads its tests over pytest-xdist workers; `make test-postgres` can too (each
# worker then has a database of its own, tests/workers.py). Each pass's output is printed whole
# when it ends.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PIP := $(BIN)/pip install --quiet --disable-pip-version-check
# The suite starts many Python processes (pytest's workers, servers, commands, the compute pool):
# each keeps what it compiles (a machine may set PYTHONDONTWRITEBYTECODE, and pytest then rewrites
# every test module's asserts again in every worker).
unexport PYTHONDONTWRITEBYTECODE
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run test test-js lint test-py test-postgres sqlite-pass postgres-pass postgres-list install install-dev browser fonts r docs docs-shots system-packages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# uv installs what pip would (the same versions) in about 3 s where pip took 64 (measured
# 2026-11-29 and 2026-11-30, a fresh environment from requirements-dev.txt); pip installs where uv
# cannot (no uv for the machine, or no way to its index). Not byte-compiled at install: that took
# 32 CPU seconds for every module of every package, where the suite's processes compile the few
# they import, as they import them, for about 3.
UV_VERSION := 0.13.9
$(BIN)/uv: $(BIN)/python
	$(PIP) uv==$(UV_VERSION) || true

UV_INSTALL := $(BIN)/uv pip install --quiet --python $(BIN)/python

install: $(BIN)/python $(BIN)/uv
	$(UV_INSTALL) -r requirements.txt || $(PIP) -r requirements.txt

# Installed once per change of the requirements: `make test` asks for it from several targets.
$(VENV)/.dev-installed: $(BIN)/python $(BIN)/uv requirements.txt requirements-dev.txt
	$(UV_INSTALL) -r requirements-dev.txt || $(PIP) -r requirements-dev.txt
	touch $@

install-dev: $(VENV)/.dev-installed

# Playwright cannot download its own browser here; the tests drive Debian's chromium, in its
# headless build as Playwright's own would (a third less of the processor; one test and the
# guide's pictures use the desktop one), and axe-core (npm, pinned in package-lock.json) checks
# every page's accessibility.
node_modules/axe-core/axe.min.js: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

browser: node_modules/axe-core/axe.min.js
	@command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium chromium-headless-shell; }

# Screenshots with Korean need a CJK font; Debian's Noto CJK, installed like chromium.
fonts:
	@fc-list :lang=ko 2>/dev/null | grep -q . || { \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk; }

# The R code the app hands researchers (the guide, the codebook) is run by tests/r with Debian's R and the
# RRreg, rr, list and gamlss.dist sources beside the project (../shared/r-packages; no CRAN mirror
# is reachable): rr's list experiment, lie detector and extended crosswise model are checked
# against list's ictreg and RRreg's RRuni there.
R_PACKAGES ?= ../shared/r-packages
R_LIB := $(CURDIR)/.r-lib

# httr2: the guide scripts a study over the API in R (tests/r runs it against the live app);
# haven reads the SPSS and Stata files of the responses (tests/r/test_labelled_files_r.py).
R_DEBS := r-base-core r-cran-lme4 r-cran-foreach r-cran-doparallel r-cran-mass r-cran-arm r-cran-haven \
	r-cran-magic r-cran-coda r-cran-httr2 r-cran-vgam r-cran-sandwich r-cran-quadprog r-cran-corpcor \
	r-cran-mvtnorm liblapack-dev libblas-dev gfortran

# Without byte-compiling or help pages: 20 s instead of 65 (R's JIT compiles what the tests call
# as they call it); it was the longest of `make test`'s installs.
$(R_LIB)/list/DESCRIPTION:
	@dpkg -s $(R_DEBS) >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			$(R_DEBS); }
	mkdir -p $(R_LIB)
	R CMD INSTALL --no-test-load --no-byte-compile --no-docs --no-html -l $(R_LIB) \
		$(R_PACKAGES)/RRreg.tar.gz $(R_PACKAGES)/rr.tar.gz \
		$(R_PACKAGES)/gamlss.dist.tar.gz $(R_PACKAGES)/list.tar.gz \
		>$(R_LIB)/install.log 2>&1 || { tail -n 30 $(R_LIB)/install.log; exit 1; }

r: $(R_LIB)/list/DESCRIPTION

# The guide (docs/, mkdocs.yml) into site/, which the app serves at /guide/. --strict fails on a
# broken link, a page missing from the navigation or a missing picture.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# Every picture of the guide, made by driving chromium through the app in both languages.
docs-shots: install-dev browser fonts
	$(BIN)/python docs/screenshots/make.py

run: install docs
	$(BIN)/flask --app app db upgrade
	@echo "Serving on http://$(HOST):$(PORT)/ (demo survey: http://$(HOST):$(PORT)/s/campus-life)"
	$(BIN)/flask --app app run --host $(HOST) --port $(PORT)

test-js:
	node --test tests/js/

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

test-py: install-dev browser r
	$(MAKE) --no-print-directory sqlite-pass

# The SQLite pass records the SQL each test sends (tests/statements.py) and fails if a statement
# is sent by no test of the PostgreSQL pass (tests/postgres_pass.py).
STATEMENTS := $(CURDIR)/.statements

sqlite-pass:
	REQUIRE_R=1 R_LIBS=$(R_LIB) RECORD_STATEMENTS=$(STATEMENTS) CHECK_POSTGRES_PASS=1 \
		$(BIN)/python -m pytest $(SQLITE_WORKERS) $(DURATIONS)

# The PostgreSQL pass's list written again from what each test of tests/web sends on SQLite.
postgres-list: install-dev
	RECORD_STATEMENTS=$(STATEMENTS) $(BIN)/python -m pytest $(SQLITE_WORKERS) -q $(DATABASE_TESTS)
	$(BIN)/python -m tests.postgres_pass $(STATEMENTS)

# The tests of the app's database code. Tests marked `no_database` (nothing in them reads or
# writes the database) run on SQLite only: the PostgreSQL pass leaves them out when it collects
# (tests/conftest.py) and counts only the tests it ran. The browser tests check pages and
# scripts: the server side of what they send (submissions, a field device's outbox and its
# resends) is in tests/web, and the statements they send are sent by tests there (the check
# above).
DATABASE_TESTS := tests/web
# `listed`: the tests of the database code, those marked for PostgreSQL, and those that send,
# between them, every statement the suite sends (tests/postgres_pass.py); `all`: all of tests/web.
POSTGRES_PASS ?= listed
# The slowest tests of each run, printed at its end: where the suite's minutes go.
DURATIONS ?= --durations=15
# pytest-xdist workers, with work stealing: each worker is first dealt a third of the tests
# (tests/conftest.py lays them out: half the browser tests at the front of the first worker's
# queue and half at the front of the second's, the other long tests at the front of the third),
# and a worker that runs out takes the back half of the longest queue left, so no worker ends the
# pass alone. Two chromiums run one page at a time beside the other worker's tests (all on one
# worker made it the critical path; four chromiums cost more CPU). The two cores are busy
# throughout, so each worker more costs its collection (10 CPU seconds) and gains nothing: a run
# with three SQLite workers and one PostgreSQL process took 848 s, one with four and two right
# after it 857 s, and one with two and one 754 s against 710 with three and one (2026-11-30; the
# machine drifts by more from run to run, docs/testing.md). The PostgreSQL pass runs in one
# process beside the SQLite pass: alone it takes 110 CPU seconds in 107 s (about 150 in two
# workers), and it ends minutes before the other.
SQLITE_WORKERS ?= -n 3 --dist worksteal
POSTGRES_WORKERS ?= -p no:xdist

# With a throwaway Redis (.ci/redis) for the limits several server processes share; both, and the
# PostgreSQL cluster, are stopped when the run ends, pass or fail (.ci/with-services).
test-postgres: install-dev browser
	$(MAKE) --no-print-directory postgres-pass

postgres-pass:
	POSTGRES_PASS=$(POSTGRES_PASS) bash .ci/with-services \
		$(BIN)/python -m pytest $(POSTGRES_WORKERS) $(DURATIONS) $(DATABASE_TESTS)

# Debian's packages one after the other (apt takes one lock), beside pip's install.
system-packages:
	$(MAKE) --no-print-directory browser
	$(MAKE) --no-print-directory r

# The installs side by side (R's is the longest: 21 s; pip's and npm's finish under it), then the
# two passes side by side with lint and the JavaScript tests beside them: the SQLite pass ends on
# its browser tests, and the PostgreSQL pass takes its share of the cores meanwhile (measured: 9
# min 31 s side by side against 10 min 42 s one after the other). The guide is built with
# `mkdocs build --strict` by the SQLite pass (the `built_guide` fixture), not again by `make docs`.
# Each one's output is held until it ends; `make test` fails if any of them does.
test:
	$(MAKE) --no-print-directory -j2 install-dev system-packages
	$(MAKE) --no-print-directory -j4 --output-sync=target sqlite-pass postgres-pass lint test-js
